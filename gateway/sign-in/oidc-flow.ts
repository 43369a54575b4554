// One OpenID Connect sign-in through a provider, for the pages that run one (the link page,
// the dashboard): the authorization URL with PKCE (S256), state and nonce (kept in a sealed
// flow cookie between the two requests), and the callback's code exchanged and its ID token
// verified.
import type { Request, Response } from 'express';
import * as client from 'openid-client';

import type { Identity } from '../../contract/canister';
import type { Provider, SignInConfig } from './providers';
import { clearCookie, readSealed, sealKey, setSealed, type CookieOptions } from './sealed-cookie';

/** What the callback needs again: keep it sealed between the two requests. */
export interface FlowSecrets {
    state: string;
    nonce: string;
    verifier: string;
}

async function beginFlow(p: Provider, redirectUri: string): Promise<{ url: URL; secrets: FlowSecrets }> {
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
async function finishFlow(
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

/** Where a page runs its flow: the sealed cookie's name, its key's purpose, and the page's path. */
export interface FlowPlace {
    cookie: string;
    purpose: string;
    /** The page's path: the cookie's path, and `<path>/callback` is the redirect URI. */
    path: string;
}

/** Why a callback could not sign in (each page words it for its reader). */
export type FlowFailure = 'expired' | 'withdrawn' | 'unverified';

const FLOW_SECONDS = 600;

export interface SignInFlow {
    /** The options of the page's cookies (https public URLs make them Secure). */
    cookieOptions(): CookieOptions;
    /** The provider's authorization URL; the flow cookie (with what the page carries along) is set on `res`. */
    start(res: Response, p: Provider, carry?: Record<string, unknown>): Promise<URL>;
    /** The verified identity and what `start` carried, or why not. */
    finish(
        req: Request,
        res: Response,
        providerNamed: (name: string) => Provider | undefined,
    ): Promise<{ identity: Identity; carried: Record<string, unknown> } | { failed: FlowFailure }>;
}

/**
 * A page's sign-in flow, the same steps for the dashboard and the link page: `start` sends the
 * browser to the provider with the secrets (and what the page carries along) sealed in a
 * cookie; `finish` reads that cookie once (it is cleared whatever happens) and verifies the
 * callback. What the page then does with the identity is its own.
 */
export function signInFlow(signIn: SignInConfig, place: FlowPlace): SignInFlow {
    const key = sealKey(signIn.secret, place.purpose);
    // The public URL may be known only once the server listens (port 0): read it when used.
    const options = (): CookieOptions => ({ secure: signIn.publicUrl.startsWith('https:'), path: place.path });
    const callbackUrl = (): string => `${signIn.publicUrl}${place.path}/callback`;
    return {
        cookieOptions: options,
        async start(res, p, carry = {}) {
            const { url, secrets } = await beginFlow(p, callbackUrl());
            await setSealed(
                res,
                place.cookie,
                key,
                { ...secrets, ...carry, provider: p.config.name },
                FLOW_SECONDS,
                options(),
            );
            return url;
        },
        async finish(req, res, providerNamed) {
            const flow = await readSealed(req, place.cookie, key);
            clearCookie(res, place.cookie, options()); // used once, whatever happens next
            if (flow === undefined) return { failed: 'expired' };
            const p = providerNamed(String(flow.provider));
            if (p === undefined) return { failed: 'withdrawn' };
            try {
                return { identity: await finishFlow(p, req, callbackUrl(), flow), carried: flow };
            } catch {
                return { failed: 'unverified' };
            }
        },
    };
}
