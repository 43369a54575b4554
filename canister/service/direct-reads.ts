// Direct reads at {canister_url}, served from a certified snapshot (HTTP certification v2).
//
// Only what someone reads is rendered. A path's first read on the certifying domain (a query)
// asks for the upgrade to an update call, which renders that one response, answers it and keeps
// it certified: later reads are queries answered from the stored bytes with an IC-Certificate
// header (the data certificate and a witness of the response's leaf). Writes only mark games
// dirty (markDirty); a rendered game is rendered again at most once per window
// (DIRECT_READ_WINDOW_SECONDS), and then only its paths read in the last WATCH_MICROS: others
// leave the tree and their next read upgrades again. Besides:
// - a board path with a query not kept ahead (another limit, an offset page, an archive by id):
//   rendered on demand by the update, kept (up to ON_DEMAND_MAX of them) until its game changes;
// - upgrades are counted, and past UPGRADES_PER_GAME_PER_MINUTE / UPGRADES_PER_MINUTE the query
//   answers itself: the path's busy answer (429, certified for any query of the path, request
//   not certified), or live under the skip expression where the path has no certified answer;
// - unknown paths, bad ids, missing boards, a player's around-me window: answered at once,
//   deliberately uncertified under the root wildcard's no-certification expression, which the
//   witness proves is the most specific path the tree has for them;
// - the raw domain (`<id>.raw.icp0.io`), which no HTTP gateway verifies: answered live by the
//   query, free on the IC, and never upgraded or rendered;
// - a path of a game that lives on another canister (a directory's shard): a 302 to the same
//   path at that canister, in the form the request came in with (domain/canister-url.ts). Its
//   first read per path, certified query and address is an update that certifies it like a
//   render (the Location names the path, so no one answer covers a game's prefix); later reads
//   are queries answered from the tree. Around-me and odd queries redirect uncertified, like
//   their answers; the raw domain redirects live.
// No azle import: the canister passes in what the IC gives (the data certificate).
import { boardRead, findBoardPath, type BoardRead } from '../../contract/board-paths';
import {
    API_HEADERS,
    DIRECT_READ_CACHE_CONTROL,
    DIRECT_READ_EXPOSE_HEADERS,
    DIRECT_READ_WINDOW_SECONDS,
} from '../../contract/http';
import { gameReadsElsewhere, unknownEndpoint } from '../../contract/messages';
import { checkPathId, parseFlag, parsePlayerId, parseQuery, parseWindow } from '../../contract/rules';
import type { Board } from '../../contract/schemas';
import {
    EXACT,
    EXPRESSION_HEADER,
    FULL_EXPRESSION,
    PATH_PREFIX,
    RESPONSE_ONLY_EXPRESSION,
    SKIP_EXPRESSION,
    SKIP_TREE_PATH,
    certificateHeader,
    certifiedQuery,
    REDIRECT_EXPRESSION,
    mapHashOfPairs,
    mapPair,
    redirectRequestHash,
    redirectTreePath,
    pathKeys,
    queryOf,
    requestHash,
    responseHash,
    responseHeadersHash,
    responseOnlyTreePath,
    responseTreePath,
    skipWitnessPaths,
    utf8,
} from '../domain/certification/http';
import { Sha256, sha256 } from '../domain/certification/sha256';
import {
    keysOf,
    newLeaf,
    newLevel,
    nodeDigest,
    removeAt,
    setAt,
    witness,
    type Digest,
    type Level,
} from '../domain/certification/hash-tree';
import { canisterAddress, carriedQuery, urlAt } from '../domain/canister-url';
import { knownTexts, type HeaderValue } from '../domain/http-response';
import { stringify } from '../domain/json';
import type { Ctx } from '../state/context';
import { Fail } from '../domain/fail';
import * as reads from './reads';

/**
 * The `limit`s of a board read rendered ahead of time (besides none, which is 100), also for the
 * latest archive. Not 1,000: SHA-256 costs ~1 M instructions per 64 bytes here, so keeping a
 * ~110 KB top 1,000 certified would cost ~1.7 B instructions per board per change; it is
 * rendered on demand instead, like any other limit.
 */
export const CERTIFIED_LIMITS = [10, 25, 50, 100] as const;
/** Responses rendered on demand (upgrade to update) kept certified at once, across all games. */
export const ON_DEMAND_MAX = 256;
/**
 * Instructions that renders started by updates (a game's first direct read, another limit, a
 * page) may spend per minute, service-wide. Anyone can ask for an upgrade with a new
 * `limit`/`offset` or game; past this the update answers live without rendering or certifying,
 * so a flood of distinct queries costs the canister reads, never unbounded hashing.
 */
export const ON_DEMAND_BUDGET_PER_MINUTE = 5_000_000_000;
/**
 * Reads upgraded to an update call (http_request_update) per minute: for one game, and across
 * the service. Every upgrade is an update, executed in turn with the writes of every game
 * (~40 ms each for a top 1,000 on the local replica; on the IC a consensus round paid from the
 * canister's cycles), so 200 distinct `?offset=` reads pushed another game's submits from 17 to
 * 486 ms. Past a bound the query (which cannot count: the updates keep the counts, the query
 * reads them with the time) answers itself instead of asking for the upgrade: live and
 * deliberately uncertified where no answer of the path is certified (a game nobody reads
 * directly yet), else the path's certified busy answer (429, `retry-after: 60`).
 * 20 a game: kept answers (ON_DEMAND_MAX) serve every repeat, so only new limits and pages
 * upgrade, and a game's readers rarely ask for 20 new ones a minute. 60 in all: at ~40 ms
 * each at most ~2.4 s of update time a minute (4%) goes to upgraded reads, whatever anyone
 * asks for, and three games at their bound still leave room for a fourth game's first read.
 */
export const UPGRADES_PER_GAME_PER_MINUTE = 20;
export const UPGRADES_PER_MINUTE = 60;
/**
 * A response rendered for a read stays rendered this long (µs) after the update that rendered it:
 * its game's changes re-render it until then; a change after that drops it from the tree, and
 * its next read upgrades and renders it again. Queries cannot write, so only updates can tell
 * that a path is still read: this many µs between them at most, per path read.
 */
export const WATCH_MICROS = 10 * 60 * 1_000_000;
/**
 * Certified redirects kept at once (path, certified query and address each), across all games:
 * the oldest leaves past it (its next read upgrades again). A redirect never changes while its
 * game stays where it is, so nothing renders it again; ~300 bytes of heap each.
 */
