// GET /players/{playerId}/rank: an anonymous player's rank on the global leaderboard.
import { FIELD } from '../../contract/messages';
import { PLAYER_ID, parseSort } from '../../contract/rules';
import { PlayerRank, SortBy } from '../../contract/schemas';
import { z } from 'zod';
import { ApiFailure } from '../errors';
import { route } from '../route';

export default route({
    method: 'get',
    path: '/players/{playerId}/rank',
    id: 'get-player-rank',
    summary: "A player's rank on the global leaderboard",
    auth: 'apiKey',
    params: { playerId: { pattern: PLAYER_ID, description: FIELD.playerId } },
    query: z.object({ sort: z.optional(SortBy.meta({ default: 'score' })) }),
    data: PlayerRank,
    errors: {
        400: 'playerId or sort invalid',
        404: '`Player not found`, or the player has only targeted-board entries',
    },
    async handle(ctx, { params, query, key }) {
        const playerId = params.playerId;
        const sort = parseSort(query);
        if ('error' in sort) throw new ApiFailure(400, sort.error);
        return ctx.canister.ok('player_rank', { gameId: key.gameId, playerId, sort: sort.ok });
    },
});
