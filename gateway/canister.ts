// Talks to the leaderboard canister through @dfinity/agent with the gateway's own identity:
// JSON in and out, queries for reads and update calls for writes. The agent follows the
// replica's clock when it moves, and a canister that cannot be reached becomes a 503.
import { Actor, HttpAgent, type Identity } from '@dfinity/agent';
import type { Principal } from '@dfinity/principal';

import { QUERY_METHODS, idlFactory, type LeaderboardActor, type QueryMethod, type Reply, type UpdateMethod } from '../canister/interface';
import { blsVerify } from '../replica/crypto/bls';
import { ApiFailure, UNAVAILABLE, type Status } from './errors';

export interface CanisterClient {
    /** The JSON reply of a method, `{ok}` or `{err}` as the canister sent it. */
    call<T>(method: QueryMethod | UpdateMethod, request: unknown): Promise<Reply<T>>;
    /** The `ok` value; an `{err}` reply becomes an ApiFailure with the canister's status and message. */
    ok<T>(method: QueryMethod | UpdateMethod, request: unknown): Promise<T>;
    readonly canisterId: Principal;
    readonly agent: HttpAgent;
}

export interface CanisterOptions {
    host: string;
    canisterId: Principal;
    identity: Identity;
    /** Local replicas publish their own root key; the IC's is built into the agent. */
    fetchRootKey: boolean;
    /**
     * Verify the replica's signatures: the BLS certificate of every update reply and the node
     * signature of every query reply (default). `npm start` turns it off for the replica it runs
     * in its own process: those signatures would guard nothing there, and checking them costs
     * ~9 ms (certificate) and ~4 ms (query) of the API's CPU per call on these machines.
     */
    verifyReplies?: boolean;
    /** Where failures to reach the canister are reported (default: stderr). */
    log?: (message: string) => void;
}

const QUERY = new Set<string>(QUERY_METHODS);

/** The certificate check for a replica in this process (its structure and time are still checked). */
const trustCertificate = (): boolean => true;

/** Errors that mean the agent's clock and the replica's disagree: sync and try again. */
function isClockError(error: unknown): boolean {
    const text = `${String((error as { cause?: { code?: { name?: string } } })?.cause?.code?.name ?? '')} ${error instanceof Error ? error.message : ''}`;
    return /IngressExpiryInvalid|CertificateOutdated|CertificateTime|ingress_expiry|Certificate is stale|too far in the future/i.test(text);
}

export async function connectCanister(o: CanisterOptions): Promise<CanisterClient> {
    const agent = HttpAgent.createSync({ host: o.host, identity: o.identity, retryTimes: 1, shouldSyncTime: false, verifyQuerySignatures: o.verifyReplies ?? true });
    let ready: Promise<void> | undefined;
    const prepare = (): Promise<void> => {
        ready ??= (async () => {
            if (o.fetchRootKey) await agent.fetchRootKey();
            await agent.syncTime(o.canisterId).catch(() => undefined);
        })().catch((e: unknown) => {
            ready = undefined; // the replica may come up later: try again on the next request
            throw e;
        });
        return ready;
    };
    const actor = Actor.createActor(idlFactory, { agent, canisterId: o.canisterId, blsVerify: o.verifyReplies === false ? trustCertificate : blsVerify }) as unknown as LeaderboardActor;

    async function invoke(method: QueryMethod | UpdateMethod, request: unknown): Promise<string> {
        const json = JSON.stringify(request);
        try {
            await prepare();
            return await actor[method](json);
        } catch (error) {
            if (!isClockError(error)) throw error;
            await agent.syncTime(o.canisterId);
            return actor[method](json);
        }
    }

    async function call<T>(method: QueryMethod | UpdateMethod, request: unknown): Promise<Reply<T>> {
        let text: string;
        try {
            text = await invoke(method, request);
        } catch (error) {
            (o.log ?? console.error)(`gateway: canister ${QUERY.has(method) ? 'query' : 'call'} ${method} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
            throw new ApiFailure(503, UNAVAILABLE);
        }
        return JSON.parse(text) as Reply<T>;
    }

    return {
        canisterId: o.canisterId,
        agent,
        call,
        async ok<T>(method: QueryMethod | UpdateMethod, request: unknown): Promise<T> {
            const reply = await call<T>(method, request);
            if ('err' in reply) throw new ApiFailure(reply.err.status as Status, reply.err.message);
            return reply.ok;
        },
    };
}
