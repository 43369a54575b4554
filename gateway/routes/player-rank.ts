// GET /players/{playerId}/rank: a player's rank on the global leaderboard (with a session, the signed-in player's).
import { FIELD } from '../../contract/messages';
import { PLAYER_ID, parseFlag, parseSort } from '../../contract/rules';
import { PercentileQuery, PlayerRank, SortBy } from '../../contract/schemas';
import { z } from 'zod';
import { ApiFailure } from '../http/errors';
import { playerOf, route } from './route';

export default route({
    method: 'get',
    path: '/players/{playerId}/rank',
    id: 'get-player-rank',
    summary: "A player's rank on the global leaderboard",
    auth: 'keyOrSession',
    params: { playerId: { pattern: PLAYER_ID, description: FIELD.playerId } },
    description:
        "On a game whose all-time board has ties 'shared' equal values share a rank (1, 2, 2, 4). With X-Session-Token it is the signed-in player's rank, whatever id the path names (K2). A score of theirs held for review (all-time board with review hold) shows here, ranked where it would be, and nowhere else until approved.",
    query: z.object({ sort: z.optional(SortBy.meta({ default: 'score' })), ...PercentileQuery.shape }),
    data: PlayerRank,
    errors: {
        400: 'playerId, sort or percentile invalid',
        404: '`Player not found`, or the player has only targeted-board entries',
    },
    async handle(ctx, { params, query, caller }) {
        const playerId = playerOf(caller, params.playerId);
        const sort = parseSort(query);
        if ('error' in sort) throw new ApiFailure(400, sort.error);
        const percentile = parseFlag(query, 'percentile');
        if ('error' in percentile) throw new ApiFailure(400, percentile.error);
        return ctx.canister.ok('own_player_rank_packed', {
            gameId: caller.gameId,
            playerId,
            sort: sort.ok,
            ...(percentile.ok ? { percentile: true } : {}),
        });
    },
});
