// One replica per data directory, enforced by a lock the kernel releases when its holder dies:
// a LOCK file left behind never blocks a start, whatever process its PID now names; a second
// live replica is refused, in another process, in another thread or in the same thread; a
// clean stop releases the directory. (The kill -9 restart under load is in durability.test.ts.)
import * as fs from 'node:fs';
import * as path from 'node:path';

import { startReplicaThread } from '../../replica/threaded';
import { actorFor, agentFor, startTestReplica, tempDir } from '../support/replica';
import { runReplicaCli } from './cli-child';
import { probeIdl, probeInit, probeWasm, type Probe } from './probe';

const inUse = (dir: string, pid: number): string =>
    `The data directory ${dir} is in use by another replica (process ${pid}`;

test('a LOCK file left behind that names a live, unrelated process does not block the start', async () => {
    // What a PID file cannot tell apart from a live holder: the dead holder's PID now belongs to
    // another live process (here the test runner itself, then init).
    for (const pid of [process.pid, 1]) {
        const dataDir = tempDir('lock-stale');
        fs.writeFileSync(path.join(dataDir, 'LOCK'), `${pid}\n`);
        const replica = await startTestReplica({ dataDir });
        try {
            expect(fs.readFileSync(path.join(dataDir, 'LOCK'), 'utf8')).toBe(`${process.pid}\n`);
        } finally {
            await replica.stop();
        }
    }
});

test('a second live replica on the same directory in the same process is refused, naming the directory', async () => {
    const first = await startTestReplica();
    try {
        await expect(startTestReplica({ dataDir: first.dataDir })).rejects.toThrow(inUse(first.dataDir, process.pid));
        // The refusal left the holder's lock in place.
        await expect(startTestReplica({ dataDir: first.dataDir })).rejects.toThrow(inUse(first.dataDir, process.pid));
    } finally {
        await first.stop();
    }
});

test('a replica in a worker thread and one in the main thread exclude each other', async () => {
    const main = await startTestReplica();
    try {
        await expect(
            startReplicaThread({ options: { dataDir: main.dataDir, port: 0, testMode: true }, canisters: [] }),
        ).rejects.toThrow(inUse(main.dataDir, process.pid));
    } finally {
        await main.stop();
    }
    const thread = await startReplicaThread({
        options: { dataDir: main.dataDir, port: 0, testMode: true },
        canisters: [],
    });
    try {
        await expect(startTestReplica({ dataDir: main.dataDir })).rejects.toThrow(inUse(main.dataDir, process.pid));
    } finally {
        await thread.stop();
    }
    await (await startTestReplica({ dataDir: main.dataDir })).stop();
});

test('a second live replica in another process is refused, either way round, and kill -9 frees the directory at once', async () => {
    // This process holds the directory: the child is refused and exits with the message.
    const held = await startTestReplica();
    try {
        const refused = runReplicaCli(held.dataDir, 'lock');
        expect(await refused.exited).toBe(1);
        expect(await refused.ready).toBeUndefined();
        expect(refused.stderr()).toContain(inUse(held.dataDir, process.pid));
    } finally {
        await held.stop();
    }

    // A child holds the directory: this process is refused, naming the child.
    const dataDir = tempDir('lock-child');
    const holder = runReplicaCli(dataDir, 'lock');
    try {
        if ((await holder.ready) === undefined) throw new Error(`the replica did not start: ${holder.stderr()}`);
        await expect(startTestReplica({ dataDir })).rejects.toThrow(inUse(dataDir, holder.child.pid!));
    } finally {
        holder.child.kill('SIGKILL');
    }
    expect(await holder.exited).toBeNull();
    // Its LOCK file still names it, but the kernel released the lock when it died.
    expect(fs.readFileSync(path.join(dataDir, 'LOCK'), 'utf8')).toBe(`${holder.child.pid}\n`);
    const after = await startTestReplica({ dataDir });
    try {
        expect(after.getExtra('canisterIds')).toHaveProperty('probe');
    } finally {
        await after.stop();
    }
}, 600_000);

test('after stop() the same process opens the directory again, with its state', async () => {
    const dataDir = tempDir('reopen');
    const first = await startTestReplica({ dataDir });
    const id = first.createCanister();
    try {
        await first.installCode(id, probeWasm(), { arg: probeInit('reopen') });
        await actorFor<Probe>(await agentFor(first), probeIdl, id).put('kept', 'yes');
    } finally {
        await first.stop();
    }
    // A clean stop leaves the LOCK file empty: no PID, nothing held.
    expect(fs.readFileSync(path.join(dataDir, 'LOCK'), 'utf8')).toBe('');
    for (let i = 0; i < 3; i++) {
        const again = await startTestReplica({ dataDir });
        try {
            expect(await actorFor<Probe>(await agentFor(again), probeIdl, id).get('kept')).toEqual(['yes']);
        } finally {
            await again.stop();
        }
    }
});

test('a start that fails after taking the lock (a port in use) leaves the directory free', async () => {
    const first = await startTestReplica({ port: 0 });
    const dir = tempDir('lock-failed-start');
    await expect(startTestReplica({ dataDir: dir, port: first.port })).rejects.toThrow(/EADDRINUSE|in use/i);
    const second = await startTestReplica({ dataDir: dir, port: 0 });
    await second.stop();
    await first.stop();
});