export const REDIRECTS_MAX = 4096;
/**
 * A redirect to a game's own canister: temporary (a game may move again), GET and HEAD only. 302,
 * not 307: the two mean the same for a GET, but Godot's HTTPRequest follows only 301 and 302
 * (a 307 reaches the game as its answer), while UnityWebRequest, browsers and fetch follow both.
 */
export const REDIRECT_STATUS = 302;

export interface HttpAnswer {
    status: number;
    headers: Array<[string, HeaderValue]>;
    body: Uint8Array;
    /** Ask the HTTP gateway to call http_request_update instead. */
    upgrade?: true;
}

interface Stored {
    status: number;
    headers: Array<[string, string]>;
    /** The body is `bytes[0..end)` followed by `tail`: the limits of one board share one buffer. */
    bytes: Uint8Array;
    end: number;
    tail: Uint8Array;
    /** Its leaf in the tree. */
    leaf: string[];
    /** Rendered on demand (a page, another limit): dropped when its game changes, not rendered again. */
    onDemand: boolean;
    /** Until when (µs) its game's changes render it again (a read's update sets it; see WATCH_MICROS). */
    until: number;
    /** The JSON text of an answer rendered ahead that is not a board's period: unchanged text is not hashed again. */
    text?: string;
}

/** What the last render of a board kept, so an unchanged top is not hashed again. */
interface BoardRender {
    head: string;
    entries: string[];
    /** Hasher state after the head and the first n entries, by n. */
    states: Map<number, Sha256>;
}

const BASE_HEADERS: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ...Object.entries(API_HEADERS).map(([k, v]): [string, string] => [k.toLowerCase(), v]),
    ['access-control-expose-headers', DIRECT_READ_EXPOSE_HEADERS],
];

knownTexts([
    ...BASE_HEADERS.flat(),
    'cache-control',
    DIRECT_READ_CACHE_CONTROL,
    'no-store',
    'retry-after',
    '60',
    EXPRESSION_HEADER,
    FULL_EXPRESSION,
    RESPONSE_ONLY_EXPRESSION,
    SKIP_EXPRESSION,
    REDIRECT_EXPRESSION,
    'ic-certificate',
    'location',
]);

function headersFor(status: number, expression: string): Array<[string, string]> {
    return [
        ...BASE_HEADERS,
        ['cache-control', status === 200 ? DIRECT_READ_CACHE_CONTROL : 'no-store'],
        [EXPRESSION_HEADER, expression],
    ];
}

/** The game a direct-read path names (`/games/<g>/...`, `/archives/<g>:...`), if any. */
function gameIdOf(path: readonly string[] | undefined): string | undefined {
    if (path?.[0] === 'games') return path[1];
    if (path?.[0] === 'archives') return path[1]?.split(':')[0];
    return undefined;
}

/** Hashes of the headers by status (they depend on nothing else). */
const headerHashes = new Map<number, Digest>();
function headersHash(status: number): Digest {
    let h = headerHashes.get(status);
    if (h === undefined)
        headerHashes.set(status, (h = responseHeadersHash(status, headersFor(status, FULL_EXPRESSION))));
    return h;
}

/** Request hashes of the queries rendered ahead (others, rendered on demand, are hashed each time: no unbounded cache). */
const requestHashes = new Map<string, Digest>();
function getRequestHash(query: string): Digest {
    let h = requestHashes.get(query);
    if (h !== undefined) return h;
    h = requestHash('GET', query);
    if (query === '' || CERTIFIED_LIMITS.some((l) => query === `limit=${l}`)) requestHashes.set(query, h);
    return h;
}

const EMPTY = new Uint8Array(0);

/** UTF-8 of a string in JavaScript: a per-character loop (the canister passes a native one to createDirectReads). */
function jsUtf8(text: string): Uint8Array {
    return utf8(text);
}

/** How text becomes bytes (set by createDirectReads). */
let ascii: (text: string) => Uint8Array = jsUtf8;

const envelope = (data: unknown): string => stringify({ ok: true, data });
const failure = (message: string): string => stringify({ ok: false, error: message });

/** The answer of a path past the upgrade bounds: one per path, certified for any query of it. */
const BUSY_STATUS = 429;
const BUSY_HEADERS: Array<[string, string]> = [
    ...headersFor(BUSY_STATUS, RESPONSE_ONLY_EXPRESSION),
    ['retry-after', '60'],
];
const BUSY_TEXT = failure(
    'Too many direct reads of answers not rendered ahead (other limits, pages) this minute: retry in a minute, or read through the API',
);
let busy: { bytes: Uint8Array; hash: Digest } | undefined;
function busyResponse(): { bytes: Uint8Array; hash: Digest } {
    if (busy === undefined) {
        const bytes = ascii(BUSY_TEXT);
        busy = { bytes, hash: responseHash(responseHeadersHash(BUSY_STATUS, BUSY_HEADERS), sha256(bytes)) };
    }
    return busy;
}

// ---- reading a path live (the same answers as the gateway's) --------------------------------------------

function runRead(ctx: Ctx, read: BoardRead): unknown {
    switch (read.method) {
        case 'list_boards':
            return reads.listBoards(ctx, read.request);
        case 'read_board':
            return reads.readBoard(ctx, read.request);
        case 'list_archives':
            return reads.listArchives(ctx, read.request);
        case 'read_archive':
            return reads.readArchive(ctx, read.request);
        case 'archive_stats':
            return reads.archiveStats(ctx, read.request);
    }
}

const AROUND_PATH = /^\/games\/([^/]*)\/scoreboards\/([^/]*)\/around\/?$/;

/** Around-me, by ?playerId=: depends on the player, so it is served uncertified. */
function aroundAnswer(ctx: Ctx, match: RegExpExecArray, query: string): { status: number; text: string } {
    const bad = aroundError(match, query);
    if (bad !== undefined) return { status: 400, text: failure(bad) };
    const gameId = decode(match[1]);
    const boardId = decode(match[2]);
    const params = parseQuery(query);
    const playerId = (parsePlayerId(params) as { ok: string }).ok;
    const before = (parseWindow(params, 'before') as { ok: number }).ok;
    const after = (parseWindow(params, 'after') as { ok: number }).ok;
    const percentile = (parseFlag(params, 'percentile') as { ok: boolean }).ok;
    return {
        status: 200,
        text: envelope(reads.around(ctx, { gameId, boardId, playerId, before, after, percentile })),
    };
}

function decode(s: string): string {
    try {
        return decodeURIComponent(s);
    } catch {
        return s;
    }
}

