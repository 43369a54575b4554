// Stable memory: sparse pages, bounds, growth limits, and transactions that roll back.
import { createStableMemory, readSpan, STABLE_PAGE } from '../../../replica/execution/stable-memory';

test('reads what was written across page boundaries; unwritten bytes read as zero', () => {
    const stable = createStableMemory(10n);
    expect(stable.grow(2n)).toBe(0n);
    stable.write(BigInt(STABLE_PAGE - 2), new Uint8Array([1, 2, 3, 4]));
    const out = new Uint8Array(6);
    stable.read(BigInt(STABLE_PAGE - 3), 6, out);
    expect([...out]).toEqual([0, 1, 2, 3, 4, 0]);
});

test('out-of-bounds access throws and growth past the limit answers -1', () => {
    const stable = createStableMemory(3n);
    expect(() => stable.write(0n, new Uint8Array(1))).toThrow(/out of bounds/);
    expect(stable.grow(4n)).toBe(-1n);
    expect(stable.grow(3n)).toBe(0n);
    expect(() => stable.read(BigInt(3 * STABLE_PAGE - 1), 2, new Uint8Array(2))).toThrow(/out of bounds/);
});

test('rollback undoes writes and growth since the last commit; commit reports changed 4 KiB spans', () => {
    const stable = createStableMemory(10n);
    stable.grow(1n);
    stable.write(10n, new Uint8Array([7]));
    expect(stable.commit()).toEqual([[0, 4096]]);
    stable.grow(2n);
    stable.write(10n, new Uint8Array([8]));
    stable.write(BigInt(STABLE_PAGE + 5000), new Uint8Array([9]));
    stable.rollback();
    expect(stable.size()).toBe(1n);
    expect(readSpan(stable, [0, 16])[10]).toBe(7);
    stable.grow(1n);
    stable.write(BigInt(STABLE_PAGE + 4090), new Uint8Array(10).fill(1));
    expect(stable.commit()).toEqual([[STABLE_PAGE, STABLE_PAGE + 8192]]);
});

test('reads into a buffer from a given index, small and large pieces alike, leaving the rest of it', () => {
    const stable = createStableMemory(10n);
    stable.grow(2n);
    const data = Uint8Array.from({ length: 40 }, (_, i) => i + 1);
    stable.write(BigInt(STABLE_PAGE - 20), data);
    const into = new Uint8Array(50).fill(0xee);
    stable.read(BigInt(STABLE_PAGE - 22), 44, into, 3);
    expect([...into.subarray(0, 3)]).toEqual([0xee, 0xee, 0xee]);
    expect([...into.subarray(3, 47)]).toEqual([0, 0, ...data, 0, 0]);
    expect([...into.subarray(47)]).toEqual([0xee, 0xee, 0xee]);
    stable.read(BigInt(STABLE_PAGE - 1), 2, into, 48); // 1 byte on each page
    expect([...into.subarray(47)]).toEqual([0xee, 20, 21]);
});
