// A board's filter indexes (heap only, rebuilt from its entries' metadata): per declared
// metadata key and value, rank indexes over the entries with that value, in the board's own
// order and tie rule, so that a filtered read is an ordinary read of a smaller index.
import { MAX_FILTER_VALUES, MAX_FILTER_VALUE_LENGTH, filterValueOf } from '../../contract/board-options';
import { createRankIndex, type RankIndex } from '../domain/rank-index';
import type { BoardTable } from './tables';

/**
 * The entries of one value. A rank index's arrays are as long as its largest id, so each value
 * numbers its entries itself (`local`, freed numbers reused): its memory follows its own size,
 * not the board's.
 */
interface ValueIndex {
    byScore?: RankIndex;
    byStreak?: RankIndex;
    /** Board entry id -> the value's own number for it. */
    local: Map<number, number>;
    /** The value's own number -> board entry id. */
    entry: number[];
    free: number[];
    /** The indexes as reads see them: by board entry ids. */
    view: { byScore?: RankIndex; byStreak?: RankIndex };
}

export interface KeyIndex {
    key: string;
    /** `"key"`, and the pattern of a top-level `"key":` with a string or integer value (valueIn). */
    quoted: string;
    pattern: RegExp;
    values: Map<string, ValueIndex>;
    /** Board entry id -> its indexed value (entries whose value found no room are absent). */
    of: Map<number, string>;
}

export function keyIndex(key: string): KeyIndex {
    // FILTER_KEY keeps keys to letters, digits, _ and -: nothing in them to escape in a pattern.
    const pattern = new RegExp(`[{,]"${key}":(?:"([^"]*)"|(-?[0-9]+)[,}])`);
    return { key, quoted: `"${key}"`, pattern, values: new Map(), of: new Map() };
}

/** A value's first arrays: 24 nodes (1.1 KB) each, growing by half as it fills. */
const VALUE_CAPACITY = 16;

/**
 * Declares the board's filter keys and indexes its current entries by them (a change of
 * `filters`, a new period, a restored snapshot): one pass over the entries with metadata, each
 * parsed only when its text names a key.
 */
export function declareFilters(b: BoardTable, keys: readonly string[] | undefined): void {
    b.filters = keys === undefined || keys.length === 0 ? undefined : keys.map(keyIndex);
    if (b.filters !== undefined && b.metadata !== undefined)
        for (const [id, text] of b.metadata) indexMetadata(b, id, text);
}

/** Moves entry `id` to the values its metadata (JSON text; undefined: none) has now. */
export function indexMetadata(b: BoardTable, id: number, text: string | undefined): void {
    for (const k of b.filters!) {
        const value = text === undefined ? undefined : valueIn(text, k);
        const old = k.of.get(id);
        if (old === value) continue;
        if (old !== undefined) leave(k, id, old);
        if (value !== undefined) join(b, k, id, value);
    }
}

/** Re-keys entry `id` in its values' indexes after its bests changed (putEntry). */
export function rekeyFiltered(b: BoardTable, id: number): void {
    for (const k of b.filters!) {
        const value = k.of.get(id);
        if (value === undefined) continue;
        const v = k.values.get(value)!;
        const local = v.local.get(id)!;
        copyKey(b.byScore, v.byScore, id, local);
        copyKey(b.byStreak, v.byStreak, id, local);
    }
}

/** Takes entry `id` out of every value (removeEntry). */
export function unindexEntry(b: BoardTable, id: number): void {
    for (const k of b.filters!) {
        const value = k.of.get(id);
        if (value !== undefined) leave(k, id, value);
    }
}

/**
 * The board as a filtered read sees it: the same table with the value's indexes in place of
 * its own (ranks and sizes counted inside the filter); undefined when no entry has the value.
 */
export function filteredTable(b: BoardTable, key: string, value: string): BoardTable | undefined {
    const k = b.filters?.find((f) => f.key === key);
    const v = k?.values.get(value);
    if (v === undefined) return undefined;
    return { ...b, byScore: v.view.byScore, byStreak: v.view.byStreak, eventCut: undefined };
}

/** The values a key indexes with their entry counts, most entries first (the dashboard's picker). */
export function filterValues(b: BoardTable, key: string): Array<{ value: string; entries: number }> {
    const k = b.filters?.find((f) => f.key === key);
    if (k === undefined) return [];
    return [...k.values]
        .map(([value, v]) => ({ value, entries: v.local.size }))
        .sort((x, y) => y.entries - x.entries || (x.value < y.value ? -1 : 1));
}

