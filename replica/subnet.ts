// Executes messages against the hosted canisters with the IC's rules: call contexts,
// callbacks, inter-canister routing, timers, install/upgrade and ingress status.
import { Principal } from '@dfinity/principal';

import { toHex } from './bytes';
import {
    RejectCode,
    SubnetError,
    type CallContext,
    type Callback,
    type Canister,
    type Origin,
    type Reject,
} from './canister-state';
import { callFee, charge, chargeMemory, CHARGE, executionFee, frozenQuery, ingressFee, outOfCycles } from './cycles';
import {
    compileModule,
    instantiate,
    type CanisterModule,
    type ExecutionError,
    type ModuleCache,
    type Outcome,
} from './execution/instance';
import type { Span } from './execution/heap';
import { createStableMemory } from './execution/stable-memory';
import { clearChunkStore, type ChunkBytes } from './chunk-store';
import { dropSnapshots, type SnapshotFiles } from './snapshots';
import type { ContextKind, ExecutionContext, OutgoingCall, Response } from './execution/system-api';

export const LIMITS = {
    update: 40_000_000_000n,
    query: 5_000_000_000n,
    install: 300_000_000_000n,
    inspect: 200_000_000n,
};
export const MAX_STABLE_PAGES = (500n * 1024n * 1024n * 1024n) / 65536n; // 500 GiB
export const MANAGEMENT = Principal.managementCanister();
export const DEFAULT_CYCLES = 100_000_000_000_000n;

export type Reply = { reply: Uint8Array } | { reject: Reject };

export type Message =
    | {
          kind: 'request';
          origin: Origin;
          caller: Uint8Array;
          receiver: string;
          method: string;
          arg: Uint8Array;
          cycles: bigint;
      }
    | { kind: 'response'; receiver: string; callbackId: number; response: Reply; refund: bigint };

export interface ExecutionRecord {
    canister: string;
    method: string;
    kind: ContextKind;
    instructions: bigint;
    error?: ExecutionError;
}

/** What one round changed, for the write-ahead log and certification. */
export interface RoundChanges {
    heap: Map<string, Span[]>;
    stable: Map<string, Span[]>;
    /** Canisters whose heap was replaced wholesale (install, upgrade). */
    freshHeap: Set<string>;
    /** Canisters whose stable memory was replaced (install, reinstall). */
    freshStable: Set<string>;
    system: Set<string>;
    statuses: Set<string>;
    created: Set<string>;
    deleted: Set<string>;
    /** Snapshot files no longer referenced (removed once the round is logged). */
    droppedSnapshots: Set<string>;
}

export interface IngressStatus {
    status: 'received' | 'processing' | 'replied' | 'rejected' | 'done';
    reply?: Uint8Array;
    reject?: Reject;
    expiry: bigint;
    /** Replica time when it reached its current status. */
    at: bigint;
    /** Who sent the request: only they may read its status. */
    sender: Uint8Array;
}

export interface SubnetOptions {
    moduleCache?: ModuleCache;
    /** Keeps an installed module's bytes (so that it can be reloaded after a restart). */
    saveModule?: (hash: string, wasm: Uint8Array) => void;
    /** Keeps a wasm chunk's bytes by hash (written before the round that stores it is logged), and reads them back. */
    saveChunk?: (hash: string, bytes: Uint8Array) => void;
    loadChunk?: (hash: string) => Uint8Array;
    log?: (canister: string, message: string) => void;
    /** Called for a canister's outgoing call to the management canister; `accept` keeps attached cycles. */
    management: (call: {
        caller: Canister;
        method: string;
        arg: Uint8Array;
        cycles: bigint;
        accept: (amount: bigint) => void;
    }) => Reply;
    canisterRange: [bigint, bigint];
    /** Snapshots' memories, and installed modules by hash (hex): for load_canister_snapshot. */
    snapshotFiles?: SnapshotFiles;
    loadModule?: (hash: string) => Uint8Array;
}

export function newChanges(): RoundChanges {
    return {
        heap: new Map(),
        stable: new Map(),
        freshHeap: new Set(),
        freshStable: new Set(),
        system: new Set(),
        statuses: new Set(),
        created: new Set(),
        deleted: new Set(),
        droppedSnapshots: new Set(),
    };
}

