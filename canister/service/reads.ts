// Public reads, all from the heap tables (never scanning a board): the global leaderboard,
// board lists and boards, ranks, the window around a player, archives and their counts, game
// metadata and stats. A board whose period has ended reads as the new, empty period even before the
// rollover has been written.
import type { ReplyOf, RequestOf } from '../../contract/canister';
import { MESSAGES, boardNotFound } from '../../contract/messages';
import { NO_BOARD_ENTRY } from '../../contract/packed-ranks';
import { AROUND, MAX_OFFSET, OLD_BOARD_IDS, checkBoardId, clampLimit, invalid } from '../../contract/rules';
import type {
    Archive,
    ArchiveList,
    ArchiveStats,
    Board,
    BoardEntry,
    BoardList,
    BoardRank,
    GameInfo,
    GameStats,
    Leaderboard,
    PlatformStats,
    PlayerRank,
    SortBy,
} from '../../contract/schemas';
import { addCapped, tiebreakBefore } from '../domain/bests';
import { ns, quoted, rawJson, stringify, type Quoting } from '../domain/json';
import { archiveId, parseArchiveId } from '../domain/periods';
import { namedSlot } from './players';
import type { ArchiveRecord, BoardRecord } from '../state/records';
import { ARCHIVE_ENTRIES, archiveKey } from './rollover';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { allTimeBoard, boardWithId, currentPeriod, requireGame } from '../state/game-state';
import { filteredTable } from '../state/filters';
import { statsOf } from '../state/stats';
import {
    authTypeOf,
    entryCount,
    entryOf,
    metadataOf,
    nicknameOf,
    entryTexts,
    rankIndex,
    tiebreakOf,
    type BoardTable,
} from '../state/tables';
import { parseFilter, percentile, type Ties } from '../../contract/board-options';
import { heldAround, heldBoardRank, heldPlayerRank } from './held-view';
import { archiveRanks, globalTies, rankOf, sharedRanker, tiesOf, wantsPercentile, withPercentile } from './ranks';

/**
 * The board a read names (an old id reads its board when the game has none of that id: R3): 400
 * for a malformed id, 404 for an unknown one. The id's pattern is tested only when the game has
 * no board of that id (~10 K instructions a read): every board's id passed it when it was made.
 */
export function boardOf(game: GameState, boardId: unknown): BoardRecord {
    const found = typeof boardId === 'string' ? boardWithId(game.record, boardId) : undefined;
    if (found !== undefined) return found;
    const error = checkBoardId(boardId);
    if (error) throw new Fail(400, error);
    const board = boardNamed(game, boardId as string);
    if (board === undefined) throw new Fail(404, boardNotFound(String(boardId)));
    return board;
}

/** The board of this id, or the board an old id stands for (R3: looked up only when the id names none). */
export function boardNamed(game: GameState, boardId: string): BoardRecord | undefined {
    const board = boardWithId(game.record, boardId);
    if (board !== undefined) return board;
    const current = OLD_BOARD_IDS.get(boardId);
    return current === undefined ? undefined : boardWithId(game.record, current);
}

/** The board's table for the current period, or undefined when that period has no entries yet. */
export function liveTable(ctx: Ctx, game: GameState, board: BoardRecord): BoardTable | undefined {
    if (board.scoreboardId === 'all-time') return game.global;
    const table = game.boards.get(board.scoreboardId);
    if (table === undefined) return undefined;
    const now = ctx.env.now();
    // Still in the period whose end the rollover keeps (rollover.ts): no date arithmetic (~35 K).
    const end = game.periodEnds.get(board.scoreboardId);
    if (end !== undefined && table.period === board.periodStart && board.periodStart <= now && now < end) return table;
    return table.period === currentPeriod(board, now) ? table : undefined;
}

/**
 * The table a read of the board sees: its live table, or with `filter` (`<key>:<value>`, absent:
 * none) the view of that value's entries (filters.ts; undefined when none has it). 400 for a
 * key the board does not declare.
 */
