// The transactional heap: commit keeps exactly the changed bytes, rollback restores every
// dirty chunk (including a store spilling into the next chunk and growth), and the
// embedded SIMD diff helper matches its source.
import * as fs from 'node:fs';
import * as path from 'node:path';

import wabt from 'wabt';

import { createHeap, WASM_PAGE } from '../../../replica/execution/heap';
import { SHADOW_WASM } from '../../../replica/execution/shadow';
import { RESERVED_BYTES, RESERVED_PAGES } from '../../../replica/wasm/instrument';

/** A memory laid out like an instrumented module's: bytemap, then canister bytes. */
function setup(pages: number) {
    const memory = new WebAssembly.Memory({ initial: RESERVED_PAGES + pages });
    const heap = createHeap(memory, pages);
    const mem = () => new Uint8Array(memory.buffer);
    /** A canister store: writes the bytes and marks the chunk of the first byte, as instrumented code does. */
    const store = (address: number, bytes: number[]) => {
        mem().set(bytes, RESERVED_BYTES + address);
        mem()[address >>> 12] = 1;
    };
    const read = (address: number, n: number) => [
        ...mem().subarray(RESERVED_BYTES + address, RESERVED_BYTES + address + n),
    ];
    return { memory, heap, store, read, mem };
}

test('commit reports only the 64-byte blocks that changed, merged, and the shadow follows', () => {
    const { heap, store, read } = setup(2);
    store(100, [1, 2, 3]);
    store(5000, [9]);
    store(5001, [9]); // same chunk, same block
    store(70_000, [7]);
    const spans = heap.commit(2);
    expect(spans).toEqual([
        [64, 128],
        [4992, 5056],
        [69_952, 70_016],
    ]);
    expect([...heap.committed().subarray(100, 103)]).toEqual([1, 2, 3]);
    expect(read(100, 3)).toEqual([1, 2, 3]);
    // Writing the same value again marks a chunk but changes nothing: nothing to log.
    store(100, [1]);
    expect(heap.commit(2)).toEqual([]);
});

test('rollback restores dirty chunks, including bytes a store spilled into the next chunk', () => {
    const { heap, store, read } = setup(1);
    store(10, [5]);
    heap.commit(1);
    store(10, [6]);
    // An 8-byte store at 4092 marks chunk 0 only but writes 4 bytes of chunk 1.
    store(4092, [1, 1, 1, 1, 1, 1, 1, 1]);
    heap.rollback();
    expect(read(10, 1)).toEqual([5]);
    expect(read(4092, 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(heap.commit(1)).toEqual([]);
});

test('a rolled-back growth leaves zeros behind; a committed growth extends the shadow', () => {
    const { memory, heap, store, read } = setup(1);
    memory.grow(1);
    store(WASM_PAGE + 8, [42]);
    heap.rollback();
    expect(read(WASM_PAGE + 8, 1)).toEqual([0]);
    store(WASM_PAGE + 8, [43]);
    expect(heap.commit(2)).toEqual([[WASM_PAGE, WASM_PAGE + 64]]);
    expect(heap.committed().length).toBe(2 * WASM_PAGE);
    expect(heap.committed()[WASM_PAGE + 8]).toBe(43);
});

test('large commits (more than the helper scratch space) are diffed in batches', () => {
    const pages = 160; // 10 MiB: more than the 4 MiB scratch
    const { heap, store } = setup(pages);
    for (let address = 0; address < pages * WASM_PAGE; address += 4096) store(address + 17, [address % 251 || 1]);
    const spans = heap.commit(pages);
    expect(spans.length).toBe((pages * WASM_PAGE) / 4096);
    expect(spans[0]).toEqual([0, 64]);
    expect(heap.committed()[pages * WASM_PAGE - 4096 + 17]).toBe((pages * WASM_PAGE - 4096) % 251);
});

test('load replaces memory and shadow, and clears marks', () => {
    const { heap, store, read } = setup(1);
    store(3, [3]);
    const image = new Uint8Array(2 * WASM_PAGE);
    image[WASM_PAGE + 1] = 9;
    heap.load(image, 2);
    expect(read(3, 1)).toEqual([0]);
    expect(read(WASM_PAGE + 1, 1)).toEqual([9]);
    expect(heap.commit(2)).toEqual([]);
});

test('the embedded diff helper is shadow.wat compiled', async () => {
    const parser = await wabt();
    const source = fs.readFileSync(path.join(__dirname, '../../../replica/execution/shadow.wat'), 'utf8');
    const { buffer } = parser.parseWat('shadow.wat', source, { simd: true, bulk_memory: true }).toBinary({});
    expect(Buffer.from(buffer).equals(SHADOW_WASM)).toBe(true);
});