export function canisterIdFromIndex(index: bigint): Principal {
    const bytes = new Uint8Array(10);
    new DataView(bytes.buffer).setBigUint64(0, index);
    bytes[8] = 1;
    bytes[9] = 1;
    return Principal.fromUint8Array(bytes);
}

export class Subnet implements ChunkBytes {
    readonly canisters = new Map<string, Canister>();
    readonly ingress = new Map<string, IngressStatus>();
    readonly queue: Message[] = [];
    nextCanisterIndex: bigint;
    time = 0n;
    changes = newChanges();
    /** The last executions, newest last (bounded), for instruction reporting. */
    readonly executions: ExecutionRecord[] = [];
    onExecution?: (record: ExecutionRecord) => void;
    /**
     * Fault injection for tests (in process only): a request this names a message for traps
     * with it instead of running, as a canister's bug would (nothing changes, the caller gets
     * the IC's trap reject), so callers' handling of traps can be tested on a correct canister.
     */
    trapWhen?: (receiver: string, method: string, arg: Uint8Array) => string | undefined;

    constructor(readonly options: SubnetOptions) {
        this.nextCanisterIndex = options.canisterRange[0];
    }

    /** Wasm chunks' bytes by hash (hex), as read or written this run: the stores name them. */
    private readonly chunkBytes = new Map<string, Uint8Array>();

    putChunk(hash: string, bytes: Uint8Array): void {
        this.options.saveChunk?.(hash, bytes);
        this.chunkBytes.set(hash, bytes);
    }

    chunk(hash: string): Uint8Array {
        let bytes = this.chunkBytes.get(hash);
        if (bytes === undefined) {
            const load = this.options.loadChunk;
            if (load === undefined) throw new Error(`wasm chunk ${hash} is not kept here`);
            bytes = load(hash);
            this.chunkBytes.set(hash, bytes);
        }
        return bytes;
    }

    // ---- canister lifecycle -------------------------------------------------------------

    createCanister(controllers: Uint8Array[], specified?: Principal, cycles = DEFAULT_CYCLES): Canister {
        let id: Principal;
        if (specified !== undefined) {
            id = specified;
            if (this.canisters.has(id.toText()))
                throw new SubnetError(
                    RejectCode.DestinationInvalid,
                    `Canister ${id.toText()} is already installed.`,
                    'IC0538',
                );
        } else {
            do id = canisterIdFromIndex(this.nextCanisterIndex++);
            while (this.canisters.has(id.toText()));
        }
        const canister: Canister = {
            id,
            text: id.toText(),
            bytes: id.toUint8Array(),
            stable: createStableMemory(MAX_STABLE_PAGES),
            system: {
                controllers,
                certifiedData: new Uint8Array(),
                globalTimer: 0n,
                version: 0n,
                status: 'running',
                cycles,
                chargedAt: this.time,
                memoryRemainder: 0n,
                callContexts: new Map(),
                callbacks: new Map(),
                nextId: 1,
            },
        };
        this.canisters.set(canister.text, canister);
        this.changes.created.add(canister.text);
        this.changes.system.add(canister.text);
        return canister;
    }

    compile(wasm: Uint8Array): CanisterModule {
        let mod: CanisterModule;
        try {
            mod = compileModule(wasm, this.options.moduleCache);
        } catch (e) {
            throw new SubnetError(
                RejectCode.CanisterError,
                `Error from Canister: Canister's Wasm module is not valid: ${(e as Error).message}`,
                'IC0505',
            );
        }
        this.options.saveModule?.(toHex(mod.hash), wasm);
        return mod;
    }

