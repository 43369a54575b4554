// GET /game/stats: the key's game's counts.
import { GameStats } from '../../contract/schemas';
import { route } from '../route';

export default route({
    method: 'get',
    path: '/game/stats',
    id: 'get-game-stats',
    summary: 'Game statistics',
    auth: 'apiKey',
    data: GameStats,
    async handle(ctx, { caller }) {
        return ctx.canister.ok('game_stats', { gameId: caller.gameId });
    },
});
