// Period rollover of timed boards: when a board's period has ended, its ranking is archived
// (top entries and size) and a new, empty period starts; old archives beyond the retention
// are dropped.
import { RETENTION, archiveId, periodEnd } from '../domain/periods';
import type { ArchiveRecord, BoardRecord } from '../state/records';
import type { Ctx, GameState } from '../state/context';
import { currentPeriod, newBoardTable, ruleOf } from '../state/game-state';
import { authTypeOf, entryCount, metadataOf, nicknameOf, rankIndex, tiebreakOf } from '../state/tables';
import { ns } from '../domain/json';
import { eventTopOf, playerOfSlot } from './board-events';
import { hasEventReader, recordEvent } from './events';
import { archiveRanks, tiesOf } from './ranks';
import { grantBoardPrizes } from './rewards';
import { saveView } from './view-push';
import { closePeriod } from './leagues';

/** Entries kept per archive: the most a read may ask for. */
export const ARCHIVE_ENTRIES = 1000;

export const archiveKey = (gameId: string, boardId: string, start: number): string => `${gameId}/${boardId}/${start}`;

/** The end of the board's period as it stands (computed once, kept in `periodEnds`). */
function knownPeriodEnd(game: GameState, board: BoardRecord): number {
    let end = game.periodEnds.get(board.scoreboardId);
    if (end === undefined) {
        end = periodEnd(ruleOf(board), board.periodStart);
        game.periodEnds.set(board.scoreboardId, end);
    }
    return end;
}

/**
 * Every timed board's period end kept (after an install or upgrade): a read of a live period
 * then needs no date arithmetic (~30 K instructions) before the first tick's rollover check.
 */
export function notePeriodEnds(ctx: Ctx): void {
    for (const game of ctx.games.values())
        for (const board of game.record.boards) if (board.scoreboardId !== 'all-time') knownPeriodEnd(game, board);
}

/** Rolls the board over if its period ended (`now`: the caller's, when it has it); returns whether it did. */
export function rollover(ctx: Ctx, game: GameState, board: BoardRecord, now = ctx.env.now()): boolean {
    if (board.scoreboardId === 'all-time') return false;
    if (now < knownPeriodEnd(game, board)) return false;
    const current = currentPeriod(board, now);
    game.periodEnds.set(board.scoreboardId, periodEnd(ruleOf(board), current));
    if (current === board.periodStart) return false;
    archivePeriod(ctx, game, board, periodEnd(ruleOf(board), board.periodStart));
    board.periodStart = current;
    game.boards.set(board.scoreboardId, newBoardTable(board, current));
    saveView(ctx, game);
    return true;
}

/** Archives the board's current period (when it has entries), ended at `end`; drops archives past retention. */
export function archivePeriod(ctx: Ctx, game: GameState, board: BoardRecord, end: number): void {
    if (board.league !== undefined) closePeriod(ctx, game, board, end);
    const table = game.boards.get(board.scoreboardId);
    if (table !== undefined && entryCount(table) > 0) {
        const index = rankIndex(table, board.sortBy);
        const ids = index.range(1, ARCHIVE_ENTRIES);
        const archive: ArchiveRecord = {
            gameId: game.record.gameId,
            scoreboardId: board.scoreboardId,
            name: board.name,
            period: board.period,
            sortBy: board.sortBy,
            sortOrder: board.sortOrder,
            operator: board.operator,
            periodStart: board.periodStart,
            periodEnd: end,
            entryCount: index.size(),
            entries: ids.map((id) => {
                const entry: ArchiveRecord['entries'][number] = {
                    nickname: nicknameOf(game.players, table.slot[id]),
                    score: table.score[id],
                    streak: table.streak[id],
                    authType: authTypeOf(game.players, table.slot[id]),
                    submittedAt: table.submittedAt[id],
                    slot: table.slot[id],
                };
                const metadata = metadataOf(table, id);
                if (metadata !== undefined) entry.metadata = metadata;
                const tiebreak = tiebreakOf(table, id);
                if (tiebreak !== undefined) entry.tiebreak = tiebreak;
                return entry;
            }),
        };
        if (table.tiebreak !== undefined) archive.tiebreak = table.tiebreak;
        ctx.store.archives.set(archiveKey(game.record.gameId, board.scoreboardId, board.periodStart), archive);
        if (hasEventReader(game, 'period_closed')) {
            const top = archive.entries.slice(0, eventTopOf(board));
            const ranks = archiveRanks(archive, top, tiesOf(board));
            recordEvent(ctx, game, {
                kind: 'period_closed',
                scoreboardId: board.scoreboardId,
                archiveId: archiveId(game.record.gameId, board.scoreboardId, board.periodStart),
                periodStart: ns(board.periodStart),
                periodEnd: ns(end),
                totalEntries: archive.entryCount,
                top: top.map((e, i) => ({
                    rank: ranks[i]!,
                    playerId: e.slot === undefined ? '' : playerOfSlot(ctx, game, e.slot),
                    nickname: e.nickname,
                    score: e.score,
                    streak: e.streak,
                })),
            });
        }
        // Prizes of a board that is not a league board (league boards grant per division).
        if (board.prizes !== undefined) grantBoardPrizes(ctx, game, board, end);
        board.archives.push(board.periodStart);
        const keep = RETENTION[board.period];
        while (board.archives.length > keep) {
            const dropped = board.archives.shift()!;
            ctx.store.archives.delete(archiveKey(game.record.gameId, board.scoreboardId, dropped));
        }
    }
}

/** Rolls over every board whose period ended (the timer runs this; submits do it per game). */
export function rolloverAll(ctx: Ctx): number {
    let rolled = 0;
    for (const game of ctx.games.values()) {
        // A game moving out is frozen (service/move/out.ts): its target rolls it over once it is there.
        if (ctx.moving.size > 0 && ctx.moving.has(game.record.gameId)) continue;
        for (const board of game.record.boards) if (rollover(ctx, game, board)) rolled++;
    }
    return rolled;
}
