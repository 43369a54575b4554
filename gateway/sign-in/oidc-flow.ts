// One OpenID Connect sign-in through a provider, for the pages that run one (the link page,
// the dashboard): the authorization URL with PKCE (S256), state and nonce (what must travel in
// the sealed flow cookie), and the callback's code exchanged and its ID token verified.
import type { Request } from 'express';
import * as client from 'openid-client';

import type { Identity } from '../../contract/canister';
import type { Provider } from './providers';

/** What the callback needs again: keep it sealed between the two requests. */
export interface FlowSecrets {
    state: string;
    nonce: string;
    verifier: string;
}

export async function beginFlow(p: Provider, redirectUri: string): Promise<{ url: URL; secrets: FlowSecrets }> {
    const config = await p.oidc();
    const secrets = {
        verifier: client.randomPKCECodeVerifier(),
        state: client.randomState(),
        nonce: client.randomNonce(),
    };
    const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email',
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(secrets.verifier),
        code_challenge_method: 'S256',
        // Apple answers with a cross-site form post.
        ...(p.config.apple !== undefined ? { response_mode: 'form_post' } : {}),
    });
    return { url, secrets };
}

/**
 * The identity a callback request (GET with a query, or Apple's form POST) proves, after the
 * code exchange and the ID token's checks; throws when anything does not verify.
 */
export async function finishFlow(
    p: Provider,
    req: Request,
    redirectUri: string,
    secrets: Record<string, unknown>,
): Promise<Identity> {
    const config = await p.oidc();
    const input =
        req.method === 'POST'
            ? new globalThis.Request(redirectUri, {
                  method: 'POST',
                  body: new URLSearchParams(req.body as Record<string, string>),
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
              })
            : new URL(`${redirectUri}${new URL(req.originalUrl, redirectUri).search}`);
    const tokens = await client.authorizationCodeGrant(config, input, {
        pkceCodeVerifier: String(secrets.verifier),
        expectedState: String(secrets.state),
        expectedNonce: String(secrets.nonce),
        idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (claims === undefined) throw new Error('the provider sent no ID token');
    return {
        issuer: config.serverMetadata().issuer,
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : '',
        provider: p.config.name,
    };
}
