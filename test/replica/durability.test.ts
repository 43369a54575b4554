// A replica killed with kill -9 in the middle of a write load restarts at once from its data
// directory with every acknowledged update and nothing half-applied.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { HttpAgent } from '@dfinity/agent';
import { Principal } from '@dfinity/principal';

import { initBls } from '../../replica/crypto/bls';
import { actorFor, tempDir } from '../support/replica';
import { runReplicaCli } from './cli-child';
import { probeIdl, type Probe } from './probe';

interface Started {
    child: ChildProcess;
    exited: Promise<unknown>;
    url: string;
    canisterId: Principal;
}

/** Starts `npm run replica`'s program as a child process and waits for its ready line. */
async function startChild(dataDir: string): Promise<Started> {
    const cli = runReplicaCli(dataDir, 'durable');
    const line = await cli.ready;
    if (line === undefined) throw new Error(`replica exited with ${String(await cli.exited)}: ${cli.stderr()}`);
    const ready = JSON.parse(line) as { url: string; canisters: Array<{ name: string; id: string }> };
    return {
        child: cli.child,
        exited: cli.exited,
        url: ready.url,
        canisterId: Principal.fromText(ready.canisters[0].id),
    };
}

async function probeAt(url: string, canisterId: Principal): Promise<Probe> {
    const agent = await HttpAgent.create({ host: url, shouldFetchRootKey: true, retryTimes: 0 });
    return actorFor<Probe>(agent, probeIdl, canisterId);
}

beforeAll(() => initBls());

test('kill -9 during a write load: the restart at once has every acknowledged write, nothing half-applied', async () => {
    const dataDir = tempDir('kill9');
    const first = await startChild(dataDir);
    const probe = await probeAt(first.url, first.canisterId);

    const acknowledged = new Map<string, string>();
    let reached!: () => void;
    const loadReached = new Promise<void>((resolve) => (reached = resolve));
    let stop = false;
    let sent = 0;
    const writer = async (w: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
            const key = `w${w}-${i}`;
            const value = `value-${w}-${i}-${'x'.repeat(i % 50)}`;
            sent++;
            try {
                await probe.putPair(key, value);
                acknowledged.set(key, value);
                if (acknowledged.size >= 150) reached();
            } catch {
                return; // the replica went away mid-call: this write was never acknowledged
            }
        }
    };
    const writers = [0, 1, 2, 3, 4, 5].map((w) => writer(w));
    // Let the load run until 150 writes are acknowledged (or every writer failed), then kill
    // without warning while calls are in flight.
    await Promise.race([loadReached, Promise.all(writers)]);
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await first.exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(150);

    // The killed replica left its LOCK file naming its dead PID. Make that PID look reused by a
    // live, unrelated process (this test runner): the kernel released the real lock when the
    // replica died, so the restart at once, with no wait, must not care what the file says.
    const lockFile = path.join(dataDir, 'LOCK');
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(`${first.child.pid}\n`);
    fs.writeFileSync(lockFile, `${process.pid}\n`);

    const second = await startChild(dataDir);
    try {
        expect(second.canisterId.toText()).toBe(first.canisterId.toText());
        const after = await probeAt(second.url, second.canisterId);
        const check = await after.checkPairs();
        expect(check.consistent).toBe(true);
        expect(check.pairs).toBeGreaterThanOrEqual(BigInt(acknowledged.size));
        expect(check.pairs).toBeLessThanOrEqual(BigInt(sent));
        for (const [key, value] of acknowledged) expect(await after.get(`pair:${key}`)).toEqual([value]);
        // And it takes new writes.
        await after.putPair('after-restart', 'ok');
        expect((await after.checkPairs()).consistent).toBe(true);
    } finally {
        second.child.kill('SIGKILL');
    }
}, 600_000);
