// BLS12-381 signatures in the IC's flavour (public keys in G2, signatures in G1,
// ciphersuite BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_), computed with mcl-wasm.
import * as mcl from 'mcl-wasm';
import { bls12_381 } from '@noble/curves/bls12-381';
import { expand_message_xmd } from '@noble/curves/abstract/hash-to-curve';
import { sha256 } from '@noble/hashes/sha256';
import { extract as hkdfExtract, expand as hkdfExpand } from '@noble/hashes/hkdf';
import { randomBytes } from 'node:crypto';
import { BLS12_381_G2_OID, unwrapDER, wrapDER } from '@dfinity/agent';
import { toHex } from '../bytes';

export const BLS_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
export const BLS_SECRET_KEY_LENGTH = 32;
export const BLS_PUBLIC_KEY_LENGTH = 96;
export const BLS_SIGNATURE_LENGTH = 48;

export interface BlsKeyPair {
    /** 32-byte big-endian scalar. */
    secretKey: Uint8Array;
    /** 96-byte compressed G2 point. */
    publicKey: Uint8Array;
}

interface Engine {
    g2Generator: mcl.G2;
    /** Lines of -G2 precomputed once: every verification pairs the signature with it. */
    negG2Lines: mcl.PrecomputedG2;
}

const DST_BYTES = new TextEncoder().encode(BLS_DST);
const CURVE_ORDER = bls12_381.fields.Fr.ORDER;
/** A replica verifies against very few keys (its own root key), so a tiny cache suffices. */
const PUBLIC_KEY_CACHE_LIMIT = 8;

let engine: Engine | undefined;
let initializing: Promise<void> | undefined;
const publicKeyLines = new Map<string, mcl.PrecomputedG2>();

/** Loads the mcl WebAssembly module and prepares constants; safe to call many times. */
export function initBls(): Promise<void> {
    if (!initializing) {
        initializing = (async () => {
            await mcl.init(mcl.BLS12_381);
            // Zcash/IETF point encoding, and the IETF simplified-SWU map, so bytes match noble and the IC.
            mcl.setETHserialization(true);
            mcl.setMapToMode(mcl.IRTF);
            // Deserialisation must reject points outside the prime-order subgroup.
            mcl.verifyOrderG1(true);
            mcl.verifyOrderG2(true);
            const g2Generator = new mcl.G2();
            g2Generator.deserialize(bls12_381.G2.ProjectivePoint.BASE.toRawBytes(true));
            engine = { g2Generator, negG2Lines: new mcl.PrecomputedG2(mcl.neg(g2Generator)) };
        })().catch((error: unknown) => {
            initializing = undefined;
            throw error;
        });
    }
    return initializing;
}

function ready(): Engine {
    if (!engine) throw new Error('BLS is not initialised: await initBls() first');
    return engine;
}

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

/**
 * hash_to_curve for G1: expand_message_xmd to two field elements (each 64 bytes reduced mod p,
 * which mcl's setBigEndianMod does), map each with simplified SWU and add; mcl clears the cofactor.
 */
function hashToG1(message: Uint8Array): mcl.G1 {
    const uniform = expand_message_xmd(message, DST_BYTES, 128, sha256);
    const u0 = new mcl.Fp();
    u0.setBigEndianMod(uniform.subarray(0, 64));
    const u1 = new mcl.Fp();
    u1.setBigEndianMod(uniform.subarray(64, 128));
    return mcl.add(u0.mapToG1(), u1.mapToG1());
}

/** Signs a message; the 48-byte result is a compressed G1 point. */
export function blsSign(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
    ready();
    return mcl.mul(hashToG1(message), secretScalar(secretKey)).serialize();
}

function linesForPublicKey(publicKey: Uint8Array): mcl.PrecomputedG2 | undefined {
    const cacheKey = toHex(publicKey);
    const cached = publicKeyLines.get(cacheKey);
    if (cached) return cached;
    const point = new mcl.G2();
    try {
        point.deserialize(publicKey);
    } catch {
        return undefined;
    }
    if (point.isZero()) return undefined;
    const lines = new mcl.PrecomputedG2(point);
    if (publicKeyLines.size >= PUBLIC_KEY_CACHE_LIMIT) {
        const [oldestKey, oldest] = publicKeyLines.entries().next().value as [string, mcl.PrecomputedG2];
        publicKeyLines.delete(oldestKey);
        oldest.destroy();
    }
    publicKeyLines.set(cacheKey, lines);
    return lines;
}

/**
 * Verifies a signature; same shape as the agent's `blsVerify` option, so it can be passed to
 * an actor as is (it initialises the library on first use, then answers synchronously).
 */
export function blsVerify(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): boolean | Promise<boolean> {
    if (!engine) return initBls().then(() => blsVerifySync(publicKey, signature, message));
    return blsVerifySync(publicKey, signature, message);
}

/**
 * Checks e(H(m), pk) · e(sig, -G2) = 1 with both Miller loops sharing one final
 * exponentiation; needs initBls() to have finished.
 */
export function blsVerifySync(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): boolean {
    const { negG2Lines } = ready();
    if (publicKey.length !== BLS_PUBLIC_KEY_LENGTH || signature.length !== BLS_SIGNATURE_LENGTH) return false;
    const pkLines = linesForPublicKey(publicKey);
    if (!pkLines) return false;
    const sig = new mcl.G1();
    try {
        sig.deserialize(signature);
    } catch {
        return false;
    }
    if (sig.isZero()) return false;
    const product = mcl.precomputedMillerLoop2(hashToG1(message), pkLines, sig, negG2Lines);
    return mcl.finalExp(product).isOne();
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
