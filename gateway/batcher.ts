// Coalesces concurrent score submits into one canister update call: at most `maxBatch`
// submits, gathered for at most `maxWaitMs`, one call in flight at a time so that a player's
// submits keep their order; every request still gets its own answer.
import type { Reply } from '../canister/interface';

export interface BatcherOptions {
    maxBatch: number;
    maxWaitMs: number;
}

interface Waiting<Q, A> {
    request: Q;
    resolve: (reply: Reply<A>) => void;
    reject: (error: unknown) => void;
}

export function batcher<Q, A>(send: (requests: Q[]) => Promise<Array<Reply<A>>>, o: BatcherOptions): (request: Q) => Promise<Reply<A>> {
    const queue: Array<Waiting<Q, A>> = [];
    let inFlight = false;
    let timer: NodeJS.Timeout | undefined;

    async function flush(): Promise<void> {
        timer = undefined;
        if (inFlight || queue.length === 0) return;
        inFlight = true;
        const batch = queue.splice(0, o.maxBatch);
        try {
            const replies = await send(batch.map((w) => w.request));
            batch.forEach((w, i) => w.resolve(replies[i] ?? { err: { status: 503, message: 'No reply for this submit' } }));
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
            queue.push({ request, resolve, reject });
            schedule(queue.length >= o.maxBatch ? 0 : o.maxWaitMs);
        });
}