    /**
     * install / reinstall / upgrade, atomically: on any failure the canister keeps its old
     * module, heap and stable memory.
     */
    installCode(
        canister: Canister,
        mode: 'install' | 'reinstall' | 'upgrade',
        mod: CanisterModule,
        arg: Uint8Array,
        caller: Uint8Array,
        skipPreUpgrade = false,
    ): bigint {
        if (mode === 'install' && canister.module !== undefined) {
            throw new SubnetError(
                RejectCode.CanisterError,
                `Canister ${canister.text} cannot be installed because the canister is not empty. Try installing with mode='reinstall' or mode='upgrade'.`,
                'IC0538',
            );
        }
        if (mode === 'upgrade' && canister.module === undefined) {
            throw new SubnetError(
                RejectCode.CanisterError,
                `Canister ${canister.text} has no Wasm module; upgrade is not possible.`,
                'IC0537',
            );
        }
        if (canister.system.callContexts.size > 0 && mode !== 'install') {
            // The IC requires a stopped canister; we only insist that nothing is in flight.
            throw new SubnetError(
                RejectCode.CanisterError,
                `Canister ${canister.text} has open call contexts; stop it before changing its code.`,
                'IC0510',
            );
        }
        const oldStable = canister.stable;
        const oldInstance = canister.instance;
        const oldTimer = canister.system.globalTimer;
        const oldCertified = canister.system.certifiedData;
        let budget = LIMITS.install;
        const fail = (error: ExecutionError): never => {
            throw new SubnetError(
                RejectCode.CanisterError,
                `Error from Canister ${canister.text}: ${error.message}`,
                error.code,
            );
        };
        const base = { caller, limit: budget };
        if (
            mode === 'upgrade' &&
            oldInstance !== undefined &&
            canister.module?.methods.has('canister_pre_upgrade') &&
            !skipPreUpgrade
        ) {
            const ctx = this.context(canister, 'G', base);
            const out = oldInstance.run({ export: 'canister_pre_upgrade' }, ctx);
            this.record(canister, 'canister_pre_upgrade', 'G', out);
            if (!out.ok) {
                oldInstance.rollback();
                canister.stable.rollback();
                fail(out.error);
            }
            budget -= out.instructions;
            this.absorb(canister, ctx);
        }
        const stable = mode === 'upgrade' ? oldStable : createStableMemory(MAX_STABLE_PAGES);
        canister.stable = stable;
        const instance = instantiate(mod, () => canister.stable);
        const restore = (): void => {
            canister.stable = oldStable;
            oldStable.rollback();
            oldInstance?.rollback();
            canister.system.globalTimer = oldTimer;
            canister.system.certifiedData = oldCertified;
        };
        // The IC deactivates the global timer whenever the module changes.
        canister.system.globalTimer = 0n;
        for (const [name, kind] of [
            ['canister_start', 's'],
            [mode === 'upgrade' ? 'canister_post_upgrade' : 'canister_init', 'I'],
        ] as const) {
            if (!mod.methods.has(name)) continue;
            const ctx = this.context(canister, kind, { caller, arg, limit: budget });
            const out = instance.run({ export: name }, ctx);
            this.record(canister, name, kind, out);
            if (!out.ok) {
                restore();
                fail(out.error);
            }
            budget -= out.instructions;
            this.absorb(canister, ctx);
            if (ctx.calls.length > 0) {
                restore();
                fail({
                    code: 'IC0504',
                    message: 'Canister violated contract: calls cannot be made during installation',
                });
            }
        }
        instance.commit();
        // What pre_upgrade and post_upgrade wrote to stable memory: logged below (a second
        // commit would find nothing, and the writes would be lost at the next restart).
        const stableSpans = stable.commit();
        canister.module = mod;
        canister.instance = instance;
        canister.system.moduleHash = mod.hash;
        canister.system.version += 1n;
        charge(canister, CHARGE.message);
        this.changes.freshHeap.add(canister.text);
        if (stable !== oldStable) this.changes.freshStable.add(canister.text);
        else this.noteStable(canister, stableSpans);
        this.changes.system.add(canister.text);
        return LIMITS.install - budget;
    }

    uninstall(canister: Canister): void {
        this.rejectOpenContexts(canister, 'Canister has been uninstalled.');
        canister.module = undefined;
        canister.instance = undefined;
        canister.stable = createStableMemory(MAX_STABLE_PAGES);
        canister.system.moduleHash = undefined;
        clearChunkStore(canister);
        canister.system.certifiedData = new Uint8Array();
        canister.system.globalTimer = 0n;
        canister.system.version += 1n;
        this.changes.freshHeap.add(canister.text);
        this.changes.freshStable.add(canister.text);
        this.changes.system.add(canister.text);
    }

