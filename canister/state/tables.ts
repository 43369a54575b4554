// The heap side of a game, in typed arrays so that reads never touch stable memory and an
// upgrade restores it from raw bytes: who plays (nickname and auth type per slot) and each
// board's current period with its rank indexes.
import type { SortBy } from '../../contract/rules';
import type { Tiebreak } from '../../contract/board-options';
import type { Best } from '../domain/bests';
import { nsJson, quoted, stringify, type Quoting } from '../domain/json';
import { GROWTH, createRankIndex, restoreRankIndex, type RankIndex, type RankOrder } from '../domain/rank-index';
import { indexMetadata, rekeyFiltered, unindexEntry, type KeyIndex } from './filters';

const NICK = 16;
/**
 * Auth types by code (a byte per player): the built-in names, then identity-provider names in
 * the order they first signed someone in; the service keeps the list in stable memory.
 */
const AUTH_TYPES = ['external', 'google', 'apple', 'oidc', 'local'];

/** Makes `name` known (appended once, at most 255 names); returns whether the list grew. */
export function registerAuthType(name: string): boolean {
    if (AUTH_TYPES.includes(name) || AUTH_TYPES.length >= 255) return false;
    AUTH_TYPES.push(name);
    authTexts = { json: authTextsIn('json'), candid: authTextsIn('candid') };
    return true;
}

export const authTypeNames = (): readonly string[] => AUTH_TYPES;

// ---- players -------------------------------------------------------------------------------

export interface PlayerTable {
    count: number;
    nick: Uint8Array; // NICK bytes per slot (nicknames are ASCII)
    nickLen: Uint8Array;
    auth: Uint8Array; // index into AUTH_TYPES
}

export function createPlayerTable(capacity = 16): PlayerTable {
    return {
        count: 0,
        nick: new Uint8Array(capacity * NICK),
        nickLen: new Uint8Array(capacity),
        auth: new Uint8Array(capacity),
    };
}

export function setPlayer(t: PlayerTable, slot: number, nickname: string, authType: string): void {
    if (slot >= t.nickLen.length) {
        const capacity = Math.max(slot + 1, Math.ceil(t.nickLen.length * GROWTH));
        t.nick = grow(t.nick, capacity * NICK);
        t.nickLen = grow(t.nickLen, capacity);
        t.auth = grow(t.auth, capacity);
    }
    const at = slot * NICK;
    const n = Math.min(nickname.length, NICK);
    for (let i = 0; i < n; i++) t.nick[at + i] = nickname.charCodeAt(i);
    t.nickLen[slot] = n;
    const code = AUTH_TYPES.indexOf(authType);
    t.auth[slot] = code < 0 ? 0 : code;
    if (slot >= t.count) t.count = slot + 1;
}

/**
 * A player's nickname: its bytes' view made with the constructor (~2 K instructions less than
 * `subarray`, which looks up the species constructor) and read as character codes; '' for a
 * slot the table does not hold (as `subarray` read it).
 */
