// An order-statistic index over a leaderboard's entries, in typed arrays.
//
// It ranks entry ids (small non-negative integers chosen by the caller) by the key
// (value, at, tie[, sub]): value descending or ascending (fixed per index), then at ascending,
// then tie ascending, then sub ascending (only on indexes made with it: one more array, for
// boards with a tiebreak), then the id itself, so ranks are distinct and deterministic. Without
// `sub` the extra comparison is never reached (the callers' ties are unique) and its array is
// empty: such indexes cost and weigh what they did.
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
// - Moving an id (a new best) is one descent: the paths to its old and new places share a
//   prefix where nothing changes, and only past the node where they part is it unlinked on one
//   side and inserted on the other. The hash is a bijection, so priorities are distinct and the
//   tree's shape is a function of its keys alone: the same tree as unlinking and inserting.
// - A doubly linked list in rank order (prev/next) makes range() and around() one descent and
//   then one array read per id, and lets set() keep an id in place when its rank does not change.
// - Node 0's slots hold the roots of both structures: left[0] is the tree's root, next[0] the
//   first id in rank order and prev[0] the last. That removes the special cases for the root and
//   the ends of the list, and they travel with the snapshot for free.
// - Hot loops compare keys inline rather than calling a helper: a function call costs as much as
//   a dozen array reads in QuickJS.
// Measured in an Azle 0.33 canister at 1,000,000 entries (mean metered instructions): rank 86 K,
// set of a new id 174 K, set moving an id 250 K, remove 113 K, range(1, 100) 300 K; a snapshot is
// 48 bytes per id and restores in 99 M. Since the one-descent move, at 1,000 / 100,000 entries:
// a move of a few ranks 124 K / 164 K (170 K / 244 K before), across the board 154 K / 210 K
// (177 K / 232 K), a new id 103 K / 134 K (113 K / 146 K). (A treap is ~25 levels deep at
// 1,000,000 against ~20 for AVL; the saving would be eaten by the path stack and bottom-up
// rebalancing AVL inserts need.)
import {
    DEFAULT_CAPACITY,
    MAX_NODES,
    allocate,
    arrayList,
    bytesPerNode,
    capacityFor,
    hasSub,
    type Arrays,
} from './arrays';
import { decodeSnapshot, encodeSnapshot } from './snapshot';
import type { RankIndex, RankKey, RankOrder } from './types';

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

/** `withSub`: the key has a fourth field (set's `subValue`). */
export function createRankIndex(order: RankOrder, initialCapacity = DEFAULT_CAPACITY, withSub = false): RankIndex {
    if (order !== 'desc' && order !== 'asc') throw new Error(`rank index: unknown order ${String(order)}`);
    const capacity = capacityFor(Math.max(1, initialCapacity) + 1);
    return build(order, allocate(capacity, withSub), 1, 0, capacity);
}

/** Rebuilds an index from toChunks() output by copying bytes: no per-entry work. */
export function restoreRankIndex(chunks: readonly Uint8Array[]): RankIndex {
    const { order, arrays, bound, count } = decodeSnapshot(chunks);
    return build(order, arrays, bound, count, capacityFor(DEFAULT_CAPACITY + 1));
}

