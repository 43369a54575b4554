// DELETE /auth/account: the player removes their account; its entries leave every board and
// its sessions die.
import { Message } from '../../contract/schemas';
import { route, sessionOf } from './route';

export default route({
    method: 'delete',
    path: '/auth/account',
    id: 'delete-auth-account',
    summary: 'Remove the account',
    description:
        'The account, its players in every game and their entries are removed; every session of the account is dead afterwards (401). Archived periods stop naming it.',
    auth: 'session',
    data: Message,
    async handle(ctx, { caller }) {
        return ctx.canister.ok('delete_account', sessionOf(caller));
    },
});
