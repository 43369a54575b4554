// Boards with a tiebreak: the score index's fourth key field and what the board table puts in it
// (score, tiebreak, time, slot), for both tiebreak orders, entries without one, shared ranks,
// snapshots; and the keeping rules of a submit (bests.ts) with a tiebreak.
import { applySubmit, mergeBests, type Best } from '../../../canister/domain/bests';
import { createRankIndex, restoreRankIndex } from '../../../canister/domain/rank-index';
import {
    createBoardTable,
    entryOf,
    putEntry,
    rankIndex,
    tiebreakOf,
    type BoardTable,
} from '../../../canister/state/tables';
import type { Tiebreak } from '../../../contract/board-options';

const T = 1_772_625_600_000_000;

/** Entries by slot: [score, tiebreak or undefined, the time the score was reached]. */
function board(
    order: 'desc' | 'asc',
    tiebreak: Tiebreak | undefined,
    rows: Array<[number, number | undefined, number]>,
) {
    const table = createBoardTable(0, ['score'], 16, order, tiebreak);
    rows.forEach(([score, tb, at], slot) => {
        const best: Best = { score, scoreAt: T + at, streak: 0, streakAt: T };
        if (tb !== undefined) best.tiebreak = tb;
        putEntry(table, slot, best, T + at);
    });
    return table;
}

const slotsInOrder = (table: BoardTable): number[] =>
    rankIndex(table, 'score')
        .range(1, 100)
        .map((id) => table.slot[id]!);

describe('ranking by score, then tiebreak, then time, then slot', () => {
    const rows: Array<[number, number | undefined, number]> = [
        [100, 500, 1], // 0
        [100, 300, 2], // 1
        [100, undefined, 0], // 2: earliest, but without a tiebreak
        [200, 900, 5], // 3
        [100, 300, 1], // 4: same score and tiebreak as 1, reached earlier
        [100, 300, 1], // 5: same as 4 in every field: the slot decides
    ];

    test('asc: the lowest tiebreak first among equal scores, an entry without one after them', () => {
        const table = board('desc', 'asc', rows);
        expect(slotsInOrder(table)).toEqual([3, 4, 5, 1, 0, 2]);
        expect(tiebreakOf(table, entryOf(table, 1)!)).toBe(300);
        expect(tiebreakOf(table, entryOf(table, 2)!)).toBeUndefined();
    });

    test('desc: the highest tiebreak first; on a lower-first board too', () => {
        expect(slotsInOrder(board('desc', 'desc', rows))).toEqual([3, 0, 4, 5, 1, 2]);
        expect(slotsInOrder(board('asc', 'desc', rows))).toEqual([0, 4, 5, 1, 2, 3]);
        const zero = board('desc', 'desc', [[1, 0, 0]]);
        expect(tiebreakOf(zero, 0)).toBe(0);
        expect(Object.is(tiebreakOf(zero, 0), -0)).toBe(false);
    });

    test('without the option submits keep today: time, then slot (the tiebreak is ignored)', () => {
        const table = board('desc', undefined, rows);
        expect(slotsInOrder(table)).toEqual([3, 2, 0, 4, 5, 1]);
        expect(rankIndex(table, 'score').withSub).toBe(false);
        expect(tiebreakOf(table, 0)).toBeUndefined();
    });

    test('an entry that gains a better tiebreak moves up; a worse one moves down', () => {
        const table = board('desc', 'asc', rows);
        putEntry(table, 2, { score: 100, scoreAt: T + 9, streak: 0, streakAt: T, tiebreak: 1 }, T + 9);
        expect(slotsInOrder(table)).toEqual([3, 2, 4, 5, 1, 0]);
        putEntry(table, 2, { score: 100, scoreAt: T + 9, streak: 0, streakAt: T, tiebreak: 400 }, T + 9);
        expect(slotsInOrder(table)).toEqual([3, 4, 5, 1, 2, 0]);
    });

    test('shared ranks: equal only when score and tiebreak are equal', () => {
        const table = board('desc', 'asc', rows);
        const index = rankIndex(table, 'score');
        const shared = index.range(1, 10).map((id) => 1 + index.countAhead(table.score[id]!, index.keyOf(id)!.at));
        // 3 | 4, 5, 1 (100, 300) | 0 (100, 500) | 2 (100, none)
        expect(shared).toEqual([1, 2, 2, 2, 5, 6]);
    });

    test('a snapshot carries the fourth field; one without it stays version 1 byte for byte', () => {
        const table = board('desc', 'asc', rows);
        const restored = restoreRankIndex(rankIndex(table, 'score').toChunks());
        expect(restored.withSub).toBe(true);
        expect(restored.range(1, 10)).toEqual(rankIndex(table, 'score').range(1, 10));
        expect(restored.keyOf(entryOf(table, 1)!)).toEqual(rankIndex(table, 'score').keyOf(entryOf(table, 1)!));
        // Without: the header's words as they always were (version 1, 48 bytes a node).
        const plain = createRankIndex('desc');
        plain.set(0, 5, 1, 0);
        const header = new DataView(plain.toChunks()[0]!.buffer);
        expect([header.getUint32(4, true), header.getUint32(8, true), header.getUint32(20, true)]).toEqual([1, 0, 48]);
        const withSub = createRankIndex('desc', 16, true);
        withSub.set(0, 5, 1, 0, 7);
        const subHeader = new DataView(withSub.toChunks()[0]!.buffer);
        expect([subHeader.getUint32(4, true), subHeader.getUint32(8, true), subHeader.getUint32(20, true)]).toEqual([
            1, 2, 56,
        ]);
        expect(() => withSub.set(1, 5, 1, 0)).toThrow(/no sub/);
    });
});