export function readTable(ctx: Ctx, game: GameState, board: BoardRecord, filter: unknown): BoardTable | undefined {
    const table = liveTable(ctx, game, board);
    if (filter === undefined || filter === null) return table;
    const parsed = parseFilter(filter);
    if ('error' in parsed) throw new Fail(400, parsed.error);
    const { key, value } = parsed.ok;
    if (!(board.filters ?? []).includes(key)) {
        const declared = board.filters === undefined ? 'it has none' : `its filters: ${board.filters.join(', ')}`;
        throw new Fail(
            400,
            invalid('filter', `'${key}' is not a filter of board '${board.scoreboardId}' (${declared})`),
        );
    }
    return table === undefined ? undefined : filteredTable(table, key, value);
}

/** The global table as a read with `filter` sees it (the all-time board's filters). */
function globalTable(ctx: Ctx, game: GameState, filter: unknown): BoardTable | undefined {
    if (filter === undefined || filter === null) return game.global;
    const board = allTimeBoard(game.record);
    if (board === undefined) throw new Fail(400, invalid('filter', 'this game has no all-time board to filter'));
    return readTable(ctx, game, board, filter);
}

/** A page of a board: its game, current table (if any), order, first place (1-based), size and ties. */
type Page = [game: GameState, table: BoardTable | undefined, sortBy: SortBy, start: number, count: number, ties: Ties];

/**
 * A page's entries as the JSON texts `stringify` writes for entriesOf's objects (`withTime`:
 * with submittedAt and metadata, as boards show them; without: the global leaderboard's
 * fields), written as `quoting` says.
 */
function entriesText(
    withTime: boolean,
    quoting: Quoting,
    ...[game, table, sortBy, start, count, ties]: Page
): string[] {
    if (table === undefined) return [];
    const shared = sharedRanker(table, sortBy, start, ties);
    const ids = rankIndex(table, sortBy).range(start, count);
    return entryTexts(game.players, table, ids, start, shared, withTime, quoting);
}

function entriesOf(...[game, table, sortBy, start, count, ties]: Page): BoardEntry[] {
    if (table === undefined) return [];
    const shared = sharedRanker(table, sortBy, start, ties);
    const ids = rankIndex(table, sortBy).range(start, count);
    const entries: BoardEntry[] = ids.map((id, i) => ({
        rank: shared === undefined ? start + i : shared(id, i),
        nickname: nicknameOf(game.players, table.slot[id]),
        score: table.score[id],
        streak: table.streak[id],
        authType: authTypeOf(game.players, table.slot[id]),
        submittedAt: ns(table.submittedAt[id]),
    }));
    // Only a board where some entry has metadata looks it up: others cost what they did.
    if (table.metadata !== undefined) ids.forEach((id, i) => withMetadata(entries[i]!, metadataOf(table, id)));
    // Only a board with a tiebreak shows them (after metadata, as entryTexts writes them).
    if (table.tiebreak !== undefined)
        ids.forEach((id, i) => {
            const tiebreak = tiebreakOf(table, id);
            if (tiebreak !== undefined) entries[i]!.tiebreak = tiebreak;
        });
    return entries;
}

/** An entry with its metadata (kept as JSON text) when it has some. */
function withMetadata(entry: BoardEntry, text: string | undefined): BoardEntry {
    if (text !== undefined) entry.metadata = JSON.parse(text) as BoardEntry['metadata'];
    return entry;
}

/** The entry at a place (1-based) of a board's current table, as its pages show it. */
export function entryAt(game: GameState, table: BoardTable, sortBy: SortBy, place: number, ties: Ties): BoardEntry {
    return entriesOf(game, table, sortBy, place, 1, ties)[0];
}

