// Submit coalescing: concurrent submits share one canister call (bounded), each caller gets
// its own answer, one player's submits keep their order, and a failed call fails its batch.
// Time is jest's fake clock, and the "canister" answers when the test says so: what the
// batcher does never depends on how fast this machine runs its timers.
import { batcher } from '../../gateway/batcher';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('concurrent requests share calls of at most maxBatch, in arrival order, each with its own answer', async () => {
    const calls: number[][] = [];
    const send = batcher<number, string>(
        async (batch) => {
            calls.push(batch);
            await new Promise((r) => setTimeout(r, 5));
            return batch.map((n) => ({ ok: `answer ${n}` }));
        },
        { maxBatch: 4, maxWaitMs: 2 },
    );
    const replies = Promise.all(Array.from({ length: 10 }, (_, i) => send(i)));
    await jest.runAllTimersAsync();
    expect(await replies).toEqual(Array.from({ length: 10 }, (_, i) => ({ ok: `answer ${i}` })));
    expect(calls.flat()).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(calls.every((c) => c.length <= 4)).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(4);
});

test('only one call is in flight at a time, so later submits never overtake earlier ones', async () => {
    const calls: number[][] = [];
    const answer: Array<() => void> = [];
    const send = batcher<number, number>(
        async (batch) => {
            calls.push(batch);
            await new Promise<void>((r) => answer.push(r));
            return batch.map((n) => ({ ok: n }));
        },
        { maxBatch: 2, maxWaitMs: 1 },
    );
    const replies = Promise.all(Array.from({ length: 9 }, (_, i) => send(i)));
    await jest.advanceTimersByTimeAsync(1);
    while (answer.length > 0) {
        // Long past every wait of the batcher, and the call in flight has not answered yet:
        // no second call starts.
        await jest.advanceTimersByTimeAsync(60_000);
        expect(answer).toHaveLength(1);
        answer.shift()!();
        await jest.advanceTimersByTimeAsync(1);
    }
    expect(await replies).toEqual(Array.from({ length: 9 }, (_, i) => ({ ok: i })));
    expect(calls.flat()).toEqual(Array.from({ length: 9 }, (_, i) => i));
    expect(calls.length).toBeGreaterThan(1);
});

test('a failed call rejects every request of its batch; the next batch goes on', async () => {
    let n = 0;
    const send = batcher<number, number>(
        async (batch) => {
            if (n++ === 0) throw new Error('canister unreachable');
            return batch.map((x) => ({ ok: x }));
        },
        { maxBatch: 10, maxWaitMs: 1 },
    );
    const first = Promise.allSettled([send(1), send(2)]);
    await jest.runAllTimersAsync();
    expect((await first).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const next = send(3);
    await jest.runAllTimersAsync();
    await expect(next).resolves.toEqual({ ok: 3 });
});
