// Submit coalescing: concurrent submits share one canister call (bounded), each caller gets
// its own answer, one player's submits keep their order, and a failed call fails its batch.
// Time is jest's fake clock, and the "canister" answers when the test says so: what the
// batcher does never depends on how fast this machine runs its timers.
import { MAX_SUBMITS_PER_CALL } from '../../contract/rules';
import { SUBMIT_BATCHING } from '../../gateway/ic/submits';
import { batcher, type BatcherOptions } from '../../gateway/ic/batcher';
import { readConfig } from '../../gateway/ops/config';

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

describe('several calls in flight', () => {
    interface Req {
        player: string;
        n: number;
    }

    /** A "canister" whose calls answer when the test says so. */
    function controlled(o: BatcherOptions = { maxBatch: 2, maxWaitMs: 1, maxInFlight: 3, maxQueued: 8 }) {
        const calls: Array<{ batch: Req[]; answered: boolean; answer: () => void }> = [];
        const send = batcher<Req, number>(
            (batch) =>
                new Promise((resolve) => {
                    const call = {
                        batch,
                        answered: false,
                        answer: () => {
                            call.answered = true;
                            resolve(batch.map((r) => ({ ok: r.n })));
                        },
                    };
                    calls.push(call);
                }),
            o,
            (r) => r.player,
        );
        const open = () => calls.filter((c) => !c.answered);
        /** Answers the calls in flight, oldest first, until none is left. */
        async function answerAll(): Promise<void> {
            for (let guard = 0; open().length > 0 && guard < 100; guard++) {
                open()[0].answer();
                await jest.advanceTimersByTimeAsync(1);
            }
        }
        /** No key in two calls in flight at once. */
        const keysOverlap = (): boolean => {
            const keys = open().map((c) => new Set(c.batch.map((r) => r.player)));
            return keys.some((a, i) => keys.some((b, j) => i !== j && [...a].some((k) => b.has(k))));
        };
        const order = (player: string): number[] =>
            calls
                .flatMap((c) => c.batch)
                .filter((r) => r.player === player)
                .map((r) => r.n);
        return { calls, send, open, answerAll, keysOverlap, order };
    }

    test('different players overlap, up to maxInFlight calls; one player is never in two calls at once', async () => {
        const t = controlled({ maxBatch: 2, maxWaitMs: 1, maxInFlight: 3, maxQueued: 100 });
        const players = ['a', 'a', 'b', 'c', 'd', 'e', 'f', 'a', 'g', 'a'];
        const replies = Promise.all(players.map((player, n) => t.send({ player, n })));
        await jest.advanceTimersByTimeAsync(1);
        expect(t.open()).toHaveLength(3);
        await jest.advanceTimersByTimeAsync(60_000); // nothing more starts while three are in flight
        expect(t.open()).toHaveLength(3);
        expect(t.keysOverlap()).toBe(false);
        for (let guard = 0; t.open().length > 0 && guard < 100; guard++) {
            t.open()[0].answer();
            await jest.advanceTimersByTimeAsync(1);
            expect(t.keysOverlap()).toBe(false);
            expect(t.open().length).toBeLessThanOrEqual(3);
        }
        expect(await replies).toEqual(players.map((_, n) => ({ ok: n })));
        expect(t.order('a')).toEqual([0, 1, 7, 9]);
    });

    test("a player's later submit never overtakes an earlier one that waits for a call in flight", async () => {
        const t = controlled();
        const first = [t.send({ player: 'a', n: 1 }), t.send({ player: 'b', n: 1 })];
        await jest.advanceTimersByTimeAsync(1); // call 1: a1, b1
        const later = [t.send({ player: 'a', n: 2 }), t.send({ player: 'c', n: 1 })];
        await jest.advanceTimersByTimeAsync(1); // call 2: c1 (a2 waits for call 1)
        const last = t.send({ player: 'a', n: 3 });
        await jest.advanceTimersByTimeAsync(60_000);
        expect(t.calls.map((c) => c.batch.map((r) => `${r.player}${r.n}`))).toEqual([['a1', 'b1'], ['c1']]);
        await t.answerAll();
        await Promise.all([...first, ...later, last]);
        expect(t.order('a')).toEqual([1, 2, 3]);
    });

    test('past eagerInFlight calls in flight only full batches go; a partial one goes when a call finishes', async () => {
        const t = controlled({ maxBatch: 3, maxWaitMs: 1, maxInFlight: 4, eagerInFlight: 1, maxQueued: 100 });
        const replies = [t.send({ player: 'a', n: 0 }), t.send({ player: 'b', n: 1 })];
        await jest.advanceTimersByTimeAsync(1); // nothing in flight: the partial batch goes
        for (let n = 2; n < 4; n++) replies.push(t.send({ player: `p${n}`, n }));
        await jest.advanceTimersByTimeAsync(60_000); // two wait for company while a call is in flight
        expect(t.calls.map((c) => c.batch.length)).toEqual([2]);
        for (let n = 4; n < 9; n++) replies.push(t.send({ player: `p${n}`, n }));
        await jest.advanceTimersByTimeAsync(1); // full batches go at once, up to maxInFlight
        expect(t.calls.map((c) => c.batch.length)).toEqual([2, 3, 3]);
        await jest.advanceTimersByTimeAsync(60_000);
        expect(t.calls).toHaveLength(3); // the one left over waits
        t.open()[0].answer();
        await jest.advanceTimersByTimeAsync(1);
        expect(t.calls).toHaveLength(3); // two calls are still in flight: still above eagerInFlight
        await t.answerAll();
        expect(t.calls.map((c) => c.batch.length)).toEqual([2, 3, 3, 1]);
        expect(await Promise.all(replies)).toEqual(Array.from({ length: 9 }, (_, n) => ({ ok: n })));
    });

    test('past maxQueued waiting requests, a request gets a 503 at once; the accepted ones are answered', async () => {
        const t = controlled();
        // 3 calls of 2 in flight take 6; 8 more wait; the next one is refused.
        const accepted = Array.from({ length: 6 }, (_, n) => t.send({ player: `p${n}`, n }));
        await jest.advanceTimersByTimeAsync(1);
        expect(t.open()).toHaveLength(3);
        for (let n = 6; n < 14; n++) accepted.push(t.send({ player: `p${n}`, n }));
        await expect(t.send({ player: 'late', n: 99 })).resolves.toEqual({
            err: { status: 503, message: 'The leaderboard service is busy. Try again in a few seconds.' },
        });
        await t.answerAll();
        expect(await Promise.all(accepted)).toEqual(Array.from({ length: 14 }, (_, n) => ({ ok: n })));
    });
});

