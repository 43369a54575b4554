// BLS12-381 keys and signatures in the IC's flavour, for the replica's root key: key
// generation, signing and DER here; verification and the shared mcl engine in gateway/bls.ts.
import { randomBytes } from 'node:crypto';

import { BLS12_381_G2_OID, unwrapDER, wrapDER } from '@dfinity/agent';
import { bls12_381 } from '@noble/curves/bls12-381';
import { extract as hkdfExtract, expand as hkdfExpand } from '@noble/hashes/hkdf';
import { sha256 } from '@noble/hashes/sha256';
import * as mcl from 'mcl-wasm';

import { BLS_PUBLIC_KEY_LENGTH, hashToG1, ready } from '../../gateway/bls';

export {
    BLS_DST,
    BLS_PUBLIC_KEY_LENGTH,
    BLS_SIGNATURE_LENGTH,
    blsVerify,
    blsVerifySync,
    initBls,
} from '../../gateway/bls';

export const BLS_SECRET_KEY_LENGTH = 32;

export interface BlsKeyPair {
    /** 32-byte big-endian scalar. */
    secretKey: Uint8Array;
    /** 96-byte compressed G2 point. */
    publicKey: Uint8Array;
}

const CURVE_ORDER = bls12_381.fields.Fr.ORDER;

/** IETF BLS KeyGen (HKDF-SHA256), so the same seed always yields the same key. */
function secretKeyFromSeed(seed: Uint8Array): Uint8Array {
    if (seed.length < 32) throw new Error('BLS seed must be at least 32 bytes');
    const okmLength = 48;
    const ikm = new Uint8Array(seed.length + 1); // IKM || I2OSP(0, 1)
    ikm.set(seed);
    let salt: Uint8Array = new TextEncoder().encode('BLS-SIG-KEYGEN-SALT-');
    for (;;) {
        salt = sha256(salt);
        const prk = hkdfExtract(sha256, ikm, salt);
        const okm = hkdfExpand(sha256, prk, new Uint8Array([0, okmLength]), okmLength);
        const scalar = bytesToBigInt(okm) % CURVE_ORDER;
        if (scalar !== 0n) return bigIntToBytes(scalar, BLS_SECRET_KEY_LENGTH);
    }
}

function bytesToBigInt(bytes: Uint8Array): bigint {
    let value = 0n;
    for (const byte of bytes) value = (value << 8n) | BigInt(byte);
    return value;
}

function bigIntToBytes(value: bigint, length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = length - 1; i >= 0; i--) {
        out[i] = Number(value & 0xffn);
        value >>= 8n;
    }
    return out;
}

function secretScalar(secretKey: Uint8Array): mcl.Fr {
    if (secretKey.length !== BLS_SECRET_KEY_LENGTH) throw new Error('BLS secret key must be 32 bytes');
    const scalar = bytesToBigInt(secretKey);
    if (scalar === 0n || scalar >= CURVE_ORDER) throw new Error('BLS secret key is out of range');
    const fr = new mcl.Fr();
    fr.setBigEndianMod(secretKey);
    return fr;
}

/** Derives a key pair from a 32-byte seed (random when omitted); persist the seed to keep the key. */
export function generateBlsKey(seed?: Uint8Array): BlsKeyPair {
    const secretKey = secretKeyFromSeed(seed ?? new Uint8Array(randomBytes(32)));
    return { secretKey, publicKey: blsPublicKeyFromSecretKey(secretKey) };
}

/** The 96-byte compressed G2 public key of a secret key. */
export function blsPublicKeyFromSecretKey(secretKey: Uint8Array): Uint8Array {
    return mcl.mul(ready().g2Generator, secretScalar(secretKey)).serialize();
}

/** Signs a message; the 48-byte result is a compressed G1 point. */
export function blsSign(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
    ready();
    return mcl.mul(hashToG1(message), secretScalar(secretKey)).serialize();
}

/** DER (SubjectPublicKeyInfo) encoding of a BLS public key, as the IC publishes its root key. */
export function blsPublicKeyToDer(publicKey: Uint8Array): Uint8Array {
    if (publicKey.length !== BLS_PUBLIC_KEY_LENGTH) throw new Error('BLS public key must be 96 bytes');
    return wrapDER(publicKey, BLS12_381_G2_OID);
}

/** Inverse of blsPublicKeyToDer; throws on anything that is not a DER BLS12-381 G2 key. */
export function blsPublicKeyFromDer(der: Uint8Array): Uint8Array {
    const key = unwrapDER(der, BLS12_381_G2_OID);
    if (key.length !== BLS_PUBLIC_KEY_LENGTH) throw new Error('DER BLS public key must hold 96 bytes');
    return key;
}
