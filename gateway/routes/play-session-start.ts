// POST /play-sessions/start: a play-session token for time validation.
import { PlaySessionStartBody, PlaySessionStarted } from '../../contract/schemas';
import { route, sameGame } from '../route';

export default route({
    method: 'post',
    path: '/play-sessions/start',
    id: 'post-play-sessions-start',
    summary: 'Start a play session',
    description:
        'The token (in `data.ok`) goes into the next POST /scores as playSessionToken when the game has time validation on. At most 3 active sessions per player and game; tokens are single-use and expire (30 minutes by default).',
    auth: 'apiKey',
    body: PlaySessionStartBody,
    data: PlaySessionStarted,
    errors: { 400: 'playerId invalid, or `Too many active play sessions...`' },
    async handle(ctx, { body, key }) {
        sameGame(key.gameId, body.gameId, 'gameId');
        return ctx.canister.ok('start_play_session', {
            apiKey: key.apiKey,
            gameId: key.gameId,
            playerId: body.playerId,
        });
    },
});