test("one game's flood gets 503s past its share of the queue; another game's submits still wait their turn", async () => {
    const answer: Array<() => void> = [];
    const send = batcher<{ game: string; n: number }, number>(
        (batch) => new Promise((resolve) => answer.push(() => resolve(batch.map((r) => ({ ok: r.n }))))),
        { maxBatch: 2, maxWaitMs: 1, maxInFlight: 1, maxQueued: 10, maxQueuedPerGroup: 4 },
        (r) => `${r.game}/${r.n}`,
        (r) => r.game,
    );
    const flood = Array.from({ length: 8 }, (_, n) => send({ game: 'hostile', n }));
    const honest = [send({ game: 'honest', n: 100 }), send({ game: 'honest', n: 101 })];
    // Four of the flood wait; the rest are refused at once, before anything is sent.
    const refused = await Promise.all(flood.slice(4));
    expect(refused).toEqual(
        Array(4).fill({
            err: { status: 503, message: 'The leaderboard service is busy. Try again in a few seconds.' },
        }),
    );
    await jest.runAllTimersAsync();
    while (answer.length > 0) {
        answer.shift()!();
        await jest.runAllTimersAsync();
    }
    expect(await Promise.all(flood.slice(0, 4))).toEqual([0, 1, 2, 3].map((n) => ({ ok: n })));
    expect(await Promise.all(honest)).toEqual([{ ok: 100 }, { ok: 101 }]);
});

