// The replica's clocks (replica/clock.ts). In test mode what canisters see moves only when a
// test moves it, so no outcome depends on how fast the machine runs the test; the time of the
// IC HTTP interface keeps following the wall clock, so agents keep working however long the
// test runs. Outside test mode both are the one wall clock, as before.
import { Certificate, lookupResultToBuffer, type HttpAgent } from '@dfinity/agent';
import type { Principal } from '@dfinity/principal';

import { createClock } from '../../replica/clock';
import { blsVerify } from '../../gateway/ic/bls';
import type { Replica } from '../../replica/replica';
import { actorFor, advance, agentFor, startTestReplica, tempDir } from '../support/replica';
import { installProbe, probeIdl, type Probe } from './probe';

const MS = 1_000_000n;
const SECOND = 1000n * MS;
const MINUTE = 60n * SECOND;

describe('createClock, test mode (manual)', () => {
    let wall: bigint;
    const clock = (o: { start?: bigint; notBefore?: bigint } = {}) =>
        createClock({ ...o, manual: true, wall: () => wall });
    beforeEach(() => (wall = 1_700_000_000_000n * MS));

    test('execution time moves by 1 ns per round, not with the wall clock', () => {
        const c = clock({ start: 5_000n * SECOND });
        expect(c.peek()).toBe(5_000n * SECOND);
        expect(c.upcoming()).toBe(5_000n * SECOND);
        expect(c.next()).toBe(5_000n * SECOND);
        expect(c.upcoming()).toBe(5_000n * SECOND + 1n);
        wall += 10n * MINUTE;
        expect(c.peek()).toBe(5_000n * SECOND);
        expect(c.next()).toBe(5_000n * SECOND + 1n);
        expect(c.next()).toBe(5_000n * SECOND + 2n);
        expect(c.peek()).toBe(5_000n * SECOND + 2n);
    });

    test('without a start time it starts at the wall time', () => {
        const c = clock();
        expect(c.next()).toBe(wall);
        expect(c.protocol()).toBe(wall);
    });

    test('advance and set move both clocks by the same amount', () => {
        const c = clock({ start: 5_000n * SECOND });
        c.next();
        wall += 7n * MINUTE;
        expect(c.protocol()).toBe(5_000n * SECOND + 7n * MINUTE);
        c.advance(2n * SECOND);
        expect(c.peek()).toBe(5_002n * SECOND);
        expect(c.next()).toBe(5_002n * SECOND);
        expect(c.protocol()).toBe(5_002n * SECOND + 7n * MINUTE);
        c.set(6_000n * SECOND);
        expect(c.next()).toBe(6_000n * SECOND);
        expect(c.protocol()).toBe(6_000n * SECOND + 7n * MINUTE); // moved by 6000 s - 5002 s too
        c.set(10n * SECOND); // behind: nothing moves
        c.advance(-SECOND);
        expect(c.next()).toBe(6_000n * SECOND + 1n);
        expect(c.protocol()).toBe(6_000n * SECOND + 7n * MINUTE);
    });

    test('protocol time follows the wall clock, never lies behind the execution time, never goes back', () => {
        const c = clock({ start: 5_000n * SECOND });
        for (let i = 0; i < 10; i++) c.next(); // ten rounds within one wall-clock tick
        expect(c.protocol()).toBe(5_000n * SECOND + 9n);
        wall += SECOND;
        expect(c.protocol()).toBe(5_001n * SECOND);
        wall -= 3n * SECOND; // the machine's clock is set back
        expect(c.protocol()).toBe(5_001n * SECOND);
        wall += 10n * SECOND;
        expect(c.protocol()).toBe(5_008n * SECOND);
    });

    test('a restart continues right after the last time reported, wherever the wall clock is', () => {
        const c = clock({ notBefore: 5_000n * SECOND });
        expect(c.next()).toBe(5_000n * SECOND + 1n);
        expect(c.protocol()).toBe(5_000n * SECOND + 1n);
        expect(clock({ start: 10n * SECOND, notBefore: 5_000n * SECOND }).next()).toBe(5_000n * SECOND + 1n);
    });
});

describe('createClock, normal (npm start): one wall clock', () => {
    let wall: bigint;
    const clock = (o: { start?: bigint; notBefore?: bigint } = {}) => createClock({ ...o, wall: () => wall });
    beforeEach(() => (wall = 1_700_000_000_000n * MS));

    test('follows the wall clock, strictly increasing, never behind the last time reported', () => {
        const c = clock();
        expect(c.next()).toBe(wall);
        expect(c.next()).toBe(wall + 1n);
        wall += 7n * MINUTE;
        expect(c.peek()).toBe(wall);
        expect(c.protocol()).toBe(wall);
        expect(c.next()).toBe(wall);
        wall -= MINUTE;
        expect(c.next()).toBe(wall + MINUTE + 1n);
        const restarted = clock({ notBefore: wall + 2n * MINUTE });
        expect(restarted.next()).toBe(wall + 2n * MINUTE + 1n);
        expect(restarted.protocol()).toBe(restarted.peek());
    });

    test('advance moves the one clock', () => {
        const c = clock();
        c.advance(SECOND);
        expect(c.next()).toBe(wall + SECOND);
        expect(c.protocol()).toBe(wall + SECOND);
    });
});

/**
 * Fakes only `Date` (for the replica and the agents alike: both read the wall clock through it)
 * and lets it run with real time; `wallForward` then makes this test look like it ran for
 * minutes without waiting for them.
 */