/** A page of a board's current period from `offset` (0-based), with each entry's player slot. */
export function boardPage(
    ctx: Ctx,
    game: GameState,
    boardId: string,
    offset: number,
    count: number,
    filter?: unknown,
): Array<BoardEntry & { slot: number }> {
    const board = boardOf(game, boardId);
    const table = readTable(ctx, game, board, filter);
    if (table === undefined) return [];
    const slots = rankIndex(table, board.sortBy)
        .range(offset + 1, count)
        .map((id) => table.slot[id]);
    return entriesOf(game, table, board.sortBy, offset + 1, count, tiesOf(board)).map((e, i) => ({
        ...e,
        slot: slots[i]!,
    }));
}

/** GET /leaderboard: the game's players by best score or best streak. */
export function leaderboard(ctx: Ctx, req: Untrusted<RequestOf<'leaderboard'>>): Leaderboard {
    const game = requireGame(ctx, req.gameId);
    const sort = sortOf(req.sort);
    const table = globalTable(ctx, game, req.filter);
    const entries = entriesOf(game, table, sort, 1, clampLimit(req.limit), globalTies(game));
    return {
        leaderboard: entries.map(({ rank, nickname, score, streak, authType }) => ({
            rank,
            nickname,
            score,
            streak,
            authType,
        })),
        total: table === undefined ? 0 : rankIndex(table, sort).size(),
    };
}

/** The leaderboard method: the same reply, rendered as text (entryTexts) written as `quoting` says. */
export function leaderboardJson(
    ctx: Ctx,
    req: Untrusted<RequestOf<'leaderboard'>>,
    quoting: Quoting = 'json',
): Leaderboard {
    const game = requireGame(ctx, req.gameId);
    const sort = sortOf(req.sort);
    const table = globalTable(ctx, game, req.filter);
    const entries = entriesText(false, quoting, game, table, sort, 1, clampLimit(req.limit), globalTies(game));
    const total = table === undefined ? 0 : rankIndex(table, sort).size();
    const [open, close] = [quoted('{"leaderboard":[', quoting), quoted('],"total":', quoting)];
    return rawJson(`${open}${entries.join(',')}${close}${total}}`, quoting);
}

function sortOf(sort: unknown): SortBy {
    if (sort === undefined || sort === null || sort === 'score') return 'score';
    if (sort === 'streak') return 'streak';
    throw new Fail(400, invalid('sort', 'must be score or streak'));
}

export function listBoards(ctx: Ctx, req: Untrusted<RequestOf<'list_boards'>>): BoardList {
    const game = requireGame(ctx, req.gameId);
    return {
        gameId: game.record.gameId,
        scoreboards: game.record.boards.map((b) => {
            const table = liveTable(ctx, game, b);
            const { scoreboardId, name, description, period, sortBy, targeted, isActive } = b;
            const lastReset = ns(currentPeriod(b, ctx.env.now()));
            return {
                scoreboardId,
                name,
                description,
                period,
                sortBy,
                targeted,
                entryCount: table === undefined ? 0 : entryCount(table),
                lastReset,
                isActive,
            };
        }),
    };
}

/** A board's current period from `offset`: its reply as objects (for the canister's own renderers). */
export function readBoard(ctx: Ctx, req: Untrusted<RequestOf<'read_board'>>): Board {
    const { head, entries, totalEntries } = boardRead(ctx, req, entriesOf);
    return { ...head, entries, totalEntries };
}

/**
 * The read_board method (and its direct read): the same reply, rendered as text (entryTexts)
 * written as `quoting` says.
 */
export function readBoardJson(ctx: Ctx, req: Untrusted<RequestOf<'read_board'>>, quoting: Quoting = 'json'): Board {
    const { head, entries, totalEntries } = boardRead(ctx, req, (...page) => entriesText(true, quoting, ...page));
    const [open, close] = [
        quoted(`${stringify(head).slice(0, -1)},"entries":[`, quoting),
        quoted('],"totalEntries":', quoting),
    ];
    return rawJson(`${open}${entries.join(',')}${close}${totalEntries}}`, quoting);
}

