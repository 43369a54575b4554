// How a board ranks, keeps, ties and shows its scores: the options, their defaults (today's
// behaviour, which the official clients rely on), their checks, and the derived values every
// host computes the same way (percentile, a score as text, entry metadata's limits).
import { parsePrizes, type PrizeRow } from './rewards';
import { invalid, type Parsed } from './rules';

/** `desc`: higher is better (default); `asc`: lower is better (times, strokes, moves). */
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** `best` keeps the best by the board's order (default); `latest` the last accepted submit; `sum` adds each up. */
export const OPERATORS = ['best', 'latest', 'sum'] as const;
export type Operator = (typeof OPERATORS)[number];

/** `distinct`: who reached a value first ranks higher (default); `shared`: equal values share a rank (1, 2, 2, 4). */
export const TIES = ['distinct', 'shared'] as const;
export type Ties = (typeof TIES)[number];

/**
 * Equal scores rank by the submits' `tiebreak` (e.g. the time taken): `asc` lower first, `desc`
 * higher first; an entry without one ranks after every entry with one. Absent (default): no
 * tiebreak, equal scores rank by `ties` alone, as always.
 */
export const TIEBREAKS = ['asc', 'desc'] as const;
export type Tiebreak = (typeof TIEBREAKS)[number];

/** How a score reads on pages and in exports; JSON values stay integers. */
export type ScoreFormat =
    | { kind: 'number' }
    /** The score is a time in milliseconds, shown m:ss.mmm (h:mm:ss.mmm past an hour). */
    | { kind: 'milliseconds' }
    /** The score is a fixed-point number with `places` decimals (1-6): 12345 with 2 reads 123.45. */
    | { kind: 'decimal'; places: number };
export const MAX_DECIMAL_PLACES = 6;

/**
 * Review of implausible scores (docs/boards.md#review-of-implausible-scores): absent (off, the
 * default) nothing changes; `flag` accepts the score as always and puts its entry in the game's
 * review queue; `hold` answers the player as always but keeps the score off the board (and out of
 * the player's public bests and the events) in the queue until the developer approves it. A score is implausible when the board has at least REVIEW.minEntries entries
 * and it beats the current first by more than `factor` (highest-first: above first x factor;
 * lowest-first: below first / factor).
 */
export const REVIEW_MODES = ['flag', 'hold'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];
export interface Review {
    mode: ReviewMode;
    factor: number;
}
/** What a create or update request may send for `review` (factor absent: the default). */
export type ReviewSetting = { mode: 'off' } | { mode: ReviewMode; factor?: number };
export const REVIEW = {
    minEntries: 20,
    factor: { default: 2, min: 1.1, max: 1000 },
    /** Flags a game's review queue keeps: a newer one pushes the oldest out (its entry stays on its board, unreviewed). */
    queue: 1000,
} as const;

export interface BoardOptions {
    sortOrder: SortOrder;
    operator: Operator;
    ties: Ties;
    format: ScoreFormat;
    /** Absent: off (every board before the option). */
    review?: Review;
    /** Metadata keys the board can be read filtered by (absent or []: none, as before). */
    filters?: string[];
    /** Absent: no tiebreak (the default, today's order). */
    tiebreak?: Tiebreak;
    /** Absent: not a league (today's behaviour); docs/leagues.md. */
    league?: League;
    /** Prizes granted at each close of a timed board (./rewards.ts; absent: none, as before). */
    prizes?: PrizeRow[];
}

export const DEFAULT_BOARD_OPTIONS: Readonly<BoardOptions> = Object.freeze({
    sortOrder: 'desc',
    operator: 'best',
    ties: 'distinct',
    format: Object.freeze({ kind: 'number' }),
});

/** What the game's standard boards (all-time, weekly, daily) follow: a game setting. */
export interface StandardBoards {
    sortOrder: SortOrder;
    operator: Operator;
}

export const DEFAULT_STANDARD_BOARDS: Readonly<StandardBoards> = Object.freeze({ sortOrder: 'desc', operator: 'best' });

