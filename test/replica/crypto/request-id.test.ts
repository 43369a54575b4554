// The replica's native representation-independent hash gives the agent's bytes and refuses what it refuses.
import { hashOfMap as agentHashOfMap, requestIdOf as agentRequestIdOf } from '@dfinity/agent';
import { Principal } from '@dfinity/principal';

import { hashOfMap, requestIdOf } from '../../../replica/crypto/request-id';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('request ids', () => {
    test('every value kind a request, a delegation or a query response holds hashes as the agent hashes it', () => {
        const maps: Array<Record<string, unknown>> = [
            {
                request_type: 'call',
                canister_id: Principal.fromText('ryjl3-tyaaa-aaaaa-aaaba-cai'),
                method_name: 'submit_scores',
                arg: new Uint8Array(300).fill(7),
                sender: Principal.anonymous(),
                ingress_expiry: 1_700_000_000_000_000_000n,
                nonce: new Uint8Array(16).fill(1),
            },
            // As CBOR decodes a request: principals as bytes, small numbers as numbers, absent fields.
            {
                request_type: 'read_state',
                sender: new Uint8Array([4]),
                ingress_expiry: 1_700_000_000,
                paths: [[new TextEncoder().encode('request_status'), new Uint8Array(32)], []],
                nonce: undefined,
            },
            { pubkey: new Uint8Array(44), expiration: 0, targets: [new Uint8Array(10), new Uint8Array(0)] },
            { status: 'replied', reply: { arg: new Uint8Array([0x44, 0x49, 0x44, 0x4c]) }, timestamp: 5n },
            { '': '', ü: 'ünïcode', n: 2 ** 40 },
            {},
        ];
        for (const map of maps) {
            expect(hex(hashOfMap(map))).toBe(hex(agentHashOfMap(map)));
            expect(hex(requestIdOf(map))).toBe(hex(agentRequestIdOf(map)));
            expect(requestIdOf(map).constructor).toBe(Uint8Array);
        }
    });

    test('values the agent cannot hash are refused here too', () => {
        for (const value of [true, null, -1, 1.5, -1n, [1, null], () => 1]) {
            expect(() => agentHashOfMap({ a: value })).toThrow();
            expect(() => hashOfMap({ a: value })).toThrow();
        }
    });
});
