// POST /auth/device/code: starts device-code sign-in (RFC 8628) for the game in X-Game-ID.
import * as QRCode from 'qrcode';

import { DeviceCodeBody, DeviceCodeStarted } from '../../contract/schemas';
import { formatUserCode } from '../../contract/user-codes';
import { publicClientAddress } from '../http/client-address';
import { route, sameGame } from './route';

export default route({
    method: 'post',
    path: '/auth/device/code',
    id: 'post-auth-device-code',
    summary: 'Start device-code sign-in',
    description:
        'Show the player user_code and verification_url (or the QR code of verification_url_complete); they sign in on another device. ' +
        'Then poll POST /auth/device/token every `interval` seconds. Codes live 300 s. A nickname seeds only a brand-new account (N4). ' +
        'user_code is `XXXX-XXXX`, or `XXXX-XXXX-XXXX-XXXX` while the service sees codes being guessed: show it as given.',
    auth: 'game',
    signInStep: 'device_code_start',
    body: DeviceCodeBody,
    data: DeviceCodeStarted,
    errors: {
        400: 'nickname invalid (N3)',
        404: 'no such game',
        503: '`Too many pending device authorizations. Try again shortly.` (the game, the service or this client address has too many codes pending: wait, then ask for a new code)',
    },
    async handle(ctx, { req, body, caller }) {
        sameGame(caller, body.gameId, 'gameId');
        const started = await ctx.canister.ok('device_code_start', {
            gameId: caller.gameId,
            nickname: body.nickname,
            // Codes per client address: not for local ones (a proxy or a LAN: everyone would share a cap).
            client: publicClientAddress(req.ip),
        });
        const userCode = formatUserCode(started.userCode);
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