export function nicknameOf(t: PlayerTable, slot: number): string {
    if (!(slot >= 0 && slot < t.nickLen.length)) return '';
    const bytes = new Uint8Array(t.nick.buffer, t.nick.byteOffset + slot * NICK, t.nickLen[slot]);
    return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

export function authTypeOf(t: PlayerTable, slot: number): string {
    return AUTH_TYPES[t.auth[slot]] ?? 'external';
}

/** An entry's fixed parts as JSON, and as `quoted` writes them for a Candid text literal. */
const JSON_PARTS = {
    rank: '{"rank":',
    nickname: ',"nickname":"',
    score: '","score":',
    streak: ',"streak":',
    authType: ',"authType":',
    submittedAt: ',"submittedAt":',
    metadata: ',"metadata":',
    tiebreak: ',"tiebreak":',
};
const PARTS: Record<Quoting, typeof JSON_PARTS> = {
    json: JSON_PARTS,
    candid: Object.fromEntries(
        Object.entries(JSON_PARTS).map(([name, part]) => [name, quoted(part, 'candid')]),
    ) as typeof JSON_PARTS,
};

/**
 * Per auth type, in a quoting, an entry's text from its authType field on: `end` closes the
 * entry, `tail` goes on to submittedAt's value.
 */
type AuthTexts = { end: string[]; tail: string[] };

function authTextsIn(quoting: Quoting): AuthTexts {
    const { authType, submittedAt } = PARTS[quoting];
    const names = AUTH_TYPES.map((name) => quoted(JSON.stringify(name), quoting));
    return {
        end: names.map((name) => `${authType}${name}${quoted('}', quoting)}`),
        tail: names.map((name) => `${authType}${name}${submittedAt}`),
    };
}

/** AuthTexts in each quoting, made at start and when a name is registered (a query's own would be lost). */
let authTexts: Record<Quoting, AuthTexts> = { json: authTextsIn('json'), candid: authTextsIn('candid') };

/**
 * Entries `ids` of board `b` as JSON texts, as `stringify` writes a board entry (`withTime`:
 * `{rank, nickname, score, streak, authType, submittedAt[, metadata]}`; without: the first
 * five; then `tiebreak` when the board has the option and the entry one), ranked `rankAt(id, i)`
 * or else `start + i`, written as `quoting` says (json.ts): rendered in one pass over the typed
 * arrays, several times cheaper than objects walked by JSON.stringify. Nicknames are written
 * between quotes as they are (rule N3 keeps them to [A-Za-z0-9_]) after one check of the
 * page's names; names that need escaping (written by earlier releases) are escaped.
 */
export function entryTexts(
    players: PlayerTable,
    b: BoardTable,
    ids: readonly number[],
    start: number,
    rankAt: ((id: number, i: number) => number) | undefined,
    withTime: boolean,
    quoting: Quoting = 'json',
): string[] {
    const { nick, nickLen, auth } = players;
    const [nickBuffer, nickBase] = [nick.buffer, nick.byteOffset];
    const { slot, score, streak, submittedAt, metadata } = b;
    // Only boards with the option show tiebreaks (the official clients never meet the field).
    const byTiebreak = b.tiebreak === undefined ? undefined : b.byScore;
    const tiebreakAsc = b.tiebreak === 'asc';
    const { rank: R, nickname: N, score: S, streak: K } = PARTS[quoting];
    // An unknown code reads as 'external' (code 0).
    const { end: ends, tail: tails } = authTexts[quoting];
    const n = ids.length;
    const names = new Array<string>(n);
    const texts = new Array<string>(n);
    for (let i = 0; i < n; i++) {
        const id = ids[i];
        const s = slot[id];
        const at = s * NICK;
        // nicknameOf inlined (calls cost here).
        const name = (names[i] = String.fromCharCode.apply(
            null,
            new Uint8Array(nickBuffer, nickBase + at, nickLen[s]) as unknown as number[],
        ));
        const rank = rankAt === undefined ? start + i : rankAt(id, i);
        // Submit times are positive µs: written as ns here the way nsJson writes them. Written
        // with + (a template costs ~0.5 K instructions more an entry in the canister).
        const t = submittedAt[id];
        if (!withTime) texts[i] = R + rank + N + name + S + score[id] + K + streak[id] + (ends[auth[s]] ?? ends[0]);
        else if (t > 0 && t < Infinity && (metadata === undefined || !metadata.has(id)))
            texts[i] = R + rank + N + name + S + score[id] + K + streak[id] + (tails[auth[s]] ?? tails[0]) + t + '000}';
        else {
            const meta = metadata?.get(id);
            const extra =
                meta === undefined ? '' : `${PARTS[quoting].metadata}${quoted(stringify(JSON.parse(meta)), quoting)}`;
            texts[i] =
                `${R}${rank}${N}${name}${S}${score[id]}${K}${streak[id]}${tails[auth[s]] ?? tails[0]}${nsJson(t)}${extra}}`;
        }
        if (byTiebreak !== undefined) {
            // tiebreakOf inlined (calls cost here): the index's second key field, decoded.
            const key = byTiebreak.atOf(id)!;
            if (key !== Infinity)
                texts[i] = `${texts[i].slice(0, -1)}${PARTS[quoting].tiebreak}${tiebreakAsc ? key : -key || 0}}`;
        }
    }
    const all = names.join('');
    // JSON.stringify adds only the quotes when nothing needs escaping (a regular expression costs 6x more).
    if (JSON.stringify(all).length !== all.length + 2)
        for (let i = 0; i < n; i++) {
            const escaped = quoted(JSON.stringify(names[i]).slice(1, -1), quoting);
            texts[i] = texts[i].replace(`${N}${names[i]}${S}`, () => `${N}${escaped}${S}`);
        }
    return texts;
}

// ---- a board's slot -> entry id map: one typed array of entry ids ---------------------------------

/**
 * Open addressing over the entries' own slots: a cell holds an entry id + 1 (0 = empty, -1 =
 * deleted) and its key is that entry's slot (BoardTable.slot), so a cell costs 4 bytes, not the
 * 8 of a key and a value (at most half the cells are in use: ~10 bytes less per entry).
 */
export interface SlotMap {
    cells: Int32Array;
    size: number;
    used: number; // occupied or deleted cells
}

function createSlotMap(capacity = 16): SlotMap {
    let cells = 16;
    while (cells < capacity * 2) cells *= 2;
    return { cells: new Int32Array(cells), size: 0, used: 0 };
}

/** The slot map's hash multiplier: a probe for `slot` starts at `Math.imul(slot + 1, HASH) & mask`. */
const HASH = 0x9e3779b1;

/** The cell of `slot`'s entry, or the empty cell where it would go. */
function cellOf(cells: Int32Array, slots: Int32Array, slot: number): number {
    const mask = cells.length - 1;
    let i = Math.imul(slot + 1, HASH) & mask;
    for (;;) {
        const c = cells[i];
        if (c === 0 || (c > 0 && slots[c - 1] === slot)) return i;
        i = (i + 1) & mask;
    }
}

/** The entry id of `slot` on board `b`, if it has one. */
function slotEntry(b: BoardTable, slot: number): number | undefined {
    // cellOf inlined: this runs for every board of every submit and read.
    const cells = b.bySlot.cells;
    const slots = b.slot;
    const mask = cells.length - 1;
    let i = Math.imul(slot + 1, HASH) & mask;
    for (;;) {
        const c = cells[i];
        if (c === 0) return undefined;
        if (c > 0 && slots[c - 1] === slot) return c - 1;
        i = (i + 1) & mask;
    }
}

/** Files entry `id` (whose slot is already in b.slot) under its slot. */
function fileEntry(b: BoardTable, id: number): void {
    const m = b.bySlot;
    if ((m.used + 1) * 2 > m.cells.length)
        rehash(m, b.slot, m.size * 2 > m.cells.length / 2 ? m.cells.length * 2 : m.cells.length);
    const i = cellOf(m.cells, b.slot, b.slot[id]);
    if (m.cells[i] <= 0) {
        m.size++;
        m.used++;
    }
    m.cells[i] = id + 1;
}

function unfileSlot(b: BoardTable, slot: number): void {
    const m = b.bySlot;
    const i = cellOf(m.cells, b.slot, slot);
    if (m.cells[i] <= 0) return;
    m.cells[i] = -1;
    m.size--;
}

/**
 * Moves the map's entries to `count` cells, the same cells as filing them again one by one
 * (slots are distinct: a probe stops at the first empty cell), without a call per entry (~16 K
 * instructions each in the canister: a board's map of 1,024 entries cost ~16 M to grow).
 */
function rehash(m: SlotMap, slots: Int32Array, count: number): void {
    const cells = m.cells;
    const to = new Int32Array(count);
    const mask = count - 1;
    let size = 0;
    for (let i = 0; i < cells.length; i++) {
        const c = cells[i];
        if (c > 0) {
            let j = Math.imul(slots[c - 1] + 1, HASH) & mask;
            while (to[j] !== 0) j = (j + 1) & mask;
            to[j] = c;
            size++;
        }
    }
    m.cells = to;
    m.size = size;
    m.used = size;
}

/**
 * A slot map of the snapshot layout before this one (version 2: a cell's slot + 1 and its entry
 * id, side by side): the same cells, the same positions, the entry ids alone.
 */
function slotMapOfKeysAndValues(keys: Int32Array, values: Int32Array, size: number, used: number): SlotMap {
    const cells = new Int32Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (k !== 0) cells[i] = k > 0 ? values[i] + 1 : -1;
    }
    return { cells, size, used };
}