/** A board read with each entry as its JSON text (the direct reads' renderer hashes them one by one). */
export function readBoardTexts(
    ctx: Ctx,
    req: Untrusted<RequestOf<'read_board'>>,
): { head: Pick<Board, 'scoreboardId' | 'config'>; entries: string[]; totalEntries: number } {
    return boardRead(ctx, req, (...page) => entriesText(true, 'json', ...page));
}

/** A board read's head (id, config), size, and its entries as `render` gives them. */
function boardRead<E>(
    ctx: Ctx,
    req: Untrusted<RequestOf<'read_board'>>,
    render: (...page: Page) => E,
): { head: Pick<Board, 'scoreboardId' | 'config'>; entries: E; totalEntries: number } {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const table = readTable(ctx, game, board, req.filter);
    return {
        head: {
            scoreboardId: board.scoreboardId,
            config: {
                name: board.name,
                description: board.description,
                period: board.period,
                sortBy: board.sortBy,
                lastReset: ns(currentPeriod(board, ctx.env.now())),
            },
        },
        totalEntries: table === undefined ? 0 : entryCount(table),
        entries: render(game, table, board.sortBy, 1 + offsetOf(req.offset), clampLimit(req.limit), tiesOf(board)),
    };
}

/** Entries skipped from the top: the rank index finds any place in O(log n), so every page costs the same. */
const offsetOf = (v: unknown): number =>
    typeof v === 'number' && Number.isInteger(v) && v > 0 ? Math.min(v, MAX_OFFSET) : 0;

/**
 * A packed read's key bytes (`<gameId>/<playerId>` as the request named them), only when the
 * game found is the game the request named: a key never reads another game's players.
 */
const keyOfGame = (game: GameState, gameId: unknown, keyBytes: Uint8Array): Uint8Array | undefined =>
    game.record.gameId === gameId ? keyBytes : undefined;

/**
 * A player's rank on a board: `found: false` (with the board size) when they have no entry this
 * period. `own` (the gateway's own-player read): with their held score if they have one.
 * `keyBytes`: a packed read's key (keyOfGame).
 */
export function boardRank(
    ctx: Ctx,
    req: Untrusted<RequestOf<'board_rank'>>,
    own = false,
    keyBytes?: Uint8Array,
): BoardRank {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const key = keyBytes === undefined ? undefined : keyOfGame(game, req.gameId, keyBytes);
    const slot = namedSlot(ctx, game.record.gameId, req.playerId, key);
    const playerId = req.playerId as string;
    const asked = wantsPercentile(req.percentile);
    if (own && board.review?.mode === 'hold') {
        const held = heldBoardRank(ctx, game, board, playerId, req.filter, asked);
        if (held !== undefined) return held;
    }
    const table = readTable(ctx, game, board, req.filter);
    const totalPlayers = table === undefined ? 0 : entryCount(table);
    const id = slot === undefined || table === undefined ? undefined : entryOf(table, slot);
    const rank = id === undefined ? undefined : rankOf(table!, board.sortBy, id, tiesOf(board));
    if (rank === undefined || id === undefined) {
        return { found: false as const, message: NO_BOARD_ENTRY, totalPlayers };
    }
    const reply = { found: true as const, rank, score: table!.score[id], streak: table!.streak[id], totalPlayers };
    return withPercentile(reply, asked, rank, totalPlayers);
}

/** GET /players/{id}/rank: rank on the global board by best score or streak (`own`: with a held all-time score). */
export function playerRank(
    ctx: Ctx,
    req: Untrusted<RequestOf<'player_rank'>>,
    own = false,
    keyBytes?: Uint8Array,
): PlayerRank {
    const game = requireGame(ctx, req.gameId);
    const key = keyBytes === undefined ? undefined : keyOfGame(game, req.gameId, keyBytes);
    const slot = namedSlot(ctx, game.record.gameId, req.playerId, key);
    const sort = sortOf(req.sort);
    const asked = wantsPercentile(req.percentile);
    if (own) {
        const held = heldPlayerRank(ctx, game, req.playerId as string, sort, asked);
        if (held !== undefined) return held;
    }
    const id = slot === undefined ? undefined : entryOf(game.global, slot);
    const rank = id === undefined ? undefined : rankOf(game.global, sort, id, globalTies(game));
    if (slot === undefined) throw new Fail(404, MESSAGES.playerNotFound);
    if (id === undefined || rank === undefined)
        throw new Fail(404, 'Player has no score on the global leaderboard yet (only targeted boards)');
    const totalPlayers = rankIndex(game.global, sort).size();
    const reply = { rank, score: game.global.score[id], streak: game.global.streak[id], totalPlayers };
    return withPercentile(reply, asked, rank, totalPlayers);
}