/** What is wrong with an around-me read's ids or query, if anything (its 400). */
function aroundError(match: RegExpExecArray, query: string): string | undefined {
    const gameId = decode(match[1]);
    const boardId = decode(match[2]);
    return (
        checkPathId('gameId', gameId) ??
        checkPathId('scoreboardId', boardId) ??
        ((): string | undefined => {
            const params = parseQuery(query);
            for (const p of [
                parsePlayerId(params),
                parseWindow(params, 'before'),
                parseWindow(params, 'after'),
                parseFlag(params, 'percentile'),
            ])
                if ('error' in p) return p.error;
            return undefined;
        })()
    );
}

/** The answer to a request as the gateway would give it (status and JSON text), computed now. */
export function liveAnswer(ctx: Ctx, method: string, url: string): { status: number; text: string } {
    const query = queryOf(url);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    try {
        if (method === 'OPTIONS') return { status: 200, text: '{}' };
        if (method !== 'GET' && method !== 'HEAD')
            return { status: 405, text: failure(`Only GET is served here; writes go to the API: ${method} ${path}`) };
        const around = AROUND_PATH.exec(path);
        if (around !== null) return aroundAnswer(ctx, around, query);
        const found = findBoardPath(path);
        if (found === undefined) return { status: 404, text: failure(unknownEndpoint(method, path)) };
        const read = boardRead(found.entry, found.params, query);
        if ('error' in read) return { status: read.error.status, text: failure(read.error.message) };
        return { status: 200, text: envelope(runRead(ctx, read.ok.read)) };
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        return { status: e.status, text: failure(e.message) };
    }
}

/** The read a board path asks for with this query, as a comparable key (or the 400 it gets). */
function readKey(path: string, query: string): string | undefined {
    const found = findBoardPath(path);
    if (found === undefined) return undefined;
    return JSON.stringify(boardRead(found.entry, found.params, query));
}

// ---- games on other canisters ---------------------------------------------------------------------------

/** A path of keys (decoded segments, a last '' for a trailing `/`) as the path a board read matches. */
const canonicalPath = (path: readonly string[]): string => `/${path.map((k) => encodeURIComponent(k)).join('/')}`;

/** Printable ASCII: the only keys a redirect's path may have (ids are ASCII; anything else stays here). */
const PRINTABLE = /^[\x21-\x7e]*$/;

/**
 * Whether a path and query are a direct read the game's canister serves with valid ids and
 * query (a board path, around-me): only those redirect; the rest is answered here as before.
 */
function servedElsewhere(path: readonly string[], query: string): boolean {
    if (!path.every((k) => PRINTABLE.test(k))) return false;
    const canon = canonicalPath(path);
    const around = AROUND_PATH.exec(canon);
    if (around !== null) return aroundError(around, query) === undefined;
    const found = findBoardPath(canon);
    return found !== undefined && !('error' in boardRead(found.entry, found.params, query));
}

/**
 * The certified query of a redirected board read whose whole query reads the same (the Location
 * then carries just it), or undefined: around-me and odd queries redirect uncertified.
 */
function redirectQuery(path: readonly string[], url: string): string | undefined {
    const canon = canonicalPath(path);
    const full = queryOf(url);
    const query = certifiedQuery(full);
    const key = readKey(canon, query);
    if (key === undefined || (query !== full && readKey(canon, full) !== key)) return undefined;
    return query;
}

function redirectHeaders(location: string, expression: string): Array<[string, string]> {
    return [
        ...BASE_HEADERS,
        ['cache-control', DIRECT_READ_CACHE_CONTROL],
        ['location', location],
        [EXPRESSION_HEADER, expression],
    ];
}

/** The map-hash pairs of a certified redirect's status and headers but its Location: hashed once. */
let redirectPairs: Uint8Array[] | undefined;

/** responseHeadersHash of a certified redirect (its headers under the full expression), hashing only the Location anew. */
function redirectHeadersHash(location: string): Digest {
    redirectPairs ??= [
        ...redirectHeaders('', REDIRECT_EXPRESSION)
            .filter(([name]) => name !== 'location')
            .map(([name, value]) => mapPair(name.toLowerCase(), value)),
        mapPair(':ic-cert-status', REDIRECT_STATUS),
    ];
    return mapHashOfPairs([...redirectPairs, mapPair('location', location)]);
}

/** A redirect's body: one text for all (the Location says where), so a certified one hashes it once. */
let redirectBytes: { bytes: Uint8Array; hash: Digest } | undefined;
function redirectBody(): { bytes: Uint8Array; hash: Digest } {
    if (redirectBytes === undefined) {
        const bytes = ascii(failure(gameReadsElsewhere));
        redirectBytes = { bytes, hash: sha256(bytes) };
    }
    return redirectBytes;
}

/** A redirect answered live (the raw domain, uncertified paths, an update past the bounds). */
function liveRedirect(location: string): HttpAnswer {
    return {
        status: REDIRECT_STATUS,
        headers: redirectHeaders(location, SKIP_EXPRESSION),
        body: redirectBody().bytes,
    };
}

/** What a certified redirect is kept by: the request's Host (certified with it) and certified query. */
const redirectKey = (host: string | undefined, query: string): string => `${host ?? ''}?${query}`;

// ---- the snapshot ---------------------------------------------------------------------------------------

/** What changed in a game, as its direct reads see it: a type, so that no board id can pose as a marker. */
export type Change = { kind: 'all' } | { kind: 'fanout' } | { kind: 'board'; boardId: string };

/** What changed in a game since its last render. */
interface Dirty {
    /** Anything (settings, boards, archives, names): every rendered path of the game. */
    all: boolean;
    /** A fan-out submit: the boards that are not targeted. */
    fanout: boolean;
    boards: Set<string>;
}

export interface DirectReads {
    /**
     * Something of the game changed. Returns when (µs) the next render of it is due, or undefined
     * when nothing of the game is rendered (nothing to do).
     */
    markDirty(ctx: Ctx, gameId: string, change: Change): number | undefined;
    /** Every rendered game changed (a rollover, an upgrade); when the next render is due, if any. */
    markAllDirty(ctx: Ctx): number | undefined;
    /**
     * Renders the dirty games whose window has passed until `stop()` says the budget is spent;
     * `changed` when the tree changed, and when the next render is due (undefined: nothing waits).
     */
    renderDirty(ctx: Ctx, stop: () => boolean): { changed: boolean; nextDue: number | undefined };
    pending(): number;
    /** The certified data: the tree's root hash. */
    rootHash(): Uint8Array;
    /**
     * http_request (a query). `certificate`: the data certificate, when the IC gives one. `raw`:
     * the request came on the raw domain, which no HTTP gateway verifies: answered live, never upgraded.
     * `host`: the request's Host header (a redirect's Location keeps its form).
     */
    serve(
        ctx: Ctx,
        method: string,
        url: string,
        certificate: Uint8Array | undefined,
        raw?: boolean,
        host?: string,
    ): HttpAnswer;
    /**
     * http_request_update: the answer, rendered and kept certified when it can be; true in
     * `changed` when the tree changed. `host`: the request's Host (a redirect's Location keeps its form).
     */
    serveUpdate(
        ctx: Ctx,
        method: string,
        url: string,
        raw?: boolean,
        host?: string,
    ): { answer: HttpAnswer; changed: boolean };
}