// ---- boards --------------------------------------------------------------------------------------

/** One board's current period: an entry per player (by slot) with bests, ranked by the sort field(s). */
export interface BoardTable {
    period: number;
    count: number;
    bySlot: SlotMap;
    slot: Int32Array;
    score: Float64Array;
    streak: Float64Array;
    submittedAt: Float64Array;
    byScore?: RankIndex;
    byStreak?: RankIndex;
    /**
     * Entry metadata as JSON text, by entry id: only entries that have some, and the map only on
     * a board where one has (an entry without metadata costs nothing more). Measured in the
     * canister (test/bench/metadata.ts, 100,000 players): an entry with 64 bytes of metadata
     * costs 104 bytes more of heap and 84 more of stable memory (its text in the player record).
     */
    metadata?: Map<number, string>;
    /**
     * A board with a tiebreak (ranked by score): its score index's key is (score, the tiebreak's
     * key, time, slot) instead of (score, time, slot), in an index with a fourth field; the
     * tiebreaks live there alone (tiebreakKey). Absent: the index and its cost as always.
     */
    tiebreak?: Tiebreak;
    /**
     * Heap only (never in a snapshot): the value at rank `n` by `sortBy` when it was last looked
     * up, so that a submit whose value is strictly worse knows at one comparison that it enters
     * no top n (service/board-events.ts). Entries that move up only make the true cut better
     * (this one stays safe, just lenient); anything that can make it worse (an entry's value
     * getting worse, an entry removed) clears it.
     */
    eventCut?: EventCut;
    /**
     * Heap only (rebuilt from `metadata` on restore, never in a snapshot): the indexes of the
     * board's filter keys (filters.ts); absent on a board without filters.
     */
    filters?: KeyIndex[];
}