    deleteCanister(canister: Canister): void {
        this.rejectOpenContexts(canister, `Canister ${canister.text} has been deleted.`);
        dropSnapshots(this, canister);
        this.canisters.delete(canister.text);
        this.changes.deleted.add(canister.text);
    }

    // ---- ingress and queries -------------------------------------------------------------

    /** Accepts an ingress update call; it runs in the next round. */
    submitIngress(
        requestId: string,
        sender: Uint8Array,
        receiver: string,
        method: string,
        arg: Uint8Array,
        expiry: bigint,
    ): void {
        this.ingress.set(requestId, { status: 'received', expiry, at: this.time, sender });
        this.changes.statuses.add(requestId);
        this.queue.push({
            kind: 'request',
            origin: { kind: 'ingress', requestId },
            caller: sender,
            receiver,
            method,
            arg,
            cycles: 0n,
        });
    }

    /** Runs a query method in non-replicated mode against committed state; changes are discarded. */
    query(
        receiver: string,
        method: string,
        arg: Uint8Array,
        caller: Uint8Array,
        dataCertificate?: () => Uint8Array,
    ): Reply {
        const canister = this.canisters.get(receiver);
        if (canister === undefined)
            return rejectOf(RejectCode.DestinationInvalid, `Canister ${receiver} not found`, 'IC0301');
        if (canister.instance === undefined || canister.module === undefined) {
            return rejectOf(RejectCode.DestinationInvalid, `Canister ${receiver} has no Wasm module.`, 'IC0537');
        }
        if (canister.system.status !== 'running')
            return rejectOf(RejectCode.CanisterError, `Canister ${receiver} is stopped`, 'IC0508');
        const frozen = frozenQuery(canister);
        if (frozen !== undefined) return { reject: frozen };
        const name = `canister_query ${method}`;
        if (!canister.module.methods.has(name)) {
            return rejectOf(
                RejectCode.DestinationInvalid,
                `Canister ${receiver} has no query method '${method}'`,
                'IC0536',
            );
        }
        const ctx = this.context(canister, 'NRQ', {
            caller,
            arg,
            limit: LIMITS.query,
            canRespond: true,
            dataCertificate,
        });
        const out = canister.instance.run({ export: name }, ctx);
        canister.instance.rollback();
        canister.stable.rollback();
        this.record(canister, name, 'NRQ', out);
        if (!out.ok)
            return rejectOf(
                RejectCode.CanisterError,
                `Error from Canister ${receiver}: ${out.error.message}`,
                out.error.code,
            );
        return this.toReply(canister, ctx.response);
    }

    /** Runs canister_inspect_message for an ingress message; true when the canister accepts it. */
    inspect(receiver: string, method: string, arg: Uint8Array, caller: Uint8Array): Reject | undefined {
        const canister = this.canisters.get(receiver);
        if (canister?.instance === undefined || !canister.module?.methods.has('canister_inspect_message'))
            return undefined;
        const ctx = this.context(canister, 'F', { caller, arg, limit: LIMITS.inspect, methodName: method });
        const out = canister.instance.run({ export: 'canister_inspect_message' }, ctx);
        canister.instance.rollback();
        canister.stable.rollback();
        if (!out.ok)
            return {
                code: RejectCode.CanisterError,
                message: `Error from Canister ${receiver}: ${out.error.message}`,
                errorCode: out.error.code,
            };
        if (!ctx.accepted)
            return {
                code: RejectCode.CanisterReject,
                message: `Canister ${receiver} rejected the message`,
                errorCode: 'IC0406',
            };
        return undefined;
    }

    // ---- the round ---------------------------------------------------------------------

    /** Executes queued messages and due timers until nothing is left (or `maxSteps`). */
    run(maxSteps = 10_000): number {
        this.chargeIdle();
        let steps = 0;
        for (;;) {
            while (this.queue.length > 0 && steps < maxSteps) {
                this.deliver(this.queue.shift()!);
                steps++;
            }
            if (steps >= maxSteps) return steps;
            let fired = false;
            for (const canister of this.canisters.values()) {
                if (this.timerDue(canister, this.time)) {
                    canister.system.globalTimer = 0n;
                    this.changes.system.add(canister.text);
                    this.runSystemTask(canister, 'canister_global_timer');
                    steps++;
                    fired = true;
                }
            }
            if (!fired && this.queue.length === 0) return steps;
        }
    }

