// Talks to the leaderboard canister through @dfinity/agent with the gateway's own identity:
// JSON in and out (the packed rank reads packed and unpacked: contract/packed-ranks.ts), queries
// for reads and update calls for writes. The agent follows the replica's clock when it moves,
// and a canister that cannot be reached becomes a 503.
import {
    Actor,
    CertifiedRejectErrorCode,
    HttpAgent,
    UncertifiedRejectErrorCode,
    UncertifiedRejectUpdateErrorCode,
    type Identity,
} from '@dfinity/agent';
import type { Principal } from '@dfinity/principal';

import {
    METHODS,
    idlFactory,
    isQuery,
    type MethodRow,
    type LeaderboardActor,
    type Method,
    type Relayed,
    type ReplyOf,
    type RequestOf,
    type Result,
} from '../../contract/canister';
import { replyResult, requestArg } from '../../contract/wire';
import { blsVerify } from './bls';
import { inProcessFetch, isLoopbackHost, loopbackFetch, type InProcessReplica } from './loopback-fetch';
import { ApiFailure, canisterFailure, unavailable, type CanisterReject } from '../http/errors';

export interface CanisterClient {
    /** The JSON reply of a method, `{ok}` or `{err}` as the canister sent it. */
    call<M extends Method>(method: M, request: RequestOf<M>): Promise<Result<ReplyOf<M>>>;
    /** The `ok` value; an `{err}` reply becomes an ApiFailure with the canister's status and message. */
    ok<M extends Method>(method: M, request: RequestOf<M>): Promise<ReplyOf<M>>;
    /** `call` for a request passed on unchecked (a form's fields): the canister checks its values. */
    relay<M extends Method>(method: M, request: Relayed<M>): Promise<Result<ReplyOf<M>>>;
    readonly canisterId: Principal;
    readonly agent: HttpAgent;
    /**
     * The same connection (agent, identity, checks) to another canister: a shard of this
     * directory. Absent on clients that reach one canister only (tests' stand-ins).
     */
    forCanister?(canisterId: Principal): CanisterClient;
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
    /**
     * The replica at `host` when it runs in this process (npm start): the agent's requests are
     * handed to it without sockets; it checks them as over HTTP. `host` still names it.
     */
    inProcess?: InProcessReplica;
    /** Where failures to reach the canister are reported (default: stderr). */
    log?: (message: string) => void;
}

/** The reject behind an agent's error (undefined: no reject, e.g. the replica could not be reached). */
export function rejectOf(error: unknown): CanisterReject | undefined {
    const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    if (!(
        code instanceof CertifiedRejectErrorCode ||
        code instanceof UncertifiedRejectErrorCode ||
        code instanceof UncertifiedRejectUpdateErrorCode
    ))
        return undefined;
    return { code: Number(code.rejectCode), errorCode: code.rejectErrorCode, message: code.rejectMessage };
}

/**
 * Whether a call failed because the canister trapped (a bug, or the instruction limit): the IC
 * rolled the whole message back, so each request it carried can be sent again on its own.
 */
export function trapped(error: unknown): boolean {
    const reject = error instanceof ApiFailure ? error.reject : rejectOf(error);
    return reject?.code === 5 && ['IC0502', 'IC0503', 'IC0522'].includes(reject.errorCode ?? '');
}

