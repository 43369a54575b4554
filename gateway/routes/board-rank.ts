// GET /games/{gameId}/scoreboards/{boardId}/rank: the signed-in player's rank on a board
// (session-only: an API key is not a signed-in player).
import { parseFilterParam, parseFlag } from '../../contract/rules';
import { BoardRank, FilterQuery, PercentileQuery } from '../../contract/schemas';
import { ApiFailure } from '../http/errors';
import { BOARD_PARAMS, route, sameGame } from './route';

export default route({
    method: 'get',
    path: '/games/{gameId}/scoreboards/{boardId}/rank',
    id: 'get-board-rank',
    summary: "The signed-in player's rank on a board",
    description:
        "Needs X-Session-Token (device-code sign-in). `{found: false, message, totalPlayers}` when the player has no entry this period. On a board with ties 'shared' equal values share a rank (1, 2, 2, 4). With `filter` the rank and totalPlayers are among the entries with that metadata value. A score of the player's held for review (a board with review hold) shows here, ranked where it would be (totalPlayers counting it), and nowhere else until approved; not with `filter`.",
    errors: {
        400: 'the path names another game than X-Game-ID, or percentile or filter is invalid',
        404: 'no such board (R1)',
    },
    auth: 'session',
    params: BOARD_PARAMS,
    query: PercentileQuery.extend(FilterQuery.shape),
    data: BoardRank,
    async handle(ctx, { params, query, caller }) {
        // The session's game (X-Game-ID): the player has no rank to show in another game's path.
        sameGame(caller, params.gameId, 'Game');
        const percentile = parseFlag(query, 'percentile');
        if ('error' in percentile) throw new ApiFailure(400, percentile.error);
        const filter = parseFilterParam(query);
        if ('error' in filter) throw new ApiFailure(400, filter.error);
        const request = {
            gameId: params.gameId,
            boardId: params.boardId,
            playerId: caller.playerId,
            ...(percentile.ok ? { percentile: true } : {}),
        };
        // The packed read carries no filter (a filtered rank is rarer, and its value any text).
        if (filter.ok === undefined) return ctx.canister.ok('own_board_rank_packed', request);
        return ctx.canister.ok('own_board_rank', { ...request, filter: filter.ok });
    },
});