test("the gateway's calls never exceed what the canister takes in one call", () => {
    expect(SUBMIT_BATCHING.maxBatch).toBeLessThanOrEqual(MAX_SUBMITS_PER_CALL);
    expect(SUBMIT_BATCHING.maxQueuedPerGroup!).toBeLessThanOrEqual(SUBMIT_BATCHING.maxQueued!);
    expect(SUBMIT_BATCHING.eagerInFlight!).toBeLessThanOrEqual(SUBMIT_BATCHING.maxInFlight!);
});

test('a call that fails as splitOn says is sent again in halves, in order, until the failing request fails alone', async () => {
    const calls: number[][] = [];
    const poisoned = new Error('trapped');
    const send = batcher<number, number>(
        async (batch) => {
            calls.push(batch);
            if (batch.includes(5)) throw poisoned;
            return batch.map((n) => ({ ok: n }));
        },
        { maxBatch: 8, maxWaitMs: 2, splitOn: (e) => e === poisoned },
    );
    const replies = Array.from({ length: 8 }, (_, i) => send(i).catch((e: unknown) => e));
    await jest.runAllTimersAsync();
    expect(await Promise.all(replies)).toEqual(
        [0, 1, 2, 3, 4, poisoned, 6, 7].map((n) => (n === poisoned ? n : { ok: n })),
    );
    expect(calls).toEqual([[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3], [4, 5, 6, 7], [4, 5], [4], [5], [6, 7]]);
});

test('other failures still fail the whole call, and one request is never sent twice by a split', async () => {
    const calls: number[][] = [];
    const send = batcher<number, number>(
        async (batch) => {
            calls.push(batch);
            throw new Error('unreachable');
        },
        { maxBatch: 4, maxWaitMs: 2, splitOn: () => false },
    );
    const replies = Array.from({ length: 4 }, (_, i) => send(i).catch((e: unknown) => (e as Error).message));
    await jest.runAllTimersAsync();
    expect(await Promise.all(replies)).toEqual(new Array(4).fill('unreachable'));
    expect(calls).toEqual([[0, 1, 2, 3]]);
});