/** A failed call in one line for the log: the reject's codes and text, else the error's first line. */
function whyFailed(error: unknown, reject: CanisterReject | undefined): string {
    if (reject !== undefined) {
        const codes = reject.errorCode === undefined ? `${reject.code}` : `${reject.code}, ${reject.errorCode}`;
        return `rejected (code ${codes}): ${reject.message}`;
    }
    return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** How long a canister without a method's newer form (packed rank reads, compact submits) is asked the older one. */
const UNPACKED_MINUTES = 5;

/** The certificate check for a replica in this process (its structure and time are still checked). */
const trustCertificate = (): boolean => true;

/** Errors that mean the agent's clock and the replica's disagree: sync and try again. */
function isClockError(error: unknown): boolean {
    const text = `${String((error as { cause?: { code?: { name?: string } } })?.cause?.code?.name ?? '')} ${error instanceof Error ? error.message : ''}`;
    return /IngressExpiryInvalid|CertificateOutdated|CertificateTime|ingress_expiry|Certificate is stale|too far in the future/i.test(
        text,
    );
}

export async function connectCanister(o: CanisterOptions): Promise<CanisterClient> {
    return clientFor(o, newAgent(o));
}

function newAgent(o: CanisterOptions): HttpAgent {
    return HttpAgent.createSync({
        host: o.host,
        identity: o.identity,
        retryTimes: 1,
        shouldSyncTime: false,
        verifyQuerySignatures: o.verifyReplies ?? true,
        ...(o.inProcess !== undefined
            ? { fetch: inProcessFetch(o.inProcess, o.verifyReplies === false) }
            : isLoopbackHost(o.host)
              ? { fetch: loopbackFetch() }
              : {}),
    });
}

/** A client of `o.canisterId` over `agent` (shared by the clients of one gateway's canisters). */
function clientFor(o: CanisterOptions, agent: HttpAgent): CanisterClient {
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
    const actor: LeaderboardActor = Actor.createActor<LeaderboardActor>(idlFactory, {
        agent,
        canisterId: o.canisterId,
        blsVerify: o.verifyReplies === false ? trustCertificate : blsVerify,
    });

    /**
     * Until when (ms) this canister is asked the older form of a method that has a newer one (its
     * JSON rank reads, submit_scores itself): it lacked one (an earlier release).
     */
    let olderUntil = 0;

    async function send(method: Method, request: unknown): Promise<Result<unknown>> {
        await prepare();
        return replyResult(method, await actor[method](requestArg(method, request)));
    }

    /** `send`, once more after the agent took the replica's time when the clocks disagreed. */
    async function attempt(method: Method, request: unknown): Promise<Result<unknown>> {
        try {
            return await send(method, request);
        } catch (error) {
            if (!isClockError(error)) throw error;
            await agent.syncTime(o.canisterId);
            return send(method, request);
        }
    }

    async function invoke(method: Method, request: unknown): Promise<Result<unknown>> {
        const row = METHODS[method] as MethodRow;
        // What goes on the wire, and the older form a canister of an earlier release has instead:
        // a packed rank read and the JSON one it packs; submit_scores as submit_scores_compact,
        // admin_upload_shard_wasm as admin_upload_shard_wasm_bytes.
        const wire = row.sentAs ?? method;
        const older = row.packs ?? (row.sentAs === undefined ? undefined : method);
        if (older !== undefined && Date.now() < olderUntil) return attempt(older, request);
        try {
            return await attempt(wire, request);
        } catch (error) {
            if (older === undefined || rejectOf(error)?.errorCode !== 'IC0536') throw error;
            if (Date.now() >= olderUntil)
                (o.log ?? console.error)(
                    `gateway: canister ${o.canisterId.toText()} has no ${wire} (an earlier release): asking ${older} for ${UNPACKED_MINUTES} minutes`,
                );
            olderUntil = Date.now() + UNPACKED_MINUTES * 60_000;
            return attempt(older, request);
        }
    }

    async function call<M extends Method>(method: M, request: Relayed<M>): Promise<Result<ReplyOf<M>>> {
        try {
            return (await invoke(method, request)) as Result<ReplyOf<M>>;
        } catch (error) {
            const reject = rejectOf(error);
            (o.log ?? console.error)(
                `gateway: canister ${isQuery(method) ? 'query' : 'call'} ${method} to ${o.canisterId.toText()} failed: ${whyFailed(error, reject)}`,
            );
            throw unavailable(reject);
        }
    }

    return {
        canisterId: o.canisterId,
        agent,
        call,
        relay: call,
        forCanister: (canisterId) => clientFor({ ...o, canisterId }, agent),
        async ok<M extends Method>(method: M, request: RequestOf<M>): Promise<ReplyOf<M>> {
            const reply = await call(method, request);
            if ('err' in reply) throw canisterFailure(reply.err);
            return reply.ok;
        },
    };
}
