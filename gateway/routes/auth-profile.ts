// GET /auth/profile: the signed-in player's profile in the game, with their email and provider.
import { SessionProfile } from '../../contract/schemas';
import { route, sessionOf } from './route';

export default route({
    method: 'get',
    path: '/auth/profile',
    id: 'get-auth-profile',
    summary: "The signed-in player's profile",
    auth: 'session',
    data: SessionProfile,
    async handle(ctx, { caller }) {
        return ctx.canister.ok('session_profile', sessionOf(caller));
    },
});
