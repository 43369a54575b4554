// The replica's BLS12-381 signing against noble, the agent's verifier and a gateway's verifier
// sharing its thread's one mcl module.
import { blsVerify as agentBlsVerify } from '@dfinity/agent';
import { bls12_381 } from '@noble/curves/bls12-381';
import {
    blsVerify,
    G2_GENERATOR_COMPRESSED as GATEWAY_G2_GENERATOR,
    initBls as initGatewayBls,
} from '../../../gateway/ic/bls';
import {
    blsPublicKeyFromDer,
    blsPublicKeyFromSecretKey,
    blsPublicKeyToDer,
    blsSign,
    G2_GENERATOR_COMPRESSED,
    generateBlsKey,
    initBls,
} from '../../../replica/crypto/bls';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

// The DER prefix @dfinity/agent's certificate.js expects in front of a root key.
const AGENT_ROOT_KEY_PREFIX = '308182301d060d2b0601040182dc7c0503010201060c2b0601040182dc7c05030201036100';

beforeAll(async () => {
    await initBls();
    await initBls(); // idempotent
    // A gateway's verifier in the same thread shares the one mcl module (initialised once).
    await initGatewayBls();
});

describe('BLS12-381 (IC flavour)', () => {
    const seed = new Uint8Array(32).fill(7);

    test("the replica's and a gateway's G2 generator are noble's", () => {
        const noble = Buffer.from(bls12_381.G2.ProjectivePoint.BASE.toRawBytes(true)).toString('hex');
        expect(G2_GENERATOR_COMPRESSED).toBe(noble);
        expect(GATEWAY_G2_GENERATOR).toBe(noble);
    });

    test('keys are deterministic per seed and match noble', () => {
        const a = generateBlsKey(seed);
        const b = generateBlsKey(seed);
        expect(Buffer.from(a.secretKey)).toEqual(Buffer.from(b.secretKey));
        expect(a.publicKey).toHaveLength(96);
        expect(Buffer.from(a.publicKey)).toEqual(Buffer.from(bls12_381.getPublicKeyForShortSignatures(a.secretKey)));
        expect(Buffer.from(blsPublicKeyFromSecretKey(a.secretKey))).toEqual(Buffer.from(a.publicKey));
        const c = generateBlsKey();
        expect(Buffer.from(c.secretKey)).not.toEqual(Buffer.from(a.secretKey));
    });

    test('signatures equal noble signShortSignature and pass the agent default verifier', () => {
        const { secretKey, publicKey } = generateBlsKey(seed);
        for (const message of [new Uint8Array(0), utf8('hello'), new Uint8Array(1000).fill(0xab)]) {
            const signature = blsSign(secretKey, message);
            expect(signature).toHaveLength(48);
            expect(Buffer.from(signature)).toEqual(Buffer.from(bls12_381.signShortSignature(message, secretKey)));
            expect(agentBlsVerify(publicKey, signature, message)).toBe(true);
            expect(blsVerify(publicKey, signature, message)).toBe(true);
        }
    });

    test('verifies noble signatures and rejects tampering', () => {
        const { secretKey, publicKey } = generateBlsKey(seed);
        const other = generateBlsKey(new Uint8Array(32).fill(9));
        const message = utf8('state root');
        const signature = Uint8Array.from(bls12_381.signShortSignature(message, secretKey));
        expect(blsVerify(publicKey, signature, message)).toBe(true);

        expect(blsVerify(publicKey, signature, utf8('state rooT'))).toBe(false);
        expect(blsVerify(other.publicKey, signature, message)).toBe(false);
        expect(blsVerify(publicKey, blsSign(other.secretKey, message), message)).toBe(false);
        const flipped = Uint8Array.from(signature);
        flipped[47] ^= 1;
        expect(blsVerify(publicKey, flipped, message)).toBe(false);
        const badKey = Uint8Array.from(publicKey);
        badKey[95] ^= 1;
        expect(blsVerify(badKey, signature, message)).toBe(false);
        expect(blsVerify(publicKey, signature.subarray(0, 47), message)).toBe(false);
        // The point at infinity is a valid encoding but never a valid key or signature.
        const infinityG1 = new Uint8Array(48);
        infinityG1[0] = 0xc0;
        expect(blsVerify(publicKey, infinityG1, message)).toBe(false);
        const infinityG2 = new Uint8Array(96);
        infinityG2[0] = 0xc0;
        expect(blsVerify(infinityG2, infinityG1, message)).toBe(false);
    });

    test('DER encoding is the one the agent expects for root keys', () => {
        const { publicKey } = generateBlsKey(seed);
        const der = blsPublicKeyToDer(publicKey);
        expect(Buffer.from(der).toString('hex')).toBe(AGENT_ROOT_KEY_PREFIX + Buffer.from(publicKey).toString('hex'));
        expect(Buffer.from(blsPublicKeyFromDer(der))).toEqual(Buffer.from(publicKey));
        expect(() => blsPublicKeyFromDer(der.subarray(1))).toThrow();
    });

    test('timings (printed, not asserted)', () => {
        const { secretKey, publicKey } = generateBlsKey(seed);
        const rounds = 100;
        const messages = Array.from({ length: rounds }, (_, i) => utf8(`message ${i}`));
        for (let i = 0; i < 10; i++) blsVerify(publicKey, blsSign(secretKey, messages[i]), messages[i]); // warm-up
        let start = performance.now();
        const signatures = messages.map((m) => blsSign(secretKey, m));
        const signMs = (performance.now() - start) / rounds;
        start = performance.now();
        for (let i = 0; i < rounds; i++) expect(blsVerify(publicKey, signatures[i], messages[i])).toBe(true);
        const verifyMs = (performance.now() - start) / rounds;
        start = performance.now();
        for (let i = 0; i < 5; i++) expect(agentBlsVerify(publicKey, signatures[i], messages[i])).toBe(true);
        const nobleVerifyMs = (performance.now() - start) / 5;
        console.log(
            `BLS timings: sign ${signMs.toFixed(2)} ms, verify ${verifyMs.toFixed(2)} ms (mcl); ` +
                `agent default (noble) verify ${nobleVerifyMs.toFixed(2)} ms`,
        );
    });
});
