// The leaderboard canister on a test replica, with a gateway and an operator identity
// registered at install, and a JSON client for its methods that calls each as the identity its
// access names (gateway methods as the gateway, operator methods as the operator).
import * as fs from 'node:fs';

import { Actor, type HttpAgent, type Identity } from '@dfinity/agent';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import type { Principal } from '@dfinity/principal';

import { METHODS, idlFactory, type LeaderboardActor, type Method, type Result as Reply } from '../../contract/canister';
import { initArgFor, leaderboardWasmPath } from '../../local/install';
import { ensureShards } from '../../local/shards';
import { connectCanister, type CanisterClient } from '../../gateway/ic/canister';
import { blsVerify } from '../../gateway/ic/bls';
import { replyResult, requestArg } from '../../contract/wire';
import type { Replica, ReplicaOptions } from '../../replica/replica';
import { advance, agentFor, startTestReplica } from './replica';
import './agent-bls';

export function leaderboardWasm(): Uint8Array {
    return new Uint8Array(fs.readFileSync(leaderboardWasmPath()));
}

export { initArgFor as initArg };

/** A canister on a test replica as `identity` calls it through the gateway's client, directly. */
export async function connectAs(
    at: { replica: { url: string }; canisterId: Principal },
    identity: Identity,
): Promise<CanisterClient> {
    return (await connectLogged(at, identity)).client;
}

/** connectAs, with the lines the client logs kept in `log`. */
export async function connectLogged(
    at: { replica: { url: string }; canisterId: Principal },
    identity: Identity,
): Promise<{ client: CanisterClient; log: string[] }> {
    const log: string[] = [];
    const client = await connectCanister({
        host: at.replica.url,
        canisterId: at.canisterId,
        identity,
        fetchRootKey: true,
        log: (line) => log.push(line),
    });
    return { client, log };
}

export interface TestCanister {
    replica: Replica;
    canisterId: Principal;
    gateway: Identity;
    operator: Identity;
    agent: HttpAgent;
    /** Calls a method as its access names (or `as`); returns the parsed JSON reply. */
    call<T = any>(method: Method, request: unknown, as?: Identity): Promise<Reply<T>>;
    /** The `ok` value of a call; throws with the error message otherwise. */
    ok<T = any>(method: Method, request: unknown): Promise<T>;
    /** Moves the replica's clock and lets every agent of this client follow (see `advance`). */
    advance(ms: number): Promise<void>;
}

/**
 * A replica with the leaderboard installed: the current build, or `wasm` (a past release's,
 * for upgrade tests).
 */
export async function startLeaderboard(
    options: Partial<ReplicaOptions> & { wasm?: Uint8Array; shards?: number } = {},
): Promise<TestCanister> {
    const { wasm = leaderboardWasm(), shards, ...replicaOptions } = options;
    const replica = await startTestReplica(replicaOptions);
    const c = await installLeaderboard(replica, wasm, Ed25519KeyIdentity.generate(), Ed25519KeyIdentity.generate());
    // `shards`: the directory creates that many shards of `wasm`, as npm start does (local/shards.ts).
    if (shards) await ensureShards({ call: c.call } as unknown as CanisterClient, wasm, shards);
    return c;
}

/** Another leaderboard canister on the same replica, with the same gateway and operator (a move's target, a shard). */
export function addLeaderboard(first: TestCanister, wasm = leaderboardWasm()): Promise<TestCanister> {
    return installLeaderboard(first.replica, wasm, first.gateway, first.operator);
}

async function installLeaderboard(
    replica: Replica,
    wasm: Uint8Array,
    gateway: Identity,
    operator: Identity,
): Promise<TestCanister> {
    const canisterId = replica.createCanister();
    await replica.installCode(canisterId, wasm, {
        arg: initArgFor({ gateways: [gateway.getPrincipal()], operators: [operator.getPrincipal()] }),
    });
    const agent = await agentFor(replica, gateway);
    const actors = new Map<Identity, LeaderboardActor>();
    const agents = [agent];
    const actorOf = async (identity: Identity): Promise<LeaderboardActor> => {
        let actor = actors.get(identity);
        if (actor === undefined) {
            const a = identity === gateway ? agent : await agentFor(replica, identity);
            if (a !== agent) agents.push(a);
            actor = Actor.createActor<LeaderboardActor>(idlFactory, { agent: a, canisterId, blsVerify });
            actors.set(identity, actor);
        }
        return actor;
    };
    const defaultFor = (method: Method): Identity => (METHODS[method].access === 'operator' ? operator : gateway);
    const call = async <T>(method: Method, request: unknown, as: Identity = defaultFor(method)): Promise<Reply<T>> =>
        replyResult(method, await (await actorOf(as))[method](requestArg(method, request))) as Reply<T>;
    return {
        replica,
        canisterId,
        gateway,
        operator,
        agent,
        call,
        async ok<T>(method: Method, request: unknown) {
            const reply = await call<T>(method, request);
            if ('err' in reply) throw new Error(`${method}: ${reply.err.status} ${reply.err.message}`);
            return reply.ok;
        },
        advance: (ms) => advance(replica, ms, agents),
    };
}

/** Anything that calls a canister's method and answers its `ok` (a test canister, a gateway's client). */
interface CallsOk {
    ok(method: string, request: Record<string, unknown>): Promise<any>;
}

/**
 * A move of `gameId` staged whole on `source` and cut short once `target` took its first chunk;
 * answers what the staging answered (its chunks and checksum).
 */
export async function moveFirstChunk(source: CallsOk, target: CallsOk, gameId: string): Promise<any> {
    let begun = await source.ok('move_out_begin', { gameId });
    while (!begun.ready) begun = await source.ok('move_out_begin', { gameId });
    await target.ok('move_in_chunk', {
        gameId,
        index: 0,
        data: (await source.ok('move_out_chunk', { gameId, index: 0 })).data,
    });
    return begun;
}