    /**
     * Whether the canister's global timer runs in a round at `time`: set, due, on a running
     * canister with code that can pay for it (the IC runs no timers of a frozen canister).
     */
    timerDue(canister: Canister, time: bigint): boolean {
        const due = canister.system.globalTimer;
        return (
            due !== 0n &&
            due <= time &&
            canister.instance !== undefined &&
            canister.system.status === 'running' &&
            canister.module?.methods.has('canister_global_timer') === true &&
            outOfCycles(canister, CHARGE.message) === undefined
        );
    }

    /** The earliest pending global timer, if any (none of a frozen canister's: it waits for cycles). */
    nextTimer(): bigint | undefined {
        let next: bigint | undefined;
        for (const c of this.canisters.values()) {
            const t = c.system.globalTimer;
            if (t === 0n || !this.timerDue(c, t)) continue;
            if (next === undefined || t < next) next = t;
        }
        return next;
    }

    /** Charges every canister's memory up to now; one at zero is uninstalled, as on the IC. */
    chargeIdle(): void {
        for (const canister of this.canisters.values()) {
            if (chargeMemory(canister, this.time)) this.changes.system.add(canister.text);
            if (canister.system.cycles === 0n && canister.module !== undefined) {
                this.options.log?.(canister.text, 'out of cycles: uninstalled (code, memory and snapshots are gone)');
                this.uninstall(canister);
                dropSnapshots(this, canister);
            }
        }
    }

    private deliver(message: Message): void {
        if (message.kind === 'request') this.deliverRequest(message);
        else this.deliverResponse(message);
    }

    private deliverRequest(m: Extract<Message, { kind: 'request' }>): void {
        if (m.origin.kind === 'ingress') {
            const status = this.ingress.get(m.origin.requestId);
            if (status !== undefined)
                this.setStatus(m.origin.requestId, { ...status, status: 'processing', at: this.time });
        }
        const canister = this.canisters.get(m.receiver);
        const fail = (code: number, message: string, errorCode: string): void =>
            this.respond(m.origin, rejectOf(code, message, errorCode), m.cycles);
        if (canister === undefined)
            return fail(RejectCode.DestinationInvalid, `Canister ${m.receiver} not found`, 'IC0301');
        if (canister.instance === undefined || canister.module === undefined) {
            return fail(RejectCode.DestinationInvalid, `Canister ${m.receiver} has no Wasm module.`, 'IC0537');
        }
        if (canister.system.status !== 'running')
            return fail(RejectCode.CanisterError, `Canister ${m.receiver} is not running`, 'IC0508');
        let name = `canister_update ${m.method}`;
        let kind: ContextKind = 'U';
        if (!canister.module.methods.has(name)) {
            name = `canister_query ${m.method}`;
            kind = 'RQ';
            if (!canister.module.methods.has(name)) {
                return fail(
                    RejectCode.DestinationInvalid,
                    `Canister ${m.receiver} has no update method '${m.method}'`,
                    'IC0536',
                );
            }
        }
        const received = m.origin.kind === 'ingress' ? ingressFee(m.method.length + m.arg.length) : 0n;
        const frozen = outOfCycles(canister, received + CHARGE.message);
        if (frozen !== undefined) return fail(frozen.code, frozen.message, frozen.errorCode!);
        charge(canister, received);
        const injected = this.trapWhen?.(m.receiver, m.method, m.arg);
        if (injected !== undefined)
            return fail(
                RejectCode.CanisterError,
                `Error from Canister ${m.receiver}: Canister called \`ic0.trap\` with message: '${injected}'`,
                'IC0503',
            );
        const sys = canister.system;
        const callContext: CallContext = {
            id: sys.nextId++,
            origin: m.origin,
            caller: m.caller,
            responded: false,
            outstanding: 0,
            instructions: 0n,
            cycles: m.cycles,
            discard: kind === 'RQ',
        };
        sys.callContexts.set(callContext.id, callContext);
        this.changes.system.add(canister.text);
        const ctx = this.context(canister, kind, {
            caller: m.caller,
            arg: m.arg,
            limit: kind === 'RQ' ? LIMITS.query : LIMITS.update,
            canRespond: true,
            cyclesAvailable: m.cycles,
            callContext,
        });
        const out = canister.instance.run({ export: name }, ctx);
        this.record(canister, name, kind, out);
        this.finish(canister, callContext, ctx, out, kind === 'RQ');
    }

