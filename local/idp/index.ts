// The local stack's built-in OpenID provider: oidc-provider with local accounts (email and
// password), its own sign-in and sign-up pages, and all of its state in <dataDir>/idp/:
//   jwks.json      the ID token signing key (private JWK, generated once)
//   secrets.json   cookie signing keys and the CSRF key of the forms
//   accounts.json  the accounts (passwords as scrypt hashes)
//   adapter.json   oidc-provider's sessions, interactions, grants, codes, tokens
//   LOCK           one provider per data directory
// Authorization code flow with PKCE (S256) only; scopes openid, email, profile; the configured
// clients are first-party, so consent is granted without asking. oidc-provider is ESM-only:
// processes that cannot load it (jest) start this through thread.ts, in a worker thread.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import express from 'express';
import Provider, { type ClientMetadata, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

import { lockDataDir } from '../../replica/lock';
import { tightenTree } from '../../replica/private-files';
import { AccountStore, LoginThrottle } from './accounts';
import { FileAdapterStore } from './adapter';
import { removeTempFiles } from './files';
import { interactionRoutes } from './interactions';
import { loadOrCreateJwks, loadOrCreateSecrets } from './keys';
import type { IdentityProviderOptions, RunningIdentityProvider } from './options';
import { messagePage, PAGE_HEADERS, signOutPage } from './pages';

export type { IdentityProviderClient, IdentityProviderOptions, RunningIdentityProvider } from './options';

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

function urlHost(host: string): string {
    if (host === '0.0.0.0') return '127.0.0.1';
    if (host === '::') return '[::1]';
    return host.includes(':') ? `[${host}]` : host;
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            server.off('error', reject);
            resolve((server.address() as AddressInfo).port);
        });
    });
}

