import {
    CHUNK_BYTES,
    SNAPSHOT_VERSION,
    createRankIndex,
    restoreRankIndex,
    type RankIndex,
    type RankOrder,
} from '../../../canister/domain/rank-index';
import { rng } from '../../support/random';

/** The obvious model: a sorted array of entries, re-sorted on every change. */
class Model {
    private readonly keys = new Map<number, [number, number, number]>();
    private sorted: number[] | undefined;
    constructor(private readonly order: RankOrder) {}
    set(id: number, value: number, at: number, tie: number): void {
        this.keys.set(id, [value, at, tie]);
        this.sorted = undefined;
    }
    remove(id: number): boolean {
        this.sorted = undefined;
        return this.keys.delete(id);
    }
    ids(): number[] {
        if (this.sorted === undefined) {
            const sign = this.order === 'desc' ? -1 : 1;
            this.sorted = [...this.keys.keys()].sort((x, y) => {
                const a = this.keys.get(x)!,
                    b = this.keys.get(y)!;
                return sign * (a[0] - b[0]) || a[1] - b[1] || a[2] - b[2] || x - y;
            });
        }
        return this.sorted;
    }
    has(id: number): boolean {
        return this.keys.has(id);
    }
    key(id: number): [number, number, number] | undefined {
        return this.keys.get(id);
    }
}

function ids(index: RankIndex): number[] {
    return index.range(1, index.size());
}

function expectMatches(index: RankIndex, model: Model, random: () => number, probes = 50): void {
    const order = model.ids();
    expect(index.size()).toBe(order.length);
    expect(ids(index)).toEqual(order);
    for (let i = 0; i < probes && order.length > 0; i++) {
        const r = 1 + Math.floor(random() * order.length);
        const id = order[r - 1];
        expect(index.rank(id)).toBe(r);
        expect(index.select(r)).toBe(id);
        const count = Math.floor(random() * 12);
        expect(index.range(r, count)).toEqual(order.slice(r - 1, r - 1 + count));
        const before = Math.floor(random() * 4),
            after = Math.floor(random() * 4);
        expect(index.around(id, before, after)).toEqual(order.slice(Math.max(0, r - 1 - before), r + after));
        const [value, at, tie] = model.key(id)!;
        expect(index.keyOf(id)).toEqual({ value, at, tie });
    }
}