/** player_rank and own_player_rank: the same reply, written as text (rankJson). */
export function playerRankJson(ctx: Ctx, req: Untrusted<RequestOf<'player_rank'>>, own = false): PlayerRank {
    return rankJson(playerRank(ctx, req, own));
}

/** board_rank and own_board_rank: the same reply, written as text (rankJson). */
export function boardRankJson(ctx: Ctx, req: Untrusted<RequestOf<'board_rank'>>, own = false): BoardRank {
    return rankJson(boardRank(ctx, req, own));
}

/**
 * A rank reply as the text JSON.stringify writes for it (~35 K instructions less than its walk
 * of the object), a found one already quoted for the reply's Candid text (no quote to escape
 * after: ~20 K less); a reply with a number JSON writes as null is left to JSON.stringify.
 */
function rankJson<R extends PlayerRank | BoardRank>(r: R): R {
    if (!Number.isFinite(r.totalPlayers)) return r;
    if ('found' in r && !r.found)
        return rawJson(`{"found":false,"message":${JSON.stringify(r.message)},"totalPlayers":${r.totalPlayers}}`);
    const p = r as PlayerRank;
    if (!Number.isFinite(p.rank + p.score + p.streak)) return r;
    const head = 'found' in r ? '{\\"found\\":true,' : '{';
    const tail = p.percentile === undefined ? '}' : `,\\"percentile\\":${p.percentile}}`;
    return rawJson(
        `${head}\\"rank\\":${p.rank},\\"score\\":${p.score},\\"streak\\":${p.streak},\\"totalPlayers\\":${p.totalPlayers}${tail}`,
        'candid',
    );
}

/** An around-me window: 0..AROUND.max entries (absent or invalid: the default). */
export const aroundWindow = (v: unknown): number =>
    typeof v === 'number' && Number.isInteger(v) && v >= 0 ? Math.min(v, AROUND.max) : AROUND.default;

/** The entries just above and below a player on a board (O(log n) to find them): around-me. */
export function around(ctx: Ctx, req: Untrusted<RequestOf<'around'>>): ReplyOf<'around'> {
    const read = aroundRead(ctx, req, false);
    if ('held' in read) return read.held;
    const { window, asked, total, place } = read;
    const entries = entriesOf(...window);
    const rank = entries[place - window[3]].rank;
    return withPercentile({ rank, entries }, asked, rank, total);
}

/**
 * The around method (and its direct read): the same reply, rendered as text (entryTexts) written
 * as `quoting` says.
 */
export function aroundJson(
    ctx: Ctx,
    req: Untrusted<RequestOf<'around'>>,
    own = false,
    quoting: Quoting = 'json',
): ReplyOf<'around'> {
    const read = aroundRead(ctx, req, own);
    if ('held' in read) return read.held;
    const { window, asked, total, rank } = read;
    const entries = entriesText(true, quoting, ...window).join(',');
    const tail = asked ? `,"percentile":${percentile(rank, total)}` : '';
    const [open, close] = [quoted(`{"rank":${rank},"entries":[`, quoting), quoted(`]${tail}}`, quoting)];
    return rawJson(`${open}${entries}${close}`, quoting);
}

/**
 * An around-me read's window as entriesOf takes it (game, table, sortBy, first place, count,
 * ties), the player's place and rank as the board shows it, the board's size and whether the
 * percentile was asked for; `own` (the player's own read): their held score's answer if any.
 */
