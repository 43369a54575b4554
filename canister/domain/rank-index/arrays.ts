// The index's memory: one typed array per node field, their capacity and how it grows.

/** The largest id plus two: node = id + 1 must fit, and 2^25 nodes of 48 bytes is 1.5 GiB. */
export const MAX_NODES = 1 << 25;
const FLOAT_ARRAYS = 3; // value, at, tie
const INT_ARRAYS = 6; // left, right, size, prev, next, prio
export const BYTES_PER_NODE = FLOAT_ARRAYS * 8 + INT_ARRAYS * 4;
/** What the optional fourth key field (`sub`) adds per node, on indexes that have it. */
export const SUB_BYTES = 8;
/** The `sub` of indexes without one: reads of it answer undefined, and it holds nothing. */
const NO_SUB = new Float64Array(0);
export const DEFAULT_CAPACITY = 1024;
export const GROWTH = 1.5;

export interface Arrays {
    /** The value as stored: negated for 'desc', so the tree always orders ascending. */
    val: Float64Array;
    at: Float64Array;
    tie: Float64Array;
    /** The key's fourth field, only on indexes made with one (else empty): boards with a tiebreak. */
    sub: Float64Array;
    left: Int32Array;
    right: Int32Array;
    /** Subtree size; 0 for nodes not in the index (so it doubles as the membership flag). */
    size: Int32Array;
    prev: Int32Array;
    next: Int32Array;
    prio: Int32Array;
}

export function allocate(capacity: number, withSub = false): Arrays {
    return {
        val: new Float64Array(capacity),
        at: new Float64Array(capacity),
        tie: new Float64Array(capacity),
        sub: withSub ? new Float64Array(capacity) : NO_SUB,
        left: new Int32Array(capacity),
        right: new Int32Array(capacity),
        size: new Int32Array(capacity),
        prev: new Int32Array(capacity),
        next: new Int32Array(capacity),
        prio: new Int32Array(capacity),
    };
}

/** The arrays in snapshot order (`sub` last, when the index has one). */
export function arrayList(a: Arrays): Array<Float64Array | Int32Array> {
    const list = [a.val, a.at, a.tie, a.left, a.right, a.size, a.prev, a.next, a.prio];
    if (hasSub(a)) list.push(a.sub);
    return list;
}

export const hasSub = (a: Arrays): boolean => a.sub !== NO_SUB;

/** Bytes per node of an index with or without `sub`. */
export const bytesPerNode = (withSub: boolean): number => BYTES_PER_NODE + (withSub ? SUB_BYTES : 0);

/**
 * Capacities grow by half (a third of the array unused at worst, a fifth on average, against
 * half and ~30 % when doubling: memory is paid per byte per second), for a few more native
 * copies over an index's life.
 */
export function capacityFor(nodes: number): number {
    let capacity = 16;
    while (capacity < nodes) capacity = Math.ceil(capacity * GROWTH);
    return Math.min(capacity, MAX_NODES);
}
