// GET /game: the key's game, with timeValidationEnabled and its boards.
import { GameInfo } from '../../contract/schemas';
import { route } from '../route';

export default route({
    method: 'get',
    path: '/game',
    id: 'get-game',
    summary: 'Game metadata',
    auth: 'apiKey',
    data: GameInfo,
    async handle(ctx, { caller }) {
        return ctx.canister.ok('game_info', { gameId: caller.gameId });
    },
});
