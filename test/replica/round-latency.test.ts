// --round-ms: IC-like latency. A round runs at once, but its results (replies, the certified
// state read_state shows) become visible only the delay later, here an hour, so only the
// test's own tick publishes them; queries answer meanwhile. Nothing here waits for the delay.
import { Certificate, lookupResultToBuffer, type RequestId } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import type { Replica } from '../../replica/replica';
import { actorFor, agentFor, startTestReplica } from '../support/replica';
import { installProbe, probeIdl, probeInit, probeWasm, type Probe } from './probe';

let replica: Replica;
let id: Principal;

beforeAll(async () => {
    replica = await startTestReplica({ roundMs: 3_600_000 });
    id = replica.createCanister();
    await replica.installCode(id, probeWasm(), { arg: probeInit('latency') });
});
afterAll(() => replica.stop());

const EMPTY_ARGS = new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 0]);

test("a call's reply is not visible before the delay, though it ran; queries answer meanwhile", async () => {
    const agent = await agentFor(replica);
    const probe = actorFor<Probe>(agent, probeIdl, id);
    const before = await probe.count();
    const calls = [];
    for (let i = 0; i < 3; i++)
        calls.push(await agent.call(id, { methodName: 'increment', arg: EMPTY_ARGS, callSync: false }));
    const status = async (requestId: RequestId): Promise<string | undefined> => {
        const { certificate } = await agent.readState(id, {
            paths: [[new TextEncoder().encode('request_status'), new Uint8Array(requestId)]],
        });
        const cert = await Certificate.create({ certificate, rootKey: replica.rootKey, canisterId: id });
        const bytes = lookupResultToBuffer(cert.lookup_path(['request_status', new Uint8Array(requestId), 'status']));
        return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
    };
    // Executed (a query sees the new state, as on the IC), but no reply is visible anywhere.
    for (let i = 0; (await probe.count()) < before + 3n && i < 1000; i++) await new Promise((r) => setImmediate(r));
    expect(await probe.count()).toBe(before + 3n);
    for (const c of calls) expect(await status(c.requestId)).not.toBe('replied');

    await replica.tick(); // publishes what the hour-long delay holds back
    for (const c of calls) expect(await status(c.requestId)).toBe('replied');
    const replies = await Promise.all(
        calls.map(async (c) => {
            const { certificate } = await agent.readState(id, {
                paths: [[new TextEncoder().encode('request_status'), new Uint8Array(c.requestId)]],
            });
            const cert = await Certificate.create({ certificate, rootKey: replica.rootKey, canisterId: id });
            const reply = lookupResultToBuffer(
                cert.lookup_path(['request_status', new Uint8Array(c.requestId), 'reply']),
            );
            return IDL.decode([IDL.Nat64], reply!)[0];
        }),
    );
    expect(replies).toEqual([before + 1n, before + 2n, before + 3n]);
});

test('with a short delay results are published by themselves: a synchronous call completes with its reply', async () => {
    const quick = await startTestReplica({ roundMs: 20 });
    try {
        const { probe } = await installProbe(quick, 'quick');
        const before = await probe.count();
        expect(await probe.increment()).toBe(before + 1n);
        expect(await probe.count()).toBe(before + 1n);
    } finally {
        await quick.stop();
    }
});
