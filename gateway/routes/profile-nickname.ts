// PUT /profile/nickname: the signed-in player renames themselves (rule N2, as for anonymous players).
import { NicknameBody, NicknameReply } from '../../contract/schemas';
import { route } from './route';
import { rename } from './player-nickname';

export default route({
    method: 'put',
    path: '/profile/nickname',
    id: 'put-profile-nickname',
    summary: "Set the signed-in player's nickname",
    description:
        'A taken name gets the first free suffix; `nickname` is the name applied (N2). Invalid names are 400 (N3).',
    auth: 'session',
    body: NicknameBody,
    data: NicknameReply,
    errors: {
        400: 'nickname invalid (N3)',
        404: 'the player has no profile in this game yet',
        409: 'the name and its first 100 suffixes and 16 random ones are taken in this game',
    },
    async handle(ctx, { body, caller }) {
        return rename(ctx, caller, caller.playerId, body.nickname);
    },
});