    private deliverResponse(m: Extract<Message, { kind: 'response' }>): void {
        const canister = this.canisters.get(m.receiver);
        const callback = canister?.system.callbacks.get(m.callbackId);
        if (canister === undefined || callback === undefined) return;
        canister.system.callbacks.delete(m.callbackId);
        this.changes.system.add(canister.text);
        const callContext = canister.system.callContexts.get(callback.callContext);
        if (callContext === undefined) return;
        callContext.outstanding -= 1;
        if (canister.instance === undefined) {
            this.closeIfDone(canister, callContext);
            return;
        }
        const isReply = 'reply' in m.response;
        const kind: ContextKind = isReply ? 'Ry' : 'Rt';
        canister.system.cycles += m.refund;
        // The response's bytes travel at the caller's expense, as the request's did.
        const bytes = 'reply' in m.response ? m.response.reply.length : m.response.reject.message.length;
        charge(canister, CHARGE.callByte * BigInt(bytes));
        const ctx = this.context(canister, kind, {
            caller: callContext.caller,
            arg: 'reply' in m.response ? m.response.reply : undefined,
            reject:
                'reject' in m.response
                    ? { code: m.response.reject.code, message: m.response.reject.message }
                    : undefined,
            limit: LIMITS.update,
            canRespond: !callContext.responded,
            cyclesAvailable: callContext.cycles,
            cyclesRefunded: m.refund,
            callContext,
        });
        const fn = isReply ? callback.reply : callback.reject;
        const out = canister.instance.run({ table: fn.fun, env: fn.env }, ctx);
        this.record(canister, isReply ? 'reply callback' : 'reject callback', kind, out);
        if (!out.ok && callback.cleanup !== undefined) {
            canister.instance.rollback();
            canister.stable.rollback();
            const cleanup = this.context(canister, 'C', {
                caller: callContext.caller,
                limit: LIMITS.update,
                callContext,
            });
            const cleaned = canister.instance.run({ table: callback.cleanup.fun, env: callback.cleanup.env }, cleanup);
            this.record(canister, 'cleanup callback', 'C', cleaned);
            if (cleaned.ok) this.commit(canister, cleanup);
            else {
                canister.instance.rollback();
                canister.stable.rollback();
            }
            this.failContext(canister, callContext, out.error);
            return;
        }
        this.finish(canister, callContext, ctx, out, callContext.discard);
    }

    private runSystemTask(canister: Canister, name: string): void {
        const callContext: CallContext = {
            id: canister.system.nextId++,
            origin: { kind: 'system' },
            caller: MANAGEMENT.toUint8Array(),
            responded: true,
            outstanding: 0,
            instructions: 0n,
            cycles: 0n,
            discard: false,
        };
        canister.system.callContexts.set(callContext.id, callContext);
        const ctx = this.context(canister, 'T', {
            caller: MANAGEMENT.toUint8Array(),
            limit: LIMITS.update,
            callContext,
        });
        const out = canister.instance!.run({ export: name }, ctx);
        this.record(canister, name, 'T', out);
        this.finish(canister, callContext, ctx, out, false);
    }

    /** Commits (or rolls back) an execution and moves its call context along. */
    private finish(
        canister: Canister,
        callContext: CallContext,
        ctx: ExecutionContext,
        out: Outcome,
        discard: boolean,
    ): void {
        callContext.instructions += out.instructions;
        if (!out.ok) {
            canister.instance!.rollback();
            canister.stable.rollback();
            this.failContext(canister, callContext, out.error);
            return;
        }
        if (discard) {
            canister.instance!.rollback();
            canister.stable.rollback();
        } else {
            this.commit(canister, ctx);
            for (const call of ctx.calls) this.send(canister, callContext, call);
        }
        if (ctx.response !== undefined && !callContext.responded) {
            callContext.responded = true;
            this.respond(
                callContext.origin,
                this.toReply(canister, ctx.response),
                callContext.cycles - ctx.cyclesAccepted,
            );
        }
        this.closeIfDone(canister, callContext);
    }

