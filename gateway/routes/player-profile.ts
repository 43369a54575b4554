// GET /players/{playerId}/profile: a player's profile, with achievements (with a session, the signed-in player's).
import { FIELD } from '../../contract/messages';
import { PLAYER_ID } from '../../contract/rules';
import { Profile } from '../../contract/schemas';
import { route } from './route';

export default route({
    method: 'get',
    path: '/players/{playerId}/profile',
    id: 'get-player-profile',
    summary: "A player's profile",
    description:
        "Created by the first POST /scores of the player. Achievements are read from gameProfile.achievements (A1). With X-Session-Token it is the signed-in player's, whatever id the path names (K2).",
    auth: 'keyOrSession',
    params: { playerId: { pattern: PLAYER_ID, description: FIELD.playerId } },
    data: Profile,
    errors: { 400: 'playerId in the path is invalid', 404: '`Player not found`: no profile yet' },
    async handle(ctx, { params, caller }) {
        if (caller.kind !== 'session')
            return ctx.canister.ok('profile', { gameId: caller.gameId, playerId: params.playerId });
        // The signed-in player's, as GET /auth/profile reads it, without the account's email and provider.
        const {
            email: _email,
            provider: _provider,
            ...profile
        } = await ctx.canister.ok('session_profile', {
            sessionHash: caller.sessionHash,
            gameId: caller.gameId,
        });
        return profile;
    },
});
