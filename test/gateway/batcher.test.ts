// Submit coalescing: concurrent submits share one canister call (bounded), each caller gets
// its own answer, one player's submits keep their order, and a failed call fails its batch.
import { batcher } from '../../gateway/batcher';

test('concurrent requests share calls of at most maxBatch, in arrival order, each with its own answer', async () => {
    const calls: number[][] = [];
    const send = batcher<number, string>(async (batch) => {
        calls.push(batch);
        await new Promise((r) => setTimeout(r, 5));
        return batch.map((n) => ({ ok: `answer ${n}` }));
    }, { maxBatch: 4, maxWaitMs: 2 });
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i)));
    expect(replies).toEqual(Array.from({ length: 10 }, (_, i) => ({ ok: `answer ${i}` })));
    expect(calls.flat()).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(calls.every((c) => c.length <= 4)).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(4);
});

test('only one call is in flight at a time, so later submits never overtake earlier ones', async () => {
    let inFlight = 0;
    let most = 0;
    const send = batcher<number, number>(async (batch) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 3));
        inFlight--;
        return batch.map((n) => ({ ok: n }));
    }, { maxBatch: 2, maxWaitMs: 1 });
    await Promise.all(Array.from({ length: 9 }, (_, i) => send(i)));
    expect(most).toBe(1);
});

test('a failed call rejects every request of its batch; the next batch goes on', async () => {
    let n = 0;
    const send = batcher<number, number>(async (batch) => {
        if (n++ === 0) throw new Error('canister unreachable');
        return batch.map((x) => ({ ok: x }));
    }, { maxBatch: 10, maxWaitMs: 1 });
    const first = await Promise.allSettled([send(1), send(2)]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(send(3)).resolves.toEqual({ ok: 3 });
});
