// GET /leaderboard: the game's players by best score or best streak (cached ~30 s).
import { parseFilterParam, parseLimit, parseSort } from '../../contract/rules';
import { FilterQuery, Leaderboard, LimitSortQuery } from '../../contract/schemas';
import { ApiFailure } from '../http/errors';
import { cachedRead, route } from './route';

export default route({
    method: 'get',
    path: '/leaderboard',
    id: 'get-leaderboard',
    summary: "The game's global leaderboard",
    description:
        "`total` is the number of ranked players. Ranks are 1-based and distinct; equal values go to whoever reached them first. Cached for about 30 s (R2). `filter` reads the players with that metadata value on their best, by the all-time board's `filters`.",
    auth: 'keyOrSession',
    query: LimitSortQuery.extend(FilterQuery.shape),
    data: Leaderboard,
    errors: { 400: 'limit, sort or filter invalid' },
    async handle(ctx, { query, caller }) {
        const sort = parseSort(query);
        const limit = parseLimit(query);
        if ('error' in sort) throw new ApiFailure(400, sort.error);
        if ('error' in limit) throw new ApiFailure(400, limit.error);
        const filter = parseFilterParam(query);
        if ('error' in filter) throw new ApiFailure(400, filter.error);
        const request = {
            gameId: caller.gameId,
            sort: sort.ok,
            limit: limit.ok,
            ...(filter.ok === undefined ? {} : { filter: filter.ok }),
        };
        const key = `leaderboard/${request.gameId}/${request.sort}/${request.limit}`;
        return cachedRead(ctx, filter.ok === undefined ? key : `${key}/${JSON.stringify(filter.ok)}`, () =>
            ctx.canister.ok('leaderboard', request),
        );
    },
});