/**
 * The raw domain of a canister (`<id>.raw.icp0.io`, locally `<id>.raw.localhost`): the IC's HTTP
 * gateways pass its responses through unverified, so certifying them would buy nothing.
 */
export function isRawHost(host: string): boolean {
    return host.toLowerCase().split('.')[1] === 'raw';
}

/** The board a path is under (`games/<g>/scoreboards/<b>/...`), if any. */
function boardOf(path: readonly string[]): string | undefined {
    return path[0] === 'games' && path[2] === 'scoreboards' && path[3] !== '' ? path[3] : undefined;
}
const isBoardPath = (path: readonly string[]): boolean => path.length === 4 && boardOf(path) !== undefined;

/**
 * Whether a change moves what a path answers: a path under no board (the board list, counts of
 * every board) with any change; a board's paths with a change of the whole game or of that
 * board; its current period also with a fan-out submit (its archives do not change then).
 */
function touches(
    path: readonly string[],
    what: Dirty,
    board: { scoreboardId: string; targeted: boolean } | undefined,
): boolean {
    if (boardOf(path) === undefined) return true;
    // The board the path reads: its own id, or the board an old id stands for (R3).
    if (what.all || board === undefined || what.boards.has(board.scoreboardId)) return true;
    return what.fanout && !board.targeted && path[4] !== 'archives';
}

/** A query a path is rendered ahead for (kept certified while read); any other is rendered on demand. */
function aheadQuery(path: readonly string[], query: string): boolean {
    if (query === '') return true;
    const limited = isBoardPath(path) || (path.length === 6 && boardOf(path) !== undefined && path[5] === 'latest');
    return limited && CERTIFIED_LIMITS.some((l) => query === `limit=${l}`);
}

const urlOf = (path: readonly string[], query: string): string =>
    `/${path.join('/')}${query === '' ? '' : '?'}${query}`;

/**
 * `encode`: UTF-8 of a string; the canister passes its native codec (a JavaScript loop costs
 * thousands of instructions per character in QuickJS).
 */