/** See BoardTable.eventCut. */
export interface EventCut {
    n: number;
    sortBy: SortBy;
    /** Whether lower values rank higher (the index's order). */
    asc: boolean;
    value: number;
}

/**
 * `ranks`: which fields get a rank index (the board's sort field; the global board has both).
 * `scoreOrder`: the score index's order (the board's sortOrder); streaks rank highest-first always.
 * `tiebreak`: the board's tiebreak order, if it has one (its score index then has a fourth field).
 */
export function createBoardTable(
    period: number,
    ranks: SortBy[],
    capacity = 16,
    scoreOrder: RankOrder = 'desc',
    tiebreak?: Tiebreak,
): BoardTable {
    const withTiebreak = tiebreak !== undefined && ranks.includes('score');
    const table: BoardTable = {
        period,
        count: 0,
        bySlot: createSlotMap(capacity),
        slot: new Int32Array(capacity),
        score: new Float64Array(capacity),
        streak: new Float64Array(capacity),
        submittedAt: new Float64Array(capacity),
        byScore: ranks.includes('score') ? createRankIndex(scoreOrder, undefined, withTiebreak) : undefined,
        byStreak: ranks.includes('streak') ? createRankIndex('desc') : undefined,
    };
    if (withTiebreak) table.tiebreak = tiebreak;
    return table;
}

/**
 * A tiebreak as the score index's second key field (ascending there): itself for `asc`, negated
 * for `desc`, and an absent one after every present one (Infinity). Exact for safe integers.
 */
export function tiebreakKey(order: Tiebreak, tiebreak: number | undefined): number {
    return tiebreak === undefined ? Infinity : order === 'asc' ? tiebreak : -tiebreak;
}

/** The tiebreak of entry `id` on a board with one (undefined: the entry has none). */
export function tiebreakOf(b: BoardTable, id: number): number | undefined {
    const key = b.byScore?.atOf(id);
    if (b.tiebreak === undefined || key === undefined || key === Infinity) return undefined;
    return b.tiebreak === 'asc' ? key : -key || 0;
}

export function entryOf(b: BoardTable, slot: number): number | undefined {
    return slotEntry(b, slot);
}

