// A rank index as bytes: a header then its arrays in chunks, and back (no per-entry work either way).
import { MAX_NODES, allocate, arrayList, bytesPerNode, capacityFor, hasSub, type Arrays } from './arrays';
import type { RankOrder } from './types';

export const SNAPSHOT_VERSION = 1;
/** Snapshot chunks are at most this long, to fit one stable-map value each. */
export const CHUNK_BYTES = 1 << 20;

const MAGIC = 0x58494b52; // "RKIX" read as a little-endian u32
const HEADER_BYTES = 32;
/**
 * The order word's bit for an index with a fourth key field (`sub`, boards with a tiebreak): its
 * array follows the others. Indexes without one write the words they always wrote (and a wasm
 * from before refuses a snapshot with it: its tables are rebuilt from the records).
 */
const WITH_SUB = 2;

/** The chunks of an index's first `bound` nodes: views of its own arrays (no copy). */
export function encodeSnapshot(order: RankOrder, count: number, bound: number, arrays: Arrays): Uint8Array[] {
    const header = new Uint8Array(HEADER_BYTES);
    const view = new DataView(header.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, SNAPSHOT_VERSION, true);
    const sub = hasSub(arrays);
    view.setUint32(8, (order === 'desc' ? 0 : 1) | (sub ? WITH_SUB : 0), true);
    view.setUint32(12, count, true);
    view.setUint32(16, bound, true);
    view.setUint32(20, bytesPerNode(sub), true);
    view.setUint32(24, bound * bytesPerNode(sub), true);
    const chunks: Uint8Array[] = [header];
    for (const array of arrayList(arrays)) {
        const bytes = bound * array.BYTES_PER_ELEMENT;
        for (let offset = 0; offset < bytes; offset += CHUNK_BYTES) {
            chunks.push(new Uint8Array(array.buffer, array.byteOffset + offset, Math.min(CHUNK_BYTES, bytes - offset)));
        }
    }
    return chunks;
}

/** The arrays, order and counts a snapshot holds, checked against its header. */
export function decodeSnapshot(chunks: readonly Uint8Array[]): {
    order: RankOrder;
    arrays: Arrays;
    bound: number;
    count: number;
} {
    if (chunks.length === 0 || chunks[0].byteLength !== HEADER_BYTES) {
        throw new Error('rank index snapshot: missing or malformed header');
    }
    const header = new DataView(chunks[0].buffer, chunks[0].byteOffset, HEADER_BYTES);
    if (header.getUint32(0, true) !== MAGIC) throw new Error('rank index snapshot: not a rank index snapshot');
    const version = header.getUint32(4, true);
    if (version !== SNAPSHOT_VERSION) {
        throw new Error(`rank index snapshot: version ${version} is not supported (expected ${SNAPSHOT_VERSION})`);
    }
    const orderWord = header.getUint32(8, true);
    const orderCode = orderWord & ~WITH_SUB;
    const sub = (orderWord & WITH_SUB) !== 0;
    const count = header.getUint32(12, true);
    const bound = header.getUint32(16, true);
    const perNode = header.getUint32(20, true);
    const payload = header.getUint32(24, true);
    if (
        orderCode > 1 ||
        bound < 1 ||
        bound > MAX_NODES ||
        count >= bound ||
        perNode !== bytesPerNode(sub) ||
        payload !== bound * bytesPerNode(sub)
    ) {
        throw new Error(
            `rank index snapshot: inconsistent header (order ${orderCode}, ${count} entries, ${bound} nodes, ${perNode} bytes per node, ${payload} bytes)`,
        );
    }
    let received = 0;
    for (let i = 1; i < chunks.length; i++) received += chunks[i].byteLength;
    if (received !== payload) {
        throw new Error(`rank index snapshot: expected ${payload} bytes of arrays, got ${received}`);
    }

    const arrays = allocate(capacityFor(bound), sub);
    // Stream the chunks into the arrays; the chunk boundaries need not match the arrays'.
    let chunk = 1;
    let offset = 0;
    for (const array of arrayList(arrays)) {
        const target = new Uint8Array(array.buffer, 0, bound * array.BYTES_PER_ELEMENT);
        let filled = 0;
        while (filled < target.length) {
            const source = chunks[chunk];
            const take = Math.min(source.byteLength - offset, target.length - filled);
            target.set(source.subarray(offset, offset + take), filled);
            filled += take;
            offset += take;
            if (offset === source.byteLength) {
                chunk++;
                offset = 0;
            }
        }
    }
    // O(1) consistency checks: the root's subtree holds every entry and the ends are real nodes.
    const { left, size, prev, next } = arrays;
    const root = left[0];
    const ends = (n: number) => n >= 0 && n < bound && (n === 0) === (count === 0);
    if (size[0] !== 0 || !ends(root) || size[root] !== count || !ends(next[0]) || !ends(prev[0])) {
        throw new Error('rank index snapshot: the arrays do not match the header');
    }
    return { order: orderCode === 0 ? 'desc' : 'asc', arrays, bound, count };
}
