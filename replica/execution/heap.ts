// Keeps one canister's wasm heap transactional: a committed shadow copy plus the
// instrumented module's dirty-chunk bytemap give O(dirty) commit and rollback.
import * as layout from '../wasm/instrument';
import { createShadow, type Span } from './shadow';

export type { Span };

export const WASM_PAGE = 65536;
// Local copies: imported bindings are getters under some loaders, and these run in loops.
const RESERVED_BYTES = layout.RESERVED_BYTES;
const CHUNK_SHIFT = layout.CHUNK_SHIFT;
const CHUNK = 1 << CHUNK_SHIFT;
// A store that starts in chunk c may spill up to 15 bytes into chunk c + 1 (v128).
const SPILL = 16;

export interface Heap {
    readonly memory: WebAssembly.Memory;
    /** The committed canister-visible memory (what a rollback returns to). */
    committed(): Uint8Array;
    /** Commits what the last execution wrote (memory now `pages` long); returns the changed spans. */
    commit(pages: number): Span[];
    /** Undoes every write since the last commit. */
    rollback(): void;
    /** Replaces the whole committed state, e.g. when restoring from disk. */
    load(image: Uint8Array, pages: number): void;
    /** Physical byte view of canister memory (shifted past the reserved bytemap). */
    view(): Uint8Array;
    /** The whole physical memory, whose first bytes are the dirty-chunk bytemap (index: chunk). */
    marks(): Uint8Array;
}

export function createHeap(memory: WebAssembly.Memory, initialPages: number): Heap {
    const committed = createShadow(initialPages * WASM_PAGE);
    let shadow = committed.bytes();
    let bytes = new Uint8Array(memory.buffer);
    // The canister's part of `bytes`: the system API asks for it on every call.
    let canisterView = bytes.subarray(RESERVED_BYTES);
    // A grown memory detaches its old buffer, whose views then read as empty (the physical memory
    // never is: it holds the bytemap): cheaper than asking the memory for its buffer on every call.
    const live = (): Uint8Array => {
        if (bytes.length === 0) {
            bytes = new Uint8Array(memory.buffer);
            canisterView = bytes.subarray(RESERVED_BYTES);
        }
        return bytes;
    };
    // The instrumented module's data segments already sit in memory at instantiation:
    // take them as the committed starting point.
    shadow.set(live().subarray(RESERVED_BYTES, RESERVED_BYTES + shadow.length));
    clearMarks(live());

    /** Collects and clears the marked chunks. */
    function takeDirtyChunks(): number[] {
        const mem = live();
        const chunks = (mem.length - RESERVED_BYTES) >>> CHUNK_SHIFT;
        const words = new Uint32Array(mem.buffer, 0, Math.ceil(chunks / 4));
        const dirty: number[] = [];
        for (let w = 0; w < words.length; w++) {
            if (words[w] === 0) continue;
            for (let c = w * 4; c < w * 4 + 4 && c < chunks; c++) {
                if (mem[c] !== 0) {
                    dirty.push(c);
                    mem[c] = 0;
                }
            }
        }
        return dirty;
    }

    /** Merges dirty chunks (plus their spill bytes) into disjoint ranges clipped to `limit` bytes. */
    function ranges(chunks: number[], limit: number): Span[] {
        const out: Span[] = [];
        for (const c of chunks) {
            const start = c * CHUNK;
            if (start >= limit) continue;
            const end = Math.min(start + CHUNK + SPILL, limit);
            const last = out[out.length - 1];
            if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
            else out.push([start, end]);
        }
        return out;
    }

    return {
        memory,
        committed: () => shadow,
        view() {
            live();
            return canisterView;
        },
        marks: live,
        commit(pages) {
            committed.resize(pages * WASM_PAGE);
            shadow = committed.bytes();
            // Dirty chunks are coarse (a call marks ~150 of them but changes a few KB): keep
            // only the 64-byte blocks that really differ, so the log stays small.
            return committed.commit(live().subarray(RESERVED_BYTES), ranges(takeDirtyChunks(), shadow.length));
        },
        rollback() {
            const mem = live();
            const physical = mem.length - RESERVED_BYTES;
            for (const [start, end] of ranges(takeDirtyChunks(), physical)) {
                const keep = Math.min(end, shadow.length);
                if (start < keep) mem.set(shadow.subarray(start, keep), RESERVED_BYTES + start);
                // Bytes past the committed size were zero before this execution grew memory.
                if (keep < end) mem.fill(0, RESERVED_BYTES + Math.max(start, keep), RESERVED_BYTES + end);
            }
        },
        load(image, pages) {
            const size = pages * WASM_PAGE;
            const needPhysical = Math.ceil((RESERVED_BYTES + size) / WASM_PAGE);
            const havePhysical = memory.buffer.byteLength / WASM_PAGE;
            if (needPhysical > havePhysical) memory.grow(needPhysical - havePhysical);
            const mem = live();
            mem.fill(0, RESERVED_BYTES);
            mem.set(image.subarray(0, size), RESERVED_BYTES);
            clearMarks(mem);
            committed.load(image.subarray(0, size));
            shadow = committed.bytes();
        },
    };
}

function clearMarks(mem: Uint8Array): void {
    mem.fill(0, 0, RESERVED_BYTES);
}
