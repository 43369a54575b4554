// Identity providers the gateway signs players in with, through OpenID Connect: Google, Apple
// (form_post and a client-secret JWT signed with the team's key), any other issuer by
// discovery, and the local stack's built-in provider. The relying party is `openid-client`;
// ID tokens sent straight from apps (POST /auth/google, /auth/apple) are verified with `jose`
// against the provider's JWKS: signature, issuer, audience, expiry.
import * as jose from 'jose';
import * as client from 'openid-client';

import type { Identity } from '../../contract/canister';

export interface ProviderConfig {
    /** `authType` of the players it signs in (google, apple, or a configured name). */
    name: string;
    /** The button text on the link page. */
    label: string;
    issuer: string;
    clientId: string;
    clientSecret?: string;
    /** Apple: the client secret is a JWT the gateway signs with the team's key. */
    apple?: { teamId: string; keyId: string; privateKeyPem: string };
    /** Audiences accepted on ID tokens apps send directly (their own client ids); the client id always is. */
    audiences?: string[];
}

export interface SignInConfig {
    /** The gateway's public base URL (redirect URIs and the link page address are built from it). */
    publicUrl: string;
    /** At least 32 bytes, shared by every gateway instance: seals the sign-in cookies. */
    secret: Uint8Array;
    /** Providers in button order; the local stack adds its built-in one after it starts. */
    providers: ProviderConfig[];
}

/** What a provider says a person is, after verification. */
export type VerifiedClaims = Omit<Identity, 'provider'>;

export interface Provider {
    config: ProviderConfig;
    /** The openid-client configuration (discovery happens on first use). */
    oidc(): Promise<client.Configuration>;
    /** Verifies an ID token an app sent directly. */
    verifyIdToken(idToken: string): Promise<VerifiedClaims>;
}

const APPLE_AUDIENCE = 'https://appleid.apple.com';

/** Apple's client secret: an ES256 JWT, renewed well before it expires. */
function appleSecret(config: ProviderConfig): () => Promise<string> {
    let cached: { jwt: string; until: number } | undefined;
    return async () => {
        const now = Math.floor(Date.now() / 1000);
        if (cached !== undefined && cached.until > now) return cached.jwt;
        const apple = config.apple!;
        const key = await jose.importPKCS8(apple.privateKeyPem, 'ES256');
        const jwt = await new jose.SignJWT({})
            .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
            .setIssuer(apple.teamId)
            .setSubject(config.clientId)
            .setAudience(APPLE_AUDIENCE)
            .setIssuedAt(now)
            .setExpirationTime(now + 86_400)
            .sign(key);
        cached = { jwt, until: now + 43_200 };
        return jwt;
    };
}

export function provider(config: ProviderConfig): Provider {
    let discovered: Promise<client.Configuration> | undefined;
    let jwks: ReturnType<typeof jose.createRemoteJWKSet> | undefined;
    const secret = config.apple === undefined ? undefined : appleSecret(config);
    let appleJwt = '';
    const insecure = new URL(config.issuer).protocol === 'http:';

    async function oidc(): Promise<client.Configuration> {
        if (secret !== undefined) appleJwt = await secret();
        discovered ??= client
            .discovery(
                new URL(config.issuer),
                config.clientId,
                undefined,
                secret !== undefined
                    ? (_as, _client, body) => void body.set('client_secret', appleJwt)
                    : config.clientSecret === undefined
                      ? client.None()
                      : client.ClientSecretPost(config.clientSecret),
                insecure ? { execute: [client.allowInsecureRequests] } : undefined,
            )
            .catch((e: unknown) => {
                discovered = undefined; // the provider may be reachable later
                throw e;
            });
        return discovered;
    }

    return {
        config,
        oidc,
        async verifyIdToken(idToken) {
            const metadata = (await oidc()).serverMetadata();
            jwks ??= jose.createRemoteJWKSet(new URL(metadata.jwks_uri!));
            const { payload } = await jose.jwtVerify(idToken, jwks, {
                issuer: metadata.issuer,
                audience: [config.clientId, ...(config.audiences ?? [])],
            });
            if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('the ID token names no subject');
            return {
                issuer: metadata.issuer,
                subject: payload.sub,
                email: typeof payload.email === 'string' ? payload.email : '',
            };
        },
    };
}

/** Providers from the environment (production); the local stack configures its own. */
export function providersFromEnv(env: NodeJS.ProcessEnv): ProviderConfig[] {
    const list = (value: string | undefined): string[] =>
        (value ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    const providers: ProviderConfig[] = [];
    if (env.GOOGLE_CLIENT_ID) {
        providers.push({
            name: 'google',
            label: 'Continue with Google',
            issuer: 'https://accounts.google.com',
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            audiences: list(env.GOOGLE_AUDIENCES),
        });
    }
    if (env.APPLE_CLIENT_ID) {
        if (!env.APPLE_TEAM_ID || !env.APPLE_KEY_ID || !env.APPLE_PRIVATE_KEY)
            throw new Error('APPLE_CLIENT_ID needs APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY');
        providers.push({
            name: 'apple',
            label: 'Continue with Apple',
            issuer: APPLE_AUDIENCE,
            clientId: env.APPLE_CLIENT_ID,
            audiences: list(env.APPLE_AUDIENCES),
            apple: {
                teamId: env.APPLE_TEAM_ID,
                keyId: env.APPLE_KEY_ID,
                privateKeyPem: env.APPLE_PRIVATE_KEY.replace(/\\n/g, '\n'),
            },
        });
    }
    if (env.OIDC_PROVIDERS) {
        let extra: unknown;
        try {
            extra = JSON.parse(env.OIDC_PROVIDERS);
        } catch {
            throw new Error(
                'OIDC_PROVIDERS must be a JSON list of {name, label, issuer, clientId, clientSecret?, audiences?}',
            );
        }
        for (const p of extra as ProviderConfig[]) {
            if (!/^[a-z0-9_-]{1,32}$/.test(p.name) || !p.issuer || !p.clientId)
                throw new Error(`OIDC_PROVIDERS: each provider needs a name ([a-z0-9_-]), an issuer and a clientId`);
            providers.push({ ...p, label: p.label ?? `Continue with ${p.name}` });
        }
    }
    return providers;
}

/** The providers of a configuration by name, each discovered once (the list may grow at start-up). */
export function providerRegistry(signIn: SignInConfig): (name: string) => Provider | undefined {
    const made = new Map<string, Provider>();
    return (name) => {
        const config = signIn.providers.find((p) => p.name === name);
        if (config === undefined) return undefined;
        let p = made.get(name);
        if (p === undefined || p.config !== config) made.set(name, (p = provider(config)));
        return p;
    };
}
