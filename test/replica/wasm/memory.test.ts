// Address shift, dirty-chunk bytemap and virtual memory size.
import {
    CHUNK_SHIFT,
    MAX_CANISTER_PAGES,
    RESERVED_BYTES,
    RESERVED_PAGES,
    instrument,
} from '../../../replica/wasm/instrument';
import { Canister, compile, wat } from './util';

const CHUNK = 1 << CHUNK_SHIFT;
const PAGE = 65536;

const STORES = `
  (func (export "i32.store") (param i32 i32) local.get 0 local.get 1 i32.store)
  (func (export "i32.store8") (param i32 i32) local.get 0 local.get 1 i32.store8)
  (func (export "i32.store16") (param i32 i32) local.get 0 local.get 1 i32.store16)
  (func (export "i64.store") (param i32 i64) local.get 0 local.get 1 i64.store)
  (func (export "i64.store8") (param i32 i64) local.get 0 local.get 1 i64.store8)
  (func (export "i64.store16") (param i32 i64) local.get 0 local.get 1 i64.store16)
  (func (export "i64.store32") (param i32 i64) local.get 0 local.get 1 i64.store32)
  (func (export "f32.store") (param i32 f32) local.get 0 local.get 1 f32.store)
  (func (export "f64.store") (param i32 f64) local.get 0 local.get 1 f64.store)
  (func (export "v128.store") (param i32 i64) local.get 0 local.get 1 i64x2.splat v128.store)
  (func (export "v128.store8_lane") (param i32 i64) local.get 0 local.get 1 i64x2.splat v128.store8_lane 1)
  (func (export "v128.store16_lane") (param i32 i64) local.get 0 local.get 1 i64x2.splat v128.store16_lane 1)
  (func (export "v128.store32_lane") (param i32 i64) local.get 0 local.get 1 i64x2.splat v128.store32_lane 1)
  (func (export "v128.store64_lane") (param i32 i64) local.get 0 local.get 1 i64x2.splat v128.store64_lane 1)
  (func (export "store_offset") (param i32 i32) local.get 0 local.get 1 i32.store offset=5000)
  (func (export "store_far") (param i32 i32) local.get 0 local.get 1 i32.store8 offset=0xfffffff0)
  (func (export "load_far") (param i32) (result i32) local.get 0 i32.load offset=0xfffffff0)
  (func (export "i32.load") (param i32) (result i32) local.get 0 i32.load)
  (func (export "i64.load") (param i32) (result i64) local.get 0 i64.load)
  (func (export "load_offset") (param i32) (result i32) local.get 0 i32.load8_u offset=7)
  (func (export "v128.load") (param i32) (result i64) local.get 0 v128.load i64x2.extract_lane 1)
  (func (export "v128.load64_lane") (param i32) (result i64)
    local.get 0 v128.const i64x2 0 0 v128.load64_lane 1 i64x2.extract_lane 1)
  (func (export "v128.load32_zero") (param i32) (result i32) local.get 0 v128.load32_zero i32x4.extract_lane 0)
  (func (export "two_stores") (param i32) (local i64)
    ;; a function that stores both i32 and i64 values and has its own locals
    i64.const 7 local.set 1
    local.get 0 i32.const 1 i32.store
    local.get 0 local.get 1 i64.store offset=8192)
`;

