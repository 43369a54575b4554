// Starts a replica for a test on a fresh data directory and builds agents that talk to it;
// checks and loosens the modes of data directories.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Actor, HttpAgent, type Identity } from '@dfinity/agent';
import type { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import { blsVerify } from '../../gateway/bls';
import { startReplica, type Replica, type ReplicaOptions } from '../../replica/replica';

export function tempDir(prefix: string): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

/**
 * A replica on `options.dataDir`, or on a fresh directory of its own that its stop() removes (a
 * test that reopens a directory names it). Disks are shared: a run keeps only what is running.
 */
export async function startTestReplica(options: Partial<ReplicaOptions> = {}): Promise<Replica & { dataDir: string }> {
    const own = options.dataDir === undefined;
    const dataDir = options.dataDir ?? tempDir('replica');
    const replica = await startReplica({ port: 0, testMode: true, log: () => undefined, ...options, dataDir });
    if (own) {
        const stop = replica.stop.bind(replica);
        replica.stop = async () => {
            await stop();
            fs.rmSync(dataDir, { recursive: true, force: true });
        };
    }
    return Object.assign(replica, { dataDir });
}

/**
 * An agent for the replica that fetches its root key, verifies like the IC's clients do, and
 * syncs its clock with the replica's (which tests may have moved).
 */
export async function agentFor(replica: Replica, identity?: Identity): Promise<HttpAgent> {
    return HttpAgent.create({
        host: replica.url,
        identity,
        shouldFetchRootKey: true,
        verifyQuerySignatures: true,
        shouldSyncTime: true,
    });
}

/**
 * Moves the replica's clock (in test mode the only way the canisters' time moves, besides 1 ns
 * per round) and lets the agents follow (the replica's protocol time moved by as much).
 */
export async function advance(replica: Replica, ms: number, agents: HttpAgent[]): Promise<void> {
    await replica.advanceTime(ms);
    for (const agent of agents) await agent.syncTime();
}

export function actorFor<T>(agent: HttpAgent, idl: IDL.InterfaceFactory, canisterId: Principal): T {
    // blsVerify: the mcl-based verifier (the agent's pure-JS default is ~10x slower, same answers).
    return Actor.createActor(idl, { agent, canisterId, blsVerify }) as T;
}

/** Every path under `dir` (itself included) whose mode lets the group or others in, with the mode. */
export function openModes(dir: string): string[] {
    const out: string[] = [];
    const walk = (p: string): void => {
        const stat = fs.statSync(p);
        if ((stat.mode & 0o077) !== 0) out.push(`${path.relative(dir, p) || '.'} ${(stat.mode & 0o777).toString(8)}`);
        if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    };
    walk(dir);
    return out;
}

/** What an older version left: everything under `dir` world-readable (0644, directories 0755). */
export function loosen(dir: string): void {
    const isDir = fs.statSync(dir).isDirectory();
    fs.chmodSync(dir, isDir ? 0o755 : 0o644);
    if (isDir) for (const name of fs.readdirSync(dir)) loosen(path.join(dir, name));
}
