// Coalesces concurrent score submits into canister update calls: at most `maxBatch` submits
// and `maxBytes` of JSON per call (the IC refuses messages over 2 MiB, and one oversized call
// would fail every submit in it), gathered for at most `maxWaitMs`, or, with `lingerMs`, a call
// that would carry fewer than `lingerFill` waits up to that long for companions (fewer, fuller
// calls at low traffic: on the IC each call pays fees that its submits share). Up to `maxInFlight` calls
// run at once (on the IC an update takes 1-2 s: one call at a time would cap a gateway at
// ~100 submits/s), and past `eagerInFlight` of them only full ones, while requests with the
// same key (a player) keep their order: a request never joins a call while an earlier one of
// its key is queued before it or in flight. At most `maxQueued` requests wait, and at most
// `maxQueuedPerGroup` of one group (a game); past that a request gets a 503 at once: bounded
// memory when the canister falls behind, and one game's flood (its API key is public) cannot
// fill the queue for every other game. Every request gets its own answer: a call that trapped
// on one request's account is split until the others get through (`splitOn`).
import type { Result } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';

export interface BatcherOptions {
    maxBatch: number;
    maxWaitMs: number;
    /** Bytes of JSON per call at most (a request larger than this alone goes alone). */
    maxBytes?: number;
    /**
     * A call that would carry fewer than `lingerFill` requests waits until its oldest one has
     * waited this long (ms) for companions; reaching `lingerFill` sends it at once. 0 (default):
     * a partial call goes after `maxWaitMs`.
     */
    lingerMs?: number;
    /** Requests that make a call worth sending while lingering (default maxBatch). */
    lingerFill?: number;
    /** The clock and timers (default the globals'; the bench passes a simulated one). */
    clock?: BatchClock;
    /** Calls in flight at once (default 1). */
    maxInFlight?: number;
    /**
     * Below this many calls in flight a partial batch goes after `maxWaitMs`; from there on only
     * full batches go (default: maxInFlight). A busy gateway then makes fewer, fuller calls,
     * and the calls it may keep in flight still cover the canister's latency.
     */
    eagerInFlight?: number;
    /** Requests waiting at most (default 10,000); more get a 503. */
    maxQueued?: number;
    /** Requests of one group (`groupOf`) waiting at most (default: maxQueued); more get a 503. */
    maxQueuedPerGroup?: number;
    /**
     * Whether a failed call changed nothing and failed because of what one of its requests
     * holds (a canister's trap rolls the whole message back): its requests are then sent again
     * in halves, in order, until each failing one fails alone. Absent: a failed call fails its batch.
     */
    splitOn?: (error: unknown) => boolean;
    /** Told of each call's size and of each request shed (the gateway's metrics). */
    observer?: BatchObserver;
}

/** What a batcher tells as it goes: each call sent (its requests) and each request shed, by which limit. */
export interface BatchObserver {
    sent(size: number): void;
    shed(limit: 'gateway' | 'game'): void;
}

/** What a batcher waits with. */
export interface BatchClock {
    now(): number;
    setTimeout(f: () => void, ms: number): unknown;
    clearTimeout(timer: unknown): void;
}

