// The input rules of the contract, as plain functions with no dependencies: identifiers,
// nicknames, scores, play-session tokens and the board-read query parameters. The canister
// checks its requests with them; the gateway's schemas (./schemas.ts) are built from the same
// patterns, bounds and messages, and a test holds the two to the same answers.
import { FIELD, MESSAGES } from './messages';

/** A check: undefined when the value is fine, else the whole error message. */
export type Check = (value: unknown) => string | undefined;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const GAME_ID = /^[a-z0-9-]{3,50}$/;
/** Game and board ids in URL paths (spec: Limits). */
export const PATH_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Any player id of this shape is accepted (the official SDKs make their own). */
export const PLAYER_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const ACHIEVEMENT_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
/** `key_<gameId>_<digits>`: the game id is embedded in the key. */
export const API_KEY = /^key_([a-z0-9-]{3,50})_([0-9]{16,40})$/;
/**
 * `skey_<gameId>_<43 base64url characters>` (256 random bits): a game's secret server key, sent
 * as `Authorization: Bearer <key>`. Its shape never matches API_KEY (and the reverse), so neither
 * credential is ever taken for the other.
 */
export const SERVER_KEY = /^skey_([a-z0-9-]{3,50})_([A-Za-z0-9_-]{43})$/;
export const NICKNAME = { min: 3, max: 16, characters: /^[A-Za-z0-9_]+$/ } as const;
/** Active play sessions per player and game at most (rule L2). */
export const MAX_ACTIVE_PLAY_SESSIONS = 3;
/** Play-session tokens are `ps_` + 32 hex digits; a longer one is unknown without a lookup. */
export const MAX_PLAY_SESSION_TOKEN = 100;
export const MAX_ACHIEVEMENTS_PER_CALL = 100;
/** Submits in one submit_scores call at most (the canister refuses a larger batch whole). */
export const MAX_SUBMITS_PER_CALL = 200;
/** Board reads: `?limit=` defaults to this and clamps to 1..max. */
export const LIMIT = { default: 100, max: 1000 } as const;
export const SORTS = ['score', 'streak'] as const;
export type SortBy = (typeof SORTS)[number];

/** The boards every game has; submits without scoreboardId fan out to them. */
export const FANOUT_BOARDS = ['all-time', 'weekly', 'daily'] as const;

/**
 * Old ids of standard boards that an official SDK still reads (the Godot 4 SDK's
 * get_alltime_leaderboard and get_weekly_leaderboard): a read of a game without a board of that
 * id reads the board named here (rule R3).
 */
export const OLD_BOARD_IDS: ReadonlyMap<string, string> = new Map([
    ['all-time-new', 'all-time'],
    ['weekly-scoreboard', 'weekly'],
]);

/** A check that a value is a string matching `pattern`, with the field's message when it is not. */
function matching(field: keyof typeof FIELD, pattern: RegExp): Check {
    return (value) => (typeof value === 'string' && pattern.test(value) ? undefined : invalid(field, FIELD[field]));
}

/** `Invalid <field>: <problem>`: how every field error reads, on every host. */
export function invalid(field: string, problem: string): string {
    return `Invalid ${field}: ${problem}`;
}

export const checkGameId = matching('gameId', GAME_ID);
export const checkBoardId = matching('scoreboardId', PATH_ID);
export const checkPlayerId = matching('playerId', PLAYER_ID);
export const checkAchievementId = matching('achievementId', ACHIEVEMENT_ID);

/** Rule N3's wording; nicknames are 3-16 of A-Z a-z 0-9 _. */
export function checkNickname(value: unknown): string | undefined {
    if (typeof value !== 'string') return MESSAGES.nicknameNotText;
    if (value.length < NICKNAME.min) return MESSAGES.nicknameTooShort;
    if (value.length > NICKNAME.max) return MESSAGES.nicknameTooLong;
    if (!NICKNAME.characters.test(value)) return MESSAGES.nicknameCharacters;
    return undefined;
}

/** Scores and streaks: non-negative integers a double holds exactly (Godot and JSON parse numbers as doubles). */
export function checkCount(field: 'score' | 'streak' | string, value: unknown): string | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SAFE)
        return invalid(field, FIELD.count);
    return undefined;
}

/** A game or board id in a URL path (400 before anything is looked up). */
export function checkPathId(name: string, value: string): string | undefined {
    return PATH_ID.test(value) ? undefined : `Invalid ${name} in path: must match ${PATH_ID.source}`;
}

/** The game a key belongs to (the id is embedded in the key), or undefined for a malformed key. */
export function gameOfApiKey(key: string): string | undefined {
    return API_KEY.exec(key)?.[1];
}

/** The game a server key belongs to, or undefined for a malformed key. */
export function gameOfServerKey(key: string): string | undefined {
    return SERVER_KEY.exec(key)?.[1];
}

