// GET /leaderboard: the game's players by best score or best streak (cached ~30 s).
import { parseLimit, parseSort } from '../../contract/rules';
import { Leaderboard, LimitSortQuery } from '../../contract/schemas';
import { ApiFailure } from '../http/errors';
import { cachedRead, route } from './route';

export default route({
    method: 'get',
    path: '/leaderboard',
    id: 'get-leaderboard',
    summary: "The game's global leaderboard",
    description:
        '`total` is the number of ranked players. Ranks are 1-based and distinct; equal values go to whoever reached them first. Cached for about 30 s (R2).',
    auth: 'keyOrSession',
    query: LimitSortQuery,
    data: Leaderboard,
    errors: { 400: 'limit or sort invalid' },
    async handle(ctx, { query, caller }) {
        const sort = parseSort(query);
        const limit = parseLimit(query);
        if ('error' in sort) throw new ApiFailure(400, sort.error);
        if ('error' in limit) throw new ApiFailure(400, limit.error);
        const request = { gameId: caller.gameId, sort: sort.ok, limit: limit.ok };
        return cachedRead(ctx, `leaderboard/${request.gameId}/${request.sort}/${request.limit}`, () =>
            ctx.canister.ok('leaderboard', request),
        );
    },
});