describe('address shift and dirty chunks', () => {
    let c: Canister;

    beforeAll(async () => {
        c = await Canister.fromWat(`(module (memory (export "memory") 2) ${STORES})`);
    });
    beforeEach(() => {
        c.heap.fill(0, 0, 2 * PAGE);
        c.clearMarks();
    });

    test('memory is 1 MiB larger; the original export is the same memory', () => {
        expect(c.memory.buffer.byteLength).toBe(RESERVED_BYTES + 2 * PAGE);
        expect(c.exports.memory).toBe(c.memory);
    });

    test('every kind of store writes shifted and marks its chunk', () => {
        const cases: [string, unknown, number[]][] = [
            ['i32.store', 0x04030201, [1, 2, 3, 4]],
            ['i32.store8', 0x0201, [1]],
            ['i32.store16', 0x030201, [1, 2]],
            ['i64.store', 0x0807060504030201n, [1, 2, 3, 4, 5, 6, 7, 8]],
            ['i64.store8', 0x0201n, [1]],
            ['i64.store16', 0x030201n, [1, 2]],
            ['i64.store32', 0x0504030201n, [1, 2, 3, 4]],
            ['f32.store', 1.5, [0, 0, 0xc0, 0x3f]],
            ['f64.store', -2, [0, 0, 0, 0, 0, 0, 0, 0xc0]],
            ['v128.store', 0x0807060504030201n, [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]],
            ['v128.store8_lane', 0x0807060504030201n, [2]],
            ['v128.store16_lane', 0x0807060504030201n, [3, 4]],
            ['v128.store32_lane', 0x0807060504030201n, [5, 6, 7, 8]],
            ['v128.store64_lane', 0x0807060504030201n, [1, 2, 3, 4, 5, 6, 7, 8]],
        ];
        cases.forEach(([name, value, bytes], k) => {
            const chunk = 3 + k; // a different chunk for each store
            const addr = chunk * CHUNK + 100;
            c.clearMarks();
            c.fn(name)(addr, value);
            expect([name, [...c.heap.subarray(addr, addr + bytes.length)]]).toEqual([name, bytes]);
            expect([name, c.markedChunks()]).toEqual([name, [chunk]]);
        });
        // Nothing landed in the bytemap's own bytes besides the marks, nor below the stores.
        expect(c.heap.subarray(0, 3 * CHUNK).every((b) => b === 0)).toBe(true);
    });

    test('loads read shifted memory', () => {
        c.heap.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], 200);
        expect(c.fn('i32.load')(200)).toBe(0x04030201);
        expect(c.fn('i64.load')(200)).toBe(0x0807060504030201n);
        expect(c.fn('load_offset')(200)).toBe(8);
        expect(c.fn('v128.load')(200)).toBe(0x100f0e0d0c0b0a09n);
        expect(c.fn('v128.load64_lane')(200)).toBe(0x0807060504030201n);
        expect(c.fn('v128.load32_zero')(200)).toBe(0x04030201);
        // The bytemap region (physical 200) is not what the canister sees.
        expect(c.physical[200]).toBe(0);
        expect(c.markedChunks()).toEqual([]);
    });

    test('a store at an offset marks the chunk of address + offset', () => {
        c.fn('store_offset')(4000, 0x11223344); // effective address 9000
        expect(c.markedChunks()).toEqual([9000 >> CHUNK_SHIFT]);
        expect(c.fn('i32.load')(9000)).toBe(0x11223344);
        c.clearMarks();
        c.fn('two_stores')(CHUNK * 5);
        expect(c.markedChunks()).toEqual([5, 7]);
        expect(c.fn('i64.load')(CHUNK * 7)).toBe(7n);
    });

    test('a store straddling a chunk boundary is marked at its first chunk', () => {
        c.fn('i64.store')(CHUNK - 3, -1n);
        expect(c.markedChunks()).toEqual([0]);
        expect([...c.heap.subarray(CHUNK - 4, CHUNK + 6)]).toEqual([0, 255, 255, 255, 255, 255, 255, 255, 255, 0]);
    });

    test('stores out of bounds trap, and never write outside the bytemap', () => {
        const top = 2 * PAGE;
        c.fn('i32.store8')(top - 1, 9);
        expect(c.heap[top - 1]).toBe(9);
        expect(() => c.fn('i32.store8')(top, 9)).toThrow('memory access out of bounds');
        expect(() => c.fn('i32.store')(top - 2, 9)).toThrow('memory access out of bounds');
        expect(() => c.fn('store_offset')(-1, 9)).toThrow('memory access out of bounds');
        // A wrapping address: the (spurious) mark stays inside the bytemap.
        c.clearMarks();
        expect(() => c.fn('i64.store')(-1, 1n)).toThrow('memory access out of bounds');
        expect(c.markedChunks()).toEqual([0xfffff]);
        expect(c.heap.every((b, i) => b === 0 || i === top - 1)).toBe(true);
    });

    test('an offset that cannot be shifted traps', () => {
        expect(() => c.fn('load_far')(0)).toThrow(WebAssembly.RuntimeError);
        expect(() => c.fn('store_far')(0, 1)).toThrow(WebAssembly.RuntimeError);
        expect(c.markedChunks()).toEqual([]);
    });
});

