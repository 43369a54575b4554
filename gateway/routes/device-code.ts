// POST /auth/device/code: starts device-code sign-in (RFC 8628) for the game in X-Game-ID.
import * as QRCode from 'qrcode';

import { DeviceCodeBody, DeviceCodeStarted } from '../../contract/schemas';
import { route, sameGame } from '../route';

export default route({
    method: 'post',
    path: '/auth/device/code',
    id: 'post-auth-device-code',
    summary: 'Start device-code sign-in',
    description:
        'Show the player user_code and verification_url (or the QR code of verification_url_complete); they sign in on another device. ' +
        'Then poll POST /auth/device/token every `interval` seconds. Codes live 300 s. A nickname seeds only a brand-new account (N4).',
    auth: 'game',
    body: DeviceCodeBody,
    data: DeviceCodeStarted,
    errors: {
        400: 'nickname invalid (N3)',
        404: 'no such game',
        503: '`Too many pending device authorizations. Try again shortly.`',
    },
    async handle(ctx, { body, caller }) {
        sameGame(caller.gameId, body.gameId, 'gameId');
        const started = await ctx.canister.ok('device_code_start', { gameId: caller.gameId, nickname: body.nickname });
        const userCode = `${started.userCode.slice(0, 4)}-${started.userCode.slice(4)}`;
        const verificationUrl = `${ctx.signIn.publicUrl}/link`;
        const complete = `${verificationUrl}?code=${userCode}`;
        return {
            device_code: started.deviceCode,
            user_code: userCode,
            verification_url: verificationUrl,
            verification_url_complete: complete,
            expires_in: started.expiresIn,
            interval: started.interval,
            qr_data_url: await QRCode.toDataURL(complete, { errorCorrectionLevel: 'M', margin: 2, width: 256 }),
        };
    },
});
