// Starts a replica for a test on a fresh data directory and builds agents that talk to it;
// calls canisters as any principal and stops or starts them; checks and loosens the modes of
// data directories.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Actor, HttpAgent, type Identity } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { blsVerify } from '../../gateway/ic/bls';
import { startReplica, type Replica, type ReplicaOptions } from '../../replica/replica';

export function tempDir(prefix: string): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

/**
 * A replica on `options.dataDir`, or on a fresh directory of its own that its stop() removes (a
 * test that reopens a directory names it): a scratch one, never synced to disk nor checkpointed
 * at the end. Disks are shared: a run keeps only what is running.
 */
export async function startTestReplica(options: Partial<ReplicaOptions> = {}): Promise<Replica & { dataDir: string }> {
    const own = options.dataDir === undefined;
    const dataDir = options.dataDir ?? tempDir('replica');
    const replica = await startReplica({
        port: 0,
        testMode: true,
        log: () => undefined,
        scratch: own,
        ...options,
        dataDir,
    });
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

/** A JSON method of `canister` as `caller` (any principal), straight through the replica. */
export async function callAs(
    replica: Replica,
    caller: Principal,
    canister: string | Principal,
    method: string,
    request: unknown,
): Promise<any> {
    return JSON.parse(await callTextAs(replica, caller, canister, method, JSON.stringify(request)));
}

/** callAs with the request's text as it is (not JSON, or JSON no object writes), answering the reply's text. */
export async function callTextAs(
    replica: Replica,
    caller: Principal,
    canister: string | Principal,
    method: string,
    text: string,
): Promise<string> {
    const id = typeof canister === 'string' ? Principal.fromText(canister) : canister;
    const reply = await replica.update(id, method, new Uint8Array(IDL.encode([IDL.Text], [text])), caller);
    if (!('reply' in reply)) throw new Error(`${method} rejected: ${JSON.stringify(reply)}`);
    return IDL.decode([IDL.Text], reply.reply)[0] as string;
}

/** The management canister's stop_canister / start_canister, as the canister's controller. */
export async function setRunning(
    replica: Replica,
    canister: string,
    running: boolean,
    controller: Principal,
): Promise<void> {
    const arg = new Uint8Array(
        IDL.encode([IDL.Record({ canister_id: IDL.Principal })], [{ canister_id: Principal.fromText(canister) }]),
    );
    const reply = await replica.update(
        Principal.fromText('aaaaa-aa'),
        running ? 'start_canister' : 'stop_canister',
        arg,
        controller,
    );
    if (!('reply' in reply)) throw new Error(`stop/start rejected: ${JSON.stringify(reply)}`);
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
