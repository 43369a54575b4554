// BLS12-381 signature verification in the IC's flavour (public keys in G2, signatures in G1,
// ciphersuite BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_) with mcl-wasm: how a gateway checks
// the certificates of update calls. Measured here: 5.3 ms per verification, against 28 ms for
// the agent's JavaScript default, and a gateway checks one per update call. The local replica
// signs with mcl too (replica/crypto/bls.ts): one mcl module per thread serves both, and that
// file repeats this one's mcl set-up and hash_to_curve (neither part may import the other).
import { expand_message_xmd } from '@noble/curves/abstract/hash-to-curve';
import { sha256 } from '@noble/hashes/sha256';
import * as mcl from 'mcl-wasm';

export const BLS_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
export const BLS_PUBLIC_KEY_LENGTH = 96;
export const BLS_SIGNATURE_LENGTH = 48;

interface Engine {
    g2Generator: mcl.G2;
    /** Lines of -G2 precomputed once: every verification pairs the signature with it. */
    negG2Lines: mcl.PrecomputedG2;
}

const DST_BYTES = new TextEncoder().encode(BLS_DST);

/**
 * The G2 generator in the compressed encoding of the BLS12-381 standard (the IETF pairing-friendly
 * curves draft, Zcash serialisation): a constant, where noble's BASE.toRawBytes() would first check
 * the point's order, ~0.4 s of JavaScript in every process (held to noble in test/replica/crypto).
 */
export const G2_GENERATOR_COMPRESSED =
    '93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e' +
    '024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8';
/** A gateway verifies against very few keys (the IC's root key), so a tiny cache suffices. */
const PUBLIC_KEY_CACHE_LIMIT = 8;

let engine: Engine | undefined;
let initializing: Promise<void> | undefined;
const publicKeyLines = new Map<string, mcl.PrecomputedG2>();

/**
 * mcl-wasm keeps one module per thread and a second init replaces it, breaking every point made
 * before: whoever in the thread needs it first (a gateway, or the local replica in the same
 * process) initialises it once, under a key of the global symbol registry both use (neither
 * imports the other), with the settings both need.
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

/** Loads the mcl WebAssembly module and prepares constants; safe to call many times. */
export function initBls(): Promise<void> {
    if (!initializing) {
        initializing = (async () => {
            await mclOnce();
            const g2Generator = new mcl.G2();
            g2Generator.deserialize(Buffer.from(G2_GENERATOR_COMPRESSED, 'hex'));
            engine = { g2Generator, negG2Lines: new mcl.PrecomputedG2(mcl.neg(g2Generator)) };
        })().catch((error: unknown) => {
            initializing = undefined;
            throw error;
        });
    }
    return initializing;
}

/** The initialised engine; initBls() must have finished. */
function ready(): Engine {
    if (!engine) throw new Error('BLS is not initialised: await initBls() first');
    return engine;
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

/** `point` read from `bytes`, or undefined when they encode no point of the group, or the identity. */
function pointOf<P extends mcl.G1 | mcl.G2>(point: P, bytes: Uint8Array): P | undefined {
    try {
        point.deserialize(bytes);
    } catch {
        return undefined;
    }
    return point.isZero() ? undefined : point;
}

function linesForPublicKey(publicKey: Uint8Array): mcl.PrecomputedG2 | undefined {
    const cacheKey = Buffer.from(publicKey).toString('hex');
    const cached = publicKeyLines.get(cacheKey);
    if (cached) return cached;
    const point = pointOf(new mcl.G2(), publicKey);
    if (!point) return undefined;
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
export function blsVerify(
    publicKey: Uint8Array,
    signature: Uint8Array,
    message: Uint8Array,
): boolean | Promise<boolean> {
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
    const sig = pointOf(new mcl.G1(), signature);
    if (!sig) return false;
    const product = mcl.precomputedMillerLoop2(hashToG1(message), pkLines, sig, negG2Lines);
    return mcl.finalExp(product).isOne();
}
