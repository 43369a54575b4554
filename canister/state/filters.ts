// A board's filter indexes (heap only, rebuilt from its entries' metadata): per declared
// metadata key and value, rank indexes over the entries with that value, in the board's own
// order and tie rule, so that a filtered read is an ordinary read of a smaller index.
import { MAX_FILTER_VALUES, MAX_FILTER_VALUE_LENGTH, filterValueOf } from '../../contract/board-options';
import { GROWTH, createRankIndex, type RankIndex } from '../domain/rank-index';
import type { BoardTable } from './tables';

/**
 * The entries of one value. A rank index's arrays are as long as its largest id, so each value
 * numbers its entries itself (KeyIndex.localOf, freed numbers reused): its memory follows its
 * own size, not the board's.
 */
interface ValueIndex {
    value: string;
    /** Its number in KeyIndex.slots. */
    no: number;
    byScore?: RankIndex;
    byStreak?: RankIndex;
    /** The value's own number -> board entry id. */
    entry: number[];
    free: number[];
    count: number;
    /** The indexes as reads see them: by board entry ids. */
    view: { byScore?: RankIndex; byStreak?: RankIndex };
}

/** One key's values. Per entry it keeps typed arrays (a Map costs several times more per entry here). */
export interface KeyIndex {
    key: string;
    /** `"key"`, and the pattern of a top-level `"key":` with a string or integer value (valueIn). */
    quoted: string;
    pattern: RegExp;
    values: Map<string, ValueIndex>;
    /** By number (at most MAX_FILTER_VALUES); undefined: free. */
    slots: Array<ValueIndex | undefined>;
    /** Board entry id -> its value's number + 1 (0: none; entries whose value found no room too). */
    valueOf: Uint8Array;
    /** Board entry id -> its number in its value. */
    localOf: Int32Array;
}

export function keyIndex(key: string): KeyIndex {
    // FILTER_KEY keeps keys to letters, digits, _ and -: nothing in them to escape in a pattern.
    const pattern = new RegExp(`[{,]"${key}":(?:"([^"]*)"|(-?[0-9]+)[,}])`);
    return {
        key,
        quoted: `"${key}"`,
        pattern,
        values: new Map(),
        slots: [],
        valueOf: new Uint8Array(16),
        localOf: new Int32Array(16),
    };
}

/** The value entry `id` is indexed under, if any. */
function valueAt(k: KeyIndex, id: number): ValueIndex | undefined {
    const no = id < k.valueOf.length ? k.valueOf[id] : 0;
    return no === 0 ? undefined : k.slots[no - 1];
}

/** Room for entry `id` in the key's per-entry arrays. */
function reach(k: KeyIndex, id: number): void {
    if (id < k.valueOf.length) return;
    const length = Math.max(id + 1, Math.ceil(k.valueOf.length * GROWTH));
    const valueOf = new Uint8Array(length);
    valueOf.set(k.valueOf);
    const localOf = new Int32Array(length);
    localOf.set(k.localOf);
    k.valueOf = valueOf;
    k.localOf = localOf;
}

/** The key's index of `value`, made when there is room (undefined past MAX_FILTER_VALUES). */
function valueIndexOf(b: BoardTable, k: KeyIndex, value: string): ValueIndex | undefined {
    let v = k.values.get(value);
    if (v !== undefined || k.values.size >= MAX_FILTER_VALUES) return v;
    const free = k.slots.indexOf(undefined);
    v = newValueIndex(b, value, free < 0 ? k.slots.length : free);
    v.view = {
        byScore: v.byScore === undefined ? undefined : byEntryIds(v.byScore, k, v),
        byStreak: v.byStreak === undefined ? undefined : byEntryIds(v.byStreak, k, v),
    };
    k.slots[v.no] = v;
    k.values.set(value, v);
    return v;
}

/** Entry `id` in value `v` as its number `local` (its keys not copied yet). */
function place(k: KeyIndex, v: ValueIndex, id: number, local: number): void {
    reach(k, id);
    k.valueOf[id] = v.no + 1;
    k.localOf[id] = local;
    v.entry[local] = id;
    v.count++;
}

/** A value's first arrays: 24 nodes (1.1 KB) each, growing by half as it fills. */
const VALUE_CAPACITY = 16;

/**
 * Declares the board's filter keys and indexes its current entries by them (a change of
 * `filters`, a new period, a restored snapshot). Per key: one pass over the entries with
 * metadata for their values (the first MAX_FILTER_VALUES values seen get an index), one walk of
 * the board in rank order, then each value's index loaded in that order (RankIndex.load: no
 * descent per entry).
 */
