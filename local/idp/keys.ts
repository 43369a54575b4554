// The provider's secrets, generated on first start and kept in <dataDir>/idp/ so that tokens,
// sessions and cookies stay valid across restarts:
// - jwks.json: the ID token signing key, an RS256 private JWK (RSA 2048; RS256 is the algorithm
//   every relying party accepts by default), with kid = its RFC 7638 thumbprint;
// - secrets.json: the cookie signing keys and the key of the forms' CSRF tokens.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import * as path from 'node:path';

import { readJsonFile, writeJsonFileSync } from './files';

export interface PrivateJwk {
    kty: string;
    kid: string;
    alg: string;
    use: string;
    [member: string]: string;
}

export interface ProviderSecrets {
    /** Keys that sign oidc-provider's cookies (the first signs, all verify). */
    cookieKeys: string[];
    /** HMAC key of the per-interaction CSRF tokens of the sign-in and sign-up forms. */
    csrfKey: string;
}

export function loadOrCreateJwks(dir: string): { keys: PrivateJwk[] } {
    const file = path.join(dir, 'jwks.json');
    const stored = readJsonFile<{ keys: PrivateJwk[] }>(file);
    if (stored !== undefined) {
        if (
            !Array.isArray(stored.keys) ||
            stored.keys.length === 0 ||
            stored.keys.some((k) => typeof k.d !== 'string')
        ) {
            throw new Error(`${file} holds no private signing key`);
        }
        return stored;
    }
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
    // RFC 7638: the SHA-256 of the required members, in lexicographic order, without spaces.
    const kid = createHash('sha256')
        .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
        .digest('base64url');
    const jwks = { keys: [{ ...jwk, kty: 'RSA', kid, alg: 'RS256', use: 'sig' }] };
    writeJsonFileSync(file, jwks);
    return jwks;
}

export function loadOrCreateSecrets(dir: string): ProviderSecrets {
    const file = path.join(dir, 'secrets.json');
    const stored = readJsonFile<ProviderSecrets>(file);
    if (stored !== undefined) {
        if (!Array.isArray(stored.cookieKeys) || stored.cookieKeys.length === 0 || typeof stored.csrfKey !== 'string') {
            throw new Error(`${file} is incomplete`);
        }
        return stored;
    }
    const secrets: ProviderSecrets = {
        cookieKeys: [randomBytes(32).toString('base64url')],
        csrfKey: randomBytes(32).toString('base64url'),
    };
    writeJsonFileSync(file, secrets);
    return secrets;
}
