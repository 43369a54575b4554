// POST /auth/google and POST /auth/apple: sign in with an ID token an app got from the provider
// itself (Sign in with Apple on iOS, Google Sign-In on Android): verified here (signature by
// the provider's JWKS, issuer, audience = configured client ids, expiry), then a session.
import { Approval, IdTokenBody } from '../../contract/schemas';
import { ApiFailure, SHARD_FULL_ERROR } from '../http/errors';
import { route, type Route } from './route';

function idTokenRoute(name: 'google' | 'apple'): Route {
    return route({
        method: 'post',
        path: `/auth/${name}`,
        id: `post-auth-${name}`,
        summary: `Sign in with a ${name === 'google' ? 'Google' : 'Apple'} ID token`,
        description:
            'Send the ID token as id_token (idToken and identityToken are accepted too). The answer is the device-code approval shape, with a new session.',
        auth: 'game',
        signInStep: `id_token_${name}`,
        body: IdTokenBody,
        data: Approval,
        errors: {
            400: 'no ID token, or this provider is not configured',
            401: 'the ID token is not valid (signature, issuer, audience or expiry)',
            503: SHARD_FULL_ERROR,
        },
        async handle(ctx, { body, caller }) {
            const idToken = body.id_token ?? body.idToken ?? body.identityToken;
            if (idToken === undefined) throw new ApiFailure(400, 'Invalid id_token: is required');
            const provider = ctx.providerNamed(name);
            if (provider === undefined)
                throw new ApiFailure(400, `Sign-in with ${name} is not configured on this server`);
            let claims;
            try {
                claims = await provider.verifyIdToken(idToken);
            } catch {
                throw new ApiFailure(401, 'The ID token could not be verified');
            }
            return ctx.canister.ok('sign_in', {
                gameId: caller.gameId,
                identity: { ...claims, provider: name },
                nickname: body.nickname,
            });
        },
    });
}

export default [idTokenRoute('google'), idTokenRoute('apple')];