export function declareFilters(b: BoardTable, keys: readonly string[] | undefined): void {
    b.filters = keys === undefined || keys.length === 0 ? undefined : keys.map(keyIndex);
    if (b.filters === undefined || b.metadata === undefined) return;
    const first = (b.byScore ?? b.byStreak)!;
    const second = b.byScore === undefined ? undefined : b.byStreak;
    for (const k of b.filters) {
        reach(k, b.count);
        for (const [id, text] of b.metadata) {
            const value = valueIn(text, k);
            const v = value === undefined ? undefined : valueIndexOf(b, k, value);
            if (v !== undefined) k.valueOf[id] = v.no + 1;
        }
        // Numbered in the first index's order: there the value's own numbers come in order.
        for (const id of first.range(1, first.size())) {
            const v = valueAt(k, id);
            if (v !== undefined) place(k, v, id, v.count);
        }
        for (const v of k.values.values()) {
            const locals = v.entry.map((_, local) => local);
            (first === b.byScore ? v.byScore : v.byStreak)!.load(locals, (i) => first.keyOf(v.entry[i])!);
        }
        if (second === undefined) continue;
        const inOrder = new Map<ValueIndex, number[]>();
        for (const id of second.range(1, second.size())) {
            const v = valueAt(k, id);
            if (v === undefined) continue;
            let locals = inOrder.get(v);
            if (locals === undefined) inOrder.set(v, (locals = []));
            locals.push(k.localOf[id]);
        }
        for (const [v, locals] of inOrder) v.byStreak!.load(locals, (i) => second.keyOf(v.entry[locals[i]])!);
    }
}

/** Moves entry `id` to the values its metadata (JSON text; undefined: none) has now. */
export function indexMetadata(b: BoardTable, id: number, text: string | undefined): void {
    for (const k of b.filters!) {
        const value = text === undefined ? undefined : valueIn(text, k);
        const old = valueAt(k, id);
        if (old?.value === value) continue;
        if (old !== undefined) leave(k, id, old);
        if (value !== undefined) join(b, k, id, value);
    }
}

/** Re-keys entry `id` in its values' indexes after its bests changed (putEntry). */
export function rekeyFiltered(b: BoardTable, id: number): void {
    for (const k of b.filters!) {
        const v = valueAt(k, id);
        if (v === undefined) continue;
        copyKey(b.byScore, v.byScore, id, k.localOf[id]);
        copyKey(b.byStreak, v.byStreak, id, k.localOf[id]);
    }
}

/** Takes entry `id` out of every value (removeEntry). */
export function unindexEntry(b: BoardTable, id: number): void {
    for (const k of b.filters!) {
        const v = valueAt(k, id);
        if (v !== undefined) leave(k, id, v);
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
    return [...k.values.values()]
        .map((v) => ({ value: v.value, entries: v.count }))
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
    // Past the bound the entry stays on the board, just not under this key.
    const v = valueIndexOf(b, k, value);
    if (v === undefined) return;
    const local = v.free.pop() ?? v.entry.length;
    place(k, v, id, local);
    copyKey(b.byScore, v.byScore, id, local);
    copyKey(b.byStreak, v.byStreak, id, local);
}

function leave(k: KeyIndex, id: number, v: ValueIndex): void {
    const local = k.localOf[id];
    v.byScore?.remove(local);
    v.byStreak?.remove(local);
    v.free.push(local);
    v.count--;
    k.valueOf[id] = 0;
    // An empty value frees its place among the key's MAX_FILTER_VALUES.
    if (v.count === 0) {
        k.values.delete(v.value);
        k.slots[v.no] = undefined;
    }
}

/** The entry's key in the board's index, copied into the value's: same value, time and tie, so the same order. */
function copyKey(from: RankIndex | undefined, to: RankIndex | undefined, id: number, local: number): void {
    const key = from?.keyOf(id);
    if (key !== undefined) to!.set(local, key.value, key.at, key.tie, key.sub);
}

function newValueIndex(b: BoardTable, value: string, no: number): ValueIndex {
    const v: ValueIndex = {
        value,
        no,
        byScore:
            b.byScore === undefined ? undefined : createRankIndex(b.byScore.order, VALUE_CAPACITY, b.byScore.withSub),
        byStreak:
            b.byStreak === undefined
                ? undefined
                : createRankIndex(b.byStreak.order, VALUE_CAPACITY, b.byStreak.withSub),
        entry: [],
        free: [],
        count: 0,
        view: {},
    };
    return v;
}

/** A value's index as reads use it: board entry ids in and out; read only. */
function byEntryIds(index: RankIndex, k: KeyIndex, v: ValueIndex): RankIndex {
    const toEntries = (locals: number[]): number[] => locals.map((l) => v.entry[l]!);
    const localOf = (id: number): number | undefined => (valueAt(k, id) === v ? k.localOf[id] : undefined);
    const readOnly = (): never => {
        throw new Error('a filtered view is read only');
    };
    return {
        order: index.order,
        withSub: index.withSub,
        set: readOnly,
        remove: readOnly,
        clear: readOnly,
        load: readOnly,
        has: (id) => localOf(id) !== undefined,
        size: () => index.size(),
        keyOf: (id) => {
            const local = localOf(id);
            return local === undefined ? undefined : index.keyOf(local);
        },
        rank: (id) => {
            const local = localOf(id);
            return local === undefined ? undefined : index.rank(local);
        },
        select: (rank) => {
            const local = index.select(rank);
            return local === undefined ? undefined : v.entry[local];
        },
        atOf: (id) => {
            const local = localOf(id);
            return local === undefined ? undefined : index.atOf(local);
        },
        countBetter: (value) => index.countBetter(value),
        countAhead: (value, at) => index.countAhead(value, at),
        range: (start, count) => toEntries(index.range(start, count)),
        around: (id, before, after) => {
            const local = localOf(id);
            return local === undefined ? [] : toEntries(index.around(local, before, after));
        },
        bytes: () => index.bytes(),
        toChunks: () => index.toChunks(),
    };
}
