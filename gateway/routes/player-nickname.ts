// PUT /players/{playerId}/nickname: rename a player (rule N2: a taken name gets a suffix); with a
// session, the signed-in player whatever id the path names (rule K2), as PUT /profile/nickname does.
import { FIELD } from '../../contract/messages';
import { PLAYER_ID } from '../../contract/rules';
import { NicknameBody, NicknameReply } from '../../contract/schemas';
import { credentialOf, type Caller } from './auth';
import { route, type RouteContext } from './route';

/** Renames the caller's player: `playerId` with the API key or the server key, the signed-in one with a session. */
export function rename(ctx: RouteContext, caller: Caller, playerId: string, nickname: string) {
    return ctx.canister.ok('set_nickname', { gameId: caller.gameId, ...credentialOf(caller, playerId), nickname });
}

export default route({
    method: 'put',
    path: '/players/{playerId}/nickname',
    id: 'put-player-nickname',
    summary: "Set a player's nickname",
    description:
        'Nicknames are unique within a game, compared case-insensitively and by look-alike characters (I/l/1, O/0). A taken name gets the first free suffix (`name` -> `name_1`); `nickname` in the answer is the name applied (N2). Invalid names are 400 (N3). With X-Session-Token it renames the signed-in player, whatever id the path names (K2).',
    auth: 'keyOrSession',
    params: { playerId: { pattern: PLAYER_ID, description: FIELD.playerId } },
    body: NicknameBody,
    data: NicknameReply,
    errors: {
        400: 'nickname or playerId invalid (N3)',
        404: '`Player not found`',
        409: 'the name and its first 100 suffixes and 16 random ones are taken in this game',
    },
    async handle(ctx, { params, body, caller }) {
        return rename(ctx, caller, params.playerId, body.nickname);
    },
});