    private commit(canister: Canister, ctx: ExecutionContext): void {
        const heapSpans = canister.instance!.commit();
        if (heapSpans.length > 0) append(this.changes.heap, canister.text, heapSpans);
        this.noteStable(canister, canister.stable.commit());
        this.absorb(canister, ctx);
    }

    private noteStable(canister: Canister, spans: Span[]): void {
        if (spans.length > 0) append(this.changes.stable, canister.text, spans);
    }

    /** Takes the system-state effects of a committed execution. */
    private absorb(canister: Canister, ctx: ExecutionContext): void {
        const sys = canister.system;
        if (ctx.certifiedData !== undefined) sys.certifiedData = ctx.certifiedData;
        if (ctx.globalTimerChanged) sys.globalTimer = ctx.globalTimer;
        // The execution's own effect on the balance; fees charged meanwhile stay charged.
        sys.cycles += ctx.cyclesBalance - ctx.cyclesAtStart;
        this.changes.system.add(canister.text);
    }

    private failContext(canister: Canister, callContext: CallContext, error: ExecutionError): void {
        this.rejectUnanswered(canister, callContext, error.message, error.code);
        this.closeIfDone(canister, callContext);
    }

    /** A call context nobody answered yet gets a canister error (system contexts have no caller). */
    private rejectUnanswered(canister: Canister, callContext: CallContext, message: string, code: string): void {
        if (callContext.responded || callContext.origin.kind === 'system') return;
        callContext.responded = true;
        this.respond(
            callContext.origin,
            rejectOf(RejectCode.CanisterError, `Error from Canister ${canister.text}: ${message}`, code),
            callContext.cycles,
        );
    }

    private closeIfDone(canister: Canister, callContext: CallContext): void {
        if (callContext.outstanding > 0) return;
        this.rejectUnanswered(canister, callContext, 'Canister did not reply to the call', 'IC0506');
        canister.system.callContexts.delete(callContext.id);
        this.changes.system.add(canister.text);
    }

    private rejectOpenContexts(canister: Canister, message: string): void {
        for (const callContext of canister.system.callContexts.values()) {
            if (!callContext.responded && callContext.origin.kind !== 'system') {
                this.respond(
                    callContext.origin,
                    rejectOf(RejectCode.CanisterReject, message, 'IC0536'),
                    callContext.cycles,
                );
            }
        }
        canister.system.callContexts.clear();
        canister.system.callbacks.clear();
    }

    private send(canister: Canister, callContext: CallContext, call: OutgoingCall): void {
        const sys = canister.system;
        const callback: Callback = {
            id: sys.nextId++,
            callContext: callContext.id,
            callee: safeText(call.callee),
            reply: call.reply,
            reject: call.reject,
            cleanup: call.cleanup,
            cycles: call.cycles,
        };
        sys.callbacks.set(callback.id, callback);
        callContext.outstanding += 1;
        const origin: Origin = { kind: 'canister', caller: canister.text, callbackId: callback.id };
        const fee = callFee(call.method.length + call.arg.length);
        const frozen = outOfCycles(canister, fee);
        if (frozen !== undefined) {
            // The IC refuses the call at once; the callback sees the reject, the cycles come back.
            this.queue.push({
                kind: 'response',
                receiver: canister.text,
                callbackId: callback.id,
                response: { reject: frozen },
                refund: call.cycles,
            });
            return;
        }
        charge(canister, fee);
        if (callback.callee === MANAGEMENT.toText()) {
            let reply: Reply;
            let accepted = 0n;
            try {
                reply = this.options.management({
                    caller: canister,
                    method: call.method,
                    arg: call.arg,
                    cycles: call.cycles,
                    accept: (amount) => (accepted = amount),
                });
            } catch (e) {
                reply =
                    e instanceof SubnetError
                        ? rejectOf(e.code, e.message, e.errorCode)
                        : rejectOf(RejectCode.CanisterError, String(e), 'IC0503');
            }
            this.queue.push({
                kind: 'response',
                receiver: canister.text,
                callbackId: callback.id,
                response: reply,
                refund: 'reply' in reply ? call.cycles - accepted : call.cycles,
            });
            return;
        }
        this.queue.push({
            kind: 'request',
            origin,
            caller: canister.bytes,
            receiver: callback.callee,
            method: call.method,
            arg: call.arg,
            cycles: call.cycles,
        });
    }

