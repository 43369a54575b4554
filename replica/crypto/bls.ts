// BLS12-381 keys and signatures in the IC's flavour (public keys in G2, signatures in G1,
// ciphersuite BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_), for the replica's root key: key
// generation, signing and DER, with mcl-wasm (~2 ms a signature; noble's takes ~17 ms, and the
// replica signs every round). Verifying is the clients' job (a gateway's is gateway/ic/bls.ts,
// whose mcl set-up and hash_to_curve this repeats: the replica imports nothing of ours).
import { randomBytes } from 'node:crypto';

import { BLS12_381_G2_OID, unwrapDER, wrapDER } from '@dfinity/agent';
import { expand_message_xmd } from '@noble/curves/abstract/hash-to-curve';
import { bls12_381 } from '@noble/curves/bls12-381';
import { extract as hkdfExtract, expand as hkdfExpand } from '@noble/hashes/hkdf';
import { sha256 } from '@noble/hashes/sha256';
import * as mcl from 'mcl-wasm';

export const BLS_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
export const BLS_PUBLIC_KEY_LENGTH = 96;
export const BLS_SIGNATURE_LENGTH = 48;
const DST_BYTES = new TextEncoder().encode(BLS_DST);

/**
 * The G2 generator in the compressed encoding of the BLS12-381 standard (the IETF pairing-friendly
 * curves draft, Zcash serialisation): a constant, where noble's BASE.toRawBytes() would first check
 * the point's order, ~0.4 s of JavaScript in every process (held to noble in test/replica/crypto).
 */
export const G2_GENERATOR_COMPRESSED =
    '93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e' +
    '024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8';

/**
 * mcl-wasm keeps one module per thread and a second init replaces it, breaking every point made
 * before: whoever in the thread needs it first (the replica, or a gateway in the same process)
 * initialises it once, under a key of the global symbol registry both use (neither imports the
 * other), with the settings both need.
 */
const MCL_BLS = Symbol.for('mcl-wasm BLS12-381, IC flavour');

function mclOnce(): Promise<void> {
    const shared = globalThis as unknown as Record<symbol, Promise<void> | undefined>;
    shared[MCL_BLS] ??= (async () => {
        await mcl.init(mcl.BLS12_381);
        // Zcash/IETF point encoding and the IETF simplified-SWU map, so bytes match noble and the IC.
        mcl.setETHserialization(true);
        mcl.setMapToMode(mcl.IRTF);
        // Deserialisation must reject points outside the prime-order subgroup.
        mcl.verifyOrderG1(true);
        mcl.verifyOrderG2(true);
    })();
    return shared[MCL_BLS]!;
}

let g2Generator: mcl.G2 | undefined;

/** Loads mcl (once per thread) and the generator; safe to call many times. */
export async function initBls(): Promise<void> {
    await mclOnce();
    if (g2Generator === undefined) {
        const g = new mcl.G2();
        g.deserialize(Buffer.from(G2_GENERATOR_COMPRESSED, 'hex'));
        g2Generator = g;
    }
}

function ready(): { g2Generator: mcl.G2 } {
    if (g2Generator === undefined) throw new Error('BLS is not initialised: await initBls() first');
    return { g2Generator };
}

/** hash_to_curve for G1: expand_message_xmd to two field elements, each mapped by simplified SWU, added. */
function hashToG1(message: Uint8Array): mcl.G1 {
    const uniform = expand_message_xmd(message, DST_BYTES, 128, sha256);
    const u0 = new mcl.Fp();
    u0.setBigEndianMod(uniform.subarray(0, 64));
    const u1 = new mcl.Fp();
    u1.setBigEndianMod(uniform.subarray(64, 128));
    return mcl.add(u0.mapToG1(), u1.mapToG1());
}

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
