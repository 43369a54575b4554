// Direct reads at {canister_url}, served from a certified snapshot (HTTP certification v2).
//
// Writes only mark games dirty (markDirty: a Set insert). A timer renders the dirty games'
// public board paths once (renderDirty), stores the response bytes and puts each response's hash
// into the certification tree, whose root becomes the canister's certified data. http_request
// (a query) then answers from the stored bytes with an IC-Certificate header: the data
// certificate and a witness of the response's leaf. What was not pre-rendered:
// - a board path of something that exists, with a query not pre-rendered (another limit, an
//   offset page, an archive by id): the query asks for the upgrade to an update call, which
//   renders that one response, answers it and keeps it certified for the queries that follow
//   (up to ON_DEMAND_MAX of them, dropped when their game changes); upgrades are counted, and
//   past UPGRADES_PER_GAME_PER_MINUTE / UPGRADES_PER_MINUTE the query answers itself: the
//   path's busy answer (429, certified for any query of the path, request not certified), or
//   live under the skip expression where the path has no certified answer at all;
// - unknown paths, bad ids, missing boards, a player's around-me window: answered at once,
//   deliberately uncertified under the root wildcard's no-certification expression, which the
//   witness proves is the most specific path the tree has for them.
// No azle import: the canister passes in what the IC gives (the data certificate).
import { boardRead, findBoardPath, type BoardRead } from '../../contract/board-paths';
import { API_HEADERS, DIRECT_READ_CACHE_CONTROL } from '../../contract/http';
import { unknownEndpoint } from '../../contract/messages';
import { checkPathId, parsePlayerId, parseQuery, parseWindow } from '../../contract/rules';
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
import { knownTexts, type HeaderValue } from '../domain/http-response';
import { stringify } from '../domain/json';
import type { Ctx } from './context';
import { Fail } from './fail';
import * as reads from './reads';

/**
 * The `limit`s of a board read rendered ahead of time (besides none, which is 100), also for the
 * latest archive. Not 1,000: SHA-256 costs ~1 M instructions per 64 bytes here, so keeping a
 * ~110 KB top 1,000 certified would cost ~1.7 B instructions per board per change; it is
 * rendered on demand instead, like any other limit.
 */
export const CERTIFIED_LIMITS = [10, 25, 50, 100] as const;
const TOP = CERTIFIED_LIMITS[CERTIFIED_LIMITS.length - 1];
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
 * A game is kept rendered while someone reads it directly: each upgraded read of it watches it
 * for this long (µs). A change after that drops its answers from the tree instead of rendering
 * them, and the next direct read upgrades and renders it again. Games nobody reads directly cost
 * no rendering at all.
 */
export const WATCH_MICROS = 10 * 60 * 1_000_000;

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
    onDemand: boolean;
}

/** What the last render of a board kept, so an unchanged top is not hashed again. */
interface BoardRender {
    head: string;
    entries: string[];
    /** Hasher state after the head and the first n entries, by n. */
    states: Map<number, Sha256>;
}

/** What of a game changed: one board (by id), every fan-out (non-targeted) board, or all of it. */
export type Change = { kind: 'board'; boardId: string } | { kind: 'fanout' } | { kind: 'all' };
/** A game's pending changes: flags for the markers, board ids apart (no board id can be a marker). */
interface Dirty {
    all: boolean;
    fanout: boolean;
    boards: Set<string>;
}
const everything = (): Dirty => ({ all: true, fanout: false, boards: new Set() });

