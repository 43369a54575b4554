// POST /auth/logout: ends this session (401 on any later use of it).
import { Message } from '../../contract/schemas';
import { route, sessionOf } from './route';

export default route({
    method: 'post',
    path: '/auth/logout',
    id: 'post-auth-logout',
    summary: 'Sign out',
    auth: 'session',
    data: Message,
    async handle(ctx, { caller }) {
        return ctx.canister.ok('logout', sessionOf(caller));
    },
});
