// An order-statistic index over a leaderboard's entries, in typed arrays.
//
// It ranks entry ids (small non-negative integers chosen by the caller) by the key
// (value, at, tie): value descending or ascending (fixed per index), then at ascending, then tie
// ascending, then the id itself, so ranks are distinct and deterministic.
//
// Why it is built this way (the canister runs it in QuickJS compiled to wasm, where every
// interpreted operation costs thousands of metered instructions):
// - The tree is a treap whose nodes are the entry ids themselves (node = id + 1; node 0 is the
//   nil sentinel), held in typed arrays: no JS object per entry, nothing for the garbage
//   collector to scan, and the whole index can be dumped and restored as raw bytes.
// - Subtree sizes give rank and select in one descent. Insert and remove are top-down (split /
//   merge), so no path stack and no parent pointers are needed; a treap does O(1) expected
//   restructuring per update, with priorities from a fixed hash of the id (the IC has no
//   Math.random, and the tree must come out the same on every replica).
// - A doubly linked list in rank order (prev/next) makes range() and around() one descent and
//   then one array read per id, and lets set() keep an id in place when its rank does not change.
// - Node 0's slots hold the roots of both structures: left[0] is the tree's root, next[0] the
//   first id in rank order and prev[0] the last. That removes the special cases for the root and
//   the ends of the list, and they travel with the snapshot for free.
// - Hot loops compare keys inline rather than calling a helper: a function call costs as much as
//   a dozen array reads in QuickJS.
// Measured in an Azle 0.33 canister at 1,000,000 entries (mean metered instructions): rank 86 K,
// set of a new id 174 K, set moving an id 250 K, remove 113 K, range(1, 100) 300 K; a snapshot is
// 48 bytes per id and restores in 99 M. (A treap is ~25 levels deep there against ~20 for AVL;
// the saving would be eaten by the path stack and bottom-up rebalancing AVL inserts need.)

export type RankOrder = 'desc' | 'asc';

export interface RankKey {
    value: number;
    at: number;
    tie: number;
}

export interface RankIndex {
    readonly order: RankOrder;
    /** Inserts `id` with this key, or moves it there if present. */
    set(id: number, value: number, at: number, tie: number): void;
    /** Removes `id`; false if it was absent. */
    remove(id: number): boolean;
    has(id: number): boolean;
    size(): number;
    keyOf(id: number): RankKey | undefined;
    /** 1-based rank of `id`, or undefined if absent. */
    rank(id: number): number | undefined;
    /** The id at a 1-based rank, or undefined if out of range. */
    select(rank: number): number | undefined;
    /**
     * How many entries have a value strictly better than `value` by the index's order (greater
     * for 'desc', smaller for 'asc'), in one descent: 1 + this is the shared rank of `value`
     * (equal values share a rank: 1, 2, 2, 4).
     */
    countBetter(value: number): number;
    /** Up to `count` ids in rank order starting at `startRank` (1-based). */
    range(startRank: number, count: number): number[];
    /**
     * The ids from up to `before` ranks above `id` to up to `after` ranks below it, in rank
     * order (truncated at the ends of the board); [] if `id` is absent. The rank of the first is
     * rank(id) minus the position of `id` in the result.
     */
    around(id: number, before: number, after: number): number[];
    clear(): void;
    /** Bytes its arrays take (their capacity, not just the entries): what it holds of the heap. */
    bytes(): number;
    /**
     * The index as bytes: a header then the arrays, each chunk at most CHUNK_BYTES. The chunks
     * are views of the index's own memory (no copy): store them before the next change, and
     * honour each view's byteOffset/byteLength.
     */
    toChunks(): Uint8Array[];
}

/** The largest id plus two: node = id + 1 must fit, and 2^25 nodes of 48 bytes is 1.5 GiB. */
const MAX_NODES = 1 << 25;
export const SNAPSHOT_VERSION = 1;
/** Snapshot chunks are at most this long, to fit one stable-map value each. */
export const CHUNK_BYTES = 1 << 20;