    private respond(origin: Origin, reply: Reply, refund: bigint): void {
        if (origin.kind === 'ingress') {
            const status = this.ingress.get(origin.requestId);
            if (status === undefined) return;
            const base = { expiry: status.expiry, at: this.time, sender: status.sender };
            this.setStatus(
                origin.requestId,
                'reply' in reply
                    ? { ...base, status: 'replied', reply: reply.reply }
                    : { ...base, status: 'rejected', reject: reply.reject },
            );
        } else if (origin.kind === 'canister') {
            this.queue.push({
                kind: 'response',
                receiver: origin.caller,
                callbackId: origin.callbackId,
                response: reply,
                refund: 'reply' in reply ? refund : refund,
            });
        }
    }

    private setStatus(requestId: string, status: IngressStatus): void {
        this.ingress.set(requestId, status);
        this.changes.statuses.add(requestId);
    }

    private toReply(canister: Canister, response: Response | undefined): Reply {
        if (response === undefined) {
            return rejectOf(
                RejectCode.CanisterError,
                `Error from Canister ${canister.text}: Canister did not reply to the call`,
                'IC0506',
            );
        }
        if ('reply' in response) return response;
        return rejectOf(response.reject.code, response.reject.message, 'IC0406');
    }

    private context(
        canister: Canister,
        kind: ContextKind,
        o: {
            caller: Uint8Array;
            limit: bigint;
            arg?: Uint8Array;
            reject?: { code: number; message: string };
            methodName?: string;
            canRespond?: boolean;
            cyclesAvailable?: bigint;
            cyclesRefunded?: bigint;
            callContext?: CallContext;
            dataCertificate?: () => Uint8Array;
        },
    ): ExecutionContext {
        const sys = canister.system;
        return {
            kind,
            canisterId: canister.bytes,
            caller: o.caller,
            time: this.time,
            arg: o.arg,
            reject: o.reject,
            methodName: o.methodName,
            canRespond: o.canRespond ?? false,
            replyBuffer: [],
            replySize: 0,
            cyclesAvailable: o.cyclesAvailable ?? 0n,
            cyclesRefunded: o.cyclesRefunded ?? 0n,
            cyclesAccepted: 0n,
            cyclesBalance: sys.cycles,
            cyclesAtStart: sys.cycles,
            calls: [],
            globalTimer: sys.globalTimer,
            globalTimerChanged: false,
            canisterVersion: sys.version,
            controllers: sys.controllers,
            dataCertificate: o.dataCertificate,
            accepted: false,
            callContextInstructions: o.callContext?.instructions ?? 0n,
            limit: o.limit,
            log: (message) => this.options.log?.(canister.text, message),
        };
    }

    private record(canister: Canister, method: string, kind: ContextKind, out: Outcome): void {
        // Non-replicated queries and inspect_message are free; a message's base fee is charged once
        // (cleanup runs within its callback's message, install charges its own).
        if (kind !== 'NRQ' && kind !== 'F') {
            const base = kind === 'U' || kind === 'RQ' || kind === 'Ry' || kind === 'Rt' || kind === 'T';
            charge(canister, executionFee(out.instructions, base));
            this.changes.system.add(canister.text);
        }
        const record: ExecutionRecord = {
            canister: canister.text,
            method,
            kind,
            instructions: out.instructions,
            error: out.ok ? undefined : out.error,
        };
        this.executions.push(record);
        if (this.executions.length > 1000) this.executions.splice(0, this.executions.length - 1000);
        this.onExecution?.(record);
    }
}

export function rejectOf(code: number, message: string, errorCode: string): Reply {
    return { reject: { code, message, errorCode } };
}

function append(map: Map<string, Span[]>, key: string, spans: Span[]): void {
    const list = map.get(key);
    if (list === undefined) map.set(key, [...spans]);
    else list.push(...spans);
}

function safeText(bytes: Uint8Array): string {
    try {
        return Principal.fromUint8Array(bytes).toText();
    } catch {
        return '<invalid principal>';
    }
}
