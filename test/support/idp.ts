// The built-in OpenID provider for a test (in its worker thread), a client's redirect URI that
// records what it receives, and the relying party's side with openid-client (PKCE S256, state,
// nonce), as the gateway will do it.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';

import type { SignInConfig } from '../../gateway/sign-in/providers';
import {
    startIdentityProviderThread,
    type IdentityProviderClient,
    type IdentityProviderOptions,
    type RunningIdentityProvider,
} from '../../local/idp/thread';

/** The gateway's client id at the test identity provider, and a password its test accounts use. */
export const CLIENT_ID = 'leaderboard-gateway';
export const PASSWORD = 'correct horse battery staple';

export interface CallbackServer {
    /** The redirect URI: http://127.0.0.1:<port>/callback */
    redirectUri: string;
    /** Every URL requested so far (absolute). */
    hits: URL[];
    close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
    const hits: URL[] = [];
    const server = http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
        hits.push(url);
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Back in the app</title><p>Back in the app.</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return {
        redirectUri: `http://127.0.0.1:${port}/callback`,
        hits,
        close: () =>
            new Promise((resolve) => {
                server.close(() => resolve());
                server.closeAllConnections();
            }),
    };
}

export async function startTestIdentityProvider(
    o: IdentityProviderOptions,
    logs: string[] = [],
): Promise<RunningIdentityProvider> {
    return startIdentityProviderThread(o, (line) => logs.push(line));
}

export interface RelyingParty {
    config: oidc.Configuration;
    clientId: string;
    redirectUri: string;
    /** A new authorization request: the URL to open, and what the callback is checked against. */
    begin(): Promise<{ url: URL; codeVerifier: string; state: string; nonce: string }>;
    /** Exchanges the code of the callback URL at the token endpoint (the ID token is validated by openid-client too). */
    finish(
        callbackUrl: string,
        request: { codeVerifier: string; state: string; nonce: string },
    ): Promise<oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers>;
}

export async function relyingParty(
    issuer: string,
    client: { clientId: string; clientSecret?: string; redirectUri: string },
): Promise<RelyingParty> {
    const auth = client.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(client.clientSecret);
    const config = await oidc.discovery(new URL(issuer), client.clientId, client.clientSecret, auth, {
        execute: [oidc.allowInsecureRequests],
    });
    return {
        config,
        clientId: client.clientId,
        redirectUri: client.redirectUri,
        async begin() {
            const codeVerifier = oidc.randomPKCECodeVerifier();
            const state = oidc.randomState();
            const nonce = oidc.randomNonce();
            const url = oidc.buildAuthorizationUrl(config, {
                redirect_uri: client.redirectUri,
                scope: 'openid email profile',
                code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
                code_challenge_method: 'S256',
                state,
                nonce,
            });
            return { url, codeVerifier, state, nonce };
        },
        finish: (callbackUrl, request) =>
            oidc.authorizationCodeGrant(config, new URL(callbackUrl), {
                pkceCodeVerifier: request.codeVerifier,
                expectedState: request.state,
                expectedNonce: request.nonce,
                idTokenExpected: true,
            }),
    };
}

/** On the provider's sign-in page: follows "Create an account" to the sign-up form. */
export async function openSignUp(page: Page): Promise<void> {
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('link', { name: 'Create an account' }).click(),
    ]);
}

/** On the provider's sign-in page: opens the sign-up form and fills in email and password (the caller submits). */
export async function fillSignUp(page: Page, email: string, password = PASSWORD): Promise<void> {
    await openSignUp(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
}

/**
 * Starts the test identity provider with the gateway (whose sign-in is `signIn`) as a client,
 * `clientSecret` its secret and `callbacks` its redirect paths, beside `others`, and offers it on
 * the gateway's sign-in as 'local'.
 */
export async function startLocalSignIn(
    signIn: SignInConfig,
    o: { dataDir: string; clientSecret: string; callbacks: string[]; others?: IdentityProviderClient[] },
): Promise<RunningIdentityProvider> {
    const redirectUris = o.callbacks.map((callback) => `${signIn.publicUrl}${callback}`);
    const clients = [{ clientId: CLIENT_ID, clientSecret: o.clientSecret, redirectUris }, ...(o.others ?? [])];
    const idp = await startTestIdentityProvider({ dataDir: o.dataDir, port: 0, clients });
    signIn.providers.push({
        name: 'local',
        label: 'Sign in with a local account',
        issuer: idp.issuer,
        clientId: CLIENT_ID,
        clientSecret: o.clientSecret,
    });
    return idp;
}