function aroundRead(
    ctx: Ctx,
    req: Untrusted<RequestOf<'around'>>,
    own: boolean,
):
    | {
          window: Page;
          asked: boolean;
          total: number;
          place: number;
          rank: number;
      }
    | { held: ReplyOf<'around'> } {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const slot = namedSlot(ctx, game.record.gameId, req.playerId);
    const asked = wantsPercentile(req.percentile);
    if (own && board.review?.mode === 'hold') {
        const held = heldAround(ctx, game, board, req.playerId as string, req, asked);
        if (held !== undefined) return { held };
    }
    const table = readTable(ctx, game, board, req.filter);
    const id = slot === undefined || table === undefined ? undefined : entryOf(table, slot);
    // The window is by place on the board; the rank shown may be shared (ties: 'shared').
    const place = id === undefined ? undefined : rankIndex(table!, board.sortBy).rank(id);
    if (place === undefined) throw new Fail(404, 'Player has no entry on this scoreboard');
    const start = Math.max(1, place - aroundWindow(req.before));
    const count = place - start + 1 + aroundWindow(req.after);
    const ties = tiesOf(board);
    const rank = ties === 'distinct' ? place : rankOf(table!, board.sortBy, id!, ties)!;
    const window: [GameState, BoardTable, SortBy, number, number, Ties] = [
        game,
        table!,
        board.sortBy,
        start,
        count,
        ties,
    ];
    return { window, asked, total: entryCount(table!), place, rank };
}

type ArchivedEntry = ArchiveRecord['entries'][number];

/**
 * An archive's entries as they read today: a player merged into an account shows as that
 * account (one entry, merged by the board's order and operator), a removed player is gone.
 * Archives written before entries carried slots read as they were written.
 */
function liveArchive(game: GameState, archive: ArchiveRecord): { entries: ArchivedEntry[]; entryCount: number } {
    const wipes = game.record.archiveWipes?.filter((w) => archive.periodStart < w.before);
    if (game.retired.size === 0 && (wipes === undefined || wipes.length === 0))
        return { entries: archive.entries, entryCount: archive.entryCount };
    const wiped = new Set(wipes?.map((w) => w.slot));
    // Entries are in rank order: the first of a player's keeps the ranked value, and its metadata.
    const out: ArchivedEntry[] = [];
    const bySlot = new Map<number, ArchivedEntry>();
    let gone = 0;
    let moved = false;
    for (const e of archive.entries) {
        let slot = e.slot;
        for (let hops = 0; slot !== undefined && slot >= 0 && game.retired.has(slot) && hops < 8; hops++)
            slot = game.retired.get(slot);
        if (slot === -1 || (slot !== undefined && (wiped.has(slot) || wiped.has(e.slot!)))) {
            gone++;
            continue;
        }
        if (slot !== e.slot) moved = true;
        const entry =
            slot === undefined || slot === e.slot
                ? { ...e }
                : { ...e, slot, nickname: nicknameOf(game.players, slot), authType: authTypeOf(game.players, slot) };
        const same = slot === undefined ? undefined : bySlot.get(slot);
        if (same === undefined) {
            out.push(entry);
            if (slot !== undefined) bySlot.set(slot, entry);
            continue;
        }
        mergeArchived(same, entry, archive);
        gone++;
    }
    if (moved) {
        // Stable: equal values keep who reached them first. Streaks rank highest-first on every board.
        const key = archive.sortBy === 'streak' ? 'streak' : 'score';
        const sign = key === 'score' && archive.sortOrder === 'asc' ? -1 : 1;
        const order = key === 'score' ? archive.tiebreak : undefined;
        out.sort(
            (a, b) =>
                sign * (b[key] - a[key]) ||
                (order === undefined || a.tiebreak === b.tiebreak
                    ? 0
                    : tiebreakBefore(a.tiebreak, b.tiebreak, order)
                      ? -1
                      : 1),
        );
    }
    return { entries: out, entryCount: Math.max(0, archive.entryCount - gone) };
}