/** The globals, looked up at each call (jest's fake timers replace them after this module loads). */
const GLOBAL_CLOCK: BatchClock = {
    now: () => Date.now(),
    setTimeout: (f, ms) => setTimeout(f, ms),
    clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** A batcher: submits a request; `stats()` says how many wait and how many calls are in flight. */
export type Batcher<Q, A> = ((request: Q) => Promise<Result<A>>) & { stats(): { queued: number; inFlight: number } };

/** Well under the IC's 2 MiB ingress message limit, leaving room for the envelope. */
const DEFAULT_MAX_BATCH_BYTES = 1024 * 1024;
const DEFAULT_MAX_QUEUED = 10_000;

interface Waiting<Q, A> {
    request: Q;
    key: string;
    group: string;
    bytes: number;
    /** When it arrived (the clock's ms). */
    at: number;
    resolve: (reply: Result<A>) => void;
    reject: (error: unknown) => void;
}

/**
 * `keyOf`: requests of one key keep their order (default: all requests share one key, so
 * calls never overlap whatever `maxInFlight` says). `groupOf`: whose share of the queue a
 * request takes (default: one group).
 */
export function batcher<Q, A>(
    send: (requests: Q[]) => Promise<Array<Result<A>>>,
    o: BatcherOptions,
    keyOf: (request: Q) => string = () => '',
    groupOf: (request: Q) => string = () => '',
): Batcher<Q, A> {
    const queue: Array<Waiting<Q, A>> = [];
    const maxInFlight = o.maxInFlight ?? 1;
    const eagerInFlight = o.eagerInFlight ?? maxInFlight;
    const maxBytes = o.maxBytes ?? DEFAULT_MAX_BATCH_BYTES;
    const maxQueued = o.maxQueued ?? DEFAULT_MAX_QUEUED;
    const maxPerGroup = o.maxQueuedPerGroup ?? maxQueued;
    const lingerMs = o.lingerMs ?? 0;
    /** Requests that send a call at once (without lingering: a full one). */
    const fill = lingerMs > 0 ? Math.min(o.lingerFill ?? o.maxBatch, o.maxBatch) : o.maxBatch;
    const clock = o.clock ?? GLOBAL_CLOCK;
    /** Waiting requests by group. */
    const waiting = new Map<string, number>();
    const leave = (w: Waiting<Q, A>): void => {
        const n = waiting.get(w.group)! - 1;
        if (n === 0) waiting.delete(w.group);
        else waiting.set(w.group, n);
    };
    /** Keys with a request in a call in flight, by how many. */
    const busy = new Map<string, number>();
    let inFlight = 0;
    let timer: unknown;
    /** When the pending timer fires (the clock's ms). */
    let timerDue = Infinity;

    /** The positions in the queue of the next call's requests: in order, skipping keys that must wait. */
    function nextBatch(): number[] {
        const blocked = new Set(busy.keys());
        const batch: number[] = [];
        let bytes = 0;
        for (let i = 0; i < queue.length && batch.length < o.maxBatch; i++) {
            const w = queue[i];
            const fits = batch.length === 0 || bytes + w.bytes <= maxBytes;
            if (blocked.has(w.key) || !fits) {
                blocked.add(w.key); // a later request of this key must not overtake this one
                continue;
            }
            batch.push(i);
            bytes += w.bytes;
        }
        return batch;
    }

    /** Takes the requests at `positions` (ascending) out of the queue. */
    function take(positions: number[]): Array<Waiting<Q, A>> {
        const batch = positions.map((i) => queue[i]);
        for (let k = positions.length - 1; k >= 0; k--) queue.splice(positions[k], 1);
        batch.forEach(leave);
        return batch;
    }

    /** Sends a batch and answers each of its requests (halves one by one when `splitOn` says so). */
    async function settle(batch: Array<Waiting<Q, A>>): Promise<void> {
        try {
            o.observer?.sent(batch.length);
            const replies = await send(batch.map((w) => w.request));
            batch.forEach((w, i) => w.resolve(replies[i] ?? { err: { status: 503, message: MESSAGES.noReply } }));
        } catch (error) {
            if (batch.length > 1 && o.splitOn?.(error) === true) {
                const half = Math.ceil(batch.length / 2);
                await settle(batch.slice(0, half));
                await settle(batch.slice(half));
                return;
            }
            for (const w of batch) w.reject(error);
        }
    }

    async function run(batch: Array<Waiting<Q, A>>): Promise<void> {
        const keys = batch.map((w) => w.key);
        for (const k of keys) busy.set(k, (busy.get(k) ?? 0) + 1);
        try {
            await settle(batch);
        } finally {
            for (const k of keys) {
                const n = busy.get(k)! - 1;
                if (n === 0) busy.delete(k);
                else busy.set(k, n);
            }
            inFlight--;
            if (queue.length > 0) schedule(queue.length >= fill ? 0 : o.maxWaitMs);
        }
    }

    function flush(): void {
        timer = undefined;
        timerDue = Infinity;
        while (inFlight < maxInFlight && queue.length > 0) {
            // A partial batch waits for company while enough calls are in flight; one of them
            // finishing brings it here again.
            if (inFlight >= eagerInFlight && queue.length < o.maxBatch) return;
            const next = nextBatch();
            if (next.length === 0) return; // everything queued waits for a call in flight
            // Too few to be worth a call's fees: they wait for company until the oldest's linger is over.
            const due = queue[next[0]].at + lingerMs;
            if (next.length < fill && due > clock.now()) {
                schedule(due - clock.now());
                return;
            }
            const batch = take(next);
            inFlight++;
            void run(batch);
            if (queue.length > 0 && queue.length < fill) {
                // A partial remainder waits for company (or for a call to finish).
                schedule(o.maxWaitMs);
                return;
            }
        }
    }

    /** Flushes after `delay` ms, or sooner if a timer is already due sooner. */
    function schedule(delay: number): void {
        if (inFlight >= maxInFlight) return;
        const due = clock.now() + delay;
        if (timer !== undefined) {
            if (due >= timerDue) return;
            clock.clearTimeout(timer);
        }
        timerDue = due;
        timer = clock.setTimeout(flush, delay);
    }

    const submit = (request: Q): Promise<Result<A>> =>
        new Promise((resolve, reject) => {
            const group = groupOf(request);
            if (queue.length >= maxQueued || (waiting.get(group) ?? 0) >= maxPerGroup) {
                o.observer?.shed(queue.length >= maxQueued ? 'gateway' : 'game');
                resolve({ err: { status: 503, message: MESSAGES.busy } });
                return;
            }
            waiting.set(group, (waiting.get(group) ?? 0) + 1);
            queue.push({
                request,
                group,
                key: keyOf(request),
                bytes: Buffer.byteLength(JSON.stringify(request)),
                at: clock.now(),
                resolve,
                reject,
            });
            schedule(queue.length >= fill ? 0 : o.maxWaitMs);
        });
    return Object.assign(submit, { stats: () => ({ queued: queue.length, inFlight }) });
}
