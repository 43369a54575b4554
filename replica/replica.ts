// The local replica: one subnet of canisters with durable state, rounds of execution,
// certification, a clock tests can move, and the IC HTTP interface on loopback.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';

import { toHex } from './bytes';
import { createCertifier, type Certifier } from './certification';
import { createClock, type Clock } from './clock';
import { initBls } from './crypto/bls';
import { STABLE_PAGE, readSpan } from './execution/stable-memory';
import type { Span } from './execution/heap';
import { instantiate } from './execution/instance';
import { startHttpServer, type ApiAnswer, type ApiRequest, type HttpServer } from './http/server';
import { callManagement } from './management';
import {
    openStore,
    type CanisterDelta,
    type CanisterImage,
    type CanisterMeta,
    type RoundRecord,
    type Store,
} from './persistence';
import { SubnetError, type Canister } from './canister-state';
import { privateDir } from './private-files';
import { liveChunkHashes } from './chunk-store';
import { liveSnapshotKeys } from './snapshots';
import {
    MANAGEMENT,
    MAX_STABLE_PAGES,
    Subnet,
    newChanges,
    rejectOf,
    type ExecutionRecord,
    type IngressStatus,
    type Reply,
    type RoundChanges,
} from './subnet';

export interface ReplicaOptions {
    /** Where state lives; created if missing. */
    dataDir: string;
    /** HTTP port on 127.0.0.1; 0 picks a free one. Omit to run without HTTP. */
    port?: number;
    host?: string;
    /**
     * Test mode: the loopback time-control endpoint, a custom start time, and a manual
     * execution clock (canisters see time move only by advanceTime/setTime; see clock.ts).
     */
    testMode?: boolean;
    /** Start the clock here (ns since epoch) on a fresh data directory (test mode). */
    startTime?: bigint;
    /** fsync the log after every round (survives power loss, not only process kills). */
    fsync?: boolean;
    /**
     * A directory that does not outlive this replica (a test's, removed when it stops): no file
     * is fsynced, rounds are not logged and stop() writes no checkpoint (state lives in memory;
     * only an explicit checkpoint() writes it, whole: test templates).
     */
    scratch?: boolean;
    /** Canister debug output (console.log inside canisters). */
    log?: (canister: string, message: string) => void;
    /** Checkpoint once the log is this large (bytes). */
    checkpointBytes?: number;
    /**
     * IC-like latency: a round runs as soon as there is work, but what it did (call replies,
     * the certified state read_state shows) becomes visible only this long after, as a subnet's
     * consensus would make it; the next rounds run meanwhile, so throughput is not lost.
     * Queries answer at once. 0 (default): visible at once.
     */
    roundMs?: number;
}

export interface Replica {
    readonly url: string;
    readonly port: number;
    readonly rootKey: Uint8Array; // DER
    readonly subnet: Subnet;
    readonly certifier: Certifier;
    /** Answers an IC HTTP interface request made in this process exactly as its HTTP port would (needs the port). */
    serveApi(request: ApiRequest): Promise<ApiAnswer>;
    /** The execution time of the last round: what canisters saw. */
    time(): bigint;
    /** The time of the IC HTTP interface (certificates, ingress expiry); in test mode it may be ahead of `time()`. */
    protocolTime(): bigint;
    /** Moves the clock forward and runs what became due (timers). */
    advanceTime(ms: number): Promise<void>;
    setTime(ns: bigint): Promise<void>;
    /** Sets a canister's cycles balance (tests), as its own round. */
    setCycles(canisterId: Principal | string, cycles: bigint): void;
    /** Runs a round now. */
    tick(): Promise<void>;
    /** A new canister with `controllers` (default: the operator), and itself too when `selfControlled`. */
    createCanister(controllers?: Principal[], specifiedId?: Principal, o?: { selfControlled?: boolean }): Principal;
    installCode(
        canisterId: Principal,
        wasm: Uint8Array,
        options?: {
            mode?: 'install' | 'reinstall' | 'upgrade';
            arg?: Uint8Array;
            caller?: Principal;
            skipPreUpgrade?: boolean;
        },
    ): Promise<bigint>;
    /** Submits an update call as `caller` and waits for its result (in-process, no signature). */
    update(canisterId: Principal, method: string, arg: Uint8Array, caller?: Principal): Promise<Reply>;
    /** A non-replicated query; with `certified`, it can read a data certificate (as one reached over HTTP can). */
    query(canisterId: Principal, method: string, arg: Uint8Array, caller?: Principal, certified?: boolean): Reply;
    /** Named values kept with the state (e.g. canister ids by name). */
    getExtra(key: string): unknown;
    setExtra(key: string, value: unknown): void;
    /** Every named value (what an embedder on another thread reads at start). */
    extras(): Readonly<Record<string, unknown>>;
    /** The most recent executions with their metered instructions. */
    executions(): readonly ExecutionRecord[];
    checkpoint(): void;
    stop(): Promise<void>;
}

