// The gateway's own identity (the canister authorizes it by principal): an Ed25519 key in a
// PKCS#8 PEM file, generated on first start in the embedded default, given by operators in
// production (GATEWAY_IDENTITY_PEM: the PEM itself or a path to it).
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Ed25519KeyIdentity } from '@dfinity/identity';

export function identityFromPem(pem: string): Ed25519KeyIdentity {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('The gateway identity must be an Ed25519 key (PKCS#8 PEM)');
    const jwk = key.export({ format: 'jwk' }) as { d?: string };
    if (jwk.d === undefined) throw new Error('The PEM holds no private key');
    return Ed25519KeyIdentity.fromSecretKey(new Uint8Array(Buffer.from(jwk.d, 'base64url')));
}

/** Reads GATEWAY_IDENTITY_PEM-style input: PEM text, or the path of a PEM file. */
export function loadIdentity(pemOrPath: string): Ed25519KeyIdentity {
    return identityFromPem(pemOrPath.includes('-----BEGIN') ? pemOrPath : fs.readFileSync(pemOrPath, 'utf8'));
}

/** The identity kept at `file`, created (mode 600) the first time. */
export function ensureIdentity(file: string): Ed25519KeyIdentity {
    if (!fs.existsSync(file)) {
        const { privateKey } = generateKeyPairSync('ed25519');
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(`${file}.tmp`, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
        fs.renameSync(`${file}.tmp`, file);
    }
    return loadIdentity(file);
}