const BASE_HEADERS: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ...Object.entries(API_HEADERS).map(([k, v]): [string, string] => [k.toLowerCase(), v]),
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
    'ic-certificate',
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
    const decode = (s: string): string => {
        try {
            return decodeURIComponent(s);
        } catch {
            return s;
        }
    };
    const gameId = decode(match[1]);
    const boardId = decode(match[2]);
    const bad =
        checkPathId('gameId', gameId) ??
        checkPathId('scoreboardId', boardId) ??
        ((): string | undefined => {
            const params = parseQuery(query);
            for (const p of [parsePlayerId(params), parseWindow(params, 'before'), parseWindow(params, 'after')])
                if ('error' in p) return p.error;
            return undefined;
        })();
    if (bad !== undefined) return { status: 400, text: failure(bad) };
    const params = parseQuery(query);
    const playerId = (parsePlayerId(params) as { ok: string }).ok;
    const before = (parseWindow(params, 'before') as { ok: number }).ok;
    const after = (parseWindow(params, 'after') as { ok: number }).ok;
    return {
        status: 200,
        text: envelope(reads.around(ctx, { gameId, boardId, playerId, before, after })),
    };
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

// ---- the snapshot ---------------------------------------------------------------------------------------

export interface DirectReads {
    /** Something of the game changed: one (targeted) board, the fan-out boards, or all of it (the default). */
    markDirty(gameId: string, change?: Change): void;
    markAllDirty(ctx: Ctx): void;
    /** Renders dirty games until `stop()` says the budget is spent; true when the tree changed. */
    renderDirty(ctx: Ctx, stop: () => boolean): boolean;
    pending(): number;
    /** The certified data: the tree's root hash. */
    rootHash(): Uint8Array;
    /** http_request (a query). `certificate`: the data certificate, when the IC gives one. */
    serve(ctx: Ctx, method: string, url: string, certificate: Uint8Array | undefined): HttpAnswer;
    /** http_request_update: the answer, rendered and kept certified when it can be; true in `changed` when the tree changed. */
    serveUpdate(ctx: Ctx, method: string, url: string): { answer: HttpAnswer; changed: boolean };
}

/**
 * `encode`: UTF-8 of a string; the canister passes its native codec (a JavaScript loop costs
 * thousands of instructions per character in QuickJS).
 */