function fakeWallClock(): (ms: number) => void {
    jest.useFakeTimers({
        advanceTimers: true,
        doNotFake: [
            'hrtime',
            'nextTick',
            'performance',
            'queueMicrotask',
            'requestAnimationFrame',
            'cancelAnimationFrame',
            'requestIdleCallback',
            'cancelIdleCallback',
            'setImmediate',
            'clearImmediate',
            'setInterval',
            'clearInterval',
            'setTimeout',
            'clearTimeout',
        ],
    });
    return (ms) => jest.setSystemTime(Date.now() + ms);
}

/** Waits for a condition the replica reaches by itself (no time budget but the test's). */
async function until(condition: () => Promise<boolean>): Promise<void> {
    while (!(await condition())) await new Promise((r) => setImmediate(r));
}

/** The `time` of a read_state certificate, checked by the agent's rules (age, root key). */
async function certifiedTime(agent: HttpAgent, replica: Replica, id: Principal): Promise<bigint> {
    const { certificate } = await agent.readState(id, { paths: [[new TextEncoder().encode('time')]] });
    const cert = await Certificate.create({ certificate, rootKey: replica.rootKey, canisterId: id, blsVerify, agent });
    const leb = lookupResultToBuffer(cert.lookup_path(['time']))!;
    let value = 0n;
    for (let i = leb.length - 1; i >= 0; i--) value = (value << 7n) | BigInt(leb[i] & 0x7f);
    return value;
}

describe('a test-mode replica', () => {
    let replica: Replica & { dataDir: string };
    let wallForward: (ms: number) => void;
    beforeEach(async () => {
        wallForward = fakeWallClock();
        replica = await startTestReplica({
            dataDir: tempDir('clock'),
            startTime: BigInt(Date.parse('2026-03-01T00:00:00Z')) * MS,
        });
    });
    afterEach(async () => {
        await replica.stop();
        jest.useRealTimers();
    });

    test('canisters see time move only when the test moves it; agents keep working after minutes of wall time', async () => {
        const { id, agent, probe } = await installProbe(replica, 'clock');
        const before = await probe.now();
        expect(await probe.increment()).toBe(1n);
        wallForward(7 * 60_000); // longer than the 5 minutes of ingress expiry and certificate age
        // The same agent, synced 7 minutes ago: update call (ingress expiry, certified reply),
        // query (signature timestamp), read_state (certificate time).
        expect(await probe.increment()).toBe(2n);
        expect(await probe.count()).toBe(2n);
        expect(await certifiedTime(agent, replica, id)).toBeGreaterThanOrEqual(before + 7n * MINUTE);
        const after = await probe.now();
        expect(after - before).toBeGreaterThanOrEqual(0n);
        expect(after - before).toBeLessThan(MS); // a few rounds' worth of nanoseconds, not 7 minutes
        expect(replica.protocolTime() - replica.time()).toBeGreaterThanOrEqual(7n * MINUTE);

        await advance(replica, 2_000, [agent]);
        expect(await probe.now()).toBeGreaterThanOrEqual(after + 2n * SECOND);
        expect(await probe.now()).toBeLessThan(after + 2n * SECOND + MS);
        // GET /_/time shows both.
        const times = (await (await fetch(`${replica.url}/_/time`)).json()) as {
            timeNs: string;
            executionTimeNs: string;
        };
        expect(BigInt(times.timeNs) - BigInt(times.executionTimeNs)).toBeGreaterThanOrEqual(7n * MINUTE);
    });

    test('a due timer fires at once; one not yet due waits for the clock, not for the wall', async () => {
        const { probe } = await installProbe(replica, 'clock');
        const start = await probe.now();
        await probe.fireIn(0n);
        await until(async () => (await probe.timerFired()).length > 0);
        const [first] = (await probe.timerFired()) as [bigint];
        expect(first - start).toBeLessThan(MS);

        await probe.fireIn(5n);
        wallForward(3_600_000);
        await replica.tick();
        expect(await probe.timerFired()).toEqual([first]);
        await replica.advanceTime(4_999);
        expect(await probe.timerFired()).toEqual([first]);
        await replica.advanceTime(1);
        const [second] = (await probe.timerFired()) as [bigint];
        expect(second - first).toBeGreaterThanOrEqual(5n * SECOND);
        expect(second - first).toBeLessThan(5n * SECOND + MS);
    });

    test('a restart continues right after the time it stopped at, not at the wall time', async () => {
        const { id, probe } = await installProbe(replica, 'clock');
        await probe.increment();
        const stoppedAt = replica.time();
        await replica.stop();
        wallForward(3_600_000);
        replica = await startTestReplica({ dataDir: replica.dataDir });
        expect(replica.time()).toBeGreaterThan(stoppedAt);
        expect(replica.time() - stoppedAt).toBeLessThan(MS);
        const again = actorFor<Probe>(await agentFor(replica), probeIdl, id);
        expect(await again.count()).toBe(1n);
        expect((await again.now()) - stoppedAt).toBeLessThan(MS);
    });
});

test("outside test mode the canisters' clock is the wall clock, as on the IC", async () => {
    const wallForward = fakeWallClock();
    const replica = await startTestReplica({ testMode: false });
    try {
        const { probe } = await installProbe(replica, 'clock');
        const before = await probe.now();
        wallForward(7 * 60_000);
        expect(await probe.increment()).toBe(1n);
        expect((await probe.now()) - before).toBeGreaterThanOrEqual(7n * MINUTE);
        expect(replica.protocolTime()).toBeGreaterThanOrEqual(replica.time());
    } finally {
        await replica.stop();
        jest.useRealTimers();
    }
});
