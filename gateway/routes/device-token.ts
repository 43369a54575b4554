// POST /auth/device/token: the game's poll; 200 with the session exactly once after approval.
import { Approval, DeviceTokenBody } from '../../contract/schemas';
import { hashToken } from './auth';
import { SHARD_FULL_ERROR } from '../http/errors';
import { route } from './route';

export default route({
    method: 'post',
    path: '/auth/device/token',
    id: 'post-auth-device-token',
    summary: 'Poll device-code sign-in',
    description:
        '428 `authorization_pending` until the player approves; then 200 with the session (exactly once); 410 `expired_token` after 300 s; 404 for an unknown or already redeemed code.',
    auth: 'game',
    signInStep: 'device_code_poll',
    body: DeviceTokenBody,
    data: Approval,
    errors: {
        404: 'unknown or already redeemed device code',
        410: '`expired_token`',
        428: '`authorization_pending`: keep polling every 5 s',
        503: `${SHARD_FULL_ERROR} (the approval stays: poll again later)`,
    },
    async handle(ctx, { body, caller }) {
        // The code was started on the canister of the game it names (X-Game-ID); the game named
        // too, so that a canister it moved away from answers `moved` (its codes moved with it).
        return ctx.router
            .forGame(caller.gameId)
            .ok('device_code_redeem', { deviceCodeHash: hashToken(body.device_code), gameId: caller.gameId });
    },
});