export const ANONYMOUS = Principal.anonymous();
/** The principal the replica's own operator uses for in-process administration. */
export const OPERATOR = Principal.fromUint8Array(new Uint8Array([0x0a, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x01])); // "local" operator
const STATUS_TTL = 5n * 60n * 1_000_000_000n;
/** An empty Candid argument list, what dfx sends when no argument is given. */
const EMPTY_ARGS = new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 0]);
const CANISTER_RANGE: [bigint, bigint] = [0x100000n, 0x1fffffn];

export async function startReplica(options: ReplicaOptions): Promise<Replica> {
    await initBls();
    privateDir(options.dataDir);
    // The store takes the directory's lock: nothing else in it is touched before.
    const store = openStore(options.dataDir, { fsync: options.fsync ?? false, scratch: options.scratch });
    try {
        return await startOn(store, options);
    } catch (e) {
        // A start that fails (a taken port, a bad checkpoint) leaves the directory unlocked.
        store.close();
        throw e;
    }
}

async function startOn(store: Store, options: ReplicaOptions): Promise<Replica> {
    const keys = loadKeys(options.dataDir);
    const checkpointBytes = options.checkpointBytes ?? 256 * 1024 * 1024;
    let extra: Record<string, unknown> = {};

    const subnet: Subnet = new Subnet({
        moduleCache: store.moduleCache,
        saveModule: (hash, wasm) => store.putModule(hash, wasm),
        saveChunk: (hash, bytes) => store.putChunk(hash, bytes),
        loadChunk: (hash) => store.getChunk(hash),
        log: options.log ?? ((canister, message) => console.log(`[canister ${canister}] ${message}`)),
        canisterRange: CANISTER_RANGE,
        snapshotFiles: {
            write: (key, heap, stable) => store.writeSnapshot(key, heap, stable),
            read: (key) => store.readSnapshot(key, MAX_STABLE_PAGES),
        },
        loadModule: (hash) => store.getModule(hash),
        management: ({ caller, method, arg, cycles, accept }) =>
            callManagement(subnet, {
                caller: caller.bytes,
                method,
                arg,
                cycles,
                accept,
                ingress: false,
                random: (n) => new Uint8Array(randomBytes(n)),
            }),
    });
    // Stable spans written since the last checkpoint, per canister.
    const stableSinceCheckpoint = new Map<string, Span[] | 'all'>();

    const loaded = store.load(MAX_STABLE_PAGES);
    if (loaded !== undefined) {
        subnet.time = loaded.time;
        subnet.nextCanisterIndex = loaded.nextCanisterIndex;
        subnet.queue.push(...loaded.queue);
        for (const [id, status] of loaded.statuses) subnet.ingress.set(id, status);
        extra = loaded.extra;
        for (const { meta, heap, stable } of loaded.canisters.values()) {
            const id = Principal.fromText(meta.id);
            const canister: Canister = { id, text: meta.id, bytes: id.toUint8Array(), system: meta.system, stable };
            if (meta.moduleHash !== undefined) {
                canister.module = subnet.compile(store.getModule(meta.moduleHash));
                canister.instance = instantiate(canister.module, () => canister.stable);
                canister.instance.restore(heap, meta.pages, meta.globals);
            }
            subnet.canisters.set(meta.id, canister);
        }
    }
    subnet.changes = newChanges();
    store.pruneSnapshots(liveSnapshotKeys(subnet));
    store.pruneChunks(liveChunkHashes(subnet.canisters.values()));

    const clock: Clock = createClock({
        start: loaded === undefined && options.testMode ? options.startTime : undefined,
        notBefore: loaded?.time,
        manual: options.testMode ?? false,
    });
    /**
     * The `time` a round certifies: the round's own time, as on the IC; in test mode the protocol
     * time, which agents compare with their wall clock (clock.ts).
     */
    const certifiedTime = (): bigint => (clock.manual ? clock.protocol() : subnet.time);
    const certifier = createCertifier({ blsSeed: keys.bls, nodeSeed: keys.node, canisterRange: CANISTER_RANGE });
    subnet.time = clock.next();
    certifier.rebuild(subnet, certifiedTime());

    // ---- rounds ---------------------------------------------------------------------------

    const waiters = new Map<string, Array<(status: IngressStatus) => void>>();
    let roundScheduled = false;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let lastRound = 0;

    /**
     * Rounds run but not visible yet (IC-like latency, `roundMs`), oldest first, and the
     * requests whose final status they hold: neither read_state nor a waiting call sees them.
     */
    const unrevealed: Array<{ reveal: () => void; timer?: NodeJS.Timeout }> = [];
    const hidden = new Set<string>();

    /** Makes the oldest unrevealed rounds visible, up to and including `last` (all without it). */
    function revealUpTo(last?: (typeof unrevealed)[number]): void {
        while (unrevealed.length > 0) {
            const next = unrevealed.shift()!;
            clearTimeout(next.timer);
            next.reveal();
            if (next === last) return;
        }
    }

    /**
     * Runs the queued messages. `delayed`: with `roundMs`, its results become visible only
     * `roundMs` later (rounds scheduled by calls); a round a test or an in-process call runs
     * itself is visible at once, with every round before it.
     */
    function round(delayed = false): void {
        roundScheduled = false;
        subnet.time = clock.next();
        subnet.run();
        const changes = subnet.changes;
        subnet.changes = newChanges();
        const pruned = pruneStatuses(changes.statuses);
        persist(changes, pruned);
        const time = certifiedTime();
        lastRound = Date.now();
        const reveal = (): void => {
            certifier.update(subnet, changes, pruned, time);
            for (const id of changes.statuses) {
                hidden.delete(id);
                const status = subnet.ingress.get(id);
                if (status === undefined || !isFinal(status)) continue;
                const list = waiters.get(id);
                waiters.delete(id);
                list?.forEach((resolve) => resolve(status));
            }
        };
        if (delayed && (options.roundMs ?? 0) > 0) {
            for (const id of changes.statuses) hidden.add(id);
            const entry: (typeof unrevealed)[number] = { reveal };
            entry.timer = setTimeout(() => revealUpTo(entry), options.roundMs);
            entry.timer.unref();
            unrevealed.push(entry);
        } else {
            revealUpTo();
            reveal();
        }
        if (store.logSize() > checkpointBytes) checkpoint();
        armTimer();
        // A round stops after a bounded number of messages; the rest goes in the next one.
        if (subnet.queue.length > 0) scheduleRound();
    }

    function scheduleRound(): void {
        if (roundScheduled || stopped) return;
        roundScheduled = true;
        setImmediate(() => {
            if (!stopped && roundScheduled) safely(() => round(true));
        });
    }

    function armTimer(): void {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        if (clock.manual) {
            // Test mode: a timer becomes due only when a test moves the clock (advanceTime runs
            // a round itself); one due already (e.g. Azle's 0 s timer that seeds randomness) runs now.
            if (!stopped && timerFiresNextRound()) scheduleRound();
            return;
        }
        const next = subnet.nextTimer();
        if (next === undefined || stopped) return;
        const delayMs = Number((next - clock.peek()) / 1_000_000n);
        timer = setTimeout(scheduleRound, Math.max(0, Math.min(delayMs, 1000)));
        timer.unref();
    }

    /** Whether a round started now would run a global timer (the condition Subnet.run fires on). */
    function timerFiresNextRound(): boolean {
        const upcoming = clock.upcoming();
        for (const c of subnet.canisters.values()) if (subnet.timerDue(c, upcoming)) return true;
        return false;
    }

    function safely(fn: () => void): void {
        try {
            fn();
        } catch (e) {
            // A failure here is a replica bug or a disk error: state on disk is still consistent
            // (the log holds only whole rounds), so stop rather than diverge from it.
            console.error('replica: fatal error in round, stopping:', e);
            stopped = true;
            void shutdown();
        }
    }

    // Final statuses in the order they became final: the oldest are pruned first.
    let finalOrder: string[] = [...subnet.ingress]
        .filter(([, s]) => isFinal(s))
        .sort(([, a], [, b]) => (a.at < b.at ? -1 : 1))
        .map(([id]) => id);
    let finalHead = 0;

    /**
     * Forgets final statuses older than the ingress window, oldest first (O(pruned)). The window
     * is protocol time: expiries come from agents' clocks, and a test's frozen execution clock
     * must not keep every status forever.
     */
    function pruneStatuses(changed: Set<string>): string[] {
        const now = clock.protocol();
        for (const id of changed) {
            const status = subnet.ingress.get(id);
            if (status !== undefined && isFinal(status)) finalOrder.push(id);
        }
        const pruned: string[] = [];
        while (finalHead < finalOrder.length) {
            const id = finalOrder[finalHead];
            const status = subnet.ingress.get(id);
            if (status !== undefined && !(status.at + STATUS_TTL < now && status.expiry < now)) break;
            finalHead++;
            if (status === undefined) continue;
            subnet.ingress.delete(id);
            pruned.push(id);
        }
        if (finalHead > 4096 && finalHead * 2 > finalOrder.length) {
            finalOrder = finalOrder.slice(finalHead);
            finalHead = 0;
        }
        return pruned;
    }

    /**
     * Logs a round (a scratch replica logs nothing: its directory goes with it, and copying every
     * round's dirty memory into the log was a tenth of a test's CPU) and notes what the next
     * checkpoint must write.
     */
    function persist(changes: RoundChanges, pruned: string[]): void {
        noteStableChanges(changes);
        if (options.scratch !== true) store.append(roundRecord(changes, pruned));
        if (changes.droppedSnapshots.size > 0) store.pruneSnapshots(liveSnapshotKeys(subnet));
    }

    /** The stable spans changed since the last checkpoint ('all': the whole memory), per canister. */
    function noteStableChanges(changes: RoundChanges): void {
        for (const id of changes.freshStable) stableSinceCheckpoint.set(id, 'all');
        for (const [id, spans] of changes.stable) {
            const known = stableSinceCheckpoint.get(id);
            if (known !== 'all' && spans.length > 0) stableSinceCheckpoint.set(id, [...(known ?? []), ...spans]);
        }
        for (const id of changes.created) if (!stableSinceCheckpoint.has(id)) stableSinceCheckpoint.set(id, 'all');
    }

    /** What the log keeps of a round: each touched canister's changed memory and meta, the statuses. */
    function roundRecord(changes: RoundChanges, pruned: string[]): RoundRecord {
        const touched = new Set([
            ...changes.heap.keys(),
            ...changes.stable.keys(),
            ...changes.freshHeap,
            ...changes.freshStable,
            ...changes.system,
            ...changes.created,
        ]);
        const canisters: CanisterDelta[] = [];
        for (const id of touched) {
            const canister = subnet.canisters.get(id);
            if (canister === undefined) continue;
            const heapReset = changes.freshHeap.has(id);
            const stableReset = changes.freshStable.has(id);
            const committed = canister.instance?.heap.committed() ?? new Uint8Array();
            const heap: Array<[number, Uint8Array]> = heapReset
                ? [[0, committed]]
                : (changes.heap.get(id) ?? []).map(([s, e]) => [s, committed.slice(s, e)]);
            const stable: Array<[number, Uint8Array]> = stableReset
                ? [...canister.stable.pages()].map(([n, page]) => [n * STABLE_PAGE, page])
                : (changes.stable.get(id) ?? []).map((span) => [span[0], readSpan(canister.stable, span)]);
            canisters.push({ ...metaOf(canister), heapReset, heap, stableReset, stable });
        }
        const statuses: Array<[string, IngressStatus | null]> = [
            ...[...changes.statuses]
                .filter((id) => subnet.ingress.has(id))
                .map((id): [string, IngressStatus] => [id, subnet.ingress.get(id)!]),
            ...pruned.map((id): [string, null] => [id, null]),
        ];
        return {
            time: subnet.time,
            nextCanisterIndex: subnet.nextCanisterIndex,
            queue: subnet.queue,
            statuses,
            canisters,
            deleted: [...changes.deleted],
            extra,
        };
    }

    function checkpoint(): void {
        const images: CanisterImage[] = [...subnet.canisters.values()].map((c) => ({
            meta: metaOf(c),
            heap: c.instance?.heap.committed() ?? new Uint8Array(),
            stable: c.stable,
            stableChanged: stableSinceCheckpoint.get(c.text) ?? [],
        }));
        store.checkpoint(
            {
                time: subnet.time,
                nextCanisterIndex: subnet.nextCanisterIndex,
                queue: subnet.queue,
                canisters: [],
                extra,
            },
            subnet.ingress,
            images,
        );
        stableSinceCheckpoint.clear();
        store.pruneSnapshots(liveSnapshotKeys(subnet));
        store.pruneChunks(liveChunkHashes(subnet.canisters.values()));
    }

    /** Runs `fn` (which changes state outside a message) as its own persisted, certified round. */
    function transaction<T>(fn: () => T): T {
        subnet.time = clock.next();
        const result = fn();
        round();
        return result;
    }

    // ---- ingress, queries, read_state --------------------------------------------------------

    function submit(
        requestId: string,
        sender: Uint8Array,
        canisterId: string,
        method: string,
        arg: Uint8Array,
        expiry: bigint,
    ): void {
        if (subnet.ingress.has(requestId)) return; // duplicates are ignored, as on the IC
        if (canisterId === MANAGEMENT.toText()) {
            // Management calls from users run as their own subnet message, at the round's time
            // (memory charged up to it, so canister_status reports the balance as of now).
            subnet.time = clock.next();
            subnet.chargeIdle();
            subnet.changes.statuses.add(requestId);
            let reply: Reply;
            try {
                reply = callManagement(subnet, {
                    caller: sender,
                    method,
                    arg,
                    cycles: 0n,
                    ingress: true,
                    random: (n) => new Uint8Array(randomBytes(n)),
                });
            } catch (e) {
                reply =
                    e instanceof SubnetError
                        ? rejectOf(e.code, e.message, e.errorCode)
                        : rejectOf(5, String(e), 'IC0503');
            }
            const base = { expiry, at: subnet.time, sender };
            subnet.ingress.set(
                requestId,
                'reply' in reply
                    ? { ...base, status: 'replied', reply: reply.reply }
                    : { ...base, status: 'rejected', reject: reply.reject },
            );
            // Its answer is final already: certify it now, so a synchronous call's certificate holds it.
            round();
            return;
        }
        subnet.submitIngress(requestId, sender, canisterId, method, arg, expiry);
        scheduleRound();
    }

    function waitFor(requestId: string, timeoutMs: number): Promise<IngressStatus | undefined> {
        const status = subnet.ingress.get(requestId);
        if (status !== undefined && isFinal(status) && !hidden.has(requestId)) return Promise.resolve(status);
        return new Promise((resolve) => {
            const t = setTimeout(() => {
                const list = waiters.get(requestId);
                const i = list?.indexOf(done) ?? -1;
                if (list && i >= 0) list.splice(i, 1);
                resolve(undefined);
            }, timeoutMs);
            const done = (s: IngressStatus): void => {
                clearTimeout(t);
                resolve(s);
            };
            const list = waiters.get(requestId) ?? [];
            list.push(done);
            waiters.set(requestId, list);
        });
    }

    /** Certificates older than a second are refreshed before they are handed out. */
    function freshen(): void {
        if (Date.now() - lastRound > 1000) round(true);
    }

    const http: HttpServer | undefined =
        options.port === undefined
            ? undefined
            : await startHttpServer({
                  port: options.port,
                  host: options.host ?? '127.0.0.1',
                  testMode: options.testMode ?? false,
                  subnet,
                  certifier,
                  submit,
                  waitFor,
                  freshen,
                  time: () => clock.protocol(),
                  executionTime: () => subnet.time,
                  advance: async (ms) => api.advanceTime(ms),
                  setCycles: (canisterId, cycles) => api.setCycles(canisterId, cycles),
                  inspect: (canisterId, method, arg, sender) => subnet.inspect(canisterId, method, arg, sender),
                  runHttpUpdate: async (canisterId, arg) =>
                      runUpdate(Principal.fromText(canisterId), 'http_request_update', arg, ANONYMOUS),
              });

    async function runUpdate(
        canisterId: Principal,
        method: string,
        arg: Uint8Array,
        caller: Principal,
    ): Promise<Reply> {
        const requestId = toHex(randomBytes(32));
        submit(requestId, caller.toUint8Array(), canisterId.toText(), method, arg, clock.protocol() + STATUS_TTL);
        const status = await waitFor(requestId, 3_600_000);
        if (status === undefined) return rejectOf(2, 'timed out', 'IC0000');
        return status.status === 'replied'
            ? { reply: status.reply ?? new Uint8Array() }
            : { reject: status.reject ?? { code: 5, message: 'unknown' } };
    }

    async function shutdown(): Promise<void> {
        stopped = true;
        if (timer !== undefined) clearTimeout(timer);
        await http?.close();
        try {
            if (options.scratch !== true) checkpoint();
        } finally {
            store.close();
        }
    }

    const api: Replica = {
        url: http?.url ?? '',
        port: http?.port ?? 0,
        rootKey: certifier.rootKeyDer,
        subnet,
        certifier,
        serveApi: (request) =>
            http === undefined
                ? Promise.reject(new Error('This replica runs without its HTTP interface'))
                : http.serveApi(request),
        time: () => subnet.time,
        protocolTime: () => clock.protocol(),
        async advanceTime(ms) {
            clock.advance(BigInt(Math.round(ms * 1e6)));
            round();
        },
        async setTime(ns) {
            clock.set(ns);
            round();
        },
        async tick() {
            round();
        },
        setCycles(canisterId, cycles) {
            const id = typeof canisterId === 'string' ? canisterId : canisterId.toText();
            const canister = subnet.canisters.get(id);
            if (canister === undefined) throw new Error(`Canister ${id} not found`);
            if (cycles < 0n) throw new Error('cycles must not be negative');
            transaction(() => {
                // Memory up to now is charged first, so the new balance starts clean.
                subnet.chargeIdle();
                canister.system.cycles = cycles;
                subnet.changes.system.add(id);
            });
        },
        createCanister(controllers = [OPERATOR], specifiedId, o = {}) {
            return transaction(() => {
                const canister = subnet.createCanister(
                    controllers.map((p) => p.toUint8Array()),
                    specifiedId,
                );
                if (o.selfControlled === true) canister.system.controllers.push(canister.id.toUint8Array());
                return canister.id;
            });
        },
        async installCode(canisterId, wasm, o = {}) {
            const canister = subnet.canisters.get(canisterId.toText());
            if (canister === undefined) throw new Error(`Canister ${canisterId.toText()} not found`);
            const module = subnet.compile(wasm);
            return transaction(() =>
                subnet.installCode(
                    canister,
                    o.mode ?? 'install',
                    module,
                    o.arg ?? EMPTY_ARGS,
                    (o.caller ?? OPERATOR).toUint8Array(),
                    o.skipPreUpgrade,
                ),
            );
        },
        update: (canisterId, method, arg, caller = ANONYMOUS) => runUpdate(canisterId, method, arg, caller),
        query: (canisterId, method, arg, caller = ANONYMOUS, certified = false) =>
            subnet.query(
                canisterId.toText(),
                method,
                arg,
                caller.toUint8Array(),
                certified
                    ? () => certifier.certificate([['canister', canisterId.toUint8Array(), 'certified_data']])
                    : undefined,
            ),
        getExtra: (key) => extra[key],
        setExtra(key, value) {
            extra = { ...extra, [key]: value };
            transaction(() => undefined);
        },
        extras: () => extra,
        executions: () => subnet.executions,
        checkpoint,
        stop: shutdown,
    };
    // Work left over from before a restart (queued messages, due timers) resumes now.
    safely(round);
    return api;
}

function metaOf(canister: Canister): CanisterMeta {
    return {
        id: canister.text,
        system: canister.system,
        moduleHash: canister.system.moduleHash === undefined ? undefined : toHex(canister.system.moduleHash),
        pages: canister.instance?.pages() ?? 0,
        globals: canister.instance?.globals() ?? [],
        stableSize: canister.stable.size(),
    };
}

export function isFinal(status: IngressStatus): boolean {
    return status.status === 'replied' || status.status === 'rejected' || status.status === 'done';
}

/** The replica's long-lived secrets: the root (BLS) key seed and the node (Ed25519) key seed. */
function loadKeys(dir: string): { bls: Uint8Array; node: Uint8Array } {
    const file = path.join(dir, 'keys.json');
    if (!fs.existsSync(file)) {
        const keys = { bls: randomBytes(32).toString('hex'), node: randomBytes(32).toString('hex') };
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(keys), { mode: 0o600 });
        fs.renameSync(`${file}.tmp`, file);
    }
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as { bls: string; node: string };
    return { bls: new Uint8Array(Buffer.from(keys.bls, 'hex')), node: new Uint8Array(Buffer.from(keys.node, 'hex')) };
}