describe('keeping rules with a tiebreak', () => {
    const first = applySubmit(undefined, 100, 1, T, { tiebreak: 'asc' }, false, 5000).best;

    test('best: an equal score with a better tiebreak is a new best; worse or none is not', () => {
        expect(first).toEqual({ score: 100, scoreAt: T, streak: 1, streakAt: T, tiebreak: 5000 });
        const better = applySubmit(first, 100, 0, T + 1, { tiebreak: 'asc' }, false, 4000);
        expect(better).toEqual({
            best: { score: 100, scoreAt: T + 1, streak: 1, streakAt: T, tiebreak: 4000 },
            changed: true,
            improved: true,
        });
        expect(applySubmit(first, 100, 0, T + 1, { tiebreak: 'asc' }, false, 6000).changed).toBe(false);
        expect(applySubmit(first, 100, 0, T + 1, { tiebreak: 'asc' }, false, undefined).changed).toBe(false);
        expect(applySubmit(first, 100, 0, T + 1, { tiebreak: 'desc' }, false, 6000).improved).toBe(true);
        // A better score without a tiebreak: the entry's score has none.
        expect(applySubmit(first, 101, 0, T + 1, { tiebreak: 'asc' }, false).best).not.toHaveProperty('tiebreak');
        // A better streak alone keeps the score's tiebreak.
        expect(applySubmit(first, 90, 5, T + 1, { tiebreak: 'asc' }, false, 1).best.tiebreak).toBe(5000);
    });

    test('latest and sum keep the last submit’s tiebreak (or none)', () => {
        const latest = applySubmit(first, 100, 1, T + 1, { operator: 'latest', tiebreak: 'asc' }, false, 7000).best;
        expect(latest).toEqual({ score: 100, scoreAt: T + 1, streak: 1, streakAt: T, tiebreak: 7000 });
        const same = applySubmit(latest, 100, 1, T + 2, { operator: 'latest', tiebreak: 'asc' }, false, 7000).best;
        expect(same.scoreAt).toBe(T + 1);
        const sum = applySubmit(first, 5, 1, T + 1, { operator: 'sum', tiebreak: 'asc' }, false).best;
        expect(sum).toEqual({ score: 105, scoreAt: T + 1, streak: 1, streakAt: T });
    });

    test('boards without the option never keep one', () => {
        for (const operator of ['best', 'latest', 'sum'] as const) {
            const a = applySubmit(undefined, 1, 1, T, { operator }, false, 3).best;
            expect(a).not.toHaveProperty('tiebreak');
            expect(applySubmit(a, 1, 1, T + 1, { operator }, false, 2).best).not.toHaveProperty('tiebreak');
        }
    });

    test('merges: best compares tiebreaks of equal scores; sum keeps the later one', () => {
        const a: Best = { score: 100, scoreAt: T, streak: 1, streakAt: T, tiebreak: 500 };
        const b: Best = { score: 100, scoreAt: T + 5, streak: 2, streakAt: T + 5, tiebreak: 400 };
        expect(mergeBests(a, b, { tiebreak: 'asc' })).toEqual({ ...b, streak: 2 });
        expect(mergeBests(a, b, { tiebreak: 'desc' })).toEqual({ ...a, streak: 2, streakAt: T + 5 });
        expect(mergeBests(a, b, { operator: 'sum', tiebreak: 'asc' }, 1, 2)!.tiebreak).toBe(400);
        expect(mergeBests(a, b, {})).toEqual({ score: 100, scoreAt: T, streak: 2, streakAt: T + 5 });
    });
});