describe('bulk memory helpers', () => {
    let c: Canister;

    beforeAll(async () => {
        c = await Canister.fromWat(`(module
          (memory 2)
          (data $hello "hello, world")
          (data $big "${'x'.repeat(5000)}")
          (func (export "fill") (param i32 i32 i32) local.get 0 local.get 1 local.get 2 memory.fill)
          (func (export "copy") (param i32 i32 i32) local.get 0 local.get 1 local.get 2 memory.copy)
          (func (export "init_hello") (param i32 i32 i32) local.get 0 local.get 1 local.get 2 memory.init $hello)
          (func (export "init_big") (param i32 i32 i32) local.get 0 local.get 1 local.get 2 memory.init $big)
          (func (export "drop_hello") data.drop $hello)
        )`);
    });
    beforeEach(() => {
        c.heap.fill(0, 0, 2 * PAGE);
        c.clearMarks();
    });

    test('memory.fill marks every chunk of [dst, dst + n)', () => {
        c.fn('fill')(4000, 0xab, 5000);
        expect(c.markedChunks()).toEqual([0, 1, 2]);
        expect(c.heap[3999]).toBe(0);
        expect(c.heap[4000]).toBe(0xab);
        expect(c.heap[8999]).toBe(0xab);
        expect(c.heap[9000]).toBe(0);
        c.clearMarks();
        c.fn('fill')(CHUNK * 3, 1, CHUNK); // exactly one chunk
        expect(c.markedChunks()).toEqual([3]);
        c.clearMarks();
        c.fn('fill')(CHUNK * 3 - 1, 1, 2);
        expect(c.markedChunks()).toEqual([2, 3]);
    });

    test('n = 0 marks nothing', () => {
        c.fn('fill')(100, 1, 0);
        c.fn('copy')(100, 200, 0);
        c.fn('init_hello')(100, 0, 0);
        c.fn('fill')(2 * PAGE, 1, 0); // at the very end: allowed
        expect(c.markedChunks()).toEqual([]);
    });

    test('memory.copy copies shifted (overlapping too) and marks the destination', () => {
        c.heap.set([1, 2, 3, 4, 5], 100);
        c.fn('copy')(20000, 100, 10000);
        expect(c.markedChunks()).toEqual([4, 5, 6, 7]);
        expect([...c.heap.subarray(20000, 20006)]).toEqual([1, 2, 3, 4, 5, 0]);
        c.clearMarks();
        c.fn('copy')(102, 100, 5); // memmove semantics
        expect([...c.heap.subarray(100, 108)]).toEqual([1, 2, 1, 2, 3, 4, 5, 0]);
        expect(c.markedChunks()).toEqual([0]);
    });

    test('memory.init copies from the segment and marks the destination', () => {
        c.fn('init_hello')(3 * CHUNK - 5, 0, 12);
        expect(Buffer.from(c.heap.subarray(3 * CHUNK - 5, 3 * CHUNK + 7)).toString()).toBe('hello, world');
        expect(c.markedChunks()).toEqual([2, 3]);
        c.clearMarks();
        c.fn('init_big')(0, 10, 4990);
        expect(c.markedChunks()).toEqual([0, 1]);
        expect(c.heap[4989]).toBe('x'.charCodeAt(0));
        expect(() => c.fn('init_hello')(0, 0, 13)).toThrow('out of bounds');
    });

    test('out-of-bounds operations trap without writing or marking', () => {
        expect(() => c.fn('fill')(2 * PAGE - 10, 1, 11)).toThrow('out of bounds');
        expect(() => c.fn('copy')(0, 2 * PAGE - 10, 11)).toThrow('out of bounds');
        expect(() => c.fn('copy')(2 * PAGE - 10, 0, 11)).toThrow('out of bounds');
        expect(() => c.fn('fill')(-1, 1, 1)).toThrow(WebAssembly.RuntimeError);
        expect(() => c.fn('copy')(0, -1, 1)).toThrow(WebAssembly.RuntimeError);
        expect(c.markedChunks()).toEqual([]);
        expect(c.heap.every((b) => b === 0)).toBe(true);
    });

    test('addresses that would pass 2^32 when shifted trap explicitly', () => {
        // 0xFFF00000 + 1 MiB wraps to 0: without the check, this would fill address 0.
        expect(() => c.fn('fill')(0xfff00000 | 0, 1, 0)).toThrow('unreachable');
        expect(() => c.fn('fill')(0xfff00000 | 0, 1, 1)).toThrow('unreachable');
        expect(() => c.fn('copy')(0, 0xfff00000 | 0, 1)).toThrow('unreachable');
        expect(() => c.fn('copy')(0xfff00000 | 0, 0, 1)).toThrow('unreachable');
        expect(() => c.fn('init_hello')(0xfff00001 | 0, 0, 1)).toThrow('unreachable');
        expect(() => c.fn('fill')(0xffefffff | 0, 1, 0)).toThrow('out of bounds');
        expect(c.heap.every((b) => b === 0)).toBe(true);
        expect(c.markedChunks()).toEqual([]);
    });

    test('data.drop still works', () => {
        c.fn('drop_hello')();
        expect(() => c.fn('init_hello')(0, 0, 1)).toThrow('out of bounds');
    });
});

