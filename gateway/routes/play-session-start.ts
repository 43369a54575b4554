// POST /play-sessions/start: a play-session token for time validation.
import { PlaySessionStartBody, PlaySessionStarted } from '../../contract/schemas';
import { credentialOf } from './auth';
import { SHARD_FULL_ERROR } from '../http/errors';
import { writerOf, route, sameGame } from './route';

export default route({
    method: 'post',
    path: '/play-sessions/start',
    id: 'post-play-sessions-start',
    summary: 'Start a play session',
    description:
        'The token (in `data.ok`) goes into the next POST /scores as playSessionToken when the game has time validation on. At most 3 active sessions per player and game; tokens are single-use and expire (30 minutes by default).',
    auth: 'keyOrSession',
    body: PlaySessionStartBody,
    data: PlaySessionStarted,
    errors: { 400: 'playerId invalid, or `Too many active play sessions...`', 503: SHARD_FULL_ERROR },
    async handle(ctx, { body, caller }) {
        sameGame(caller, body.gameId, 'gameId');
        return ctx.canister.ok('start_play_session', {
            gameId: caller.gameId,
            ...credentialOf(caller, writerOf(caller, body.playerId)),
        });
    },
});
