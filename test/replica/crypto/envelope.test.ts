import { AnonymousIdentity, Cbor, DER_COSE_OID, requestIdOf, wrapDER } from '@dfinity/agent';
import type { Identity } from '@dfinity/agent';
import { DelegationChain, DelegationIdentity, ECDSAKeyIdentity, Ed25519KeyIdentity } from '@dfinity/identity';
import { Secp256k1KeyIdentity } from '@dfinity/identity-secp256k1';
import { Principal } from '@dfinity/principal';
import {
    authenticateEnvelope,
    MAX_INGRESS_TTL_NS,
    PERMITTED_DRIFT_NS,
    type EnvelopeCheck,
} from '../../../replica/crypto/envelope';

const SECOND = 1_000_000_000n;
/** The one "now" of this file: every expiry below is relative to it, never to a later Date.now(). */
const NOW_MS = Date.now();
const NOW = BigInt(NOW_MS) * 1_000_000n;
const CANISTER = Principal.fromText('rrkah-fqaaa-aaaaa-aaaaq-cai');
const OTHER_CANISTER = Principal.fromText('ryjl3-tyaaa-aaaaa-aaaba-cai');

type Envelope = Record<string, unknown> & { content: Record<string, unknown> };

function callContent(sender: Principal, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
        request_type: 'call',
        canister_id: CANISTER,
        method_name: 'greet',
        arg: new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 0]),
        sender,
        ingress_expiry: NOW + 4n * 60n * SECOND,
        nonce: new Uint8Array(16).fill(1),
        ...overrides,
    };
}

/** Signs like the agent does and round-trips through CBOR like the HTTP server will. */
async function envelopeFor(identity: Identity, content: Record<string, unknown>): Promise<Envelope> {
    const signed = (await identity.transformRequest({ request: {}, endpoint: 'call', body: content } as never)) as {
        body: unknown;
    };
    return Cbor.decode<Envelope>(Cbor.encode(signed.body));
}

function check(envelope: unknown, options: { now?: bigint; ecid?: Principal } = {}): EnvelopeCheck {
    return authenticateEnvelope(envelope, { nowNs: options.now ?? NOW, effectiveCanisterId: options.ecid ?? CANISTER });
}

function expectRejected(result: EnvelopeCheck, status: number, message: RegExp): void {
    expect(result.ok).toBe(false);
    if (!result.ok) {
        expect(result.httpStatus).toBe(status);
        expect(result.message).toMatch(message);
    }
}

async function delegated(options: { expiresAt?: Date; targets?: Principal[] } = {}) {
    const root = Ed25519KeyIdentity.generate();
    const session = await ECDSAKeyIdentity.generate();
    const chain = await DelegationChain.create(
        root,
        session.getPublicKey(),
        options.expiresAt ?? new Date(NOW_MS + 3600_000),
        {
            targets: options.targets,
        },
    );
    return { root, identity: DelegationIdentity.fromDelegation(session, chain) };
}