function build(
    order: RankOrder,
    arrays: Arrays,
    initialBound: number,
    initialCount: number,
    clearCapacity: number,
): RankIndex {
    const sign = order === 'desc' ? -1 : 1;
    const withSub = hasSub(arrays);
    let { val, at, tie, sub, left, right, size, prev, next, prio } = arrays;
    let capacity = val.length;
    /** One past the highest node ever used: what a snapshot must hold. */
    let bound = initialBound;
    let count = initialCount;

    function adopt(a: Arrays): void {
        ({ val, at, tie, sub, left, right, size, prev, next, prio } = a);
        capacity = val.length;
    }

    function current(): Arrays {
        return { val, at, tie, sub, left, right, size, prev, next, prio };
    }

    /** Grows the capacity until node n fits: native copies only. */
    function grow(n: number): void {
        const bigger = allocate(capacityFor(n + 1), withSub);
        const from = arrayList(current());
        const to = arrayList(bigger);
        for (let i = 0; i < from.length; i++) (to[i] as Int32Array).set(from[i] as Int32Array);
        adopt(bigger);
    }

    /**
     * Links node n (absent; its key (v, a, t, s) need not be stored yet) into the subtree held in
     * slot (slotArray, slotIndex), whose ancestors' sizes already count it, and into the list;
     * `pred` is the last node above the slot that n's key passed on its right (0 if none).
     */
    function insertBelow(
        n: number,
        v: number,
        a: number,
        t: number,
        s: number,
        slotArray: Int32Array,
        slotIndex: number,
        pred: number,
    ): void {
        // The priority is a function of the node, kept from its first insertion (0 = not yet).
        let p = prio[n];
        if (p === 0) p = prio[n] = priority(n);
        // Descend while x outranks n in the heap order; n will be in x's subtree. Only the
        // parent and the predecessor are tracked: each assignment per level costs.
        let parent = -1;
        let x = slotArray[slotIndex];
        while (x !== 0 && prio[x] >= p) {
            size[x]++;
            parent = x;
            const xv = val[x];
            if (
                v < xv ||
                (v === xv &&
                    (a < at[x] ||
                        (a === at[x] && (t < tie[x] || (t === tie[x] && (s < sub[x] || (s === sub[x] && n < x)))))))
            ) {
                x = left[x];
            } else {
                pred = x;
                x = right[x];
            }
        }
        // The slot n takes: the start's, or the parent's child on the side the search took (a
        // node's pred is its parent exactly when it went right of it).
        if (parent !== -1) {
            slotArray = pred === parent ? right : left;
            slotIndex = parent;
        }
        slotArray[slotIndex] = n;
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
            if (
                v < xv ||
                (v === xv &&
                    (a < at[x] ||
                        (a === at[x] && (t < tie[x] || (t === tie[x] && (s < sub[x] || (s === sub[x] && n < x)))))))
            ) {
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
        if (rMoved !== 0) for (let y = left[n]; y !== 0; y = right[y]) size[y] -= rMoved;
        if (lMoved !== 0) for (let y = right[n]; y !== 0; y = left[y]) size[y] -= lMoved;
        // pred, the last node the search passed on its right, is n's predecessor; node 0 stands
        // for "none", and next[0] is the first node, so next[pred] is n's successor either way.
        const succ = next[pred];
        prev[n] = pred;
        next[n] = succ;
        next[pred] = n;
        prev[succ] = n;
    }

    /**
     * Unlinks node n (present, with key (v, a, t, s) as stored) from the subtree held in slot
     * (slotArray, slotIndex), whose ancestors' sizes the caller keeps, and from the list.
     */
    function unlinkBelow(
        n: number,
        v: number,
        a: number,
        t: number,
        s: number,
        slotArray: Int32Array,
        slotIndex: number,
    ): void {
        let parent = -1;
        let x = slotArray[slotIndex];
        while (x !== n) {
            if (x === 0) throw new Error('rank index: corrupt tree');
            size[x]--;
            parent = x;
            const xv = val[x];
            if (
                v < xv ||
                (v === xv &&
                    (a < at[x] ||
                        (a === at[x] && (t < tie[x] || (t === tie[x] && (s < sub[x] || (s === sub[x] && n < x)))))))
            ) {
                x = left[x];
            } else {
                x = right[x];
            }
        }
        // The slot that points at n, as (array, index): left[0] holds the root.
        if (parent !== -1) {
            slotArray = left[parent] === n ? left : right;
            slotIndex = parent;
        }
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
            q = next[n];
        next[p] = q;
        prev[q] = p;
        left[n] = right[n] = size[n] = prev[n] = next[n] = 0;
    }

    /**
     * Moves node n (present) from its stored key to (v, a, t, s), which sorts before it when
     * `up`, in one descent: the paths to the old and the new place share a prefix whose sizes do
     * not change. Past the node where they part (or n itself, whose subtree is all that changes)
     * n leaves the old side and enters the new one. Distinct priorities (a bijective hash) make
     * the treap's shape a function of its keys: the same tree as unlinking and inserting.
     */
    function move(n: number, v: number, a: number, t: number, s: number, up: boolean): void {
        const ov = val[n],
            oa = at[n],
            ot = tie[n],
            os = (withSub ? sub[n] : undefined) as number;
        // Only the parent is tracked (node 0 holds the root in left[0], so it is the root's parent).
        let parent = 0,
            pred = 0;
        let x = left[0];
        for (;;) {
            if (x === n) {
                // n is the root of its slot's subtree: merge its children there, then insert.
                const slotArray = left[parent] === n ? left : right;
                unlinkBelow(n, ov, oa, ot, os, slotArray, parent);
                insertBelow(n, v, a, t, s, slotArray, parent, pred);
                return;
            }
            if (x === 0) throw new Error('rank index: corrupt tree');
            const xv = val[x];
            if (
                v < xv ||
                (v === xv &&
                    (a < at[x] ||
                        (a === at[x] && (t < tie[x] || (t === tie[x] && (s < sub[x] || (s === sub[x] && n < x)))))))
            ) {
                // The new key goes left of x; the old one too when moving down (it sorts after).
                if (
                    up &&
                    !(
                        ov < xv ||
                        (ov === xv &&
                            (oa < at[x] ||
                                (oa === at[x] &&
                                    (ot < tie[x] || (ot === tie[x] && (os < sub[x] || (os === sub[x] && n < x)))))))
                    )
                ) {
                    unlinkBelow(n, ov, oa, ot, os, right, x);
                    insertBelow(n, v, a, t, s, left, x, pred);
                    return;
                }
                parent = x;
                x = left[x];
            } else {
                if (
                    !up &&
                    (ov < xv ||
                        (ov === xv &&
                            (oa < at[x] ||
                                (oa === at[x] &&
                                    (ot < tie[x] || (ot === tie[x] && (os < sub[x] || (os === sub[x] && n < x))))))))
                ) {
                    unlinkBelow(n, ov, oa, ot, os, left, x);
                    insertBelow(n, v, a, t, s, right, x, x);
                    return;
                }
                pred = parent = x;
                x = right[x];
            }
        }
    }

    /** Whether key (v, a, t, s) of node n sorts before node m's stored key (outside hot loops). */
    function sortsBefore(v: number, a: number, t: number, s: number | undefined, n: number, m: number): boolean {
        if (v !== val[m]) return v < val[m];
        if (a !== at[m]) return a < at[m];
        if (t !== tie[m]) return t < tie[m];
        if (withSub && s !== sub[m]) return s! < sub[m];
        return n < m;
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
        withSub,

        set(id, value, atValue, tieValue, subValue) {
            // (id | 0) === id: an integer in int32 range, without a call to Number.isInteger.
            if ((id | 0) !== id || id < 0 || id > MAX_NODES - 2) checkId(id);
            if (value !== value || atValue !== atValue || tieValue !== tieValue) {
                throw new RangeError(`rank index: NaN in the key of id ${id}`);
            }
            if (withSub && (typeof subValue !== 'number' || subValue !== subValue))
                throw new RangeError(`rank index: no sub in the key of id ${id}`);
            const s = (withSub ? subValue : undefined) as number; // (undefined compares false)
            const n = id + 1;
            if (n >= capacity) grow(n);
            if (n >= bound) bound = n + 1;
            const v = sign * value;
            if (size[n] !== 0) {
                // Which way the key moves; the same key again (a submit that left this field as
                // it was) is nothing to do.
                const ov = val[n];
                let up: boolean;
                if (v !== ov) up = v < ov;
                else if (atValue !== at[n]) up = atValue < at[n];
                else if (tieValue !== tie[n]) up = tieValue < tie[n];
                else if (withSub && s !== sub[n]) up = s < sub[n];
                else return;
                // Still after its predecessor (moving up) or before its successor (down): the
                // order is unchanged, so the new key is all it takes.
                const q = up ? prev[n] : next[n];
                if (q !== 0) {
                    const qv = val[q];
                    if (
                        up ===
                        (v < qv ||
                            (v === qv &&
                                (atValue < at[q] ||
                                    (atValue === at[q] &&
                                        (tieValue < tie[q] ||
                                            (tieValue === tie[q] && (s < sub[q] || (s === sub[q] && n < q))))))))
                    )
                        move(n, v, atValue, tieValue, s, up);
                }
            } else {
                insertBelow(n, v, atValue, tieValue, s, left, 0, 0);
                count++;
            }
            val[n] = v;
            at[n] = atValue;
            tie[n] = tieValue;
            if (withSub) sub[n] = s;
        },

        remove(id) {
            const n = node(id);
            if (n === 0 || size[n] === 0) return false;
            unlinkBelow(n, val[n], at[n], tie[n], (withSub ? sub[n] : undefined) as number, left, 0);
            count--;
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
            const key: RankKey = { value: sign * val[n], at: at[n], tie: tie[n] };
            if (withSub) key.sub = sub[n];
            return key;
        },

        atOf(id) {
            const n = node(id);
            return n === 0 || size[n] === 0 ? undefined : at[n];
        },

        rank(id) {
            const n = node(id);
            if (n === 0 || size[n] === 0) return undefined;
            const v = val[n],
                a = at[n],
                t = tie[n],
                s = (withSub ? sub[n] : undefined) as number; // (undefined compares false: no out-of-bounds read)
            let r = 0;
            let x = left[0];
            while (x !== n) {
                if (x === 0) throw new Error('rank index: corrupt tree');
                const xv = val[x];
                if (
                    v < xv ||
                    (v === xv &&
                        (a < at[x] ||
                            (a === at[x] && (t < tie[x] || (t === tie[x] && (s < sub[x] || (s === sub[x] && n < x)))))))
                ) {
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

        countAhead(value, atValue) {
            // countBetter with the key's second field: (val, at) pairs below (v, atValue).
            const v = sign * value;
            let r = 0;
            let x = left[0];
            while (x !== 0) {
                const xv = val[x];
                if (xv < v || (xv === v && at[x] < atValue)) {
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
            return capacity * bytesPerNode(withSub);
        },

        load(ids, keys) {
            if (count !== 0) throw new Error('rank index: load needs an empty index');
            const spine: number[] = [];
            let prevNode = 0;
            for (let i = 0; i < ids.length; i++) {
                const id = ids[i];
                checkId(id);
                const n = id + 1;
                if (n >= capacity) grow(n);
                if (n >= bound) bound = n + 1;
                const key = keys(i);
                val[n] = sign * key.value;
                at[n] = key.at;
                tie[n] = key.tie;
                if (withSub) sub[n] = key.sub!;
                const s = (withSub ? sub[prevNode] : undefined) as number;
                if (prevNode !== 0 && !sortsBefore(val[prevNode], at[prevNode], tie[prevNode], s, prevNode, n))
                    throw new Error('rank index: load needs its ids in rank order');
                let p = prio[n];
                if (p === 0) p = prio[n] = priority(n);
                // Nodes of the spine with a lower priority end up in n's left subtree (complete now).
                let last = 0;
                while (spine.length > 0 && prio[spine[spine.length - 1]] < p) {
                    last = spine.pop()!;
                    size[last] = 1 + size[left[last]] + size[right[last]];
                }
                left[n] = last;
                right[n] = 0;
                if (spine.length > 0) right[spine[spine.length - 1]] = n;
                spine.push(n);
                prev[n] = prevNode;
                next[prevNode] = n;
                prevNode = n;
            }
            for (let j = spine.length - 1; j >= 0; j--) {
                const x = spine[j];
                size[x] = 1 + size[left[x]] + size[right[x]];
            }
            left[0] = spine.length > 0 ? spine[0] : 0;
            next[prevNode] = 0;
            prev[0] = prevNode;
            count = ids.length;
        },

        clear() {
            adopt(allocate(clearCapacity, withSub));
            bound = 1;
            count = 0;
        },

        toChunks() {
            return encodeSnapshot(order, count, bound, current());
        },
    };
}
