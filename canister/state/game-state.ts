// A game's heap side: its empty tables, the period rule of a board, and putting a player's
// record into the tables; the game lookup every method starts with.
import type { SortOrder } from '../../contract/board-options';
import type { SortBy } from '../../contract/rules';
import { periodStart, type PeriodRule } from '../domain/periods';
import type { Ctx, GameState } from './context';
import { Fail } from '../domain/fail';
import { isCurrentEntry, type BoardRecord, type GameRecord, type PlayerRecord } from './records';
import { createBoardTable, createPlayerTable, putEntry, setEntryMetadata, setPlayer, type BoardTable } from './tables';
import { declareFilters } from './filters';

export function ruleOf(board: BoardRecord): PeriodRule {
    return { period: board.period, days: board.days, anchor: board.anchor ?? board.createdAt };
}

function boardRanks(board: BoardRecord): SortBy[] {
    return [board.sortBy];
}

/** The order of a board's score index: its sortOrder (absent: highest first). */
export function scoreOrderOf(board: { sortOrder?: SortOrder }): SortOrder {
    return board.sortOrder ?? 'desc';
}

export function newBoardTable(board: BoardRecord, period = board.periodStart): BoardTable {
    return withFilters(createBoardTable(period, boardRanks(board), 16, scoreOrderOf(board), board.tiebreak), board);
}

/** The game's global table (all-time board and profile bests): ranked by the standard boards' order. */
export function newGlobalTable(record: GameRecord): BoardTable {
    const table = createBoardTable(0, ['score', 'streak'], 16, scoreOrderOf(record.standardBoards ?? {}));
    return withFilters(table, allTimeBoard(record));
}

/** The all-time board's record: its options (ties, filters) are the global table's. */
export function allTimeBoard(record: GameRecord): BoardRecord | undefined {
    return boardWithId(record, 'all-time');
}

/** The game's board of this id (a loop: no closure made per read, as `find` needs). */
export function boardWithId(record: GameRecord, boardId: string): BoardRecord | undefined {
    const boards = record.boards;
    for (let i = 0; i < boards.length; i++) if (boards[i].scoreboardId === boardId) return boards[i];
    return undefined;
}

/** The table with its board's filter indexes declared and filled from its entries' metadata. */
export function withFilters(table: BoardTable, board: BoardRecord | undefined): BoardTable {
    if (board?.filters !== undefined) declareFilters(table, board.filters);
    return table;
}

export function emptyGameState(record: GameRecord): GameState {
    const boards = new Map<string, BoardTable>();
    for (const b of record.boards) if (b.scoreboardId !== 'all-time') boards.set(b.scoreboardId, newBoardTable(b));
    return {
        record,
        players: createPlayerTable(),
        global: newGlobalTable(record),
        boards,
        periodEnds: new Map(),
        retired: new Map(),
        leagues: new Map(),
    };
}

/** The game a request names; 404 when there is none. */
export function requireGame(ctx: Ctx, gameId: unknown): GameState {
    const game = typeof gameId === 'string' ? ctx.games.get(gameId) : undefined;
    if (game === undefined) throw new Fail(404, 'Game not found');
    return game;
}

export function saveGame(ctx: Ctx, game: GameState): void {
    ctx.store.games.set(game.record.gameId, game.record);
}

/** Puts a player's record into the game's heap tables. */
export function indexPlayer(game: GameState, player: PlayerRecord): void {
    if (player.retired !== undefined) {
        game.retired.set(player.slot, player.retired.intoSlot ?? -1);
        return;
    }
    setPlayer(game.players, player.slot, player.nickname, player.authType);
    if (player.best !== undefined) {
        putEntry(game.global, player.slot, player.best, player.bestAt ?? player.best.scoreAt);
        setEntryMetadata(game.global, player.slot, player.bestMetadata);
    }
    for (const boardId of Object.keys(player.boards)) {
        const entry = player.boards[boardId]!;
        const board = game.record.boards.find((b) => b.scoreboardId === boardId);
        const table = game.boards.get(boardId);
        if (
            board !== undefined &&
            table !== undefined &&
            isCurrentEntry(entry, { ...board, periodStart: table.period })
        ) {
            putEntry(table, player.slot, entry, entry.submittedAt);
            setEntryMetadata(table, player.slot, entry.metadata);
        }
    }
}

/** The start of the board's current period at `now`. */
export function currentPeriod(board: BoardRecord, now: number): number {
    return periodStart(ruleOf(board), now);
}