/** A stored board's options with the defaults filled in (records before the options have none). */
export function optionsOf(board: Partial<BoardOptions>): BoardOptions {
    const options: BoardOptions = {
        sortOrder: board.sortOrder ?? DEFAULT_BOARD_OPTIONS.sortOrder,
        operator: board.operator ?? DEFAULT_BOARD_OPTIONS.operator,
        ties: board.ties ?? DEFAULT_BOARD_OPTIONS.ties,
        format: board.format ?? DEFAULT_BOARD_OPTIONS.format,
    };
    if (board.tiebreak !== undefined) options.tiebreak = board.tiebreak;
    return options;
}

function oneOf<T extends string>(field: string, allowed: readonly T[]): (value: unknown) => Parsed<T> {
    return (value) =>
        typeof value === 'string' && (allowed as readonly string[]).includes(value)
            ? { ok: value as T }
            : { error: invalid(field, `must be ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`) };
}

export const parseSortOrder = oneOf('sortOrder', SORT_ORDERS);
export const parseOperator = oneOf('operator', OPERATORS);
export const parseTies = oneOf('ties', TIES);
export const parseTiebreak = oneOf('tiebreak', TIEBREAKS);

export function parseFormat(value: unknown): Parsed<ScoreFormat> {
    const fail = {
        error: invalid('format', "must be { kind: 'number' | 'milliseconds' } or { kind: 'decimal', places: 1-6 }"),
    };
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail;
    const { kind, places, ...rest } = value as { kind?: unknown; places?: unknown };
    if (Object.keys(rest).length > 0) return fail;
    if ((kind === 'number' || kind === 'milliseconds') && places === undefined) return { ok: { kind } };
    if (
        kind === 'decimal' &&
        typeof places === 'number' &&
        Number.isInteger(places) &&
        places >= 1 &&
        places <= MAX_DECIMAL_PLACES
    )
        return { ok: { kind, places } };
    return fail;
}

/**
 * A board's `review` option: `{mode: 'off'}` (null: the same) turns it off (the update stores
 * it absent), `{mode: 'flag' | 'hold', factor?}` on (factor absent: REVIEW.factor.default).
 */
export function parseReview(value: unknown): Parsed<Review | null> {
    const { min, max } = REVIEW.factor;
    const fail = {
        error: invalid('review', `must be { mode: 'off' } or { mode: 'flag' | 'hold', factor?: ${min}-${max} }`),
    };
    if (value === null) return { ok: null };
    if (typeof value !== 'object' || Array.isArray(value)) return fail;
    const { mode, factor, ...rest } = value as { mode?: unknown; factor?: unknown };
    if (Object.keys(rest).length > 0) return fail;
    if (mode === 'off' && factor === undefined) return { ok: null };
    if (!(REVIEW_MODES as readonly unknown[]).includes(mode)) return fail;
    if (factor === undefined) return { ok: { mode: mode as ReviewMode, factor: REVIEW.factor.default } };
    if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < min || factor > max) return fail;
    return { ok: { mode: mode as ReviewMode, factor } };
}

/**
 * Whether a board's ranked value is implausible against its current first (REVIEW): never
 * while the board has fewer than REVIEW.minEntries entries, nor against a first of 0.
 */
export function implausible(value: number, first: number, entries: number, asc: boolean, factor: number): boolean {
    if (entries < REVIEW.minEntries || first <= 0) return false;
    return asc ? value < first / factor : value > first * factor;
}

/**
 * The options a request names (absent: unchanged); `review: null` turns review off, `league: null`
 * the league, `prizes: null` removes them.
 */
export type BoardOptionsChange = Partial<Omit<BoardOptions, 'review' | 'league' | 'prizes'>> & {
    review?: Review | null;
    league?: League | null;
    prizes?: PrizeRow[] | null;
};

/**
 * The options a create or update request names (absent fields stay absent), or the first
 * field's error. Unknown values are refused rather than defaulted.
 */
