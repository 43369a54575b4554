// Holds one canister's stable memory as sparse 64 KiB pages, with a pre-image journal so
// that the writes of a transaction (one message, or a whole upgrade) can be undone.
import type { Span } from './heap';

// The globals the hot paths name, as module constants: a test runs this code in jest's sandbox,
// where every lookup of a global costs ~40 times a local's (the system API is called per access).
const { Math, Number, BigInt } = globalThis;

export const STABLE_PAGE = 65536;
const CHUNK = 4096;
const CHUNKS_PER_PAGE = STABLE_PAGE / CHUNK;

export interface StableMemory {
    size(): bigint; // in 64 KiB pages
    grow(pages: bigint): bigint; // old size, or -1n when over the limit
    /** Reads `length` bytes at `offset` into `into` from its index `at` (default 0). */
    read(offset: bigint, length: number, into: Uint8Array, at?: number): void;
    write(offset: bigint, data: Uint8Array): void;
    /** Makes the writes since the last commit/rollback permanent; returns the changed spans. */
    commit(): Span[];
    rollback(): void;
    /** Every non-zero page, for checkpoints. */
    pages(): IterableIterator<[number, Uint8Array]>;
    /** Applies a persisted range (restore from disk). */
    apply(offset: number, data: Uint8Array, sizePages: bigint): void;
}

export class StableMemoryError extends Error {}

/** Offsets past this are out of bounds of any stable memory (at most 2^53 bytes): checked in numbers below it. */
const MAX_SAFE_OFFSET = BigInt(Number.MAX_SAFE_INTEGER);

export function createStableMemory(maxPages: bigint): StableMemory {
    if (maxPages * BigInt(STABLE_PAGE) > MAX_SAFE_OFFSET) throw new Error('stable memory limit too large');
    const store = new Map<number, Uint8Array>();
    let sizePages = 0n;
    // sizePages in bytes, as a number: every access checks it (exact: below 2^53).
    let sizeBytes = 0;
    // Pre-images of the chunks written in the open transaction (null: the page did not exist).
    let journal = new Map<number, Uint8Array | null>();
    let sizeBefore = 0n;

    function resize(pages: bigint): void {
        sizePages = pages;
        sizeBytes = Number(pages) * STABLE_PAGE;
    }

    /** `offset` as a number once [offset, offset + length) is known to lie inside the memory. */
    function check(offset: bigint, length: number): number {
        // offset + length stays exact enough: anything past 2^53 is far beyond sizeBytes.
        if (offset < 0n || offset > MAX_SAFE_OFFSET || Number(offset) + length > sizeBytes) {
            throw new StableMemoryError('stable memory out of bounds');
        }
        return Number(offset);
    }

    function remember(chunk: number): void {
        if (journal.has(chunk)) return;
        const page = store.get(Math.floor(chunk / CHUNKS_PER_PAGE));
        const at = (chunk % CHUNKS_PER_PAGE) * CHUNK;
        journal.set(chunk, page === undefined ? null : page.slice(at, at + CHUNK));
    }

    /** Copies `data` into the pages at `pos`, creating pages as needed. */
    function put(pos: number, data: Uint8Array): void {
        for (let done = 0; done < data.length;) {
            const pageNo = Math.floor(pos / STABLE_PAGE);
            const at = pos % STABLE_PAGE;
            const n = Math.min(data.length - done, STABLE_PAGE - at);
            let page = store.get(pageNo);
            if (page === undefined) {
                page = new Uint8Array(STABLE_PAGE);
                store.set(pageNo, page);
            }
            page.set(n === data.length ? data : data.subarray(done, done + n), at);
            done += n;
            pos += n;
        }
    }

    return {
        size: () => sizePages,
        grow(pages) {
            if (pages < 0n || sizePages + pages > maxPages) return -1n;
            const old = sizePages;
            resize(sizePages + pages);
            return old;
        },
        read(offset, length, into, start = 0) {
            let pos = check(offset, length);
            // Most reads are small and inside one page: no loop, no second lookup.
            const at0 = pos % STABLE_PAGE;
            if (length <= 16 && at0 + length <= STABLE_PAGE) {
                const page = store.get((pos - at0) / STABLE_PAGE);
                if (page === undefined) into.fill(0, start, start + length);
                else for (let i = 0; i < length; i++) into[start + i] = page[at0 + i];
                return;
            }
            let done = 0;
            while (done < length) {
                const pageNo = Math.floor(pos / STABLE_PAGE);
                const at = pos % STABLE_PAGE;
                const n = Math.min(length - done, STABLE_PAGE - at);
                const page = store.get(pageNo);
                if (page === undefined) into.fill(0, start + done, start + done + n);
                // Small reads (most of a canister's) byte by byte: cheaper than a subarray and a copy.
                else if (n <= 16) for (let i = 0; i < n; i++) into[start + done + i] = page[at + i];
                else into.set(page.subarray(at, at + n), start + done);
                done += n;
                pos += n;
            }
        },
        write(offset, data) {
            const first = check(offset, data.length);
            const last = Math.floor((first + data.length - 1) / CHUNK);
            for (let c = Math.floor(first / CHUNK); c <= last; c++) remember(c);
            put(first, data);
        },
        commit() {
            const chunks = [...journal.keys()].sort((a, b) => a - b);
            journal = new Map();
            sizeBefore = sizePages;
            const spans: Span[] = [];
            for (const c of chunks) {
                const last = spans[spans.length - 1];
                if (last !== undefined && last[1] === c * CHUNK) last[1] += CHUNK;
                else spans.push([c * CHUNK, (c + 1) * CHUNK]);
            }
            return spans;
        },
        rollback() {
            for (const [chunk, before] of journal) {
                const pageNo = Math.floor(chunk / CHUNKS_PER_PAGE);
                const page = store.get(pageNo);
                if (page === undefined) continue;
                const at = (chunk % CHUNKS_PER_PAGE) * CHUNK;
                if (before === null) page.fill(0, at, at + CHUNK);
                else page.set(before, at);
            }
            journal = new Map();
            resize(sizeBefore);
        },
        pages: () => store.entries(),
        apply(offset, data, size) {
            put(offset, data);
            resize(size);
            sizeBefore = size;
        },
    };
}

/** Reads a committed span's bytes (for the write-ahead log). */
export function readSpan(memory: StableMemory, [start, end]: Span): Uint8Array {
    const out = new Uint8Array(end - start);
    const limit = Number(memory.size()) * STABLE_PAGE;
    if (start < limit) memory.read(BigInt(start), Math.min(end, limit) - start, out);
    return out;
}
