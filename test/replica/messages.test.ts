// IC execution rules on the real canister wasm: atomic messages, queries that never persist,
// the instruction limit, timers, raw_rand seeding and inter-canister calls.
import type { Principal } from '@dfinity/principal';

import type { Replica } from '../../replica/replica';
import type { HttpAgent } from '@dfinity/agent';

import { actorFor, advance, agentFor, startTestReplica } from '../support/replica';
import { probeIdl, probeInit, probeWasm, type Probe } from './probe';

let replica: Replica;
let a: Principal;
let b: Principal;
let probeA: Probe;
let probeB: Probe;
let agent: HttpAgent;

beforeAll(async () => {
    replica = await startTestReplica({ startTime: BigInt(Date.parse('2026-03-01T00:00:00Z')) * 1_000_000n });
    a = replica.createCanister();
    b = replica.createCanister();
    await replica.installCode(a, probeWasm(), { arg: probeInit('a') });
    await replica.installCode(b, probeWasm(), { arg: probeInit('b') });
    agent = await agentFor(replica);
    probeA = actorFor<Probe>(agent, probeIdl, a);
    probeB = actorFor<Probe>(agent, probeIdl, b);
});
afterAll(() => replica.stop());

test('a trap rolls back the heap and stable memory written before it', async () => {
    const before = await probeA.count();
    await expect(probeA.incrementThenTrap()).rejects.toThrow(/deliberate trap after writing/);
    expect(await probeA.count()).toBe(before);
    expect(await probeA.get('written-before-trap')).toEqual([]);
    // The canister keeps working after the trap.
    expect(await probeA.increment()).toBe(before + 1n);
});

test('a query never persists its changes, also when called as an update', async () => {
    const before = await probeA.count();
    expect(await probeA.incrementInQuery()).toBe(before + 1n);
    expect(await probeA.count()).toBe(before);
    expect(await probeA.get('written-in-query')).toEqual([]);
    // Called through the update path (replicated query): the reply comes, the state stays.
    const { IDL } = await import('@dfinity/candid');
    const { response } = await agent.call(a, {
        methodName: 'incrementInQuery',
        arg: new Uint8Array(IDL.encode([], [])),
    });
    expect(response.ok).toBe(true);
    expect(await probeA.count()).toBe(before);
});

test('exceeding the instruction limit traps with the IC error and changes nothing', async () => {
    await expect(probeA.burn(50_000_000n)).rejects.toThrow(/IC0522|exceeded the limit of 5000000000 instructions/);
    expect(await probeA.burn(1000n)).toBe(499500n);
    const last = replica.executions().filter((e) => e.method === 'canister_query burn');
    expect(last.some((e) => e.error?.code === 'IC0522' && e.instructions === 5_000_000_000n)).toBe(true);
});

test('metered instructions are reported per execution', async () => {
    await probeA.increment();
    await probeA.increment();
    const runs = replica
        .executions()
        .filter((e) => e.method === 'canister_update increment')
        .slice(-2);
    expect(runs).toHaveLength(2);
    expect(runs[0].instructions).toBeGreaterThan(100_000n);
    expect(runs[0].instructions).toBeLessThan(10_000_000n);
});

test('a timer fires when the clock is advanced past it, not before', async () => {
    await probeA.fireIn(3600n);
    await advance(replica, 60 * 60 * 1000 - 10_000, [agent]);
    expect(await probeA.timerFired()).toEqual([]);
    const due = replica.time() + 20_000_000_000n;
    await advance(replica, 20_000, [agent]);
    const fired = await probeA.timerFired();
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(due - 20_000_000_000n);
});

test('randomness is seeded from raw_rand after install: two canisters of one module differ', async () => {
    const ra = Buffer.from(await probeA.randomBytes());
    const rb = Buffer.from(await probeB.randomBytes());
    expect(ra.length).toBe(16);
    expect(ra.equals(rb)).toBe(false);
    // The seeding went through Azle's timer executor and the management canister.
    const seeding = replica
        .executions()
        .filter((e) => e.canister === b.toText() && e.method.includes('timer_executor'));
    expect(seeding.length).toBeGreaterThan(0);
    const raw1 = Buffer.from(await probeA.rawRand());
    const raw2 = Buffer.from(await probeA.rawRand());
    expect(raw1.length).toBe(32);
    expect(raw1.equals(raw2)).toBe(false);
});

test('an inter-canister call reaches the other canister and returns its reply', async () => {
    const before = await probeB.count();
    expect(await probeA.incrementOther(b)).toBe(before + 1n);
    expect(await probeB.count()).toBe(before + 1n);
});

test('a call to a missing canister or method is rejected with the IC reject code', async () => {
    const missing = (await import('../../replica/subnet')).canisterIdFromIndex(0x1ffff0n);
    await expect(probeA.incrementOther(missing)).rejects.toThrow(/not found|CallRejected|rejectCode/);
    await expect(
        agent
            .call(a, { methodName: 'noSuchMethod', arg: new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 0]) })
            .then(async ({ requestId }) => {
                const { pollForResponse } = await import('@dfinity/agent');
                return pollForResponse(agent, a, requestId);
            }),
    ).rejects.toThrow(/has no update method 'noSuchMethod'/);
});