describe('lingering for companions (fewer, fuller calls at low traffic)', () => {
    /** A batcher whose calls are recorded with the fake clock's time and answered at once. */
    function lingering(o: Partial<BatcherOptions> = {}) {
        const calls: Array<{ at: number; batch: string[] }> = [];
        const send = batcher<{ player: string; n: number }, number>(
            async (batch) => {
                calls.push({ at: Date.now() - start, batch: batch.map((r) => `${r.player}${r.n}`) });
                return batch.map((r) => ({ ok: r.n }));
            },
            { maxBatch: 100, maxWaitMs: 2, maxInFlight: 16, eagerInFlight: 2, lingerMs: 250, lingerFill: 10, ...o },
            (r) => r.player,
        );
        const start = Date.now();
        return { calls, send };
    }

    test('a lone submit waits for companions at most lingerMs, then goes alone', async () => {
        const t = lingering();
        const reply = t.send({ player: 'a', n: 1 });
        await jest.advanceTimersByTimeAsync(249);
        expect(t.calls).toEqual([]);
        await jest.advanceTimersByTimeAsync(1);
        expect(t.calls).toEqual([{ at: 250, batch: ['a1'] }]);
        await expect(reply).resolves.toEqual({ ok: 1 });
    });

    test('companions arriving within lingerMs share its call, sent when the first has waited lingerMs', async () => {
        const t = lingering();
        const replies = [t.send({ player: 'a', n: 1 })];
        await jest.advanceTimersByTimeAsync(100);
        replies.push(t.send({ player: 'b', n: 2 }));
        await jest.advanceTimersByTimeAsync(149);
        replies.push(t.send({ player: 'c', n: 3 }));
        await jest.advanceTimersByTimeAsync(1);
        expect(t.calls).toEqual([{ at: 250, batch: ['a1', 'b2', 'c3'] }]);
        // The next one lingers from its own arrival.
        replies.push(t.send({ player: 'd', n: 4 }));
        await jest.advanceTimersByTimeAsync(249);
        expect(t.calls).toHaveLength(1);
        await jest.advanceTimersByTimeAsync(1);
        expect(t.calls[1]).toEqual({ at: 500, batch: ['d4'] });
        expect(await Promise.all(replies)).toEqual([1, 2, 3, 4].map((n) => ({ ok: n })));
    });

    test('lingerFill requests go at once, without waiting out the linger', async () => {
        const t = lingering();
        const replies = Array.from({ length: 9 }, (_, n) => t.send({ player: `p${n}`, n }));
        await jest.advanceTimersByTimeAsync(50);
        expect(t.calls).toEqual([]);
        replies.push(t.send({ player: 'p9', n: 9 }));
        await jest.advanceTimersByTimeAsync(0);
        expect(t.calls.map((c) => [c.at, c.batch.length])).toEqual([[50, 10]]);
        expect(await Promise.all(replies)).toEqual(Array.from({ length: 10 }, (_, n) => ({ ok: n })));
    });

    test("one player's submits keep their order and are never in two calls at once while lingering", async () => {
        const open: Array<() => void> = [];
        const calls: string[][] = [];
        const send = batcher<{ player: string; n: number }, number>(
            (batch) =>
                new Promise((resolve) => {
                    calls.push(batch.map((r) => `${r.player}${r.n}`));
                    open.push(() => resolve(batch.map((r) => ({ ok: r.n }))));
                }),
            { ...SUBMIT_BATCHING, lingerMs: 250, lingerFill: 10 },
            (r) => r.player,
        );
        const replies = [send({ player: 'a', n: 1 }), send({ player: 'b', n: 1 })];
        await jest.advanceTimersByTimeAsync(250); // call 1: a1, b1
        replies.push(send({ player: 'a', n: 2 }), send({ player: 'c', n: 1 }));
        await jest.advanceTimersByTimeAsync(250); // call 2: c1 alone; a2 waits for call 1
        expect(calls).toEqual([['a1', 'b1'], ['c1']]);
        await jest.advanceTimersByTimeAsync(60_000);
        expect(calls).toHaveLength(2);
        open.shift()!(); // call 1 answers: a2 has waited past its linger, it goes at once
        await jest.advanceTimersByTimeAsync(2);
        expect(calls).toEqual([['a1', 'b1'], ['c1'], ['a2']]);
        while (open.length > 0) {
            open.shift()!();
            await jest.advanceTimersByTimeAsync(2);
        }
        expect(await Promise.all(replies)).toEqual([1, 1, 2, 1].map((n) => ({ ok: n })));
    });

    test('lingerMs 0 sends a lone submit after maxWaitMs, as without lingering', async () => {
        const t = lingering({ lingerMs: 0 });
        const reply = t.send({ player: 'a', n: 1 });
        await jest.advanceTimersByTimeAsync(2);
        expect(t.calls).toEqual([{ at: 2, batch: ['a1'] }]);
        await expect(reply).resolves.toEqual({ ok: 1 });
    });

    test('the gateway lingers by default; SUBMIT_LINGER_MS=0 turns it off, and bad values are refused', () => {
        expect(SUBMIT_BATCHING.lingerMs).toBeGreaterThan(0);
        expect(SUBMIT_BATCHING.lingerFill!).toBeLessThanOrEqual(SUBMIT_BATCHING.maxBatch);
        expect(readConfig({}).submitLinger).toEqual({
            ms: SUBMIT_BATCHING.lingerMs,
            fill: SUBMIT_BATCHING.lingerFill,
        });
        expect(readConfig({ SUBMIT_LINGER_MS: '0', SUBMIT_LINGER_FILL: '1' }).submitLinger).toEqual({ ms: 0, fill: 1 });
        expect(() => readConfig({ SUBMIT_LINGER_MS: '-1' })).toThrow(/SUBMIT_LINGER_MS must be an integer/);
        expect(() => readConfig({ SUBMIT_LINGER_FILL: '101' })).toThrow(/SUBMIT_LINGER_FILL must be an integer/);
    });
});