/** Stores a player's bests on the board and re-ranks them. */
export function putEntry(b: BoardTable, slot: number, best: Best, submittedAt: number): void {
    let id = slotEntry(b, slot);
    if (id === undefined) {
        id = b.count++;
        if (id >= b.slot.length) {
            const capacity = Math.ceil(b.slot.length * GROWTH);
            b.slot = grow(b.slot, capacity);
            b.score = grow(b.score, capacity);
            b.streak = grow(b.streak, capacity);
            b.submittedAt = grow(b.submittedAt, capacity);
        }
        b.slot[id] = slot;
        fileEntry(b, id);
    } else if (b.eventCut !== undefined) {
        const cut = b.eventCut;
        const streak = cut.sortBy === 'streak';
        const before = streak ? b.streak[id] : b.score[id];
        const after = streak ? best.streak : best.score;
        if (cut.asc ? after > before : after < before) b.eventCut = undefined;
    }
    b.score[id] = best.score;
    b.streak[id] = best.streak;
    b.submittedAt[id] = submittedAt;
    // The times a best was reached are kept only by the rank index of its field (readers show
    // values, not those times): 16 bytes less per entry. An unchanged key costs the index one
    // comparison (set), less than asking for its key first.
    if (b.byScore !== undefined)
        if (b.tiebreak === undefined) b.byScore.set(id, best.score, best.scoreAt, slot);
        else b.byScore.set(id, best.score, tiebreakKey(b.tiebreak, best.tiebreak), best.scoreAt, slot);
    if (b.byStreak !== undefined) b.byStreak.set(id, best.streak, best.streakAt, slot);
    if (b.filters !== undefined) rekeyFiltered(b, id);
}

/** Sets (or with undefined clears) the metadata of the player's entry on the board (after putEntry). */
export function setEntryMetadata(b: BoardTable, slot: number, text: string | undefined): void {
    if (text === undefined && b.metadata === undefined) return;
    const id = slotEntry(b, slot);
    if (id === undefined) return;
    // Only a board with filters looks the old text up: others cost what they did.
    const before = b.filters === undefined ? undefined : b.metadata?.get(id);
    if (text === undefined) b.metadata!.delete(id);
    else (b.metadata ??= new Map()).set(id, text);
    if (b.filters !== undefined && text !== before) indexMetadata(b, id, text);
}

/** The metadata (JSON text) of an entry, by entry id. */
export function metadataOf(b: BoardTable, id: number): string | undefined {
    return b.metadata?.get(id);
}

/** Takes a player off the board (account merges retire the anonymous player). */
export function removeEntry(b: BoardTable, slot: number): void {
    const id = slotEntry(b, slot);
    if (id === undefined) return;
    b.eventCut = undefined;
    if (b.filters !== undefined) unindexEntry(b, id);
    b.metadata?.delete(id);
    b.byScore?.remove(id);
    b.byStreak?.remove(id);
    unfileSlot(b, slot);
}

export function rankIndex(b: BoardTable, sortBy: SortBy): RankIndex {
    const index = sortBy === 'score' ? b.byScore : b.byStreak;
    if (index === undefined) throw new Error(`board has no ${sortBy} ranking`);
    return index;
}

/** Number of players ranked on the board. */
export function entryCount(b: BoardTable): number {
    return b.byScore?.size() ?? b.byStreak?.size() ?? 0;
}

// ---- snapshots ---------------------------------------------------------------------------------

const CHUNK = 1 << 20;

/** The bytes of typed arrays, cut into chunks of at most 1 MiB (one stable-map value each). */
function arraysToChunks(arrays: ArrayBufferView[]): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const a of arrays) {
        const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
        if (bytes.length === 0) out.push(new Uint8Array(0));
        for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.slice(at, Math.min(at + CHUNK, bytes.length)));
    }
    return out;
}

/** Rebuilds typed arrays of the given byte lengths from chunks made by arraysToChunks. */
function chunksToBytes(chunks: Uint8Array[], lengths: number[]): Uint8Array[] {
    const out: Uint8Array[] = [];
    let c = 0;
    for (const length of lengths) {
        const bytes = new Uint8Array(length);
        if (length === 0) c++;
        for (let at = 0; at < length; c++) {
            const chunk = chunks[c];
            if (chunk === undefined) throw new Error('snapshot is missing chunks');
            bytes.set(chunk, at);
            at += chunk.length;
        }
        out.push(bytes);
    }
    if (c !== chunks.length) throw new Error('snapshot has unexpected chunks');
    return out;
}

export interface TableImage {
    meta: unknown;
    chunks: Uint8Array[];
}

export function playerTableImage(t: PlayerTable): TableImage {
    const arrays = [t.nick, t.nickLen, t.auth];
    return { meta: { count: t.count, lengths: arrays.map((a) => a.byteLength) }, chunks: arraysToChunks(arrays) };
}

