// Recognises the DER public keys users may sign requests with (Ed25519, ECDSA secp256k1,
// ECDSA P-256) and verifies their signatures, naming the schemes this replica does not support.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha256';
import { BLS12_381_G2_OID, DER_COSE_OID, ED25519_OID, SECP256K1_OID, unwrapDER, wrapDER } from '@dfinity/agent';
import { bytesEqual, toHex } from '../bytes';

export type UserKeyScheme = 'ed25519' | 'ecdsa-secp256k1' | 'ecdsa-p256';

export interface UserPublicKey {
    scheme: UserKeyScheme;
    /** Ed25519: the 32-byte key; ECDSA: the 65-byte uncompressed point. */
    raw: Uint8Array;
}

export type ParsedUserKey = ({ ok: true } & UserPublicKey) | { ok: false; message: string };

/** SEQUENCE { id-ecPublicKey (1.2.840.10045.2.1), prime256v1 (1.2.840.10045.3.1.7) } */
const P256_OID = Uint8Array.from([
    0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03,
    0x01, 0x07,
]);

/** SEQUENCE { 1.3.6.1.4.1.56387.1.2 } (canister signatures) */
const CANISTER_SIGNATURE_OID = Uint8Array.from([
    0x30, 0x0c, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xb8, 0x43, 0x01, 0x02,
]);

const SUPPORTED: ReadonlyArray<{ scheme: UserKeyScheme; oid: Uint8Array; length: number }> = [
    { scheme: 'ed25519', oid: ED25519_OID, length: 32 },
    { scheme: 'ecdsa-secp256k1', oid: SECP256K1_OID, length: 65 },
    { scheme: 'ecdsa-p256', oid: P256_OID, length: 65 },
];

const UNSUPPORTED: ReadonlyArray<{ name: string; oid: Uint8Array }> = [
    { name: 'canister signature', oid: CANISTER_SIGNATURE_OID },
    { name: 'WebAuthn (DER-wrapped COSE)', oid: DER_COSE_OID },
    { name: 'BLS12-381', oid: BLS12_381_G2_OID },
];

/**
 * The payload under `oid` when `der` is exactly SEQUENCE(oid, BIT STRING(payload)); re-encoding
 * and comparing rejects trailing bytes and non-canonical lengths that unwrapDER alone tolerates.
 */
function payloadUnder(der: Uint8Array, oid: Uint8Array): Uint8Array | undefined {
    try {
        const payload = unwrapDER(der, oid);
        return bytesEqual(wrapDER(payload, oid), der) ? payload : undefined;
    } catch {
        return undefined;
    }
}

export function parseUserPublicKey(der: Uint8Array): ParsedUserKey {
    for (const { scheme, oid, length } of SUPPORTED) {
        const raw = payloadUnder(der, oid);
        if (!raw) continue;
        if (raw.length !== length) return { ok: false, message: `${scheme} public key must be ${length} bytes` };
        if (scheme !== 'ed25519' && raw[0] !== 0x04) {
            return { ok: false, message: `${scheme} public key must be an uncompressed point` };
        }
        return { ok: true, scheme, raw };
    }
    for (const { name, oid } of UNSUPPORTED) {
        if (payloadUnder(der, oid))
            return { ok: false, message: `${name} public keys are not supported by this replica` };
    }
    return {
        ok: false,
        message: 'unsupported or malformed public key (expected DER Ed25519, ECDSA secp256k1 or ECDSA P-256)',
    };
}

/** Node's KeyObjects for recently seen Ed25519 keys (OpenSSL verifies ~10x faster than JS). */
const ed25519Keys = new Map<string, KeyObject>();

function ed25519Key(raw: Uint8Array): KeyObject {
    const hex = toHex(raw);
    let key = ed25519Keys.get(hex);
    if (key === undefined) {
        if (ed25519Keys.size >= 1024) ed25519Keys.clear();
        key = createPublicKey({ key: Buffer.from(wrapDER(raw, ED25519_OID)), format: 'der', type: 'spki' });
        ed25519Keys.set(hex, key);
    }
    return key;
}

/**
 * Ed25519 signs the message itself; ECDSA signs SHA-256(message) and the signature is r · s
 * (32 bytes each). High-S ECDSA signatures are accepted because WebCrypto (P-256) produces them.
 */
export function verifyUserSignature(key: UserPublicKey, signature: Uint8Array, message: Uint8Array): boolean {
    if (signature.length !== 64) return false;
    try {
        switch (key.scheme) {
            case 'ed25519':
                return verify(null, message, ed25519Key(key.raw), signature);
            case 'ecdsa-secp256k1':
                return secp256k1.verify(signature, sha256(message), key.raw, { lowS: false });
            case 'ecdsa-p256':
                return p256.verify(signature, sha256(message), key.raw, { lowS: false });
        }
    } catch {
        return false;
    }
}
