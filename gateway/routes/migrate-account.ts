// POST /migrate-account: merges the device's anonymous player into the signed-in account.
import { MigrateBody, Migrated } from '../../contract/schemas';
import { route } from './route';

export default route({
    method: 'post',
    path: '/migrate-account',
    id: 'post-migrate-account',
    summary: 'Merge an anonymous player into the signed-in account',
    description:
        "deviceId is the anonymous playerId. Entries merge in every current period by each board's rule: bests per field by the board's order, the later entry on latest boards, the total on sum boards (archives show the account from then on), " +
        'achievements are united, play counts summed; the anonymous id is retired (its submits are refused afterwards). ' +
        'Allowed once per sign-in, within 15 minutes of it, in the game the session signed in for (another X-Game-ID is 401).',
    auth: 'session',
    body: MigrateBody,
    data: Migrated,
    errors: {
        400: 'deviceId invalid or already merged, the 15 minutes passed, this sign-in already merged, or the account or the anonymous player is banned from the game',
        404: 'no anonymous player with that id',
    },
    async handle(ctx, { body, caller }) {
        return ctx.canister.ok('migrate_account', {
            sessionHash: caller.sessionHash,
            gameId: caller.gameId,
            deviceId: body.deviceId,
        });
    },
});