/**
 * Two archived entries of one player (an account and the player merged into it), by the board's
 * rule then. `into` comes first in rank order: under `best` it holds the ranked value and keeps
 * its metadata; under `latest` and `sum` the later entry's metadata is the entry's.
 */
function mergeArchived(into: ArchivedEntry, other: ArchivedEntry, archive: ArchiveRecord): void {
    const later = other.submittedAt > into.submittedAt;
    if (later && (archive.operator === 'latest' || archive.operator === 'sum')) into.metadata = other.metadata;
    if (archive.tiebreak !== undefined) {
        // The tiebreak goes with the score kept: the later one's under latest and sum; under
        // best the first's (it ranks first) unless the other's score is the one kept.
        const takes =
            archive.operator === 'latest' || archive.operator === 'sum'
                ? later
                : other.score === into.score
                  ? tiebreakBefore(other.tiebreak, into.tiebreak, archive.tiebreak)
                  : false;
        if (takes) {
            if (other.tiebreak === undefined) delete into.tiebreak;
            else into.tiebreak = other.tiebreak;
        }
    }
    if (archive.operator === 'latest') {
        if (later) {
            into.score = other.score;
            into.streak = other.streak;
        }
    } else {
        into.score =
            archive.operator === 'sum'
                ? addCapped(into.score, other.score)
                : archive.sortOrder === 'asc'
                  ? Math.min(into.score, other.score)
                  : Math.max(into.score, other.score);
        into.streak = Math.max(into.streak, other.streak);
    }
    if (later) into.submittedAt = other.submittedAt;
}

export function listArchives(ctx: Ctx, req: Untrusted<RequestOf<'list_archives'>>): ArchiveList {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const archives = [...board.archives].reverse().map((start) => {
        const stored = ctx.store.archives.get(archiveKey(game.record.gameId, board.scoreboardId, start));
        const a = stored === undefined ? undefined : liveArchive(game, stored);
        return {
            archiveId: archiveId(game.record.gameId, board.scoreboardId, start),
            periodStart: ns(start),
            periodEnd: ns(stored?.periodEnd ?? start),
            entryCount: a?.entryCount ?? 0,
            topPlayer: a?.entries[0]?.nickname ?? null,
            topScore:
                a?.entries[0] === undefined
                    ? null
                    : board.sortBy === 'streak'
                      ? a.entries[0].streak
                      : a.entries[0].score,
        };
    });
    return { gameId: game.record.gameId, scoreboardId: board.scoreboardId, archives };
}

/**
 * How many periods each timed board (every board but all-time ones: a custom board without an
 * interval archives when reset by hand) has archived, and the newest one's end (0: none yet).
 */
export function archiveStats(ctx: Ctx, req: Untrusted<RequestOf<'archive_stats'>>): ArchiveStats {
    const game = requireGame(ctx, req.gameId);
    const gameId = game.record.gameId;
    const byScoreboard = game.record.boards
        .filter((b) => b.period !== 'allTime')
        .map((board) => {
            const newest = board.archives[board.archives.length - 1];
            const end =
                newest === undefined
                    ? 0
                    : (ctx.store.archives.get(archiveKey(gameId, board.scoreboardId, newest))?.periodEnd ?? newest);
            return { scoreboardId: board.scoreboardId, archiveCount: board.archives.length, latestPeriodEnd: ns(end) };
        });
    return { gameId, totalArchives: byScoreboard.reduce((n, b) => n + b.archiveCount, 0), byScoreboard };
}

/** One archived period: the latest of a board, or by archive id. */
export function readArchive(
    ctx: Ctx,
    req: Untrusted<{ gameId: string; boardId: string; archiveId: string; limit: number }>,
): Archive {
    const { slots: _slots, stored: _stored, ...archive } = archivePage(ctx, req, 0, clampLimit(req.limit));
    return archive;
}

