// A held score as its own player sees it (review 'hold', docs/boards.md#review-of-implausible-scores):
// their rank and around-me in the gateway's own-player reads (reads.ts, `own`), never the anonymous
// ones. Boards without hold pay one field read; a held player's read one lookup and one descent.
import type { RequestOf } from '../../contract/canister';
import type { Around, BoardEntry, BoardRank, PlayerRank, SortBy } from '../../contract/schemas';
import { applySubmit, type Best } from '../domain/bests';
import { ns } from '../domain/json';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { allTimeBoard, currentPeriod } from '../state/game-state';
import { isCurrentEntry, type BoardRecord, type PlayerRecord } from '../state/records';
import { authTypeOf, entryCount, entryOf, rankIndex, type BoardTable } from '../state/tables';
import { findPlayer } from './players';
import { tiesOf, withPercentile } from './ranks';
import { aroundWindow, entryAt, liveTable } from './reads';
import { heldRecord } from './review';

/** The player's entry as it would be with their held score, and where it would rank. */
interface HeldView {
    best: Best;
    at: number;
    metadata: string | undefined;
    player: PlayerRecord;
    /** 1 + the entries strictly better (by `sortBy`). */
    rank: number;
    /** The board's entries, counting the held one once. */
    total: number;
    /** The place of the player's public entry on the board (undefined: none). */
    publicPlace: number | undefined;
    table: BoardTable | undefined;
}

/** The held view of `playerId` on `board` ranked by `sortBy`, or undefined (no hold, nothing held, a filtered read). */
function heldView(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    sortBy: SortBy,
    filter: unknown,
): HeldView | undefined {
    if (board.review?.mode !== 'hold' || (filter !== undefined && filter !== null)) return undefined;
    const record = heldRecord(ctx, game, board, playerId);
    if (record === undefined || record.period !== currentPeriod(board, ctx.env.now())) return undefined;
    const player = findPlayer(ctx, game.record.gameId, playerId);
    if (player === undefined) return undefined;
    const allTime = board.scoreboardId === 'all-time';
    const entry = player.boards[board.scoreboardId];
    const current = allTime ? player.best : isCurrentEntry(entry, board) ? entry : undefined;
    const { best, changed } = applySubmit(current, record.score, record.streak, record.at, board);
    if (!changed) return undefined;
    const table = liveTable(ctx, game, board);
    const id = table === undefined ? undefined : entryOf(table, player.slot);
    const index = table === undefined ? undefined : rankIndex(table, sortBy);
    const value = sortBy === 'streak' ? best.streak : best.score;
    const rank = index === undefined ? 1 : 1 + index.countBetter(value);
    const publicPlace = id === undefined ? undefined : index!.rank(id);
    const total = (table === undefined ? 0 : entryCount(table)) + (publicPlace === undefined ? 1 : 0);
    return { best, at: record.at, metadata: record.metadata, player, rank, total, publicPlace, table };
}

/** The player's rank on a `hold` board with their held score, or undefined (nothing held: the board's answer). */
export function heldBoardRank(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    filter: unknown,
    asked: boolean,
): BoardRank | undefined {
    const held = heldView(ctx, game, board, playerId, board.sortBy, filter);
    if (held === undefined) return undefined;
    const { rank, best, total } = held;
    const reply = { found: true as const, rank, score: best.score, streak: best.streak, totalPlayers: total };
    return withPercentile(reply, asked, rank, total);
}

/** The player's global rank with a held all-time score, or undefined (the game's all-time board does not hold, or nothing held). */
export function heldPlayerRank(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    sort: SortBy,
    asked: boolean,
): PlayerRank | undefined {
    const board = allTimeBoard(game.record);
    const held = board === undefined ? undefined : heldView(ctx, game, board, playerId, sort, undefined);
    if (held === undefined) return undefined;
    const { rank, best, total } = held;
    return withPercentile({ rank, score: best.score, streak: best.streak, totalPlayers: total }, asked, rank, total);
}

/**
 * Around-me with a held score, or undefined: its entry at the rank it would have and the board's
 * entries around it (theirs left out, the ones it passes one rank lower).
 */
export function heldAround(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    req: Untrusted<RequestOf<'around'>>,
    asked: boolean,
): Around | undefined {
    const held = heldView(ctx, game, board, playerId, board.sortBy, req.filter);
    if (held === undefined) return undefined;
    const { rank, best, total, table, publicPlace, player } = held;
    const before = aroundWindow(req.before);
    const after = aroundWindow(req.after);
    const ties = tiesOf(board);
    const value = board.sortBy === 'streak' ? best.streak : best.score;
    const entries: BoardEntry[] = [];
    const place = (k: number) => (table === undefined ? undefined : entryAt(game, table, board.sortBy, k, ties));
    for (let k = Math.max(1, rank - before); k < rank; k++) entries.push(place(k)!);
    const mine: BoardEntry = {
        rank,
        nickname: player.nickname,
        score: best.score,
        streak: best.streak,
        authType: authTypeOf(game.players, player.slot),
        submittedAt: ns(held.at),
    };
    if (held.metadata !== undefined) mine.metadata = JSON.parse(held.metadata) as BoardEntry['metadata'];
    entries.push(mine);
    const size = table === undefined ? 0 : entryCount(table);
    for (let k = rank, n = 0; k <= size && n < after; k++) {
        if (k === publicPlace) continue;
        const e = place(k)!;
        // The held entry passes it when its own entry was below it (or it has none), and, with ties shared, the value is worse.
        const passed = publicPlace === undefined || k < publicPlace;
        const worse =
            board.sortBy === 'streak' || board.sortOrder !== 'asc' ? e[board.sortBy] < value : e.score > value;
        if (passed && (ties === 'distinct' || worse)) e.rank += 1;
        entries.push(e);
        n++;
    }
    return withPercentile({ rank, entries }, asked, rank, total);
}

/** The player's all-time best with their held score (their profile), or undefined (the all-time board does not hold, or nothing held). */
export function heldAllTimeBest(ctx: Ctx, game: GameState, playerId: string): Best | undefined {
    const board = allTimeBoard(game.record);
    if (board?.review?.mode !== 'hold') return undefined;
    return heldView(ctx, game, board, playerId, board.sortBy, undefined)?.best;
}