export function createDirectReads(
    encode: (text: string) => Uint8Array = jsUtf8,
    instructions: () => number = () => 0,
): DirectReads {
    ascii = encode;
    const tree: Level = newLevel();
    setAt(tree, [...SKIP_TREE_PATH], newLeaf(EMPTY));
    /** pathKey (segments joined by '/') -> certified query -> response. */
    const responses = new Map<string, Map<string, Stored>>();
    /** The path keys each game has responses under. */
    const gamePaths = new Map<string, Set<string>>();
    const renders = new Map<string, BoardRender>();
    /** What each board's archives were when they were last rendered. */
    const archivesSeen = new Map<string, string>();
    const dirty = new Map<string, Dirty>();
    /** On-demand responses, oldest first: `${pathKey}?${query}` -> game, and whether it never changes (an archive by id). */
    const onDemand = new Map<string, { gameId: string; fixed: boolean }>();
    /** Each game's archive stats as last rendered (they change only at a rollover, a reset or a board change). */
    const statsSeen = new Map<string, string>();
    let spentThisMinute = { minute: 0, instructions: 0 };
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
        if (gameId !== undefined && ctx.games.has(gameId))
            upgrades.byGame.set(gameId, (n = (upgrades.byGame.get(gameId) ?? 0) + 1));
        return upgrades.total <= UPGRADES_PER_MINUTE && n <= UPGRADES_PER_GAME_PER_MINUTE;
    }
    /** Games read directly lately: until when (µs) their changes are rendered. */
    const watched = new Map<string, number>();

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
            setAt(tree, responseOnlyTreePath(path, busyResponse().hash), newLeaf(EMPTY));
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

    function drop(pathKey: string, query: string): void {
        const byQuery = responses.get(pathKey);
        const old = byQuery?.get(query);
        if (old === undefined) return;
        removeAt(tree, old.leaf);
        byQuery!.delete(query);
        onDemand.delete(`${pathKey}?${query}`);
        if (byQuery!.size === 0) {
            removeAt(tree, responseOnlyTreePath(old.leaf.slice(1, -4), busyResponse().hash));
            responses.delete(pathKey);
            for (const paths of gamePaths.values()) paths.delete(pathKey);
        }
    }

    function dropGame(gameId: string): void {
        for (const pathKey of gamePaths.get(gameId) ?? []) {
            for (const query of [...(responses.get(pathKey)?.keys() ?? [])]) drop(pathKey, query);
            responses.delete(pathKey);
        }
        gamePaths.delete(gameId);
        for (const key of renders.keys()) if (key.startsWith(`${gameId}/`)) renders.delete(key);
        for (const key of archivesSeen.keys()) if (key.startsWith(`${gameId}/`)) archivesSeen.delete(key);
        statsSeen.delete(gameId);
    }

    /** One response (status and JSON text) at a path and certified query. */
    function putText(
        gameId: string,
        path: string[],
        query: string,
        status: number,
        text: string,
        onDemand: boolean,
    ): void {
        const bytes = ascii(text);
        put(
            gameId,
            path,
            query,
            { status, headers: headersFor(status, FULL_EXPRESSION), bytes, end: bytes.length, tail: EMPTY, onDemand },
            sha256(bytes),
        );
    }

    /** A board's current period at every certified limit, sharing one buffer and one pass of hashing. */
    function renderBoard(ctx: Ctx, gameId: string, boardId: string): void {
        const path = ['games', gameId, 'scoreboards', boardId];
        const board: Board = reads.readBoard(ctx, { gameId, boardId, limit: TOP });
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
        const counts = [...new Set(CERTIFIED_LIMITS.map((l) => Math.min(l, entries.length)))].sort((a, b) => a - b);
        let start = 0;
        let hasher = new Sha256().update(headBytes);
        if (prev !== undefined)
            for (const n of counts)
                if (n <= same && prev.states.has(n)) {
                    start = n;
                    hasher = prev.states.get(n)!.clone();
                }
        const states = new Map<number, Sha256>();
        let hashedTo = start;
        for (const n of counts) {
            if (n < start) {
                states.set(n, prev!.states.get(n)!);
                continue;
            }
            if (n > hashedTo) {
                hasher.update(bytes.subarray(offsets[hashedTo], offsets[n]));
                hashedTo = n;
            }
            states.set(n, hasher.clone());
        }
        const bodyHashes = new Map<number, Digest>();
        for (const n of counts) bodyHashes.set(n, states.get(n)!.clone().update(tail).digest());
        const headers = headersFor(200, FULL_EXPRESSION);
        const store = (query: string, limit: number): void => {
            const n = Math.min(limit, entries.length);
            put(
                gameId,
                path,
                query,
                { status: 200, headers, bytes, end: offsets[n], tail, onDemand: false },
                bodyHashes.get(n)!,
            );
        };
        store('', 100);
        for (const limit of CERTIFIED_LIMITS) store(`limit=${limit}`, limit);
        renders.set(key, { head, entries, states });
    }

    function renderArchives(ctx: Ctx, gameId: string, boardId: string, archives: readonly number[]): void {
        const key = `${gameId}/${boardId}`;
        const fingerprint = `${archives.length}:${archives[archives.length - 1] ?? ''}`;
        if (archivesSeen.get(key) === fingerprint) return;
        const base = ['games', gameId, 'scoreboards', boardId, 'archives'];
        putText(gameId, base, '', 200, envelope(reads.listArchives(ctx, { gameId, boardId })), false);
        const latest = [...base, 'latest'];
        // Without an archive every limit is the same 404: certify the plain path only (others upgrade).
        for (const limit of [undefined, ...(archives.length > 0 ? CERTIFIED_LIMITS : [])]) {
            const query = limit === undefined ? '' : `limit=${limit}`;
            const answer = liveAnswer(ctx, 'GET', `/${latest.join('/')}${query === '' ? '' : '?'}${query}`);
            putText(gameId, latest, query, answer.status, answer.text, false);
        }
        archivesSeen.set(key, fingerprint);
    }

    /** Renders one dirty game (or the part of it that changed). */
    function renderGame(ctx: Ctx, gameId: string, what: Dirty): void {
        const game = ctx.games.get(gameId);
        if (game === undefined) {
            dropGame(gameId);
            return;
        }
        // On-demand responses of the game may be stale now (an archive by id never changes).
        for (const [key, owner] of [...onDemand]) {
            if (owner.gameId !== gameId || owner.fixed) continue;
            const q = key.indexOf('?');
            drop(key.slice(0, q), key.slice(q + 1));
        }
        const listPath = ['games', gameId, 'scoreboards'];
        putText(gameId, listPath, '', 200, envelope(reads.listBoards(ctx, { gameId })), false);
        const stats = envelope(reads.archiveStats(ctx, { gameId }));
        if (statsSeen.get(gameId) !== stats) {
            putText(gameId, ['games', gameId, 'archives', 'stats'], '', 200, stats, false);
            statsSeen.set(gameId, stats);
        }
        const live = new Set(game.record.boards.map((b) => b.scoreboardId));
        if (what.all) {
            // Boards deleted since the last render leave the tree.
            for (const pathKey of [...(gamePaths.get(gameId) ?? [])]) {
                const [, , under, boardId] = pathKey.split('/'); // games/<g>/scoreboards/<board>/...
                if (under === 'scoreboards' && boardId !== undefined && !live.has(boardId)) {
                    for (const query of [...(responses.get(pathKey)?.keys() ?? [])]) drop(pathKey, query);
                    responses.delete(pathKey);
                    gamePaths.get(gameId)!.delete(pathKey);
                    renders.delete(`${gameId}/${boardId}`);
                    archivesSeen.delete(`${gameId}/${boardId}`);
                }
            }
        }
        for (const board of game.record.boards) {
            const id = board.scoreboardId;
            if (what.all || what.boards.has(id) || (what.fanout && !board.targeted)) renderBoard(ctx, gameId, id);
            renderArchives(ctx, gameId, id, board.archives);
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

    function skipAnswer(
        status: number,
        text: string,
        certificate: Uint8Array | undefined,
        path: string[] | undefined,
    ): HttpAnswer {
        const headers: Array<[string, HeaderValue]> = headersFor(status, SKIP_EXPRESSION);
        if (certificate !== undefined && path !== undefined)
            headers.push([
                'ic-certificate',
                certificateHeader(certificate, witness(tree, skipWitnessPaths(path)), [
                    SKIP_TREE_PATH[0],
                    SKIP_TREE_PATH[1],
                ]),
            ]);
        return { status, headers, body: ascii(text) };
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

    function markDirty(gameId: string, change: Change = { kind: 'all' }): void {
        let d = dirty.get(gameId);
        if (d === undefined) dirty.set(gameId, (d = { all: false, fanout: false, boards: new Set() }));
        if (change.kind === 'all') d.all = true;
        else if (change.kind === 'fanout') d.fanout = true;
        else d.boards.add(change.boardId);
    }

    return {
        markDirty,
        markAllDirty(ctx) {
            for (const gameId of ctx.games.keys()) markDirty(gameId);
            for (const gameId of gamePaths.keys()) markDirty(gameId);
        },
        pending: () => dirty.size,
        renderDirty(ctx, stop) {
            let changed = false;
            for (const [gameId, what] of dirty) {
                if (changed && stop()) break;
                if (ctx.rebuilding.has(gameId)) continue; // its tables are not whole yet
                dirty.delete(gameId);
                if ((watched.get(gameId) ?? 0) > ctx.env.now()) renderGame(ctx, gameId, what);
                else {
                    // Nobody has read it directly lately: forget its answers rather than render them.
                    watched.delete(gameId);
                    if (!gamePaths.has(gameId)) continue;
                    dropGame(gameId);
                }
                changed = true;
            }
            return changed;
        },
        rootHash: () => nodeDigest(tree),
        serve(ctx, method, url, certificate) {
            const path = pathKeys(url);
            const byQuery = path === undefined ? undefined : responses.get(path.join('/'));
            if (byQuery !== undefined) {
                // The path is in the tree: only its certified responses can verify; anything else is rendered by an update.
                const c = method === 'GET' ? certifiable(url, true) : undefined;
                const stored = c === undefined ? undefined : byQuery.get(c.query);
                if (stored !== undefined) return certifiedAnswer(stored, certificate, path!);
                if (upgradeAllowed(ctx, gameIdOf(path))) return UPGRADE;
                // Past the bounds: the path's certified busy answer (a live one could not verify here).
                const { bytes, hash } = busyResponse();
                const leaf = responseOnlyTreePath(path!, hash);
                return certifiedAnswer(
                    {
                        status: BUSY_STATUS,
                        headers: BUSY_HEADERS,
                        bytes,
                        end: bytes.length,
                        tail: EMPTY,
                        leaf,
                        onDemand: false,
                    },
                    certificate,
                    path!,
                );
            }
            const answer = liveAnswer(ctx, method, url);
            if (
                answer.status === 200 &&
                method === 'GET' &&
                certifiable(url) !== undefined &&
                upgradeAllowed(ctx, gameIdOf(path))
            )
                return UPGRADE;
            // Past the bounds too: the path has no certified answer, so the live one under the skip expression verifies.
            return skipAnswer(answer.status, answer.text, certificate, path);
        },
        serveUpdate(ctx, method, url) {
            const gameId = gameIdOf(pathKeys(url));
            const within = countUpgrade(ctx, gameId);
            const c = method === 'GET' ? certifiable(url) : undefined;
            const stored = c === undefined ? undefined : responses.get(c.path.join('/'))?.get(c.query);
            if (stored !== undefined) {
                if (gameId !== undefined && ctx.games.has(gameId)) watched.set(gameId, ctx.env.now() + WATCH_MICROS);
                return { answer: certifiedAnswer(stored, undefined, c!.path), changed: false };
            }
            const answer = liveAnswer(ctx, method, url);
            const live = (): { answer: HttpAnswer; changed: boolean } => ({
                answer: {
                    status: answer.status,
                    headers: headersFor(answer.status, SKIP_EXPRESSION),
                    body: ascii(answer.text),
                },
                changed: false,
            });
            // Past a bound (queries that raced the counts): the live answer, nothing rendered or kept.
            if (!within || c === undefined || gameId === undefined || !ctx.games.has(gameId)) return live();
            // A game read directly: watched for a while; rendered now if it is not in the tree.
            const wasWatched = (watched.get(gameId) ?? 0) > ctx.env.now() && gamePaths.has(gameId);
            const renderAll = (): void => {
                dirty.delete(gameId); // everything of it is rendered now
                renderGame(ctx, gameId, everything());
            };
            if (!wasWatched && !withinBudget(ctx, renderAll)) return live();
            watched.set(gameId, ctx.env.now() + WATCH_MICROS);
            const rendered = responses.get(c.path.join('/'))?.get(c.query);
            if (rendered !== undefined) return { answer: certifiedAnswer(rendered, undefined, c.path), changed: true };
            // Another limit, a page, an archive by id: rendered alone (past the budget: live, not kept).
            if (!withinBudget(ctx, () => putText(gameId, c.path, c.query, answer.status, answer.text, true)))
                return { answer: live().answer, changed: !wasWatched };
            const key = `${c.path.join('/')}?${c.query}`;
            onDemand.delete(key);
            const found = findBoardPath(url.split('?')[0]);
            onDemand.set(key, { gameId, fixed: found?.params.archiveId !== undefined });
            while (onDemand.size > ON_DEMAND_MAX) {
                const oldest = onDemand.keys().next().value as string;
                const q = oldest.indexOf('?');
                drop(oldest.slice(0, q), oldest.slice(q + 1));
            }
            const stored2 = responses.get(c.path.join('/'))!.get(c.query)!;
            return { answer: certifiedAnswer(stored2, undefined, c.path), changed: true };
        },
    };
}

/** For tests: the tree's keys at the top. */
export const topKeys = (level: Level): string[] => keysOf(level);