export function parseBoardOptions(request: {
    sortOrder?: unknown;
    operator?: unknown;
    ties?: unknown;
    format?: unknown;
    review?: unknown;
    filters?: unknown;
    tiebreak?: unknown;
    league?: unknown;
    prizes?: unknown;
}): Parsed<BoardOptionsChange> {
    const out: BoardOptionsChange = {};
    const fields = [
        ['sortOrder', parseSortOrder],
        ['operator', parseOperator],
        ['ties', parseTies],
        ['format', parseFormat],
        ['review', parseReview],
        ['filters', parseFilters],
        ['tiebreak', parseTiebreak],
        ['league', parseLeague],
        ['prizes', parsePrizes],
    ] as const;
    for (const [field, parse] of fields) {
        const value = request[field];
        if (value === undefined) continue;
        const parsed = parse(value);
        if ('error' in parsed) return parsed;
        (out as Record<string, unknown>)[field] = parsed.ok;
    }
    return { ok: out };
}

/**
 * How far down the board a rank is, in percent of its entries, rounded up to one decimal
 * ("top 0.1 %" for the leader of a big board, 100 for the last): (0, 100], or 0 on an empty board.
 */
export function percentile(rank: number, total: number): number {
    if (total <= 0 || rank <= 0) return 0;
    return Math.min(100, Math.ceil((1000 * rank) / total) / 10);
}

/** A score as the board's format reads it (pages, the dashboard, CSV exports). */
export function formatScore(value: number, format: ScoreFormat): string {
    switch (format.kind) {
        case 'number':
            return String(value);
        case 'milliseconds': {
            const ms = value % 1000;
            const totalSeconds = Math.floor(value / 1000);
            const s = totalSeconds % 60;
            const totalMinutes = Math.floor(totalSeconds / 60);
            const pad = (n: number, width: number): string => String(n).padStart(width, '0');
            const tail = `${pad(s, 2)}.${pad(ms, 3)}`;
            return totalMinutes < 60
                ? `${totalMinutes}:${tail}`
                : `${Math.floor(totalMinutes / 60)}:${pad(totalMinutes % 60, 2)}:${tail}`;
        }
        case 'decimal': {
            const digits = String(value).padStart(format.places + 1, '0');
            return `${digits.slice(0, -format.places)}.${digits.slice(-format.places)}`;
        }
    }
}

// ---- leagues: tiers of divisions with promotion and demotion (docs/leagues.md) ---------------------

/**
 * A board's league: each period its players play in divisions of about `divisionSize` within
 * their tier; at the close the first `promote` of each division move up a tier, the last
 * `demote` down.
 */
export interface League {
    /** Players per division (a tier's divisions hold ceil(size / 2) to size once it has that many). */
    divisionSize: number;
    /** Tier names, lowest first (tier 0 is where new players start). */
    tiers: string[];
    /** Per division, moved up a tier at the close (none out of the top tier). */
    promote: number;
    /** Per division, moved down a tier at the close (none out of the lowest tier). */
    demote: number;
}

export const LEAGUE = {
    divisionSize: { min: 10, max: 100 },
    tiers: { min: 2, max: 10 },
    tierName: { min: 1, max: 32 },
} as const;

/**
 * A board's `league` option (null: none, which an update uses to remove it), every field
 * checked together; or the whole error message.
 */
export function parseLeague(value: unknown): Parsed<League | null> {
    const { divisionSize: size, tiers: count, tierName } = LEAGUE;
    const fail = (why: string): { error: string } => ({ error: invalid('league', why) });
    if (value === null) return { ok: null };
    if (typeof value !== 'object' || Array.isArray(value))
        return fail('must be { divisionSize, tiers, promote, demote } or null');
    const { divisionSize, tiers, promote, demote, ...rest } = value as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) return fail(`has no field '${unknown[0]}' (divisionSize, tiers, promote, demote)`);
    if (!isWhole(divisionSize, size.min, size.max))
        return fail(`divisionSize must be a whole number from ${size.min} to ${size.max}`);
    if (
        !Array.isArray(tiers) ||
        tiers.length < count.min ||
        tiers.length > count.max ||
        !tiers.every(
            (t) =>
                typeof t === 'string' &&
                t.length >= tierName.min &&
                t.length <= tierName.max &&
                !/[\u0000-\u001f\u007f]/.test(t),
        )
    )
        return fail(
            `tiers must be a list of ${count.min}-${count.max} names (lowest first) of ${tierName.min}-${tierName.max} printable characters`,
        );
    if (new Set(tiers).size !== tiers.length) return fail('tiers must have different names');
    const half = Math.floor(divisionSize / 2);
    if (!isWhole(promote, 0, half)) return fail(`promote must be a whole number from 0 to ${half} (divisionSize / 2)`);
    if (!isWhole(demote, 0, half)) return fail(`demote must be a whole number from 0 to ${half} (divisionSize / 2)`);
    return { ok: { divisionSize, tiers: [...(tiers as string[])], promote, demote } };
}