/**
 * filterValueOf of the metadata's JSON text, mostly without parsing it (JSON.parse costs more
 * than the rest of indexing an entry here). The text is JSON.stringify's (board-options.ts
 * parseMetadata): in an object with no object inside (no `{` after the first character), `,"key":`
 * or a leading `{"key":` starts a top-level key (a `"` inside a string is always escaped), and a
 * value with no backslash reads as it is written. Anything else is parsed.
 */
export function valueIn(text: string, k: KeyIndex): string | undefined {
    if (!text.includes(k.quoted)) return undefined;
    if (text.indexOf('{', 1) < 0) {
        const found = k.pattern.exec(text);
        if (found === null) return undefined;
        const [, plain, integer] = found;
        if (plain !== undefined && !plain.includes('\\'))
            return plain.length === 0 || plain.length > MAX_FILTER_VALUE_LENGTH ? undefined : plain;
        if (integer !== undefined) return filterValueOf({ v: Number(integer) }, 'v');
    }
    return filterValueOf(JSON.parse(text), k.key);
}

function join(b: BoardTable, k: KeyIndex, id: number, value: string): void {
    let v = k.values.get(value);
    if (v === undefined) {
        // Past the bound the entry stays on the board, just not under this key.
        if (k.values.size >= MAX_FILTER_VALUES) return;
        v = newValueIndex(b);
        k.values.set(value, v);
    }
    const local = v.free.pop() ?? v.entry.length;
    v.local.set(id, local);
    v.entry[local] = id;
    k.of.set(id, value);
    copyKey(b.byScore, v.byScore, id, local);
    copyKey(b.byStreak, v.byStreak, id, local);
}

function leave(k: KeyIndex, id: number, value: string): void {
    const v = k.values.get(value)!;
    const local = v.local.get(id)!;
    v.byScore?.remove(local);
    v.byStreak?.remove(local);
    v.local.delete(id);
    v.free.push(local);
    k.of.delete(id);
    // An empty value frees its place among the key's MAX_FILTER_VALUES.
    if (v.local.size === 0) k.values.delete(value);
}

/** The entry's key in the board's index, copied into the value's: same value, time and tie, so the same order. */
function copyKey(from: RankIndex | undefined, to: RankIndex | undefined, id: number, local: number): void {
    const key = from?.keyOf(id);
    if (key !== undefined) to!.set(local, key.value, key.at, key.tie);
}

function newValueIndex(b: BoardTable): ValueIndex {
    const v: ValueIndex = {
        byScore: b.byScore === undefined ? undefined : createRankIndex(b.byScore.order, VALUE_CAPACITY),
        byStreak: b.byStreak === undefined ? undefined : createRankIndex(b.byStreak.order, VALUE_CAPACITY),
        local: new Map(),
        entry: [],
        free: [],
        view: {},
    };
    v.view = {
        byScore: v.byScore === undefined ? undefined : byEntryIds(v.byScore, v),
        byStreak: v.byStreak === undefined ? undefined : byEntryIds(v.byStreak, v),
    };
    return v;
}

/** A value's index as reads use it: board entry ids in and out; read only. */
function byEntryIds(index: RankIndex, v: ValueIndex): RankIndex {
    const toEntries = (locals: number[]): number[] => locals.map((l) => v.entry[l]!);
    const readOnly = (): never => {
        throw new Error('a filtered view is read only');
    };
    return {
        order: index.order,
        set: readOnly,
        remove: readOnly,
        clear: readOnly,
        has: (id) => v.local.has(id),
        size: () => index.size(),
        keyOf: (id) => {
            const local = v.local.get(id);
            return local === undefined ? undefined : index.keyOf(local);
        },
        rank: (id) => {
            const local = v.local.get(id);
            return local === undefined ? undefined : index.rank(local);
        },
        select: (rank) => {
            const local = index.select(rank);
            return local === undefined ? undefined : v.entry[local];
        },
        countBetter: (value) => index.countBetter(value),
        range: (start, count) => toEntries(index.range(start, count)),
        around: (id, before, after) => {
            const local = v.local.get(id);
            return local === undefined ? [] : toEntries(index.around(local, before, after));
        },
        bytes: () => index.bytes(),
        toChunks: () => index.toChunks(),
    };
}
