// The stable memory imports of the system API: where their bytes land, what they mark dirty,
// what they charge (the IC's 20 instructions plus one per byte) and how they trap.
import { createStableMemory, STABLE_PAGE } from '../../../replica/execution/stable-memory';
import {
    CanisterTrap,
    createSystemApi,
    type ExecutionContext,
    type SystemApiHooks,
} from '../../../replica/execution/system-api';

type Api = Record<string, (...args: never[]) => unknown>;

/** The API over a 64 KiB heap and a 2-page stable memory, in an update; what it charged and marked. */
function setup(): {
    api: Api;
    heap: Uint8Array;
    charged: bigint[];
    dirty: Array<[number, number]>;
    stable: ReturnType<typeof createStableMemory>;
} {
    const heap = new Uint8Array(65536);
    const stable = createStableMemory(4n);
    stable.grow(2n);
    const charged: bigint[] = [];
    const dirty: Array<[number, number]> = [];
    const ctx = { kind: 'U' } as ExecutionContext;
    const hooks: SystemApiHooks = {
        context: () => ctx,
        memory: () => heap,
        markDirty: (start, end) => void dirty.push([start, end]),
        stable: () => stable,
        charge: (n) => void charged.push(n),
        used: () => 0n,
    };
    return { api: createSystemApi(hooks) as Api, heap, charged, dirty, stable };
}

const call = (api: Api, name: string, ...args: Array<number | bigint>): unknown =>
    (api[name] as (...a: Array<number | bigint>) => unknown)(...args);

test('stable64_write copies heap bytes at once; stable64_read puts them at the destination and marks it', () => {
    const { api, heap, charged, dirty, stable } = setup();
    heap.set([1, 2, 3, 4, 5], 100);
    call(api, 'stable64_write', BigInt(STABLE_PAGE - 2), 100n, 5n);
    heap.fill(9, 100, 105); // the canister reuses its buffer: stable memory keeps what was written
    call(api, 'stable64_read', 3000n, BigInt(STABLE_PAGE - 3), 7n);
    expect([...heap.subarray(2999, 3008)]).toEqual([0, 0, 1, 2, 3, 4, 5, 0, 0]);
    expect(dirty).toEqual([[3000, 3007]]);
    expect(charged).toEqual([25n, 27n]);
    const small = new Uint8Array(3);
    stable.read(BigInt(STABLE_PAGE), 3, small);
    expect([...small]).toEqual([3, 4, 5]);
});

test('the 32-bit stable_read and stable_write move the same bytes', () => {
    const { api, heap } = setup();
    heap.set([7, 8], 10);
    call(api, 'stable_write', 70000, 10, 2);
    call(api, 'stable_read', 20, 70000, 2);
    expect([...heap.subarray(20, 22)]).toEqual([7, 8]);
});

test('out of bounds: stable memory and heap both trap, after the charge, without changing anything', () => {
    const { api, heap, stable } = setup();
    const end = BigInt(2 * STABLE_PAGE);
    expect(() => call(api, 'stable64_read', 0n, end - 1n, 2n)).toThrow(/Stable memory out of bounds/);
    expect(() => call(api, 'stable64_write', end, 0n, 1n)).toThrow(/Stable memory out of bounds/);
    // Past what a number holds exactly: still out of bounds, never wrapped around.
    expect(() => call(api, 'stable64_read', 0n, 1n << 60n, 1n)).toThrow(/Stable memory out of bounds/);
    expect(() => call(api, 'stable64_write', (1n << 64n) - 1n, 0n, 1n)).toThrow(/Stable memory out of bounds/);
    expect(() => call(api, 'stable64_read', BigInt(heap.length - 1), 0n, 2n)).toThrow(/Heap out of bounds/);
    expect(() => call(api, 'stable64_write', 0n, BigInt(heap.length - 1), 2n)).toThrow(/Heap out of bounds/);
    expect(() => call(api, 'stable64_read', 1n << 33n, 0n, 1n)).toThrow(CanisterTrap);
    // Reading or writing nothing at the very end is allowed.
    call(api, 'stable64_read', 0n, end, 0n);
    call(api, 'stable64_write', end, 0n, 0n);
    expect(stable.commit()).toEqual([]);
    expect(heap.every((b) => b === 0)).toBe(true);
});