function clientMetadata(c: IdentityProviderOptions['clients'][number]): ClientMetadata {
    if (c.redirectUris.length === 0) throw new Error(`client ${c.clientId}: no redirect URI`);
    return {
        client_id: c.clientId,
        redirect_uris: c.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // client_secret_basic registered; oidc-provider accepts client_secret_post for it too.
        ...(c.clientSecret === undefined
            ? { token_endpoint_auth_method: 'none' }
            : { client_secret: c.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
    };
}

function page(ctx: KoaContextWithOIDC, status: number, html: string): void {
    ctx.status = status;
    ctx.set(PAGE_HEADERS);
    ctx.body = html;
}

export async function startIdentityProvider(
    o: IdentityProviderOptions,
    log: (line: string) => void = () => undefined,
): Promise<RunningIdentityProvider> {
    const host = o.host ?? '127.0.0.1';
    const dir = path.join(o.dataDir, 'idp');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    let unlock: () => void;
    try {
        unlock = lockDataDir(dir);
    } catch (e) {
        throw new Error((e as Error).message.replace('another replica', 'another identity provider'));
    }
    const server = http.createServer();
    try {
        removeTempFiles(dir);
        tightenTree(dir); // accounts and keys: the owner's alone, also what older versions left looser
        const jwks = loadOrCreateJwks(dir);
        const secrets = loadOrCreateSecrets(dir);
        const accounts = new AccountStore(dir);
        const adapter = new FileAdapterStore(dir);

        // Listen first: the default issuer names the port actually bound.
        const port = await listen(server, o.port, host);
        const url = `http://${urlHost(host)}:${port}`;
        const issuer = (o.issuer ?? url).replace(/\/$/, '');
        const mountPath = new URL(issuer).pathname.replace(/\/$/, '');

        const configuration: Configuration = {
            adapter: adapter.factory,
            clients: o.clients.map(clientMetadata),
            clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
            jwks,
            cookies: {
                keys: secrets.cookieKeys,
                // oidc-provider marks them Secure itself when the request came over https; on
                // plain-http loopback they stay usable. HttpOnly and SameSite=Lax in both cases.
                long: { httpOnly: true, sameSite: 'lax' },
                short: { httpOnly: true, sameSite: 'lax' },
            },
            async findAccount(_ctx, sub) {
                const account = accounts.get(sub);
                if (account === undefined) return undefined;
                return {
                    accountId: account.id,
                    claims: () => ({
                        sub: account.id,
                        email: account.email,
                        email_verified: false,
                        ...(account.name === undefined ? {} : { name: account.name }),
                    }),
                };
            },
            claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
            scopes: ['openid', 'email', 'profile'],
            // The ID token carries the claims of its scopes (the gateway reads only the ID token).
            conformIdTokenClaims: false,
            responseTypes: ['code'],
            pkce: { required: () => true },
            clientDefaults: {
                grant_types: ['authorization_code'],
                response_types: ['code'],
                id_token_signed_response_alg: 'RS256',
                token_endpoint_auth_method: 'client_secret_basic',
            },
            interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
            // Every configured client is first-party: consent is recorded without a page.
            async loadExistingGrant(ctx) {
                const session = ctx.oidc.session;
                const client = ctx.oidc.client;
                if (session?.accountId === undefined || client === undefined) return undefined;
                const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
                const existing = grantId === undefined ? undefined : await ctx.oidc.provider.Grant.find(grantId);
                if (existing !== undefined && existing.accountId === session.accountId) return existing;
                const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
                grant.addOIDCScope('openid email profile');
                await grant.save();
                return grant;
            },
            features: {
                devInteractions: { enabled: false },
                rpInitiatedLogout: {
                    enabled: true,
                    logoutSource: async (ctx, form) => {
                        const accountId = ctx.oidc.session?.accountId;
                        page(
                            ctx,
                            200,
                            signOutPage(accountId === undefined ? undefined : accounts.get(accountId)?.email, form),
                        );
                    },
                    postLogoutSuccessSource: async (ctx) =>
                        page(ctx, 200, messagePage('You are signed out', 'You can close this page.')),
                },
                introspection: { enabled: false },
                revocation: { enabled: false },
                registration: { enabled: false },
                deviceFlow: { enabled: false },
                userinfo: { enabled: true },
            },
            renderError: async (ctx, out) => {
                log(
                    `error page: ${out.error}${out.error_description === undefined ? '' : ` (${out.error_description})`}`,
                );
                page(
                    ctx,
                    ctx.status >= 400 ? ctx.status : 400,
                    messagePage(
                        'Sign-in cannot continue',
                        `${out.error_description ?? out.error}. Go back to the app or game and try again.`,
                    ),
                );
            },
            clientBasedCORS: () => false,
            ttl: {
                AccessToken: 60 * MINUTE,
                AuthorizationCode: MINUTE,
                IdToken: 60 * MINUTE,
                Interaction: 60 * MINUTE,
                Session: 14 * DAY,
                Grant: 14 * DAY,
                RefreshToken: 14 * DAY,
                ClientCredentials: 10 * MINUTE,
                DeviceCode: 10 * MINUTE,
                BackchannelAuthenticationRequest: 10 * MINUTE,
            },
        };
        const provider = new Provider(issuer, configuration);
        // Behind a proxy that serves the public issuer (o.issuer), trust its X-Forwarded-* headers.
        provider.proxy = o.issuer !== undefined;
        provider.on('server_error', (_ctx: unknown, error: Error) =>
            log(`server error: ${error.stack ?? error.message}`),
        );

        const app = express();
        app.disable('x-powered-by');
        // One proxy in front: the client is the address it saw (the last X-Forwarded-For entry).
        if (o.trustProxy ?? o.issuer !== undefined) app.set('trust proxy', 1);
        app.use(
            mountPath === '' ? '/' : mountPath,
            interactionRoutes({
                provider,
                accounts,
                throttle: new LoginThrottle(),
                csrfKey: secrets.csrfKey,
                mountPath,
                log,
            }),
        );
        app.use(mountPath === '' ? '/' : mountPath, provider.callback());
        server.on('request', app);

        let closing: Promise<void> | undefined;
        return {
            issuer,
            url,
            close: () =>
                (closing ??= (async () => {
                    await new Promise<void>((resolve) => {
                        server.close(() => resolve());
                        server.closeAllConnections();
                    });
                    await adapter.flush();
                    await accounts.flush();
                    unlock();
                })()),
        };
    } catch (e) {
        server.close();
        unlock();
        throw e;
    }
}