describe('data segments', () => {
    test('active segments land shifted; nothing is marked', async () => {
        const c = await Canister.fromWat(`(module
          (memory 1)
          (data (i32.const 100) "hello")
          (data (i32.const 65530) "world!")
          (data $p "passive"))`);
        expect(Buffer.from(c.heap.subarray(100, 105)).toString()).toBe('hello');
        expect(Buffer.from(c.heap.subarray(65530, 65536)).toString()).toBe('world!');
        expect(c.physical.subarray(0, RESERVED_BYTES).every((b) => b === 0)).toBe(true);
    });

    test('a segment that does not fit still fails instantiation', async () => {
        const bytes = instrument(await wat(`(module (memory 1) (data (i32.const 65534) "abc"))`));
        expect(() => new WebAssembly.Instance(compile(bytes), {})).toThrow(/out of bounds/);
    });
});

describe('virtual memory size', () => {
    const GROW = `
      (func (export "size") (result i32) memory.size)
      (func (export "grow") (param i32) (result i32) local.get 0 memory.grow)`;

    test('memory.size and memory.grow see canister pages; growth stops at the declared maximum', async () => {
        const c = await Canister.fromWat(`(module (memory 1 3) ${GROW})`);
        expect(c.pages).toBe(1);
        expect(c.fn('size')()).toBe(1);
        expect(c.fn('grow')(0)).toBe(1);
        expect(c.fn('grow')(1)).toBe(1);
        expect(c.fn('size')()).toBe(2);
        expect(c.pages).toBe(2);
        expect(c.memory.buffer.byteLength).toBe((RESERVED_PAGES + 2) * PAGE);
        expect(c.fn('grow')(2)).toBe(-1); // 4 > max 3
        expect(c.fn('grow')(-1)).toBe(-1); // 2^32 - 1 pages
        expect(c.fn('size')()).toBe(2);
        expect(c.fn('grow')(1)).toBe(2);
        expect(c.fn('grow')(1)).toBe(-1);
        expect(c.fn('size')()).toBe(3);
        expect(c.memory.buffer.byteLength).toBe((RESERVED_PAGES + 3) * PAGE);
    });

    test('the host rolls back a growth by restoring __ic_pages; regrowing reuses the physical pages', async () => {
        const c = await Canister.fromWat(`(module (memory 1) ${GROW} ${STORES})`);
        expect(c.fn('grow')(2)).toBe(1);
        expect(c.memory.buffer.byteLength).toBe((RESERVED_PAGES + 3) * PAGE);
        c.pages = 1; // roll back
        expect(c.fn('size')()).toBe(1);
        expect(c.fn('grow')(1)).toBe(1);
        expect(c.fn('size')()).toBe(2);
        expect(c.memory.buffer.byteLength).toBe((RESERVED_PAGES + 3) * PAGE); // not grown again
        expect(c.fn('grow')(2)).toBe(2);
        expect(c.memory.buffer.byteLength).toBe((RESERVED_PAGES + 4) * PAGE); // only the difference
        c.fn('i32.store')(4 * PAGE - 4, 5);
        expect(c.heap[4 * PAGE - 4]).toBe(5);
    });

    test('without a declared maximum, the canister may use 4 GiB minus the reserved pages', async () => {
        const c = await Canister.fromWat(`(module (memory 1) ${GROW})`);
        expect(c.fn('grow')(MAX_CANISTER_PAGES)).toBe(-1); // 1 + 65520 > 65520
        expect(c.fn('grow')(65536)).toBe(-1);
        expect(c.fn('size')()).toBe(1);
        expect(c.memory.buffer.byteLength).toBe((RESERVED_PAGES + 1) * PAGE);
    });

    test('a maximum of 65536 pages is capped in the physical memory', async () => {
        const bytes = instrument(await wat(`(module (memory 1 65536) ${GROW})`));
        const c = new Canister(bytes);
        expect(c.fn('grow')(MAX_CANISTER_PAGES)).toBe(-1);
        expect(c.fn('size')()).toBe(1);
    });

    test('a memory without data starts at its declared size', async () => {
        const c = await Canister.fromWat(`(module (memory 0 2) ${GROW})`);
        expect(c.pages).toBe(0);
        expect(c.fn('size')()).toBe(0);
        expect(c.memory.buffer.byteLength).toBe(RESERVED_BYTES);
        expect(c.fn('grow')(2)).toBe(0);
        expect(c.fn('grow')(1)).toBe(-1);
    });
});
