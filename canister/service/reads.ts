// Public reads, all from the heap tables (never scanning a board): the global leaderboard,
// board lists and boards, ranks, the window around a player, archives and their counts, game
// metadata and stats. A board whose period has ended reads as the new, empty period even before the
// rollover has been written.
import type { RequestOf } from '../../contract/canister';
import { MESSAGES, boardNotFound } from '../../contract/messages';
import { AROUND, MAX_OFFSET, checkBoardId, clampLimit, invalid } from '../../contract/rules';
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
import { ns } from '../domain/json';
import { archiveId, parseArchiveId } from '../domain/periods';
import { findPlayer } from './players';
import { requirePlayerRef } from './credentials';
import type { ArchiveRecord, BoardRecord } from '../state/records';
import { ARCHIVE_ENTRIES, archiveKey } from './rollover';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { currentPeriod, requireGame } from '../state/game-state';
import { statsOf } from '../state/stats';
import { authTypeOf, entryCount, entryOf, metadataOf, nicknameOf, rankIndex, type BoardTable } from '../state/tables';

function boardOf(game: GameState, boardId: unknown): BoardRecord {
    const error = checkBoardId(boardId);
    if (error) throw new Fail(400, error);
    const board = game.record.boards.find((b) => b.scoreboardId === boardId);
    if (board === undefined) throw new Fail(404, boardNotFound(String(boardId)));
    return board;
}

/** The board's table for the current period, or undefined when that period has no entries yet. */
function liveTable(ctx: Ctx, game: GameState, board: BoardRecord): BoardTable | undefined {
    if (board.scoreboardId === 'all-time') return game.global;
    const table = game.boards.get(board.scoreboardId);
    if (table === undefined || table.period !== currentPeriod(board, ctx.env.now())) return undefined;
    return table;
}

function entriesOf(
    game: GameState,
    table: BoardTable | undefined,
    sortBy: SortBy,
    start: number,
    count: number,
): BoardEntry[] {
    if (table === undefined) return [];
    const ids = rankIndex(table, sortBy).range(start, count);
    const entries: BoardEntry[] = ids.map((id, i) => ({
        rank: start + i,
        nickname: nicknameOf(game.players, table.slot[id]),
        score: table.score[id],
        streak: table.streak[id],
        authType: authTypeOf(game.players, table.slot[id]),
        submittedAt: ns(table.submittedAt[id]),
    }));
    // Only a board where some entry has metadata looks it up: others cost what they did.
    if (table.metadata !== undefined) ids.forEach((id, i) => withMetadata(entries[i]!, metadataOf(table, id)));
    return entries;
}

/** An entry with its metadata (kept as JSON text) when it has some. */
function withMetadata(entry: BoardEntry, text: string | undefined): BoardEntry {
    if (text !== undefined) entry.metadata = JSON.parse(text) as BoardEntry['metadata'];
    return entry;
}

/** A page of a board's current period from `offset` (0-based), with each entry's player slot. */
export function boardPage(
    ctx: Ctx,
    game: GameState,
    boardId: string,
    offset: number,
    count: number,
): Array<BoardEntry & { slot: number }> {
    const board = boardOf(game, boardId);
    const table = liveTable(ctx, game, board);
    if (table === undefined) return [];
    const slots = rankIndex(table, board.sortBy)
        .range(offset + 1, count)
        .map((id) => table.slot[id]);
    return entriesOf(game, table, board.sortBy, offset + 1, count).map((e, i) => ({ ...e, slot: slots[i]! }));
}