const MAGIC = 0x58494b52; // "RKIX" read as a little-endian u32
const HEADER_BYTES = 32;
const FLOAT_ARRAYS = 3; // value, at, tie
const INT_ARRAYS = 6; // left, right, size, prev, next, prio
const BYTES_PER_NODE = FLOAT_ARRAYS * 8 + INT_ARRAYS * 4;
const DEFAULT_CAPACITY = 1024;
export const GROWTH = 1.5;

interface Arrays {
    /** The value as stored: negated for 'desc', so the tree always orders ascending. */
    val: Float64Array;
    at: Float64Array;
    tie: Float64Array;
    left: Int32Array;
    right: Int32Array;
    /** Subtree size; 0 for nodes not in the index (so it doubles as the membership flag). */
    size: Int32Array;
    prev: Int32Array;
    next: Int32Array;
    prio: Int32Array;
}

function allocate(capacity: number): Arrays {
    return {
        val: new Float64Array(capacity),
        at: new Float64Array(capacity),
        tie: new Float64Array(capacity),
        left: new Int32Array(capacity),
        right: new Int32Array(capacity),
        size: new Int32Array(capacity),
        prev: new Int32Array(capacity),
        next: new Int32Array(capacity),
        prio: new Int32Array(capacity),
    };
}

/** The arrays in snapshot order. */
function arrayList(a: Arrays): Array<Float64Array | Int32Array> {
    return [a.val, a.at, a.tie, a.left, a.right, a.size, a.prev, a.next, a.prio];
}

/**
 * Capacities grow by half (a third of the array unused at worst, a fifth on average, against
 * half and ~30 % when doubling: memory is paid per byte per second), for a few more native
 * copies over an index's life.
 */
function capacityFor(nodes: number): number {
    let capacity = 16;
    while (capacity < nodes) capacity = Math.ceil(capacity * GROWTH);
    return Math.min(capacity, MAX_NODES);
}

