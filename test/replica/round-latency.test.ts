// --round-ms: IC-like latency. A call's reply becomes visible only when its round runs (here
// an hour after it was asked for, so only the test's own tick runs it): until then read_state
// shows no reply and the canister's state has not moved, while queries are answered at once;
// calls that arrive meanwhile share the round. Nothing here waits for the delay itself.
import { Certificate, lookupResultToBuffer, type RequestId } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import type { Replica } from '../../replica/replica';
import { actorFor, agentFor, startTestReplica } from '../support/replica';
import { probeIdl, probeInit, probeWasm, type Probe } from './probe';

let replica: Replica;
let id: Principal;

beforeAll(async () => {
    replica = await startTestReplica({ roundMs: 3_600_000 });
    id = replica.createCanister();
    await replica.installCode(id, probeWasm(), { arg: probeInit('latency') });
});
afterAll(() => replica.stop());

const EMPTY_ARGS = new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 0]);

test("a call's reply is not visible before its round; queries answer meanwhile; calls arriving meanwhile share the round", async () => {
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
    // Submitted, answered by queries at once, but not executed: no reply anywhere.
    for (const c of calls) expect(await status(c.requestId)).not.toBe('replied');
    expect(await probe.count()).toBe(before);
    const rounds = replica.executions().filter((e) => e.method.endsWith(' increment')).length;

    await replica.tick(); // the round the hour-long delay would have run
    for (const c of calls) expect(await status(c.requestId)).toBe('replied');
    expect(await probe.count()).toBe(before + 3n);
    expect(replica.executions().filter((e) => e.method.endsWith(' increment')).length).toBe(rounds + 3);
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

test('with a short delay the rounds run by themselves: a synchronous call completes with its reply', async () => {
    const quick = await startTestReplica({ roundMs: 20 });
    try {
        const canister = quick.createCanister();
        await quick.installCode(canister, probeWasm(), { arg: probeInit('quick') });
        const probe = actorFor<Probe>(await agentFor(quick), probeIdl, canister);
        const before = await probe.count();
        expect(await probe.increment()).toBe(before + 1n);
        expect(await probe.count()).toBe(before + 1n);
    } finally {
        await quick.stop();
    }
});
