// POST /play-sessions/end: frees the player's capacity (idempotent; unknown or ended is 404).
import { Message, PlaySessionEndBody } from '../../contract/schemas';
import { gameCredential } from './auth';
import { route } from './route';

export default route({
    method: 'post',
    path: '/play-sessions/end',
    id: 'post-play-sessions-end',
    summary: 'End a play session',
    description:
        'Clients may send it before or after the submit; an unknown or already-ended token is 404, which clients ignore.',
    auth: 'keyOrSession',
    body: PlaySessionEndBody,
    data: Message,
    errors: { 400: 'playSessionToken missing or too long', 404: 'unknown or already-ended token' },
    async handle(ctx, { body, caller }) {
        return ctx.canister.ok('end_play_session', {
            gameId: caller.gameId,
            ...gameCredential(caller),
            playSessionToken: body.playSessionToken,
        });
    },
});
