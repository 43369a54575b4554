// @dfinity/agent talks to the replica exactly as to the IC: root key, queries with node
// signatures, update calls with certified replies, read_state, identities.
import { Actor, Certificate, HttpAgent, lookupResultToBuffer, pollForResponse } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Secp256k1KeyIdentity } from '@dfinity/identity-secp256k1';

import { blsVerify } from '../../gateway/ic/bls';
import type { Replica } from '../../replica/replica';
import { actorFor, agentFor, startTestReplica } from '../support/replica';
import { installProbe, probeIdl, type Probe } from './probe';

let replica: Replica;
let canisterId: Principal;

beforeAll(async () => {
    replica = await startTestReplica();
    ({ id: canisterId } = await installProbe(replica, 'agent'));
});
afterAll(() => replica.stop());

test('the root key served at /api/v2/status is the one certificates are signed with', async () => {
    const agent = await agentFor(replica);
    expect(Buffer.from(agent.rootKey!).equals(Buffer.from(replica.rootKey))).toBe(true);
});

test('Candid query and update round trips with certified replies', async () => {
    const probe = actorFor<Probe>(await agentFor(replica), probeIdl, canisterId);
    expect(await probe.label_()).toBe('agent:0');
    const before = await probe.count();
    expect(await probe.increment()).toBe(before + 1n);
    expect(await probe.increment()).toBe(before + 2n);
    expect(await probe.count()).toBe(before + 2n);
    expect(await probe.put('k', 'v')).toBe(1n);
    expect(await probe.get('k')).toEqual(['v']);
    expect(await probe.get('missing')).toEqual([]);
});

test('the default (pure JavaScript) verifier of the agent accepts the certificates too', async () => {
    const agent = await agentFor(replica);
    const probe = Actor.createActor(probeIdl, { agent, canisterId }) as unknown as Probe;
    const n = await probe.increment();
    expect(await probe.count()).toBe(n);
});

test('the caller is the authenticated sender: Ed25519, secp256k1 and anonymous', async () => {
    for (const identity of [Ed25519KeyIdentity.generate(), Secp256k1KeyIdentity.generate()]) {
        const probe = actorFor<Probe>(await agentFor(replica, identity), probeIdl, canisterId);
        expect((await probe.whoami()).toText()).toBe(identity.getPrincipal().toText());
    }
    const anonymous = actorFor<Probe>(await agentFor(replica), probeIdl, canisterId);
    expect((await anonymous.whoami()).toText()).toBe('2vxsx-fae');
});

test('the v2 call + read_state polling path works as well as the synchronous v3 call', async () => {
    const agent = await agentFor(replica);
    const probe = actorFor<Probe>(agent, probeIdl, canisterId);
    const before = await probe.count();
    // callSync: false makes the agent use /api/v2/.../call and poll read_state.
    const { requestId } = await agent.call(canisterId, {
        methodName: 'increment',
        arg: new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 0]),
        callSync: false,
    });
    const { certificate } = await agent.readState(canisterId, {
        paths: [[new TextEncoder().encode('request_status'), requestId]],
    });
    expect(certificate).toBeDefined();
    // Poll read_state as the agent does until the status is final, however long that takes:
    // between polls only yield to the replica's round (no fixed number of fixed sleeps).
    const { reply } = await pollForResponse(agent, canisterId, requestId, {
        strategy: () => new Promise((r) => setImmediate(r)),
        blsVerify,
    });
    expect(IDL.decode([IDL.Nat64], reply!)).toEqual([before + 1n]);
    expect(await probe.count()).toBe(before + 1n);
});

test('read_state certificates verify against the root key and reveal the module hash and controllers', async () => {
    const agent = await agentFor(replica);
    const { certificate } = await agent.readState(canisterId, {
        paths: [
            [new TextEncoder().encode('canister'), canisterId.toUint8Array(), new TextEncoder().encode('module_hash')],
            [new TextEncoder().encode('time')],
        ],
    });
    const cert = await Certificate.create({ certificate, rootKey: replica.rootKey, canisterId });
    const hash = lookupResultToBuffer(cert.lookup_path(['canister', canisterId.toUint8Array(), 'module_hash']));
    expect(hash).toBeDefined();
    expect(Buffer.from(hash!).toString('hex')).toBe(
        Buffer.from(replica.subnet.canisters.get(canisterId.toText())!.system.moduleHash!).toString('hex'),
    );
});

test('an agent with a different root key rejects the replica certificates', async () => {
    const other = await startTestReplica();
    try {
        const agent = await HttpAgent.create({ host: replica.url, rootKey: other.rootKey });
        const probe = Actor.createActor(probeIdl, { agent, canisterId }) as unknown as Probe;
        await expect(probe.increment()).rejects.toThrow();
    } finally {
        await other.stop();
    }
});
