// The gateway's own identity (the canister authorizes it by principal): an Ed25519 key in a
// PKCS#8 PEM file, generated on first start in the embedded default, given by operators in
// production (GATEWAY_IDENTITY_PEM: the PEM itself or a path to it).
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { SignIdentity, type Signature } from '@dfinity/agent';
import { Ed25519PublicKey } from '@dfinity/identity';

/**
 * An Ed25519 identity that signs with Node's OpenSSL (the gateway signs every canister call;
 * @dfinity/identity's JavaScript signer costs about a millisecond of CPU each time).
 */
class GatewayIdentity extends SignIdentity {
    private readonly publicKey: Ed25519PublicKey;

    constructor(private readonly privateKey: KeyObject) {
        super();
        const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string };
        this.publicKey = Ed25519PublicKey.fromRaw(new Uint8Array(Buffer.from(jwk.x, 'base64url')));
    }

    getPublicKey(): Ed25519PublicKey {
        return this.publicKey;
    }

    async sign(blob: Uint8Array): Promise<Signature> {
        return new Uint8Array(sign(null, blob, this.privateKey)) as Signature;
    }
}

export function identityFromPem(pem: string): GatewayIdentity {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType !== 'ed25519')
        throw new Error('The gateway identity must be an Ed25519 key (PKCS#8 PEM)');
    return new GatewayIdentity(key);
}

/** Reads GATEWAY_IDENTITY_PEM-style input: PEM text, or the path of a PEM file. */
export function loadIdentity(pemOrPath: string): GatewayIdentity {
    return identityFromPem(pemOrPath.includes('-----BEGIN') ? pemOrPath : fs.readFileSync(pemOrPath, 'utf8'));
}

/** The identity kept at `file`, created (mode 600) the first time. */
export function ensureIdentity(file: string): GatewayIdentity {
    if (!fs.existsSync(file)) {
        const { privateKey } = generateKeyPairSync('ed25519');
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        fs.writeFileSync(`${file}.tmp`, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
        fs.renameSync(`${file}.tmp`, file);
    }
    return loadIdentity(file);
}