export function isFanout(boardId: string): boolean {
    return (FANOUT_BOARDS as readonly string[]).includes(boardId);
}

// ---- query parameters of board reads -----------------------------------------------------------------

/** A query string as its parameters, each with every value given (`a=1&a=2` -> a: ['1', '2']). */
export function parseQuery(search: string): Map<string, string[]> {
    const params = new Map<string, string[]>();
    for (const pair of search.split('&')) {
        if (pair === '') continue;
        const eq = pair.indexOf('=');
        const key = decode(eq < 0 ? pair : pair.slice(0, eq));
        const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
        params.set(key, [...(params.get(key) ?? []), value]);
    }
    return params;
}

function decode(part: string): string {
    try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
        return part;
    }
}

export type Parsed<T> = { ok: T } | { error: string };

/**
 * The one value of a query parameter: absent (or empty) is undefined; given twice, or in the
 * `name[]` form some clients use for lists, it is an error rather than silently ignored.
 */
function single(params: Map<string, string[]>, name: string): Parsed<string | undefined> {
    if (params.has(`${name}[]`)) return { error: invalid(name, 'give it once, as a plain value') };
    const values = params.get(name) ?? [];
    if (values.length > 1) return { error: invalid(name, 'give it once, as a plain value') };
    return { ok: values[0] === '' ? undefined : values[0] };
}

/** `?limit=`: absent gives the default; integers clamp to 1..1000; anything else is an error. */
export function parseLimit(params: Map<string, string[]>): Parsed<number> {
    const value = single(params, 'limit');
    if ('error' in value) return value;
    if (value.ok === undefined) return { ok: LIMIT.default };
    if (!/^-?[0-9]+$/.test(value.ok)) return { error: invalid('limit', 'must be an integer') };
    return { ok: Math.max(1, Math.min(LIMIT.max, Number(value.ok))) };
}

/** `?offset=` of a board read: entries to skip from the top (0 when absent); pages through a board of any size. */
export const MAX_OFFSET = 1_000_000_000;
export function parseOffset(params: Map<string, string[]>): Parsed<number> {
    const value = single(params, 'offset');
    if ('error' in value) return value;
    if (value.ok === undefined) return { ok: 0 };
    if (!/^[0-9]+$/.test(value.ok) || Number(value.ok) > MAX_OFFSET)
        return { error: invalid('offset', `must be an integer from 0 to ${MAX_OFFSET}`) };
    return { ok: Number(value.ok) };
}

/** Around-me windows: how many entries above and below the player, 5 by default, at most 50. */
export const AROUND = { default: 5, max: 50 } as const;

/** `?before=` or `?after=` of an around-me read: an integer 0..50 (absent: 5). */
export function parseWindow(params: Map<string, string[]>, name: 'before' | 'after'): Parsed<number> {
    const value = single(params, name);
    if ('error' in value) return value;
    if (value.ok === undefined) return { ok: AROUND.default };
    if (!/^[0-9]+$/.test(value.ok) || Number(value.ok) > AROUND.max)
        return { error: invalid(name, `must be an integer from 0 to ${AROUND.max}`) };
    return { ok: Number(value.ok) };
}

/** `?playerId=` of a read by API key. */
export function parsePlayerId(params: Map<string, string[]>): Parsed<string> {
    const value = single(params, 'playerId');
    if ('error' in value) return value;
    if (value.ok === undefined) return { error: invalid('playerId', 'is required') };
    const error = checkPlayerId(value.ok);
    return error === undefined ? { ok: value.ok } : { error };
}

/** `?sort=`: score (the default) or streak. */
export function parseSort(params: Map<string, string[]>): Parsed<SortBy> {
    const value = single(params, 'sort');
    if ('error' in value) return value;
    if (value.ok === undefined) return { ok: 'score' };
    return (SORTS as readonly string[]).includes(value.ok)
        ? { ok: value.ok as SortBy }
        : { error: invalid('sort', 'must be score or streak') };
}

/** A limit given to a canister method directly: a number clamps to 1..1000; absent gives `fallback`. */
export function clampLimit(limit: unknown, fallback: number = LIMIT.default): number {
    if (typeof limit !== 'number' || !Number.isFinite(limit)) return fallback;
    return Math.max(1, Math.min(LIMIT.max, Math.floor(limit)));
}

/** A yes/no query parameter (`?percentile=true`): `true` or `false`, absent is false. */
/** `?filter=` of a board read: absent, or the text the canister splits into key and value. */
export function parseFilterParam(params: Map<string, string[]>): Parsed<string | undefined> {
    return single(params, 'filter');
}

export function parseFlag(params: Map<string, string[]>, name: string): Parsed<boolean> {
    const value = single(params, name);
    if ('error' in value) return value;
    if (value.ok === undefined || value.ok === 'false') return { ok: false };
    if (value.ok === 'true') return { ok: true };
    return { error: invalid(name, 'must be true or false') };
}
