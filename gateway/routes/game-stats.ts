// GET /game/stats: the counts of the game of the API key or session.
import { GameStats } from '../../contract/schemas';
import { route } from './route';

export default route({
    method: 'get',
    path: '/game/stats',
    id: 'get-game-stats',
    summary: 'Game statistics',
    auth: 'keyOrSession',
    data: GameStats,
    async handle(ctx, { caller }) {
        return ctx.canister.ok('game_stats', { gameId: caller.gameId });
    },
});