/** Treap priority: a fixed mix (murmur3's finaliser) of the node, so the shape is reproducible. */
function priority(node: number): number {
    let h = Math.imul(node ^ (node >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) | 0;
}

function checkId(id: number): void {
    // (id | 0) === id: an integer in int32 range, without a call to Number.isInteger.
    if ((id | 0) !== id || id < 0 || id > MAX_NODES - 2) {
        throw new RangeError(`rank index: id ${id} is not an integer in [0, ${MAX_NODES - 2}]`);
    }
}

export function createRankIndex(order: RankOrder, initialCapacity = DEFAULT_CAPACITY): RankIndex {
    if (order !== 'desc' && order !== 'asc') throw new Error(`rank index: unknown order ${String(order)}`);
    const capacity = capacityFor(Math.max(1, initialCapacity) + 1);
    return build(order, allocate(capacity), 1, 0, capacity);
}

/** Rebuilds an index from toChunks() output by copying bytes: no per-entry work. */
export function restoreRankIndex(chunks: readonly Uint8Array[]): RankIndex {
    if (chunks.length === 0 || chunks[0].byteLength !== HEADER_BYTES) {
        throw new Error('rank index snapshot: missing or malformed header');
    }
    const header = new DataView(chunks[0].buffer, chunks[0].byteOffset, HEADER_BYTES);
    if (header.getUint32(0, true) !== MAGIC) throw new Error('rank index snapshot: not a rank index snapshot');
    const version = header.getUint32(4, true);
    if (version !== SNAPSHOT_VERSION) {
        throw new Error(`rank index snapshot: version ${version} is not supported (expected ${SNAPSHOT_VERSION})`);
    }
    const orderCode = header.getUint32(8, true);
    const count = header.getUint32(12, true);
    const bound = header.getUint32(16, true);
    const bytesPerNode = header.getUint32(20, true);
    const payload = header.getUint32(24, true);
    if (
        orderCode > 1 ||
        bound < 1 ||
        bound > MAX_NODES ||
        count >= bound ||
        bytesPerNode !== BYTES_PER_NODE ||
        payload !== bound * BYTES_PER_NODE
    ) {
        throw new Error(
            `rank index snapshot: inconsistent header (order ${orderCode}, ${count} entries, ${bound} nodes, ${bytesPerNode} bytes per node, ${payload} bytes)`,
        );
    }
    let received = 0;
    for (let i = 1; i < chunks.length; i++) received += chunks[i].byteLength;
    if (received !== payload) {
        throw new Error(`rank index snapshot: expected ${payload} bytes of arrays, got ${received}`);
    }

    const arrays = allocate(capacityFor(bound));
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
    return build(orderCode === 0 ? 'desc' : 'asc', arrays, bound, count, capacityFor(DEFAULT_CAPACITY + 1));
}

function build(
    order: RankOrder,
    arrays: Arrays,
    initialBound: number,
    initialCount: number,
    clearCapacity: number,
): RankIndex {
    const sign = order === 'desc' ? -1 : 1;
    let { val, at, tie, left, right, size, prev, next, prio } = arrays;
    let capacity = val.length;
    /** One past the highest node ever used: what a snapshot must hold. */
    let bound = initialBound;
    let count = initialCount;

    function adopt(a: Arrays): void {
        ({ val, at, tie, left, right, size, prev, next, prio } = a);
        capacity = val.length;
    }

    function current(): Arrays {
        return { val, at, tie, left, right, size, prev, next, prio };
    }

    /** Grows the capacity until node n fits: native copies only. */
    function grow(n: number): void {
        const bigger = allocate(capacityFor(n + 1));
        const from = arrayList(current());
        const to = arrayList(bigger);
        for (let i = 0; i < from.length; i++) (to[i] as Int32Array).set(from[i] as Int32Array);
        adopt(bigger);
    }

    /** Links node n (absent, key already stored) into the tree and the list. */
    function insert(n: number): void {
        const v = val[n],
            a = at[n],
            t = tie[n];
        // The priority is a function of the node, kept from its first insertion (0 = not yet).
        let p = prio[n];
        if (p === 0) p = prio[n] = priority(n);
        // Descend while x outranks n in the heap order; n will be in x's subtree. Only the
        // parent and the predecessor are tracked: each assignment per level costs.
        let parent = 0;
        let x = left[0];
        let pred = 0;
        while (x !== 0 && prio[x] >= p) {
            size[x]++;
            parent = x;
            const xv = val[x];
            if (v < xv || (v === xv && (a < at[x] || (a === at[x] && (t < tie[x] || (t === tie[x] && n < x)))))) {
                x = left[x];
            } else {
                pred = x;
                x = right[x];
            }
        }
        if (parent === 0) left[0] = n;
        else if (sortsBefore(v, a, t, n, parent)) left[parent] = n;
        else right[parent] = n;
        size[n] = size[x] + 1;
        // Split x's subtree by n's key: smaller nodes chain down n's left side along their right
        // links, larger ones down n's right side along their left links. A node that moves to
        // one side loses the nodes later moved to the other side; record the count moved so far
        // now and subtract the total afterwards (expected O(1) nodes: the split is short).
        let lArray = left,
            lIndex = n,
            rArray = right,
            rIndex = n;
        let lMoved = 0,
            rMoved = 0;
        while (x !== 0) {
            const xv = val[x];
            if (v < xv || (v === xv && (a < at[x] || (a === at[x] && (t < tie[x] || (t === tie[x] && n < x)))))) {
                rArray[rIndex] = x;
                size[x] += lMoved;
                rMoved += size[right[x]] + 1;
                rArray = left;
                rIndex = x;
                x = left[x];
            } else {
                lArray[lIndex] = x;
                size[x] += rMoved;
                lMoved += size[left[x]] + 1;
                pred = x;
                lArray = right;
                lIndex = x;
                x = right[x];
            }
        }
        lArray[lIndex] = 0;
        rArray[rIndex] = 0;
        for (let y = left[n]; y !== 0; y = right[y]) size[y] -= rMoved;
        for (let y = right[n]; y !== 0; y = left[y]) size[y] -= lMoved;
        // pred, the last node the search passed on its right, is n's predecessor; node 0 stands
        // for "none", and next[0] is the first node, so next[pred] is n's successor either way.
        const succ = next[pred];
        prev[n] = pred;
        next[n] = succ;
        next[pred] = n;
        prev[succ] = n;
        count++;
    }

    /** Unlinks node n (present) from the tree and the list. */
    function unlink(n: number): void {
        const v = val[n],
            a = at[n],
            t = tie[n];
        let parent = 0;
        let x = left[0];
        while (x !== n) {
            if (x === 0) throw new Error('rank index: corrupt tree');
            size[x]--;
            parent = x;
            const xv = val[x];
            if (v < xv || (v === xv && (a < at[x] || (a === at[x] && (t < tie[x] || (t === tie[x] && n < x)))))) {
                x = left[x];
            } else {
                x = right[x];
            }
        }
        // The slot that points at n, as (array, index): left[0] holds the root.
        let slotArray = parent === 0 || left[parent] === n ? left : right;
        let slotIndex = parent;
        // Merge n's subtrees into its slot, top-down: the root with the higher priority wins and
        // gains the other's size, then the merge goes on down its inner spine.
        let l = left[n],
            r = right[n];
        while (l !== 0 && r !== 0) {
            if (prio[l] >= prio[r]) {
                slotArray[slotIndex] = l;
                size[l] += size[r];
                slotArray = right;
                slotIndex = l;
                l = right[l];
            } else {
                slotArray[slotIndex] = r;
                size[r] += size[l];
                slotArray = left;
                slotIndex = r;
                r = left[r];
            }
        }
        slotArray[slotIndex] = l | r;
        const p = prev[n],
            s = next[n];
        next[p] = s;
        prev[s] = p;
        left[n] = right[n] = size[n] = prev[n] = next[n] = 0;
        count--;
    }

    /** Whether key (v, a, t) of node n sorts before node m's stored key (outside hot loops). */
    function sortsBefore(v: number, a: number, t: number, n: number, m: number): boolean {
        const mv = val[m];
        return v < mv || (v === mv && (a < at[m] || (a === at[m] && (t < tie[m] || (t === tie[m] && n < m)))));
    }

    function node(id: number): number {
        // Reads of absent ids answer "absent" rather than throw; only set() validates strictly.
        return (id | 0) === id && id >= 0 && id < capacity - 1 ? id + 1 : 0;
    }

    function select(rank: number): number | undefined {
        if ((rank | 0) !== rank || rank < 1 || rank > count) return undefined;
        let k = rank;
        let x = left[0];
        for (;;) {
            const l = left[x];
            const ls = size[l];
            if (k <= ls) x = l;
            else if (k === ls + 1) return x - 1;
            else {
                k -= ls + 1;
                x = right[x];
            }
        }
    }

    return {
        order,

        set(id, value, atValue, tieValue) {
            checkId(id);
            if (value !== value || atValue !== atValue || tieValue !== tieValue) {
                throw new RangeError(`rank index: NaN in the key of id ${id}`);
            }
            const n = id + 1;
            if (n >= capacity) grow(n);
            if (n >= bound) bound = n + 1;
            const v = sign * value;
            if (size[n] !== 0) {
                // Still between its neighbours: the order is unchanged, so the new key is all it takes.
                const p = prev[n],
                    s = next[n];
                if (
                    (p === 0 || !sortsBefore(v, atValue, tieValue, n, p)) &&
                    (s === 0 || sortsBefore(v, atValue, tieValue, n, s))
                ) {
                    val[n] = v;
                    at[n] = atValue;
                    tie[n] = tieValue;
                    return;
                }
                unlink(n); // finds n in the tree by its old key
            }
            val[n] = v;
            at[n] = atValue;
            tie[n] = tieValue;
            insert(n);
        },

        remove(id) {
            const n = node(id);
            if (n === 0 || size[n] === 0) return false;
            unlink(n);
            return true;
        },

        has(id) {
            const n = node(id);
            return n !== 0 && size[n] !== 0;
        },

        size: () => count,

        keyOf(id) {
            const n = node(id);
            if (n === 0 || size[n] === 0) return undefined;
            return { value: sign * val[n], at: at[n], tie: tie[n] };
        },

        rank(id) {
            const n = node(id);
            if (n === 0 || size[n] === 0) return undefined;
            const v = val[n],
                a = at[n],
                t = tie[n];
            let r = 0;
            let x = left[0];
            while (x !== n) {
                if (x === 0) throw new Error('rank index: corrupt tree');
                const xv = val[x];
                if (v < xv || (v === xv && (a < at[x] || (a === at[x] && (t < tie[x] || (t === tie[x] && n < x)))))) {
                    x = left[x];
                } else {
                    r += size[left[x]] + 1;
                    x = right[x];
                }
            }
            return r + size[left[n]] + 1;
        },

        select,

        countBetter(value) {
            // Stored values sort ascending (negated for 'desc'): count those below v.
            const v = sign * value;
            let r = 0;
            let x = left[0];
            while (x !== 0) {
                if (val[x] < v) {
                    r += size[left[x]] + 1;
                    x = right[x];
                } else x = left[x];
            }
            return r;
        },

        range(startRank, wanted) {
            const start = Math.max(1, Math.floor(startRank));
            const end = Math.min(count, start + Math.floor(wanted) - 1);
            if (!(start <= end)) return []; // also catches NaN
            const length = end - start + 1;
            const out = new Array<number>(length);
            let x = (select(start) as number) + 1;
            for (let i = 0; i < length; i++) {
                out[i] = x - 1;
                x = next[x];
            }
            return out;
        },

        around(id, before, after) {
            const out: number[] = [];
            const n = node(id);
            if (n === 0 || size[n] === 0) return out;
            let first = n;
            let back = 0;
            while (back < before && prev[first] !== 0) {
                first = prev[first];
                back++;
            }
            let last = n;
            for (let i = 0; i < after && next[last] !== 0; i++) last = next[last];
            for (let x = first; ; x = next[x]) {
                out.push(x - 1);
                if (x === last) return out;
            }
        },

        bytes() {
            return capacity * BYTES_PER_NODE;
        },

        clear() {
            adopt(allocate(clearCapacity));
            bound = 1;
            count = 0;
        },

        toChunks() {
            const header = new Uint8Array(HEADER_BYTES);
            const view = new DataView(header.buffer);
            view.setUint32(0, MAGIC, true);
            view.setUint32(4, SNAPSHOT_VERSION, true);
            view.setUint32(8, order === 'desc' ? 0 : 1, true);
            view.setUint32(12, count, true);
            view.setUint32(16, bound, true);
            view.setUint32(20, BYTES_PER_NODE, true);
            view.setUint32(24, bound * BYTES_PER_NODE, true);
            const chunks: Uint8Array[] = [header];
            for (const array of arrayList(current())) {
                const bytes = bound * array.BYTES_PER_ELEMENT;
                for (let offset = 0; offset < bytes; offset += CHUNK_BYTES) {
                    chunks.push(
                        new Uint8Array(array.buffer, array.byteOffset + offset, Math.min(CHUNK_BYTES, bytes - offset)),
                    );
                }
            }
            return chunks;
        },
    };
}