describe('rank index', () => {
    test('ranks by value descending, then earlier at, then lower tie', () => {
        const index = createRankIndex('desc');
        index.set(0, 100, 50, 0);
        index.set(1, 200, 60, 1);
        index.set(2, 100, 40, 2); // same value as 0, reached earlier
        index.set(3, 100, 40, 1); // same value and time as 2, lower tie
        index.set(4, 50, 10, 4);
        expect(ids(index)).toEqual([1, 3, 2, 0, 4]);
        expect([0, 1, 2, 3, 4].map((id) => index.rank(id))).toEqual([4, 1, 3, 2, 5]);
        expect(index.size()).toBe(5);
        expect(index.keyOf(2)).toEqual({ value: 100, at: 40, tie: 2 });
        expect(index.rank(9)).toBeUndefined();
        expect(index.keyOf(9)).toBeUndefined();
        expect(index.has(4)).toBe(true);
        expect(index.has(5)).toBe(false);
    });

    test('fully equal keys still get distinct ranks, by id', () => {
        const index = createRankIndex('desc');
        for (const id of [5, 3, 9, 1]) index.set(id, 7, 7, 7);
        expect(ids(index)).toEqual([1, 3, 5, 9]);
        expect(index.rank(9)).toBe(4);
    });

    test('ascending order puts the lowest value first (time trials)', () => {
        const index = createRankIndex('asc');
        index.set(0, 12.5, 3, 0);
        index.set(1, 9.75, 5, 1);
        index.set(2, 12.5, 1, 2);
        index.set(3, 30, 0, 3);
        expect(ids(index)).toEqual([1, 2, 0, 3]);
        expect(index.order).toBe('asc');
        expect(index.keyOf(1)).toEqual({ value: 9.75, at: 5, tie: 1 });
    });

    test('values up to 2^53 - 1 and zero keep their order and sign', () => {
        const index = createRankIndex('desc');
        index.set(0, Number.MAX_SAFE_INTEGER, 1, 0);
        index.set(1, Number.MAX_SAFE_INTEGER - 1, 0, 1);
        index.set(2, 0, 0, 2);
        index.set(3, -5, 0, 3);
        expect(ids(index)).toEqual([0, 1, 2, 3]);
        expect(Object.is(index.keyOf(2)!.value, 0)).toBe(true);
        expect(index.keyOf(0)!.value).toBe(Number.MAX_SAFE_INTEGER);
    });

    test('set moves an id up and down, and in place when its rank does not change', () => {
        const index = createRankIndex('desc');
        for (let id = 0; id < 10; id++) index.set(id, id * 10, 0, id); // ranks: 9, 8, ..., 0
        index.set(0, 1000, 1, 0);
        expect(index.rank(0)).toBe(1);
        expect(index.rank(9)).toBe(2);
        index.set(0, -1, 2, 0);
        expect(index.rank(0)).toBe(10);
        expect(index.rank(1)).toBe(9);
        index.set(5, 55, 3, 5); // still between 60 and 40
        expect(index.rank(5)).toBe(5);
        expect(index.keyOf(5)).toEqual({ value: 55, at: 3, tie: 5 });
        index.set(5, 40, 4, 5); // equal value to id 4, later: just below it
        expect(ids(index)).toEqual([9, 8, 7, 6, 4, 5, 3, 2, 1, 0]);
        index.set(5, 40, 0, 5); // same value reached at the same time as id 4, higher tie
        expect(ids(index)).toEqual([9, 8, 7, 6, 4, 5, 3, 2, 1, 0]);
        index.set(5, 40, 0, 3); // lower tie than id 4
        expect(ids(index)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
        expect(index.size()).toBe(10);
    });

    test('remove', () => {
        const index = createRankIndex('desc');
        for (let id = 0; id < 5; id++) index.set(id, id, 0, id);
        expect(index.remove(2)).toBe(true);
        expect(index.remove(2)).toBe(false);
        expect(index.remove(77)).toBe(false);
        expect(index.remove(-1)).toBe(false);
        expect(index.has(2)).toBe(false);
        expect(index.rank(2)).toBeUndefined();
        expect(ids(index)).toEqual([4, 3, 1, 0]);
        expect(index.rank(1)).toBe(3);
        index.remove(4);
        index.remove(0);
        expect(ids(index)).toEqual([3, 1]);
        index.remove(3);
        index.remove(1);
        expect(index.size()).toBe(0);
        expect(ids(index)).toEqual([]);
        index.set(2, 5, 0, 2);
        expect(ids(index)).toEqual([2]);
    });

    test('select, range and around at the edges', () => {
        const index = createRankIndex('desc');
        expect(index.select(1)).toBeUndefined();
        expect(index.range(1, 10)).toEqual([]);
        expect(index.around(0, 2, 2)).toEqual([]);
        for (let id = 0; id < 10; id++) index.set(id, 100 - id, 0, id); // id i has rank i + 1
        expect(index.select(0)).toBeUndefined();
        expect(index.select(1)).toBe(0);
        expect(index.select(10)).toBe(9);
        expect(index.select(11)).toBeUndefined();
        expect(index.select(1.5)).toBeUndefined();
        expect(index.range(1, 3)).toEqual([0, 1, 2]);
        expect(index.range(8, 5)).toEqual([7, 8, 9]);
        expect(index.range(10, 1)).toEqual([9]);
        expect(index.range(11, 5)).toEqual([]);
        expect(index.range(0, 2)).toEqual([0, 1]); // ranks start at 1
        expect(index.range(3, 0)).toEqual([]);
        expect(index.range(3, -2)).toEqual([]);
        expect(index.range(1, Infinity)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(index.around(0, 3, 2)).toEqual([0, 1, 2]);
        expect(index.around(9, 2, 3)).toEqual([7, 8, 9]);
        expect(index.around(5, 2, 2)).toEqual([3, 4, 5, 6, 7]);
        expect(index.around(5, 0, 0)).toEqual([5]);
        expect(index.around(1, 20, 20)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(index.around(42, 1, 1)).toEqual([]);
    });

    test('grows past its initial capacity, with sparse ids', () => {
        const index = createRankIndex('asc', 4);
        const model = new Model('asc');
        for (let i = 0; i < 3000; i++) {
            const id = i * 7 + (i % 3);
            index.set(id, i % 50, i, id);
            model.set(id, i % 50, i, id);
        }
        index.set(100_000, -1, 0, 0);
        model.set(100_000, -1, 0, 0);
        expectMatches(index, model, rng(1));
        expect(index.rank(100_000)).toBe(1);
    });

    test('rejects bad ids and NaN keys', () => {
        const index = createRankIndex('desc');
        expect(() => index.set(-1, 1, 1, 1)).toThrow(RangeError);
        expect(() => index.set(1.5, 1, 1, 1)).toThrow(RangeError);
        expect(() => index.set(2 ** 31, 1, 1, 1)).toThrow(RangeError);
        expect(() => index.set(1, NaN, 1, 1)).toThrow(RangeError);
        expect(() => index.set(1, 1, NaN, 1)).toThrow(RangeError);
        expect(index.size()).toBe(0);
        expect(index.has(1.5)).toBe(false);
        expect(index.rank(-3)).toBeUndefined();
    });

    test('clear', () => {
        const index = createRankIndex('desc');
        for (let id = 0; id < 2000; id++) index.set(id, id, 0, id);
        index.clear();
        expect(index.size()).toBe(0);
        expect(index.has(5)).toBe(false);
        expect(index.range(1, 5)).toEqual([]);
        expect(index.toChunks().reduce((n, c) => n + c.byteLength, 0)).toBeLessThan(100);
        index.set(1500, 1, 0, 0);
        index.set(3, 2, 0, 0);
        expect(ids(index)).toEqual([3, 1500]);
    });

    describe('snapshot', () => {
        test('round trip of an empty index', () => {
            const restored = restoreRankIndex(createRankIndex('asc').toChunks());
            expect(restored.size()).toBe(0);
            expect(restored.order).toBe('asc');
            restored.set(4, 1, 1, 1);
            expect(restored.rank(4)).toBe(1);
        });

        test('round trip after many updates, then the copy goes on working', () => {
            const random = rng(7);
            const index = createRankIndex('desc', 16);
            const model = new Model('desc');
            for (let i = 0; i < 20_000; i++) {
                const id = Math.floor(random() * 5000);
                if (random() < 0.2) {
                    index.remove(id);
                    model.remove(id);
                } else {
                    const value = Math.floor(random() * 300),
                        at = Math.floor(random() * 1000);
                    index.set(id, value, at, id);
                    model.set(id, value, at, id);
                }
            }
            const chunks = index.toChunks();
            // Stored chunks are copies, as a stable map would hand them back.
            const stored = chunks.map((c) => new Uint8Array(c));
            const restored = restoreRankIndex(stored);
            expect(restored.order).toBe('desc');
            expectMatches(restored, model, random, 200);
            for (let i = 0; i < 2000; i++) {
                const id = Math.floor(random() * 6000);
                const value = Math.floor(random() * 300);
                restored.set(id, value, i, id);
                model.set(id, value, i, id);
            }
            expectMatches(restored, model, random, 200);
            // The original is unaffected by the restored copy.
            expect(index.size()).not.toBe(restored.size());
        });

        test('large snapshots come in chunks of at most CHUNK_BYTES, in any re-chunking', () => {
            const index = createRankIndex('desc');
            const model = new Model('desc');
            for (let id = 0; id < 60_000; id++) {
                index.set(id, id % 1000, id, 0);
                model.set(id, id % 1000, id, 0);
            }
            const chunks = index.toChunks();
            expect(chunks.length).toBeGreaterThan(9);
            for (const chunk of chunks) expect(chunk.byteLength).toBeLessThanOrEqual(CHUNK_BYTES);
            // Concatenate the payload and cut it at odd places: restore does not depend on boundaries.
            const payload = Buffer.concat(chunks.slice(1));
            const odd: Uint8Array[] = [chunks[0]];
            for (let at = 0; at < payload.length; at += 333_333) odd.push(payload.subarray(at, at + 333_333));
            expectMatches(restoreRankIndex(odd), model, rng(3));
        });

        test('rejects a corrupt snapshot with a clear error', () => {
            const index = createRankIndex('desc');
            for (let id = 0; id < 100; id++) index.set(id, id, 0, id);
            const good = () => index.toChunks().map((c) => new Uint8Array(c));

            expect(() => restoreRankIndex([])).toThrow(/header/);
            expect(() => restoreRankIndex([new Uint8Array(5)])).toThrow(/header/);

            const magic = good();
            magic[0][0] ^= 0xff;
            expect(() => restoreRankIndex(magic)).toThrow(/not a rank index snapshot/);

            const version = good();
            new DataView(version[0].buffer).setUint32(4, SNAPSHOT_VERSION + 1, true);
            expect(() => restoreRankIndex(version)).toThrow(/version 2 is not supported/);

            const truncated = good();
            truncated[truncated.length - 1] = truncated[truncated.length - 1].subarray(1);
            expect(() => restoreRankIndex(truncated)).toThrow(/expected \d+ bytes of arrays, got \d+/);

            const missing = good();
            missing.splice(3, 1);
            expect(() => restoreRankIndex(missing)).toThrow(/bytes of arrays/);

            const count = good();
            new DataView(count[0].buffer).setUint32(12, 99, true);
            expect(() => restoreRankIndex(count)).toThrow(/do not match the header/);

            const bound = good();
            new DataView(bound[0].buffer).setUint32(16, 1 << 30, true);
            expect(() => restoreRankIndex(bound)).toThrow(/inconsistent header/);

            expect(restoreRankIndex(good()).size()).toBe(100);
        });
    });

    test.each(['desc', 'asc'] as const)(
        '%s: thousands of random operations agree with a sorted-array model',
        (order) => {
            const random = rng(order === 'desc' ? 42 : 43);
            const index = createRankIndex(order, 8);
            const model = new Model(order);
            for (let batch = 0; batch < 60; batch++) {
                // Small id and value ranges on purpose: many moves, removals and equal values.
                const idRange = batch < 30 ? 300 : 3000;
                for (let i = 0; i < 500; i++) {
                    const id = Math.floor(random() * idRange);
                    const op = random();
                    if (op < 0.2) {
                        expect(index.remove(id)).toBe(model.remove(id));
                    } else if (op < 0.3 && model.has(id)) {
                        // Nudge: often stays between its neighbours (the in-place path).
                        const [value, at, tie] = model.key(id)!;
                        const nudged = value + (random() < 0.5 ? 0.25 : -0.25);
                        index.set(id, nudged, at, tie);
                        model.set(id, nudged, at, tie);
                    } else {
                        const value = Math.floor(random() * 40) * (random() < 0.1 ? -1 : 1);
                        const at = Math.floor(random() * 20);
                        const tie = Math.floor(random() * 3);
                        index.set(id, value, at, tie);
                        model.set(id, value, at, tie);
                    }
                    expect(index.has(id)).toBe(model.has(id));
                }
                expectMatches(index, model, random);
            }
        },
    );
});

describe('set moving an id in one descent', () => {
    test.each([
        ['desc', false],
        ['asc', false],
        ['desc', true],
    ] as const)('the same tree, byte for byte, as removing and inserting it (%s, sub: %s)', (order, withSub) => {
        const random = rng(order === 'desc' ? (withSub ? 11 : 12) : 13);
        const moved = createRankIndex(order, 8, withSub);
        const reinserted = createRankIndex(order, 8, withSub);
        for (let i = 0; i < 20_000; i++) {
            const id = Math.floor(random() * (i < 10_000 ? 200 : 2000));
            // Few distinct values: ties on value, then on at, then on tie (and sub) decide much of the order.
            const small = random() < 0.5;
            const value = Math.floor(random() * (small ? 5 : 1000)),
                at = Math.floor(random() * 3),
                tie = Math.floor(random() * 2),
                sub = Math.floor(random() * 2);
            if (random() < 0.05) {
                expect(moved.remove(id)).toBe(reinserted.remove(id));
                continue;
            }
            moved.set(id, value, at, tie, sub);
            reinserted.remove(id);
            reinserted.set(id, value, at, tie, sub);
        }
        expect(moved.size()).toBe(reinserted.size());
        expect(Buffer.concat(moved.toChunks()).equals(Buffer.concat(reinserted.toChunks()))).toBe(true);
    });
});

describe('load: an empty index filled from ids in rank order', () => {
    test.each(['desc', 'asc'] as const)(
        'the same tree as inserting one by one, and it goes on working (%s)',
        (order) => {
            const random = rng(order === 'desc' ? 7 : 8);
            for (const n of [0, 1, 2, 3, 17, 500]) {
                const model = new Model(order);
                const one = createRankIndex(order, 16);
                for (let i = 0; i < n; i++) {
                    // Few distinct values: ties on value, then on at, decide much of the order.
                    const id = i * 3 + Math.floor(random() * 3);
                    const key = [
                        Math.floor(random() * 10),
                        Math.floor(random() * 3),
                        Math.floor(random() * 1e6),
                    ] as const;
                    model.set(id, ...key);
                    one.set(id, ...key);
                }
                const sorted = model.ids();
                const loaded = createRankIndex(order, 16);
                loaded.load(sorted, (i) => {
                    const [value, at, tie] = model.key(sorted[i])!;
                    return { value, at, tie };
                });
                expect(Buffer.concat(loaded.toChunks()).equals(Buffer.concat(one.toChunks()))).toBe(true);
                expectMatches(loaded, model, random);
                for (let k = 0; k < 50 && n > 0; k++) {
                    const id = sorted[Math.floor(random() * sorted.length)];
                    if (random() < 0.5) {
                        loaded.remove(id);
                        model.remove(id);
                    } else {
                        const key = [Math.floor(random() * 10), 0, Math.floor(random() * 1e6)] as const;
                        loaded.set(id, ...key);
                        model.set(id, ...key);
                    }
                }
                expectMatches(loaded, model, random);
            }
        },
    );

    test('refused on an index with entries, or for ids out of rank order', () => {
        const index = createRankIndex('desc');
        expect(() => index.load([1, 2], (i) => ({ value: i === 0 ? 1 : 2, at: 0, tie: 0 }))).toThrow(
            'rank index: load needs its ids in rank order',
        );
        const full = createRankIndex('desc');
        full.set(1, 5, 0, 0);
        expect(() => full.load([2], () => ({ value: 1, at: 0, tie: 0 }))).toThrow('load needs an empty index');
    });
});