function isWhole(value: unknown, min: number, max: number): value is number {
    return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

// ---- filters: a board read by one metadata value ---------------------------------------------------

/** A board declares at most this many filter keys. */
export const MAX_FILTERS = 3;
/**
 * Distinct values a filter key indexes per board period; an entry whose value comes after the
 * first this many (in the order they were first seen) stays on the board, unfiltered only.
 */
export const MAX_FILTER_VALUES = 100;
/** A value longer than this (in UTF-16 units) is not indexed. */
export const MAX_FILTER_VALUE_LENGTH = 32;
/** A filter key: a metadata key of letters, digits, `_` and `-`, 1-32 long (no `:`, which ends it in `filter=`). */
export const FILTER_KEY = /^[A-Za-z0-9_-]{1,32}$/;

/** `filters` of a board: up to MAX_FILTERS distinct keys matching FILTER_KEY (`[]` clears them). */
export function parseFilters(value: unknown): Parsed<string[]> {
    const fail = {
        error: invalid(
            'filters',
            `must be a list of at most ${MAX_FILTERS} different metadata keys of 1-32 letters, digits, _ or -`,
        ),
    };
    if (!Array.isArray(value) || value.length > MAX_FILTERS) return fail;
    if (!value.every((k) => typeof k === 'string' && FILTER_KEY.test(k))) return fail;
    if (new Set(value).size !== value.length) return fail;
    return { ok: [...(value as string[])] };
}

/**
 * The value an entry's metadata has for a filter key, as the text a filter names: a string as
 * it is, an integer as its decimal text; undefined for anything else (absent, other types, empty
 * or longer than MAX_FILTER_VALUE_LENGTH).
 */
export function filterValueOf(metadata: unknown, key: string): string | undefined {
    if (metadata === null || typeof metadata !== 'object' || !Object.prototype.hasOwnProperty.call(metadata, key))
        return undefined;
    const value = (metadata as Record<string, unknown>)[key];
    const text = typeof value === 'string' ? value : Number.isSafeInteger(value) ? String(value) : undefined;
    return text === undefined || text.length === 0 || text.length > MAX_FILTER_VALUE_LENGTH ? undefined : text;
}

/** `?filter=<key>:<value>` split at its first `:` (the key is checked against the board's filters). */
export function parseFilter(value: unknown): Parsed<{ key: string; value: string }> {
    const at = typeof value === 'string' ? value.indexOf(':') : -1;
    if (typeof value !== 'string' || at < 1 || !FILTER_KEY.test(value.slice(0, at)))
        return { error: invalid('filter', "must be <key>:<value>, a key of the board's filters and its value") };
    return { ok: { key: value.slice(0, at), value: value.slice(at + 1) } };
}

// ---- entry metadata ---------------------------------------------------------------------------

/** `metadata` on POST /scores: a JSON object of at most this many bytes serialized (UTF-8). */
export const METADATA_MAX_BYTES = 256;
/** ...nested no deeper than this: the object itself is level 1, an object or list in it level 2. */
export const METADATA_MAX_DEPTH = 2;

/** An entry's metadata: a plain JSON object (its text is what is stored). */
export type Metadata = { [key: string]: unknown };

/** undefined when `value` is acceptable metadata, else the whole error message. */
export function checkMetadata(value: unknown): string | undefined {
    const parsed = parseMetadata(value);
    return 'error' in parsed ? parsed.error : undefined;
}

/**
 * Acceptable metadata as the JSON text that is stored (and shown again as the same object), or
 * the whole error message. Besides shape and size: no key `__proto__` (it means something else
 * to many JSON readers) and no control characters (U+0000-U+001F) in keys or strings.
 */
export function parseMetadata(value: unknown): Parsed<string> {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return { error: invalid('metadata', 'must be a JSON object') };
    // The size first (the engine's own serializer): the walks below then see at most 256 bytes.
    let text: string;
    try {
        text = JSON.stringify(value);
    } catch {
        return { error: invalid('metadata', 'must be a JSON object') };
    }
    if (typeof text !== 'string') return { error: invalid('metadata', 'must be a JSON object') };
    // UTF-8 has at least a byte per UTF-16 unit: longer text is too long without a scan.
    if (text.length > METADATA_MAX_BYTES || utf8Length(text) > METADATA_MAX_BYTES)
        return { error: invalid('metadata', `must be at most ${METADATA_MAX_BYTES} bytes as JSON`) };
    if (depth(value, 1) > METADATA_MAX_DEPTH)
        return { error: invalid('metadata', `must be nested at most ${METADATA_MAX_DEPTH} levels deep`) };
    const problem = badText(value);
    if (problem !== undefined) return { error: invalid('metadata', problem) };
    return { ok: text };
}

const CONTROL = /[\u0000-\u001f]/;
const NON_ASCII = /[^\u0000-\u007f]/;

/** A key or string that metadata may not hold (depth is already checked: two levels at most). */
function badText(value: object): string | undefined {
    for (const [key, child] of Object.entries(value)) {
        if (key === '__proto__') return "must not have a key '__proto__'";
        if (CONTROL.test(key) || (typeof child === 'string' && CONTROL.test(child)))
            return 'must not contain control characters (U+0000 to U+001F)';
        if (child !== null && typeof child === 'object') {
            const inner = badText(child as object);
            if (inner !== undefined) return inner;
        }
    }
    return undefined;
}

/** The nesting depth of a JSON value, stopping as soon as it passes the limit. */
function depth(value: unknown, level: number): number {
    if (value === null || typeof value !== 'object') return level - 1;
    if (level > METADATA_MAX_DEPTH) return level;
    let deepest = level;
    for (const child of Object.values(value as object)) deepest = Math.max(deepest, depth(child, level + 1));
    return deepest;
}

function utf8Length(text: string): number {
    // ASCII text (the usual case) is as long in UTF-8; a regular expression says so without a
    // loop in JavaScript (which the canister's interpreter runs slowly per character).
    if (!NON_ASCII.test(text)) return text.length;
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x80) bytes += 1;
        else if (c < 0x800) bytes += 2;
        else if (c >= 0xd800 && c <= 0xdbff) {
            bytes += 4;
            i++;
        } else bytes += 3;
    }
    return bytes;
}

// ---- reads of a set of players --------------------------------------------------------------

/** A friends read names at most this many player ids. */
export const MAX_PLAYER_SET = 100;
/** ...in a list of at most this many, duplicates included (anything longer is refused unread). */
const MAX_PLAYER_LIST = 10 * MAX_PLAYER_SET;

/**
 * The player ids of a friends read, each once, in the order first given; or the whole error
 * message. `isId` says which ids are well formed (the hosts accept different forms).
 */
export function parsePlayerSet(value: unknown, isId: (id: string) => boolean, idRule: string): Parsed<string[]> {
    const tooMany = { error: invalid('playerIds', `may hold at most ${MAX_PLAYER_SET} different player ids`) };
    if (!Array.isArray(value)) return { error: invalid('playerIds', 'must be a list of player ids') };
    if (value.length > MAX_PLAYER_LIST) return tooMany;
    const seen = new Set<string>();
    for (let i = 0; i < value.length; i++) {
        const id: unknown = value[i];
        if (typeof id !== 'string' || !isId(id)) return { error: invalid(`playerIds[${i}]`, idRule) };
        seen.add(id);
    }
    return seen.size > MAX_PLAYER_SET ? tooMany : { ok: [...seen] };
}
