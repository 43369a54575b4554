// Install, upgrade and reinstall with the canister's data: an upgrade keeps StableBTreeMap
// contents, a failed upgrade keeps everything as it was, a reinstall starts empty; state
// survives a replica restart from its data directory.
import type { Replica } from '../../replica/replica';
import { actorFor, agentFor, startTestReplica, tempDir } from '../support/replica';
import { installProbe, probeIdl, probeInit, probeWasm, type Probe } from './probe';

// Each of these tests has a canister of its own on one replica.
let replica: Replica & { dataDir: string };
beforeAll(async () => {
    replica = await startTestReplica();
});
afterAll(() => replica.stop());

test('an upgrade keeps stable data, runs post_upgrade, and changes the module hash only when the module changes', async () => {
    const { id, probe } = await installProbe(replica, 'v1');
    for (let i = 0; i < 50; i++) await probe.put(`key-${i}`, `value-${i}`);
    await probe.increment();
    const versionBefore = replica.subnet.canisters.get(id.toText())!.system.version;

    await replica.installCode(id, probeWasm(), { mode: 'upgrade', arg: probeInit('v2') });
    expect(await probe.label_()).toBe('v2:1');
    expect(await probe.size()).toBe(50n);
    expect(await probe.get('key-49')).toEqual(['value-49']);
    // The heap starts over on an upgrade; only stable memory carries data across.
    expect(await probe.count()).toBe(0n);
    expect(replica.subnet.canisters.get(id.toText())!.system.version).toBe(versionBefore + 1n);
    // Randomness is re-seeded after the upgrade (Azle's post_upgrade timer).
    expect((await probe.randomBytes()).length).toBe(16);
});

test('a failed upgrade (post_upgrade traps) leaves the old module, heap and stable memory in place', async () => {
    const { id, probe } = await installProbe(replica, 'v1');
    await probe.put('kept', 'yes');
    await probe.increment();
    const hash = Buffer.from(replica.subnet.canisters.get(id.toText())!.system.moduleHash!).toString('hex');
    // Bytes that are not Candid make post_upgrade trap while decoding its argument.
    await expect(
        replica.installCode(id, probeWasm(), { mode: 'upgrade', arg: new Uint8Array([1, 2, 3]) }),
    ).rejects.toThrow(/Failed to decode Candid/);
    expect(await probe.label_()).toBe('v1:0');
    expect(await probe.count()).toBe(1n);
    expect(await probe.get('kept')).toEqual(['yes']);
    expect(Buffer.from(replica.subnet.canisters.get(id.toText())!.system.moduleHash!).toString('hex')).toBe(hash);
});

test('a reinstall wipes heap and stable memory', async () => {
    const { id, probe } = await installProbe(replica, 'v1');
    await probe.put('gone', 'soon');
    await replica.installCode(id, probeWasm(), { mode: 'reinstall', arg: probeInit('fresh') });
    expect(await probe.size()).toBe(0n);
    expect(await probe.label_()).toBe('fresh:0');
});

test('a stopped replica restarts from its data directory with heap, stable memory, timers and time', async () => {
    const dataDir = tempDir('restart');
    const first = await startTestReplica({ dataDir });
    const { id, probe: probe1 } = await installProbe(first, 'durable');
    for (let i = 0; i < 20; i++) await probe1.put(`k${i}`, `v${i}`);
    await probe1.increment();
    await probe1.increment();
    await probe1.fireIn(3600n);
    const timeBefore = first.time();
    await first.stop();

    const second = await startTestReplica({ dataDir });
    try {
        expect(second.time()).toBeGreaterThan(timeBefore);
        expect(Buffer.from(second.rootKey).equals(Buffer.from(first.rootKey))).toBe(true);
        const agent = await agentFor(second);
        const probe2 = actorFor<Probe>(agent, probeIdl, id);
        expect(await probe2.count()).toBe(2n);
        expect(await probe2.size()).toBe(20n);
        expect(await probe2.get('k7')).toEqual(['v7']);
        expect(await probe2.timerFired()).toEqual([]);
        await second.advanceTime(3601_000);
        await agent.syncTime();
        expect((await probe2.timerFired()).length).toBe(1);
        expect(await probe2.increment()).toBe(3n);
    } finally {
        await second.stop();
    }
});
