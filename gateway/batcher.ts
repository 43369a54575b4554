// Coalesces concurrent score submits into one canister update call: at most `maxBatch`
// submits and `maxBytes` of JSON (the IC refuses messages over 2 MiB, and one oversized call
// would fail every submit in it), gathered for at most `maxWaitMs`, one call in flight at a
// time so that a player's submits keep their order; every request still gets its own answer.
import type { Result } from '../contract/canister';

export interface BatcherOptions {
    maxBatch: number;
    maxWaitMs: number;
    /** Bytes of JSON per call at most (a request larger than this alone goes alone). */
    maxBytes?: number;
}

/** Well under the IC's 2 MiB ingress message limit, leaving room for the envelope. */
const DEFAULT_MAX_BATCH_BYTES = 1024 * 1024;

interface Waiting<Q, A> {
    request: Q;
    bytes: number;
    resolve: (reply: Result<A>) => void;
    reject: (error: unknown) => void;
}

export function batcher<Q, A>(
    send: (requests: Q[]) => Promise<Array<Result<A>>>,
    o: BatcherOptions,
): (request: Q) => Promise<Result<A>> {
    const queue: Array<Waiting<Q, A>> = [];
    let inFlight = false;
    let timer: NodeJS.Timeout | undefined;

    async function flush(): Promise<void> {
        timer = undefined;
        if (inFlight || queue.length === 0) return;
        inFlight = true;
        const maxBytes = o.maxBytes ?? DEFAULT_MAX_BATCH_BYTES;
        let count = 0;
        let bytes = 0;
        while (count < queue.length && count < o.maxBatch && (count === 0 || bytes + queue[count].bytes <= maxBytes)) {
            bytes += queue[count].bytes;
            count++;
        }
        const batch = queue.splice(0, count);
        try {
            const replies = await send(batch.map((w) => w.request));
            batch.forEach((w, i) =>
                w.resolve(replies[i] ?? { err: { status: 503, message: 'No reply for this submit' } }),
            );
        } catch (error) {
            for (const w of batch) w.reject(error);
        } finally {
            inFlight = false;
            if (queue.length > 0) schedule(queue.length >= o.maxBatch ? 0 : o.maxWaitMs);
        }
    }

    function schedule(delay: number): void {
        if (timer !== undefined || inFlight) return;
        timer = setTimeout(() => void flush(), delay);
    }

    return (request) =>
        new Promise((resolve, reject) => {
            queue.push({ request, bytes: Buffer.byteLength(JSON.stringify(request)), resolve, reject });
            schedule(queue.length >= o.maxBatch ? 0 : o.maxWaitMs);
        });
}
