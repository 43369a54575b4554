// GET /game: the game of the API key or session, with timeValidationEnabled and its boards, and
// its own canister's direct-read URL when that is not {canister_url}.
import { GameReply } from '../../contract/schemas';
import { route } from './route';

export default route({
    method: 'get',
    path: '/game',
    id: 'get-game',
    summary: 'Game metadata',
    auth: 'keyOrSession',
    description:
        '`canisterUrl` is added when the game lives on another canister than {canister_url} (a shard of it): a client may read the board paths there directly (at {canister_url} they answer a 302 to it).',
    data: GameReply,
    async handle(ctx, { caller }) {
        const [game, canisterUrl] = await Promise.all([
            ctx.canister.ok('game_info', { gameId: caller.gameId }),
            ctx.canisterUrlOf(caller.gameId),
        ]);
        return canisterUrl === undefined ? game : { ...game, canisterUrl };
    },
});
