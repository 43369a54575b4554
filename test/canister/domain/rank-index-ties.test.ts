// Shared ranks from the rank index: countBetter(value) counts the entries strictly better than a
// value (in one descent), for both orders, against a brute-force count over every entry.
import { createRankIndex, restoreRankIndex, type RankIndex, type RankOrder } from '../../../canister/domain/rank-index';
import { rng } from '../../support/random';

/** The obvious count: every entry's value compared with `value`. */
function bruteBetter(index: RankIndex, value: number): number {
    let n = 0;
    for (const id of index.range(1, index.size())) {
        const v = index.keyOf(id)!.value;
        if (index.order === 'desc' ? v > value : v < value) n++;
    }
    return n;
}

/** The shared rank of each entry in board order: 1 + the entries strictly better. */
const sharedRanks = (index: RankIndex): number[] =>
    index.range(1, index.size()).map((id) => 1 + index.countBetter(index.keyOf(id)!.value));

describe('countBetter', () => {
    test('desc: equal values share the rank of the first of them (1, 2, 2, 4)', () => {
        const index = createRankIndex('desc');
        index.set(0, 500, 1, 0);
        index.set(1, 300, 2, 1);
        index.set(2, 300, 3, 2);
        index.set(3, 100, 4, 3);
        expect(index.range(1, 4)).toEqual([0, 1, 2, 3]); // the order stays: who reached 300 first is above
        expect(sharedRanks(index)).toEqual([1, 2, 2, 4]);
        expect(index.countBetter(1000)).toBe(0);
        expect(index.countBetter(500)).toBe(0);
        expect(index.countBetter(400)).toBe(1);
        expect(index.countBetter(300)).toBe(1);
        expect(index.countBetter(100)).toBe(3);
        expect(index.countBetter(0)).toBe(4);
    });

    test('asc: lower is better, and equal values still share a rank', () => {
        const index = createRankIndex('asc');
        index.set(0, 61_250, 1, 0); // 1:01.250
        index.set(1, 59_900, 2, 1);
        index.set(2, 61_250, 0, 2);
        index.set(3, 59_900, 3, 3);
        index.set(4, 90_000, 0, 4);
        expect(index.range(1, 5)).toEqual([1, 3, 2, 0, 4]);
        expect(sharedRanks(index)).toEqual([1, 1, 3, 3, 5]);
        expect(index.countBetter(59_900)).toBe(0);
        expect(index.countBetter(60_000)).toBe(2);
        expect(index.countBetter(61_250)).toBe(2);
        expect(index.countBetter(1e9)).toBe(5);
    });

    test('an empty index, a board of one, all values equal', () => {
        for (const order of ['desc', 'asc'] as const) {
            const index = createRankIndex(order);
            expect(index.countBetter(5)).toBe(0);
            index.set(7, 5, 0, 0);
            expect(index.countBetter(5)).toBe(0);
            expect(index.countBetter(order === 'desc' ? 4 : 6)).toBe(1);
            for (let id = 0; id < 50; id++) index.set(id, 5, id, id);
            expect(sharedRanks(index)).toEqual(new Array(50).fill(1));
        }
    });

    test('follows moves and removals, and survives a snapshot', () => {
        const index = createRankIndex('desc');
        for (let id = 0; id < 10; id++) index.set(id, id * 10, 0, id);
        expect(index.countBetter(45)).toBe(5);
        index.set(9, 5, 1, 9); // 90 drops to 5
        index.remove(8);
        expect(index.countBetter(45)).toBe(3);
        const copy = restoreRankIndex(index.toChunks().map((c) => c.slice()));
        expect(copy.countBetter(45)).toBe(3);
        expect(sharedRanks(copy)).toEqual(sharedRanks(index));
    });

    test.each(['desc', 'asc'] as RankOrder[])(
        '%s: random boards with many equal values agree with a brute-force count',
        (order) => {
            const random = rng(order === 'desc' ? 7 : 8);
            const index = createRankIndex(order, 8);
            for (let round = 0; round < 40; round++) {
                for (let i = 0; i < 200; i++) {
                    const id = Math.floor(random() * 600);
                    if (random() < 0.2) index.remove(id);
                    else index.set(id, Math.floor(random() * 25), Math.floor(random() * 10), id);
                }
                for (let probe = -1; probe <= 26; probe++)
                    expect({ probe, count: index.countBetter(probe) }).toEqual({
                        probe,
                        count: bruteBetter(index, probe),
                    });
                // Walking a board: a new value starts at its position, an equal one keeps the rank above.
                const ids = index.range(1, index.size());
                let rank = 0;
                ids.forEach((id, i) => {
                    const value = index.keyOf(id)!.value;
                    if (i === 0 || value !== index.keyOf(ids[i - 1])!.value) rank = i + 1;
                    expect(1 + index.countBetter(value)).toBe(rank);
                });
            }
        },
    );
});
