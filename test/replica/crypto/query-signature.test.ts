import { Ed25519PublicKey, hashOfMap, IC_RESPONSE_DOMAIN_SEPARATOR } from '@dfinity/agent';
import { ed25519 } from '@noble/curves/ed25519';
import { Principal } from '@dfinity/principal';
import { generateNodeKey, signQueryResponse } from '../../../replica/crypto/query-signature';

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => Uint8Array.from([...a, ...b]);

describe('query response signatures', () => {
    test('node keys are DER Ed25519 (44 bytes) with a self-authenticating node id, deterministic per seed', () => {
        const seed = new Uint8Array(32).fill(5);
        const key = generateNodeKey(seed);
        expect(key.publicKeyDer).toHaveLength(44);
        expect(Ed25519PublicKey.fromDer(key.publicKeyDer as never).rawKey).toEqual(ed25519.getPublicKey(seed));
        expect(key.nodeId.toText()).toBe(Principal.selfAuthenticating(key.publicKeyDer).toText());
        expect(generateNodeKey(seed).nodeId.toText()).toBe(key.nodeId.toText());
        expect(generateNodeKey().nodeId.toText()).not.toBe(key.nodeId.toText());
    });

    test('signatures verify exactly as the agent checks them, for replies and rejects', () => {
        const key = generateNodeKey(new Uint8Array(32).fill(6));
        const requestId = new Uint8Array(32).fill(0x17);
        const timestamp = 1_700_000_000_000_000_000n;
        const raw = Ed25519PublicKey.fromDer(key.publicKeyDer as never).rawKey;

        const reply = { status: 'replied' as const, reply: { arg: new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 0]) } };
        const signed = signQueryResponse(key.secretKey, reply, requestId, timestamp);
        expect(signed.timestamp).toBe(timestamp);
        expect(Principal.fromUint8Array(signed.identity).toText()).toBe(key.nodeId.toText());
        const replyHash = hashOfMap({ status: 'replied', reply: reply.reply, timestamp, request_id: requestId });
        expect(ed25519.verify(signed.signature, concat(IC_RESPONSE_DOMAIN_SEPARATOR, replyHash), raw)).toBe(true);

        const reject = {
            status: 'rejected' as const,
            reject_code: 3,
            reject_message: 'no such method',
            error_code: 'IC0536',
        };
        const rejected = signQueryResponse(key.secretKey, reject, requestId, timestamp);
        const rejectHash = hashOfMap({ ...reject, timestamp, request_id: requestId });
        expect(ed25519.verify(rejected.signature, concat(IC_RESPONSE_DOMAIN_SEPARATOR, rejectHash), raw)).toBe(true);

        // Without error_code the field is left out of the hash, as the agent does for an absent field.
        const bare = { status: 'rejected' as const, reject_code: 5, reject_message: 'trap' };
        const bareSigned = signQueryResponse(key.secretKey, bare, requestId, timestamp);
        const bareHash = hashOfMap({ ...bare, error_code: undefined, timestamp, request_id: requestId });
        expect(ed25519.verify(bareSigned.signature, concat(IC_RESPONSE_DOMAIN_SEPARATOR, bareHash), raw)).toBe(true);

        // Any change in what was signed breaks it.
        const otherHash = hashOfMap({
            status: 'replied',
            reply: reply.reply,
            timestamp: timestamp + 1n,
            request_id: requestId,
        });
        expect(ed25519.verify(signed.signature, concat(IC_RESPONSE_DOMAIN_SEPARATOR, otherHash), raw)).toBe(false);
    });
});