/**
 * `count` entries of an archived period from `offset` (0-based), with each entry's player slot
 * (undefined in archives written before entries carried slots) and how many entries it keeps.
 */
export function archivePage(
    ctx: Ctx,
    req: Untrusted<{ gameId: string; boardId: string; archiveId: string }>,
    offset: number,
    count: number,
): Archive & { slots: Array<number | undefined>; stored: number } {
    const game = requireGame(ctx, req.gameId);
    let boardId: string;
    let start: number;
    if (req.archiveId !== undefined) {
        const parsed = typeof req.archiveId === 'string' ? parseArchiveId(req.archiveId) : undefined;
        if (parsed === undefined || parsed.gameId !== game.record.gameId) throw new Fail(404, MESSAGES.archiveNotFound);
        boardId = parsed.boardId;
        start = parsed.periodStart;
    } else {
        const board = boardOf(game, req.boardId);
        const latest = board.archives[board.archives.length - 1];
        if (latest === undefined) throw new Fail(404, 'This scoreboard has no archived periods yet');
        boardId = board.scoreboardId;
        start = latest;
    }
    const archive = ctx.store.archives.get(archiveKey(game.record.gameId, boardId, start));
    if (archive === undefined) throw new Fail(404, MESSAGES.archiveNotFound);
    const live = liveArchive(game, archive);
    const end = offset + Math.min(count, ARCHIVE_ENTRIES);
    const page = live.entries.slice(offset, end);
    // Ties are how a board shows its values: its current setting applies to its archives too
    // (a shared rank may reach back before the page: ranked from the top, at most ARCHIVE_ENTRIES).
    const ranks = archiveRanks(
        archive,
        live.entries.slice(0, end),
        tiesOf(game.record.boards.find((b) => b.scoreboardId === boardId)),
    ).slice(offset);
    return {
        archiveId: archiveId(game.record.gameId, boardId, start),
        config: {
            name: archive.name,
            period: archive.period,
            sortBy: archive.sortBy,
            periodStart: ns(archive.periodStart),
            periodEnd: ns(archive.periodEnd),
        },
        entries: page.map((e, i) => {
            const entry = withMetadata(
                {
                    rank: ranks[i],
                    nickname: e.nickname,
                    score: e.score,
                    streak: e.streak,
                    authType: e.authType,
                    submittedAt: ns(e.submittedAt),
                },
                e.metadata,
            );
            if (archive.tiebreak !== undefined && e.tiebreak !== undefined) entry.tiebreak = e.tiebreak;
            return entry;
        }),
        totalEntries: live.entryCount,
        slots: page.map((e) => e.slot),
        stored: live.entries.length,
    };
}

/** GET /game: public metadata. */
export function gameInfo(ctx: Ctx, req: Untrusted<RequestOf<'game_info'>>): GameInfo {
    const game = requireGame(ctx, req.gameId);
    const stats = statsOf(ctx, game.record.gameId);
    return {
        gameId: game.record.gameId,
        name: game.record.name,
        description: game.record.description,
        totalPlayers: stats.players - (stats.retired ?? 0),
        totalPlays: stats.plays,
        isActive: game.record.isActive,
        timeValidationEnabled: game.record.timeValidation.enabled,
        scoreboards: game.record.boards.map((b) => ({ scoreboardId: b.scoreboardId, name: b.name, period: b.period })),
    };
}

export function gameStats(ctx: Ctx, req: Untrusted<RequestOf<'game_stats'>>): GameStats {
    const gameId = requireGame(ctx, req.gameId).record.gameId;
    const stats = statsOf(ctx, gameId);
    return {
        gameId,
        totalPlayers: stats.players - (stats.retired ?? 0),
        totalPlays: stats.plays,
        submissions: { total: stats.submissions, today: stats.today },
    };
}

export function platformStats(ctx: Ctx): PlatformStats {
    const stats = statsOf(ctx, '*');
    return { total: stats.submissions, today: stats.today, date: new Date(stats.day).toISOString().slice(0, 10) };
}
