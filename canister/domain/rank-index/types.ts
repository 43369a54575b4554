// What a rank index offers: its order, the key it ranks by, and its operations.
export type RankOrder = 'desc' | 'asc';

export interface RankKey {
    value: number;
    at: number;
    tie: number;
    /** Only on indexes made with a fourth key field. */
    sub?: number;
}

export interface RankIndex {
    readonly order: RankOrder;
    /** Whether its key has the fourth field. */
    readonly withSub: boolean;
    /** Inserts `id` with this key, or moves it there if present (`sub`: required on indexes with it, else ignored). */
    set(id: number, value: number, at: number, tie: number, sub?: number): void;
    /** Removes `id`; false if it was absent. */
    remove(id: number): boolean;
    has(id: number): boolean;
    size(): number;
    keyOf(id: number): RankKey | undefined;
    /** The key's `at` field of `id` (undefined if absent): keyOf's without an object. */
    atOf(id: number): number | undefined;
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
    /** Like countBetter, by (value, at): entries with a better value, or the same and a smaller `at`. */
    countAhead(value: number, at: number): number;
    /** Up to `count` ids in rank order starting at `startRank` (1-based). */
    range(startRank: number, count: number): number[];
    /**
     * The ids from up to `before` ranks above `id` to up to `after` ranks below it, in rank
     * order (truncated at the ends of the board); [] if `id` is absent. The rank of the first is
     * rank(id) minus the position of `id` in the result.
     */
    around(id: number, before: number, after: number): number[];
    clear(): void;
    /**
     * Fills an empty index with ids already in rank order (`keys(i)` the key of `ids[i]`), in
     * O(n): the tree is built bottom-up as a stack of its right spine, no descent per id. The same
     * tree as inserting them one by one; throws if the index is not empty or the keys are out of order.
     */
    load(ids: readonly number[], keys: (i: number) => RankKey): void;
    /** Bytes its arrays take (their capacity, not just the entries): what it holds of the heap. */
    bytes(): number;
    /**
     * The index as bytes: a header then the arrays, each chunk at most CHUNK_BYTES. The chunks
     * are views of the index's own memory (no copy): store them before the next change, and
     * honour each view's byteOffset/byteLength.
     */
    toChunks(): Uint8Array[];
}
