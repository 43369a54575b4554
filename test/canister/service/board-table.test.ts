// A board table's slot -> entry map through its growth: every entry found after the map grew
// (its cells moved without a call per key), taken-off players gone, their slots usable again.
import { createBoardTable, entryCount, entryOf, putEntry, removeEntry } from '../../../canister/state/tables';

const best = (n: number) => ({ score: n, scoreAt: n, streak: n % 7, streakAt: n });

test('a board of 5,000 entries finds every slot through the growth of its map, removals included', () => {
    const table = createBoardTable(0, ['score', 'streak']);
    const slots = Array.from({ length: 5_000 }, (_, i) => (i * 7_919) % 100_003);
    slots.forEach((slot, i) => {
        putEntry(table, slot, best(i), 1);
        // Some leave on the way: deleted cells are carried through the next growth.
        if (i % 10 === 3) removeEntry(table, slots[i - 1]!);
    });
    slots.forEach((slot, i) => {
        const removed = i % 10 === 2;
        expect(entryOf(table, slot) === undefined).toBe(removed);
        if (!removed) expect(table.slot[entryOf(table, slot)!]).toBe(slot);
    });
    expect(entryCount(table)).toBe(4_500);
    expect(table.bySlot.size).toBe(4_500);
    // A slot taken off comes back as a new entry.
    putEntry(table, slots[2]!, best(1), 2);
    expect(table.slot[entryOf(table, slots[2]!)!]).toBe(slots[2]);
});