describe('envelope authentication', () => {
    test.each([
        ['Ed25519', async () => Ed25519KeyIdentity.generate()],
        ['ECDSA secp256k1', async () => Secp256k1KeyIdentity.generate()],
        ['ECDSA P-256 (WebCrypto)', async () => ECDSAKeyIdentity.generate()],
    ])('accepts %s signatures and returns the request id, sender and content', async (_name, make) => {
        const identity = await make();
        const content = callContent(identity.getPrincipal());
        const result = check(await envelopeFor(identity, content));
        expect(result).toMatchObject({ ok: true });
        if (!result.ok) return;
        expect(Buffer.from(result.requestId)).toEqual(Buffer.from(requestIdOf(content)));
        expect(result.sender.toText()).toBe(identity.getPrincipal().toText());
        expect(result.content).toMatchObject({
            request_type: 'call',
            method_name: 'greet',
            ingress_expiry: content.ingress_expiry,
        });
        if (result.content.request_type !== 'read_state')
            expect(result.content.canister_id.toText()).toBe(CANISTER.toText());
        expect(result.content.nonce).toEqual(new Uint8Array(16).fill(1));
    });

    test('accepts anonymous requests without key or signature', async () => {
        const result = check(await envelopeFor(new AnonymousIdentity(), callContent(Principal.anonymous())));
        expect(result).toMatchObject({ ok: true });
        if (result.ok) expect(result.sender.isAnonymous()).toBe(true);
    });

    test('accepts delegated identities, including chains of several delegations', async () => {
        const { root, identity } = await delegated({ targets: [CANISTER, OTHER_CANISTER] });
        const result = check(await envelopeFor(identity, callContent(identity.getPrincipal())));
        expect(result).toMatchObject({ ok: true });
        if (result.ok) expect(result.sender.toText()).toBe(root.getPrincipal().toText());

        const middle = Secp256k1KeyIdentity.generate();
        const leaf = Ed25519KeyIdentity.generate();
        const first = await DelegationChain.create(root, middle.getPublicKey(), new Date(NOW_MS + 3600_000));
        const second = await DelegationChain.create(middle, leaf.getPublicKey(), new Date(NOW_MS + 3600_000), {
            previous: first,
            targets: [CANISTER],
        });
        const twoHops = DelegationIdentity.fromDelegation(leaf, second);
        expect(check(await envelopeFor(twoHops, callContent(twoHops.getPrincipal())))).toMatchObject({ ok: true });
    });

    test('accepts read_state requests, checking delegation targets against the URL canister', async () => {
        const { identity } = await delegated({ targets: [CANISTER] });
        const content = {
            request_type: 'read_state',
            paths: [[new TextEncoder().encode('request_status'), new Uint8Array(32)]],
            sender: identity.getPrincipal(),
            ingress_expiry: NOW + 60n * SECOND,
        };
        const envelope = await envelopeFor(identity, content);
        const result = check(envelope);
        expect(result).toMatchObject({ ok: true, content: { request_type: 'read_state' } });
        if (result.ok && result.content.request_type === 'read_state')
            expect(result.content.paths[0][1]).toEqual(new Uint8Array(32));
        expectRejected(check(envelope, { ecid: OTHER_CANISTER }), 403, /not one of the delegation targets/);
    });

    test('rejects a forged signature and tampered content', async () => {
        const identity = Ed25519KeyIdentity.generate();
        const envelope = await envelopeFor(identity, callContent(identity.getPrincipal()));
        const forged = { ...envelope, sender_sig: Uint8Array.from(envelope.sender_sig as Uint8Array) };
        (forged.sender_sig as Uint8Array)[0] ^= 1;
        expectRejected(check(forged), 400, /^Invalid signature/);
        const tampered = { ...envelope, content: { ...envelope.content, arg: new Uint8Array([1]) } };
        expectRejected(check(tampered), 400, /^Invalid signature/);
        const secp = Secp256k1KeyIdentity.generate();
        const secpEnvelope = await envelopeFor(secp, callContent(secp.getPrincipal()));
        expectRejected(
            check({ ...secpEnvelope, content: { ...secpEnvelope.content, method_name: 'other' } }),
            400,
            /does not verify/,
        );
    });

    test('rejects a sender that is not the key owner, and missing keys', async () => {
        const signer = Ed25519KeyIdentity.generate();
        const victim = Ed25519KeyIdentity.generate();
        const envelope = await envelopeFor(signer, callContent(victim.getPrincipal()));
        expectRejected(check(envelope), 400, /is not the self-authenticating id/);
        const unsigned = await envelopeFor(new AnonymousIdentity(), callContent(victim.getPrincipal()));
        expectRejected(check(unsigned), 400, /missing sender_pubkey/);
    });

    test('rejects anonymous requests that carry a key or signature', async () => {
        const identity = Ed25519KeyIdentity.generate();
        const envelope = await envelopeFor(identity, callContent(Principal.anonymous()));
        expectRejected(check(envelope), 400, /anonymous requests must not carry/);
    });

    test('enforces the ingress expiry window: now ≤ expiry ≤ now + 5 min + drift', async () => {
        const identity = Ed25519KeyIdentity.generate();
        const at = async (expiry: bigint) =>
            check(await envelopeFor(identity, callContent(identity.getPrincipal(), { ingress_expiry: expiry })));
        expectRejected(await at(NOW - SECOND), 400, /^Invalid request expiry: /);
        expectRejected(await at(NOW + 10n * 60n * SECOND), 400, /^Invalid request expiry: /);
        expectRejected(await at(NOW + MAX_INGRESS_TTL_NS + PERMITTED_DRIFT_NS + 1n), 400, /^Invalid request expiry: /);
        expect(await at(NOW + MAX_INGRESS_TTL_NS + PERMITTED_DRIFT_NS)).toMatchObject({ ok: true });
        expect(await at(NOW)).toMatchObject({ ok: true });
    });

    test('lets anonymous reads through with any expiry (how agents sync their clock), but not anonymous calls', async () => {
        const anonymous = new AnonymousIdentity();
        const far = NOW + 30n * 24n * 3600n * SECOND;
        const read = {
            request_type: 'read_state',
            paths: [[new TextEncoder().encode('time')]],
            sender: Principal.anonymous(),
            ingress_expiry: far,
        };
        expect(check(await envelopeFor(anonymous, read))).toMatchObject({ ok: true });
        const query = callContent(Principal.anonymous(), { request_type: 'query', ingress_expiry: far });
        expect(
            authenticateEnvelope(await envelopeFor(anonymous, query), {
                nowNs: NOW,
                effectiveCanisterId: CANISTER,
                expectedRequestType: 'query',
            }),
        ).toMatchObject({ ok: true });
        expectRejected(
            check(await envelopeFor(anonymous, callContent(Principal.anonymous(), { ingress_expiry: far }))),
            400,
            /^Invalid request expiry: /,
        );
    });

    test('rejects expired delegations and canisters outside the delegation targets', async () => {
        const expired = await delegated({ expiresAt: new Date(NOW_MS - 60_000) });
        expectRejected(
            check(await envelopeFor(expired.identity, callContent(expired.identity.getPrincipal()))),
            400,
            /^Invalid delegation expiry/,
        );

        const scoped = await delegated({ targets: [OTHER_CANISTER] });
        expectRejected(
            check(await envelopeFor(scoped.identity, callContent(scoped.identity.getPrincipal()))),
            403,
            /not one of the delegation targets/,
        );
    });

    test('rejects tampered delegations, cycles and over-long chains', async () => {
        const { identity } = await delegated();
        const envelope = await envelopeFor(identity, callContent(identity.getPrincipal()));
        const chain = envelope.sender_delegation as Array<{
            delegation: Record<string, unknown>;
            signature: Uint8Array;
        }>;
        const stretched = [
            {
                ...chain[0],
                delegation: { ...chain[0].delegation, expiration: BigInt(NOW_MS + 999_999_999) * 1_000_000n },
            },
        ];
        expectRejected(check({ ...envelope, sender_delegation: stretched }), 400, /^Invalid delegation: delegation 0/);

        const a = Ed25519KeyIdentity.generate();
        const b = Ed25519KeyIdentity.generate();
        const later = new Date(NOW_MS + 3600_000);
        const ab = await DelegationChain.create(a, b.getPublicKey(), later);
        const aba = await DelegationChain.create(b, a.getPublicKey(), later, { previous: ab });
        const cyclic = DelegationIdentity.fromDelegation(a, aba);
        expectRejected(
            check(await envelopeFor(cyclic, callContent(cyclic.getPrincipal()))),
            400,
            /already appears in the chain/,
        );

        let long = await DelegationChain.create(a, b.getPublicKey(), later);
        let signer = b;
        for (let i = 0; i < 20; i++) {
            const next = Ed25519KeyIdentity.generate();
            long = await DelegationChain.create(signer, next.getPublicKey(), later, { previous: long });
            signer = next;
        }
        const tooLong = DelegationIdentity.fromDelegation(signer, long);
        expectRejected(check(await envelopeFor(tooLong, callContent(tooLong.getPrincipal()))), 400, /at most 20/);
    });

    test('checks the canister id against the URL, except for the management canister', async () => {
        const identity = Ed25519KeyIdentity.generate();
        const envelope = await envelopeFor(identity, callContent(identity.getPrincipal()));
        expectRejected(check(envelope, { ecid: OTHER_CANISTER }), 400, /does not match effective canister id/);
        const management = await envelopeFor(
            identity,
            callContent(identity.getPrincipal(), { canister_id: Principal.managementCanister() }),
        );
        expect(check(management, { ecid: OTHER_CANISTER })).toMatchObject({ ok: true });
    });

    test('names unsupported key schemes and rejects malformed envelopes', async () => {
        // SEQUENCE(OID 1.3.6.1.4.1.56387.1.2, BIT STRING(|canister id| · canister id · seed))
        const canisterSigOid = Uint8Array.from(Buffer.from('300c060a2b0601040183b8430102', 'hex'));
        const canisterSigKey = wrapDER(Uint8Array.from([10, ...CANISTER.toUint8Array(), 0xaa, 0xbb]), canisterSigOid);
        const sender = Principal.selfAuthenticating(canisterSigKey);
        const envelope = {
            content: Cbor.decode<Envelope>(Cbor.encode({ content: callContent(sender) })).content,
            sender_pubkey: canisterSigKey,
            sender_sig: new Uint8Array(64),
        };
        expectRejected(check(envelope), 400, /canister signature public keys are not supported/);
        const coseKey = wrapDER(new Uint8Array(77).fill(1), DER_COSE_OID);
        const coseSender = Principal.selfAuthenticating(coseKey).toUint8Array();
        const coseEnvelope = {
            ...envelope,
            content: { ...envelope.content, sender: coseSender },
            sender_pubkey: coseKey,
        };
        expectRejected(check(coseEnvelope), 400, /WebAuthn \(DER-wrapped COSE\) public keys are not supported/);

        expectRejected(check('nope'), 400, /^Invalid envelope/);
        expectRejected(check({}), 400, /content must be a map/);
        const identity = Ed25519KeyIdentity.generate();
        const bigNonce = await envelopeFor(
            identity,
            callContent(identity.getPrincipal(), { nonce: new Uint8Array(33) }),
        );
        expectRejected(check(bigNonce), 400, /nonce is longer than 32 bytes/);
        const unknownType = await envelopeFor(
            identity,
            callContent(identity.getPrincipal(), { request_type: 'bogus' }),
        );
        expectRejected(check(unknownType), 400, /unknown request_type/);
        expectRejected(
            authenticateEnvelope(await envelopeFor(identity, callContent(identity.getPrincipal())), {
                nowNs: NOW,
                effectiveCanisterId: CANISTER,
                expectedRequestType: 'query',
            }),
            400,
            /sent to the query endpoint/,
        );
    });
});