/** GET /leaderboard: the game's players by best score or best streak. */
export function leaderboard(ctx: Ctx, req: Untrusted<RequestOf<'leaderboard'>>): Leaderboard {
    const game = requireGame(ctx, req.gameId);
    const sort = sortOf(req.sort);
    const entries = entriesOf(game, game.global, sort, 1, clampLimit(req.limit));
    return {
        leaderboard: entries.map(({ rank, nickname, score, streak, authType }) => ({
            rank,
            nickname,
            score,
            streak,
            authType,
        })),
        total: rankIndex(game.global, sort).size(),
    };
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

export function readBoard(ctx: Ctx, req: Untrusted<RequestOf<'read_board'>>): Board {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const table = liveTable(ctx, game, board);
    return {
        scoreboardId: board.scoreboardId,
        config: {
            name: board.name,
            description: board.description,
            period: board.period,
            sortBy: board.sortBy,
            lastReset: ns(currentPeriod(board, ctx.env.now())),
        },
        entries: entriesOf(game, table, board.sortBy, 1 + offsetOf(req.offset), clampLimit(req.limit)),
        totalEntries: table === undefined ? 0 : entryCount(table),
    };
}

/** Entries skipped from the top: the rank index finds any place in O(log n), so every page costs the same. */
const offsetOf = (v: unknown): number =>
    typeof v === 'number' && Number.isInteger(v) && v > 0 ? Math.min(v, MAX_OFFSET) : 0;

/** A player's rank on a board: `found: false` (with the board size) when they have no entry this period. */
export function boardRank(ctx: Ctx, req: Untrusted<RequestOf<'board_rank'>>): BoardRank {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const playerId = requirePlayerRef(req.playerId);
    const table = liveTable(ctx, game, board);
    const totalPlayers = table === undefined ? 0 : entryCount(table);
    const player = findPlayer(ctx, game.record.gameId, playerId);
    const id = player === undefined || table === undefined ? undefined : entryOf(table, player.slot);
    const rank = id === undefined ? undefined : rankIndex(table!, board.sortBy).rank(id);
    if (rank === undefined || id === undefined) {
        return { found: false as const, message: 'No entry on this scoreboard for this period yet.', totalPlayers };
    }
    return { found: true as const, rank, score: table!.score[id], streak: table!.streak[id], totalPlayers };
}

/** GET /players/{id}/rank: rank on the global board by best score or streak. */
export function playerRank(ctx: Ctx, req: Untrusted<RequestOf<'player_rank'>>): PlayerRank {
    const game = requireGame(ctx, req.gameId);
    const playerId = requirePlayerRef(req.playerId);
    const sort = sortOf(req.sort);
    const player = findPlayer(ctx, game.record.gameId, playerId);
    const id = player === undefined ? undefined : entryOf(game.global, player.slot);
    const rank = id === undefined ? undefined : rankIndex(game.global, sort).rank(id);
    if (player === undefined) throw new Fail(404, MESSAGES.playerNotFound);
    if (id === undefined || rank === undefined)
        throw new Fail(404, 'Player has no score on the global leaderboard yet (only targeted boards)');
    return {
        rank,
        score: game.global.score[id],
        streak: game.global.streak[id],
        totalPlayers: rankIndex(game.global, sort).size(),
    };
}

/** An around-me window: 0..AROUND.max entries (absent or invalid: the default). */
const aroundWindow = (v: unknown): number =>
    typeof v === 'number' && Number.isInteger(v) && v >= 0 ? Math.min(v, AROUND.max) : AROUND.default;

/** The entries just above and below a player on a board (O(log n) to find them): around-me. */
export function around(ctx: Ctx, req: Untrusted<RequestOf<'around'>>): { rank: number; entries: BoardEntry[] } {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const playerId = requirePlayerRef(req.playerId);
    const table = liveTable(ctx, game, board);
    const player = findPlayer(ctx, game.record.gameId, playerId);
    const id = player === undefined || table === undefined ? undefined : entryOf(table, player.slot);
    const rank = id === undefined ? undefined : rankIndex(table!, board.sortBy).rank(id);
    if (rank === undefined) throw new Fail(404, 'Player has no entry on this scoreboard');
    const before = aroundWindow(req.before);
    const after = aroundWindow(req.after);
    const start = Math.max(1, rank - before);
    return { rank, entries: entriesOf(game, table, board.sortBy, start, rank - start + 1 + after) };
}

type ArchivedEntry = ArchiveRecord['entries'][number];

/**
 * An archive's entries as they read today: a player merged into an account shows as that
 * account (one entry, per-field maxima), a removed player is gone. Archives written before
 * entries carried slots read as they were written.
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
        same.score = Math.max(same.score, entry.score);
        same.streak = Math.max(same.streak, entry.streak);
        same.submittedAt = Math.max(same.submittedAt, entry.submittedAt);
        gone++;
    }
    if (moved) {
        const key = archive.sortBy === 'streak' ? 'streak' : 'score';
        out.sort((a, b) => b[key] - a[key]); // stable: equal values keep who reached them first
    }
    return { entries: out, entryCount: Math.max(0, archive.entryCount - gone) };
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
    const limit = Math.min(clampLimit(req.limit), ARCHIVE_ENTRIES);
    const live = liveArchive(game, archive);
    return {
        archiveId: archiveId(game.record.gameId, boardId, start),
        config: {
            name: archive.name,
            period: archive.period,
            sortBy: archive.sortBy,
            periodStart: ns(archive.periodStart),
            periodEnd: ns(archive.periodEnd),
        },
        entries: live.entries.slice(0, limit).map((e, i) =>
            withMetadata(
                {
                    rank: i + 1,
                    nickname: e.nickname,
                    score: e.score,
                    streak: e.streak,
                    authType: e.authType,
                    submittedAt: ns(e.submittedAt),
                },
                e.metadata,
            ),
        ),
        totalEntries: live.entryCount,
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