export function createDirectReads(
    encode: (text: string) => Uint8Array = jsUtf8,
    instructions: () => number = () => 0,
    locate: (ctx: Ctx, gameId: string) => string | undefined = () => undefined,
): DirectReads {
    ascii = encode;
    const tree: Level = newLevel();
    setAt(tree, [...SKIP_TREE_PATH], newLeaf(EMPTY));
    /** pathKey (segments joined by '/') -> certified query -> response. */
    const responses = new Map<string, Map<string, Stored>>();
    /** The path keys each game has responses under: a game without any is not rendered at all. */
    const gamePaths = new Map<string, Set<string>>();
    const renders = new Map<string, BoardRender>();
    const dirty = new Map<string, Dirty>();
    /** When each rendered game was last rendered (µs): at most once per window. */
    const lastRender = new Map<string, number>();
    /** On-demand responses, oldest first: `${pathKey}?${query}` -> game, and whether it never changes (an archive by id). */
    const onDemand = new Map<string, { gameId: string; fixed: boolean }>();
    let spentThisMinute = { minute: 0, instructions: 0 };
    /** Certified redirects: pathKey -> redirectKey (Host and certified query) -> the answer. */
    const redirects = new Map<string, Map<string, Stored>>();
    /** The certified redirects of each game, oldest first (`${pathKey}\n${redirectKey}`), with the canister they name. */
    const redirectsOf = new Map<string, { target: string; keys: Set<string> }>();
    /** Every certified redirect, oldest first: `${pathKey}\n${redirectKey}` -> its game. */
    const redirectOrder = new Map<string, string>();

    /** Upgraded reads this minute (counted by the updates; the query reads them), in all and by game. */
    let upgrades = { minute: -1, total: 0, byGame: new Map<string, number>() };
    const minuteOf = (ctx: Ctx): number => Math.floor(ctx.env.now() / 60_000_000);

    /** Whether the query may still ask for an upgrade of a read of `gameId` this minute. */
    function upgradeAllowed(ctx: Ctx, gameId: string | undefined): boolean {
        if (upgrades.minute !== minuteOf(ctx)) return true;
        if (upgrades.total >= UPGRADES_PER_MINUTE) return false;
        return gameId === undefined || (upgrades.byGame.get(gameId) ?? 0) < UPGRADES_PER_GAME_PER_MINUTE;
    }

    /** Counts an update call of http_request_update; false when it is past a bound (queries raced). */
    function countUpgrade(ctx: Ctx, gameId: string | undefined): boolean {
        const minute = minuteOf(ctx);
        if (upgrades.minute !== minute) upgrades = { minute, total: 0, byGame: new Map() };
        upgrades.total++;
        let n = 0;
        // Only existing games get a count: ids from the URL do not grow the map.
        if (gameId !== undefined && (ctx.games.has(gameId) || locate(ctx, gameId) !== undefined))
            upgrades.byGame.set(gameId, (n = (upgrades.byGame.get(gameId) ?? 0) + 1));
        return upgrades.total <= UPGRADES_PER_MINUTE && n <= UPGRADES_PER_GAME_PER_MINUTE;
    }

    /** Runs an update's render if the minute's budget allows it (false if it did not run). */
    function withinBudget(ctx: Ctx, render: () => void): boolean {
        const minute = Math.floor(ctx.env.now() / 60_000_000);
        if (minute !== spentThisMinute.minute) spentThisMinute = { minute, instructions: 0 };
        if (spentThisMinute.instructions >= ON_DEMAND_BUDGET_PER_MINUTE) return false;
        const start = instructions();
        render();
        spentThisMinute.instructions += Math.max(instructions() - start, 1);
        return true;
    }

    function put(gameId: string, path: string[], query: string, stored: Omit<Stored, 'leaf'>, bodyHash: Digest): void {
        const pathKey = path.join('/');
        let byQuery = responses.get(pathKey);
        if (byQuery === undefined) {
            responses.set(pathKey, (byQuery = new Map()));
            if (!redirects.has(pathKey)) setAt(tree, responseOnlyTreePath(path, busyResponse().hash), newLeaf(EMPTY));
            let paths = gamePaths.get(gameId);
            if (paths === undefined) gamePaths.set(gameId, (paths = new Set()));
            paths.add(pathKey);
        }
        const leaf = responseTreePath(path, getRequestHash(query), responseHash(headersHash(stored.status), bodyHash));
        const old = byQuery.get(query);
        if (old !== undefined) {
            if (old.leaf.join('/') === leaf.join('/') && old.status === stored.status) {
                byQuery.set(query, { ...stored, leaf });
                return;
            }
            removeAt(tree, old.leaf);
        }
        setAt(tree, leaf, newLeaf(EMPTY));
        byQuery.set(query, { ...stored, leaf });
    }

    function drop(gameId: string, pathKey: string, query: string): void {
        const byQuery = responses.get(pathKey);
        const old = byQuery?.get(query);
        if (old === undefined) return;
        removeAt(tree, old.leaf);
        byQuery!.delete(query);
        onDemand.delete(`${pathKey}?${query}`);
        if (byQuery!.size > 0) return;
        if (!redirects.has(pathKey)) removeAt(tree, responseOnlyTreePath(old.leaf.slice(1, -4), busyResponse().hash));
        responses.delete(pathKey);
        const paths = gamePaths.get(gameId);
        paths?.delete(pathKey);
        if (paths?.size === 0) forget(gameId);
        const boardId = pathKey.split('/')[3];
        if (boardId !== undefined && pathKey.split('/').length === 4) renders.delete(`${gameId}/${boardId}`);
    }

    /** Keeps a certified redirect (the oldest leave past REDIRECTS_MAX). */
    function putRedirect(gameId: string, target: string, path: string[], key: string, stored: Stored): void {
        const pathKey = path.join('/');
        let byKey = redirects.get(pathKey);
        if (byKey === undefined) {
            redirects.set(pathKey, (byKey = new Map()));
            if (!responses.has(pathKey)) setAt(tree, responseOnlyTreePath(path, busyResponse().hash), newLeaf(EMPTY));
        }
        const old = byKey.get(key);
        if (old !== undefined) removeAt(tree, old.leaf);
        setAt(tree, stored.leaf, newLeaf(EMPTY));
        byKey.set(key, stored);
        let ofGame = redirectsOf.get(gameId);
        if (ofGame === undefined) redirectsOf.set(gameId, (ofGame = { target, keys: new Set() }));
        const full = `${pathKey}\n${key}`;
        ofGame.keys.add(full);
        redirectOrder.delete(full);
        redirectOrder.set(full, gameId);
        while (redirectOrder.size > REDIRECTS_MAX) {
            const [oldest, owner] = redirectOrder.entries().next().value as [string, string];
            dropRedirect(owner, oldest);
        }
    }

    function dropRedirect(gameId: string, full: string): void {
        redirectOrder.delete(full);
        const ofGame = redirectsOf.get(gameId);
        ofGame?.keys.delete(full);
        if (ofGame?.keys.size === 0) redirectsOf.delete(gameId);
        const cut = full.indexOf('\n');
        const pathKey = full.slice(0, cut);
        const byKey = redirects.get(pathKey);
        const old = byKey?.get(full.slice(cut + 1));
        if (old === undefined) return;
        removeAt(tree, old.leaf);
        byKey!.delete(full.slice(cut + 1));
        if (byKey!.size > 0) return;
        redirects.delete(pathKey);
        if (!responses.has(pathKey)) removeAt(tree, responseOnlyTreePath(old.leaf.slice(1, -4), busyResponse().hash));
    }

    /** Drops a game's certified redirects that no longer name where it is (it moved, or came back): true if any. */
    function dropStaleRedirects(gameId: string, target: string | undefined): boolean {
        const ofGame = redirectsOf.get(gameId);
        if (ofGame === undefined || ofGame.target === target) return false;
        for (const full of [...ofGame.keys]) dropRedirect(gameId, full);
        return true;
    }

    /** The canister a direct read of `path` is redirected to (its game lives there), if it is one. */
    function awayOf(
        ctx: Ctx,
        method: string,
        path: string[] | undefined,
        url: string,
    ): { gameId: string; target: string } | undefined {
        if (path === undefined || (method !== 'GET' && method !== 'HEAD')) return undefined;
        const gameId = gameIdOf(path);
        if (gameId === undefined) return undefined;
        const target = locate(ctx, gameId);
        if (target === undefined || !servedElsewhere(path, queryOf(url))) return undefined;
        return { gameId, target };
    }

    /** A new certified redirect: the tree leaf of its response under the redirect expression (the Host certified too). */
    function redirectStored(location: string, query: string, host: string | undefined, path: string[]): Stored {
        const headers = redirectHeaders(location, REDIRECT_EXPRESSION);
        const { bytes, hash: bodyHash } = redirectBody();
        const hash = responseHash(redirectHeadersHash(location), bodyHash);
        return {
            status: REDIRECT_STATUS,
            headers,
            bytes,
            end: bytes.length,
            tail: EMPTY,
            leaf: redirectTreePath(path, redirectRequestHash('GET', query, host), hash),
            onDemand: false,
            until: 0,
        };
    }

    /** http_request of a path whose game lives at `away.target`. */
    function serveRedirect(
        ctx: Ctx,
        method: string,
        url: string,
        path: string[],
        away: { gameId: string; target: string },
        certificate: Uint8Array | undefined,
        raw: boolean,
        host: string | undefined,
    ): HttpAnswer {
        const address = canisterAddress(host, away.target, raw);
        if (raw) return liveRedirect(urlAt(address, path, carriedQuery(queryOf(url))));
        const pathKey = path.join('/');
        const query = method === 'GET' ? redirectQuery(path, url) : undefined;
        if (query !== undefined) {
            const stored = redirects.get(pathKey)?.get(redirectKey(host, query));
            if (stored !== undefined && redirectsOf.get(away.gameId)?.target === away.target)
                return certifiedAnswer(stored, certificate, path);
        }
        const inTree = responses.has(pathKey) || redirects.has(pathKey);
        if ((inTree || query !== undefined) && upgradeAllowed(ctx, away.gameId)) return UPGRADE;
        if (inTree) return busyAnswer(path, certificate);
        // Not certified (around-me, an odd query) or past the bounds: the path has no certified answer, so skip verifies.
        const live = liveRedirect(urlAt(address, path, carriedQuery(queryOf(url))));
        return { ...live, headers: [...live.headers, ...skipCertificate(certificate, path)] };
    }

    /** http_request_update of a path whose game lives at `away.target`: certifies its redirect when it can. */
    function serveRedirectUpdate(
        ctx: Ctx,
        method: string,
        url: string,
        path: string[],
        away: { gameId: string; target: string },
        raw: boolean,
        host: string | undefined,
        dropped: boolean,
    ): { answer: HttpAnswer; changed: boolean } {
        const within = countUpgrade(ctx, away.gameId);
        const address = canisterAddress(host, away.target, raw);
        const query = method === 'GET' && !raw ? redirectQuery(path, url) : undefined;
        if (query === undefined || !within)
            return { answer: liveRedirect(urlAt(address, path, carriedQuery(queryOf(url)))), changed: dropped };
        const key = redirectKey(host, query);
        const kept = redirects.get(path.join('/'))?.get(key);
        if (kept !== undefined) return { answer: certifiedAnswer(kept, undefined, path), changed: dropped };
        const stored = redirectStored(urlAt(address, path, carriedQuery(query)), query, host, path);
        putRedirect(away.gameId, away.target, path, key, stored);
        return { answer: certifiedAnswer(stored, undefined, path), changed: true };
    }

    /** Nothing of the game is rendered any more. */
    function forget(gameId: string): void {
        gamePaths.delete(gameId);
        lastRender.delete(gameId);
        dirty.delete(gameId);
    }

    function dropGame(gameId: string): void {
        for (const pathKey of [...(gamePaths.get(gameId) ?? [])])
            for (const query of [...(responses.get(pathKey)?.keys() ?? [])]) drop(gameId, pathKey, query);
        forget(gameId);
    }

    /** One response (status and JSON text) at a path and certified query; not re-hashed when the text is the same. */
    function putText(
        gameId: string,
        path: string[],
        query: string,
        status: number,
        text: string,
        o: { onDemand: boolean; until: number },
    ): void {
        const old = responses.get(path.join('/'))?.get(query);
        if (old?.text !== undefined && old.text === text && old.status === status) {
            old.until = Math.max(old.until, o.until);
            return;
        }
        const bytes = ascii(text);
        put(
            gameId,
            path,
            query,
            {
                status,
                headers: headersFor(status, FULL_EXPRESSION),
                bytes,
                end: bytes.length,
                tail: EMPTY,
                // Kept to skip re-hashing an unchanged answer; on-demand answers are dropped on change instead.
                text: o.onDemand ? undefined : text,
                ...o,
            },
            sha256(bytes),
        );
    }

    /**
     * A board's current period at the given ahead queries (absent = 100, `limit=n`), sharing one
     * buffer and one pass of hashing, resumed where the previous render's entries still stand.
     */
    function renderBoard(ctx: Ctx, gameId: string, boardId: string, queries: ReadonlyMap<string, number>): void {
        const path = ['games', gameId, 'scoreboards', boardId];
        const limitOf = (query: string): number => (query === '' ? 100 : Number(query.slice('limit='.length)));
        const top = Math.max(...[...queries.keys()].map(limitOf));
        const board: Board = reads.readBoard(ctx, { gameId, boardId, limit: top });
        const head = `${stringify({ ok: true, data: { scoreboardId: board.scoreboardId, config: board.config } }).slice(0, -2)},"entries":[`;
        const entries = board.entries.map((e) => stringify(e));
        const tail = ascii(`],"totalEntries":${board.totalEntries}}}`);
        const key = `${gameId}/${boardId}`;
        const prev = renders.get(key);
        // Entries the previous render had at the same places, from the top.
        let same = 0;
        if (prev !== undefined && prev.head === head)
            while (same < entries.length && same < prev.entries.length && entries[same] === prev.entries[same]) same++;
        const headBytes = ascii(head);
        const joined = entries.join(',');
        let entryBytes = ascii(joined);
        const offsets = new Array<number>(entries.length + 1);
        offsets[0] = headBytes.length;
        if (entryBytes.length === joined.length) {
            // ASCII (nicknames are): character offsets are byte offsets.
            for (let i = 0; i < entries.length; i++) offsets[i + 1] = offsets[i] + entries[i].length + (i > 0 ? 1 : 0);
        } else {
            const parts = entries.map((e, i) => ascii(i > 0 ? `,${e}` : e));
            for (let i = 0; i < entries.length; i++) offsets[i + 1] = offsets[i] + parts[i].length;
            entryBytes = new Uint8Array(offsets[entries.length] - offsets[0]);
            for (let i = 0; i < entries.length; i++) entryBytes.set(parts[i], offsets[i] - offsets[0]);
        }
        const bytes = new Uint8Array(headBytes.length + entryBytes.length);
        bytes.set(headBytes);
        bytes.set(entryBytes, headBytes.length);
        // Where each limit's entries end, and the hasher there (resumed from the last render when the top is the same).
        const counts = [...new Set([...queries.keys()].map((q) => Math.min(limitOf(q), entries.length)))].sort(
            (a, b) => a - b,
        );
        const resumable = prev === undefined ? [] : [...prev.states.keys()].filter((m) => m <= same);
        resumable.sort((a, b) => a - b);
        const states = new Map<number, Sha256>();
        let hasher = new Sha256().update(headBytes);
        let at = 0;
        for (const n of counts) {
            // The furthest state of the previous render at or below n, when it is ahead of this pass.
            for (const m of resumable)
                if (m <= n && m > at) {
                    hasher = prev!.states.get(m)!.clone();
                    at = m;
                }
            if (n > at) {
                hasher.update(bytes.subarray(offsets[at], offsets[n]));
                at = n;
            }
            states.set(n, hasher.clone());
        }
        // States of the previous render still true of these entries serve the next resumption too.
        for (const m of resumable) if (!states.has(m)) states.set(m, prev!.states.get(m)!);
        const headers = headersFor(200, FULL_EXPRESSION);
        for (const [query, until] of queries) {
            const n = Math.min(limitOf(query), entries.length);
            put(
                gameId,
                path,
                query,
                { status: 200, headers, bytes, end: offsets[n], tail, onDemand: false, until },
                states.get(n)!.clone().update(tail).digest(),
            );
        }
        renders.set(key, { head, entries, states });
    }

    /** Renders what changed of a game's rendered paths: read lately ones anew, the others leave the tree. */
    function renderGame(ctx: Ctx, gameId: string, what: Dirty): void {
        const game = ctx.games.get(gameId);
        if (game === undefined) return dropGame(gameId);
        const now = ctx.env.now();
        const boards = new Map(game.record.boards.map((b) => [b.scoreboardId, b]));
        for (const pathKey of [...(gamePaths.get(gameId) ?? [])]) {
            const byQuery = responses.get(pathKey);
            if (byQuery === undefined) continue;
            const path = pathKey.split('/');
            const boardId = boardOf(path);
            const board = boardId === undefined ? undefined : (boards.get(boardId) ?? reads.boardNamed(game, boardId));
            if (!touches(path, what, board)) continue;
            const wanted = new Map<string, number>();
            for (const [query, stored] of [...byQuery]) {
                // An archive by id never changes; other on-demand answers and answers nobody read lately leave.
                if (stored.onDemand && onDemand.get(`${pathKey}?${query}`)?.fixed === true) continue;
                if (stored.onDemand || stored.until <= now || (boardId !== undefined && board === undefined))
                    drop(gameId, pathKey, query);
                else wanted.set(query, stored.until);
            }
            if (wanted.size === 0) continue;
            if (isBoardPath(path)) renderBoard(ctx, gameId, boardId!, wanted);
            else
                for (const [query, until] of wanted) {
                    const answer = liveAnswer(ctx, 'GET', urlOf(path, query));
                    putText(gameId, path, query, answer.status, answer.text, { onDemand: false, until });
                }
        }
        // On-demand answers under paths that are not rendered ahead (a page of a board nobody reads at 100).
        for (const [key, owner] of [...onDemand]) {
            if (owner.gameId !== gameId || owner.fixed) continue;
            const q = key.indexOf('?');
            drop(gameId, key.slice(0, q), key.slice(q + 1));
        }
    }

    function certifiedAnswer(stored: Stored, certificate: Uint8Array | undefined, path: string[]): HttpAnswer {
        const body = new Uint8Array(stored.end + stored.tail.length);
        body.set(stored.end === stored.bytes.length ? stored.bytes : stored.bytes.subarray(0, stored.end));
        body.set(stored.tail, stored.end);
        const headers: Array<[string, HeaderValue]> = [...stored.headers];
        if (certificate !== undefined)
            headers.push([
                'ic-certificate',
                certificateHeader(certificate, witness(tree, [stored.leaf]), [PATH_PREFIX, ...path, EXACT]),
            ]);
        return { status: stored.status, headers, body };
    }

    /** The IC-Certificate header of an answer deliberately uncertified: a witness that `path` has no leaf of its own. */
    function skipCertificate(
        certificate: Uint8Array | undefined,
        path: string[] | undefined,
    ): Array<[string, HeaderValue]> {
        if (certificate === undefined || path === undefined) return [];
        return [
            [
                'ic-certificate',
                certificateHeader(certificate, witness(tree, skipWitnessPaths(path)), [
                    SKIP_TREE_PATH[0],
                    SKIP_TREE_PATH[1],
                ]),
            ],
        ];
    }

    function skipAnswer(
        status: number,
        text: string,
        certificate: Uint8Array | undefined,
        path: string[] | undefined,
    ): HttpAnswer {
        const headers: Array<[string, HeaderValue]> = [
            ...headersFor(status, SKIP_EXPRESSION),
            ...skipCertificate(certificate, path),
        ];
        return { status, headers, body: ascii(text) };
    }

    /** The path's certified busy answer (past the upgrade bounds, where only its certified answers verify). */
    function busyAnswer(path: string[], certificate: Uint8Array | undefined): HttpAnswer {
        const { bytes, hash } = busyResponse();
        const busyStored: Stored = {
            status: BUSY_STATUS,
            headers: BUSY_HEADERS,
            bytes,
            end: bytes.length,
            tail: EMPTY,
            leaf: responseOnlyTreePath(path, hash),
            onDemand: false,
            until: 0,
        };
        return certifiedAnswer(busyStored, certificate, path);
    }

    /** An answer computed now, uncertified (the raw domain; an update's own answer past the budget). */
    function liveHttp(ctx: Ctx, method: string, url: string): HttpAnswer {
        const answer = liveAnswer(ctx, method, url);
        return { status: answer.status, headers: headersFor(answer.status, SKIP_EXPRESSION), body: ascii(answer.text) };
    }

    const UPGRADE: HttpAnswer = { status: 200, headers: [], body: EMPTY, upgrade: true };

    /**
     * A board path whose certified query reads the same as the whole query (else it is answered
     * live); `known`: the path is one the snapshot has. The path is taken as the verifier takes
     * it (`//` collapsed, a trailing `/` kept), which is also how board paths are matched.
     */
    function certifiable(url: string, known = false): { path: string[]; query: string } | undefined {
        const path = pathKeys(url);
        if (path === undefined) return undefined;
        const q = url.indexOf('?');
        const rawPath = q < 0 ? url : url.slice(0, q);
        const full = queryOf(url);
        const query = certifiedQuery(full);
        // The certified query is the whole query: the answer depends on nothing else. Otherwise it
        // must read the same as the whole query (an ignored `foo=1` does; `limit[]=2` does not).
        if (query !== full) {
            const whole = readKey(rawPath, full);
            if (whole === undefined || whole !== readKey(rawPath, query)) return undefined;
        } else if (!known && findBoardPath(rawPath) === undefined) return undefined;
        return { path, query };
    }

    /**
     * Whether a read of a certifiable path is worth an update that renders it: a 200, or the 404
     * of a board that exists (no archive yet) that becomes a 200 later. Other errors (a missing
     * board, a bad query) stay uncertified skip answers: nobody can make the canister render them.
     */
    function worthRendering(ctx: Ctx, status: number, path: string[] | undefined): boolean {
        if (status === 200) return true;
        const boardId = path === undefined ? undefined : boardOf(path);
        if (status !== 404 || boardId === undefined) return false;
        const game = ctx.games.get(path![1]);
        return game !== undefined && reads.boardNamed(game, boardId) !== undefined;
    }

    /** When a dirty game's next render is due: now, or a window after its last one. */
    function dueOf(ctx: Ctx, gameId: string): number {
        const now = ctx.env.now();
        const due = (lastRender.get(gameId) ?? -Infinity) + DIRECT_READ_WINDOW_SECONDS * 1e6;
        return ctx.rebuilding.has(gameId) ? now + DIRECT_READ_WINDOW_SECONDS * 1e6 : Math.max(now, due);
    }

    function markDirty(ctx: Ctx, gameId: string, change: Change): number | undefined {
        if (!gamePaths.has(gameId)) return undefined; // nothing of it is rendered: nothing to keep fresh
        let d = dirty.get(gameId);
        if (d === undefined) dirty.set(gameId, (d = { all: false, fanout: false, boards: new Set() }));
        if (change.kind === 'all') d.all = true;
        else if (change.kind === 'fanout') d.fanout = true;
        else d.boards.add(change.boardId);
        return dueOf(ctx, gameId);
    }

    function earliestDue(ctx: Ctx): number | undefined {
        let next: number | undefined;
        for (const gameId of dirty.keys()) {
            const due = dueOf(ctx, gameId);
            if (next === undefined || due < next) next = due;
        }
        return next;
    }

    function serveLocalUpdate(
        ctx: Ctx,
        method: string,
        url: string,
        raw: boolean,
        gameId: string | undefined,
    ): { answer: HttpAnswer; changed: boolean } {
        const within = countUpgrade(ctx, gameId);
        const c = method === 'GET' && !raw ? certifiable(url) : undefined;
        const kept = c === undefined ? undefined : responses.get(c.path.join('/'))?.get(c.query);
        if (kept !== undefined && c !== undefined) {
            // Rendered meanwhile (another read's update): read again, so kept fresh for longer.
            if (!kept.onDemand) kept.until = ctx.env.now() + WATCH_MICROS;
            return { answer: certifiedAnswer(kept, undefined, c.path), changed: false };
        }
        // Past a bound (queries that raced the counts): the live answer, nothing rendered or kept.
        if (!within || c === undefined || gameId === undefined || !ctx.games.has(gameId))
            return { answer: liveHttp(ctx, method, url), changed: false };
        const until = ctx.env.now() + WATCH_MICROS;
        const pathKey = c.path.join('/');
        const ahead = aheadQuery(c.path, c.query);
        const render = (): void => {
            if (ahead && isBoardPath(c.path)) {
                // With the other queries of the board that are still read: one pass of hashing.
                const wanted = new Map<string, number>([[c.query, until]]);
                for (const [query, s] of responses.get(pathKey) ?? [])
                    if (!s.onDemand && s.until > ctx.env.now()) wanted.set(query, s.until);
                renderBoard(ctx, gameId, c.path[3], wanted);
            } else {
                const answer = liveAnswer(ctx, method, url);
                putText(gameId, c.path, c.query, answer.status, answer.text, { onDemand: !ahead, until });
            }
        };
        // Past the minute's budget: answered live, nothing kept (the next read asks again).
        if (!withinBudget(ctx, render)) return { answer: liveHttp(ctx, method, url), changed: false };
        const rendered = responses.get(pathKey)?.get(c.query);
        if (rendered === undefined) return { answer: liveHttp(ctx, method, url), changed: true };
        if (rendered.onDemand) {
            const key = `${pathKey}?${c.query}`;
            onDemand.delete(key);
            onDemand.set(key, { gameId, fixed: findBoardPath(url.split('?')[0])?.params.archiveId !== undefined });
            while (onDemand.size > ON_DEMAND_MAX) {
                const oldest = onDemand.keys().next().value as string;
                const q = oldest.indexOf('?');
                drop(onDemand.get(oldest)!.gameId, oldest.slice(0, q), oldest.slice(q + 1));
            }
        }
        return { answer: certifiedAnswer(rendered, undefined, c.path), changed: true };
    }

    return {
        markDirty,
        markAllDirty(ctx) {
            for (const gameId of gamePaths.keys()) markDirty(ctx, gameId, { kind: 'all' });
            return earliestDue(ctx);
        },
        pending: () => dirty.size,
        renderDirty(ctx, stop) {
            let changed = false;
            const now = ctx.env.now();
            for (const [gameId, what] of [...dirty]) {
                if (changed && stop()) break;
                if (dueOf(ctx, gameId) > now) continue; // rendered within its window, or its tables are not whole yet
                dirty.delete(gameId);
                lastRender.set(gameId, now);
                renderGame(ctx, gameId, what);
                changed = true;
            }
            return { changed, nextDue: earliestDue(ctx) };
        },
        rootHash: () => nodeDigest(tree),
        serve(ctx, method, url, certificate, raw = false, host) {
            const path = pathKeys(url);
            const away = awayOf(ctx, method, path, url);
            if (away !== undefined) return serveRedirect(ctx, method, url, path!, away, certificate, raw, host);
            if (raw) return liveHttp(ctx, method, url);
            const byQuery = path === undefined ? undefined : responses.get(path.join('/'));
            if (byQuery !== undefined || (path !== undefined && redirects.has(path.join('/')))) {
                // The path is in the tree: only its certified responses can verify; anything else is rendered by an update.
                const c = method === 'GET' ? certifiable(url, true) : undefined;
                const stored = c === undefined ? undefined : byQuery?.get(c.query);
                if (stored !== undefined) return certifiedAnswer(stored, certificate, path!);
                if (upgradeAllowed(ctx, gameIdOf(path))) return UPGRADE;
                // Past the bounds: the path's certified busy answer (a live one could not verify here).
                return busyAnswer(path!, certificate);
            }
            const answer = liveAnswer(ctx, method, url);
            if (
                method === 'GET' &&
                worthRendering(ctx, answer.status, path) &&
                certifiable(url) !== undefined &&
                upgradeAllowed(ctx, gameIdOf(path))
            )
                return UPGRADE;
            // Past the bounds too: the path has no certified answer, so the live one under the skip expression verifies.
            return skipAnswer(answer.status, answer.text, certificate, path);
        },
        serveUpdate(ctx, method, url, raw = false, host) {
            const path = pathKeys(url);
            const gameId = gameIdOf(path);
            const away = awayOf(ctx, method, path, url);
            // Redirects that name another place than where the game is now leave the tree (it moved, or came back).
            let dropped = gameId !== undefined && dropStaleRedirects(gameId, locate(ctx, gameId));
            // A game that moved away: what was rendered of it here leaves the tree (no replay of its old boards).
            if (away !== undefined && gamePaths.has(away.gameId)) {
                dropGame(away.gameId);
                dropped = true;
            }
            if (away !== undefined) return serveRedirectUpdate(ctx, method, url, path!, away, raw, host, dropped);
            const { answer, changed } = serveLocalUpdate(ctx, method, url, raw, gameId);
            return { answer, changed: changed || dropped };
        },
    };
}

/** For tests: the tree's keys at the top. */
export const topKeys = (level: Level): string[] => keysOf(level);