export function restorePlayerTable(image: TableImage): PlayerTable {
    const meta = image.meta as { count: number; lengths: number[] };
    const [nick, nickLen, auth] = chunksToBytes(image.chunks, meta.lengths);
    return { count: meta.count, nick, nickLen, auth };
}

/**
 * A board's metadata map as typed arrays: entry ids, where each text ends, and the texts'
 * UTF-16 code units (copied without any encoding step, which costs far more per character here).
 */
function metadataArrays(map: Map<number, string>): [Int32Array, Int32Array, Uint16Array] {
    const ids = new Int32Array(map.size);
    const ends = new Int32Array(map.size);
    let length = 0;
    for (const text of map.values()) length += text.length;
    const units = new Uint16Array(length);
    let i = 0;
    let at = 0;
    for (const [id, text] of map) {
        for (let c = 0; c < text.length; c++) units[at + c] = text.charCodeAt(c);
        at += text.length;
        ids[i] = id;
        ends[i++] = at;
    }
    return [ids, ends, units];
}

function metadataMap(ids: Int32Array, ends: Int32Array, units: Uint16Array): Map<number, string> {
    const map = new Map<number, string>();
    let from = 0;
    for (let i = 0; i < ids.length; i++) {
        map.set(ids[i], String.fromCharCode.apply(null, units.subarray(from, ends[i]) as unknown as number[]));
        from = ends[i];
    }
    return map;
}

export function boardTableImage(b: BoardTable): TableImage {
    const arrays: ArrayBufferView[] = [b.bySlot.cells, b.slot, b.score, b.streak, b.submittedAt];
    // Only boards with metadata carry these (a snapshot without them restores with none).
    if (b.metadata !== undefined && b.metadata.size > 0) arrays.push(...metadataArrays(b.metadata));
    const score = b.byScore?.toChunks() ?? [];
    const streak = b.byStreak?.toChunks() ?? [];
    return {
        meta: {
            period: b.period,
            count: b.count,
            size: b.bySlot.size,
            used: b.bySlot.used,
            lengths: arrays.map((a) => a.byteLength),
            scoreChunks: b.byScore ? score.length : -1,
            streakChunks: b.byStreak ? streak.length : -1,
        },
        chunks: [...arraysToChunks(arrays), ...score, ...streak],
    };
}

/**
 * A board table from its image; `version` the snapshot's layout (2: the slot map as keys and
 * values, read into this release's cells).
 */
export function restoreBoardTable(image: TableImage, version: number): BoardTable {
    const meta = image.meta as {
        period: number;
        count: number;
        size: number;
        used: number;
        lengths: number[];
        scoreChunks: number;
        streakChunks: number;
    };
    const ownChunks = image.chunks.length - Math.max(0, meta.scoreChunks) - Math.max(0, meta.streakChunks);
    const arrays = chunksToBytes(image.chunks.slice(0, ownChunks), meta.lengths);
    const i32 = (b: Uint8Array): Int32Array => new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    const f64 = (b: Uint8Array): Float64Array => new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
    const u16 = (b: Uint8Array): Uint16Array => new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2);
    const bySlot =
        version === 2
            ? slotMapOfKeysAndValues(i32(arrays.shift()!), i32(arrays.shift()!), meta.size, meta.used)
            : { cells: i32(arrays.shift()!), size: meta.size, used: meta.used };
    const [slot, score, streak, submittedAt, metaIds, metaEnds, metaUnits] = arrays;
    const rest = image.chunks.slice(ownChunks);
    const table: BoardTable = {
        period: meta.period,
        count: meta.count,
        bySlot,
        slot: i32(slot),
        score: f64(score),
        streak: f64(streak),
        submittedAt: f64(submittedAt),
        byScore: meta.scoreChunks >= 0 ? restoreRankIndex(rest.slice(0, meta.scoreChunks)) : undefined,
        byStreak: meta.streakChunks >= 0 ? restoreRankIndex(rest.slice(Math.max(0, meta.scoreChunks))) : undefined,
    };
    if (metaIds !== undefined) table.metadata = metadataMap(i32(metaIds), i32(metaEnds!), u16(metaUnits!));
    return table;
}

function grow<T extends Uint8Array | Int32Array | Float64Array>(a: T, length: number): T {
    const next = new (a.constructor as new (n: number) => T)(length);
    next.set(a);
    return next;
}
