// A board's CSV export, for its developer: pages of the current period (or of one of its
// archives) by rank offset, each entry with its player id, made by the same code as the board
// pages (./reads.ts), at most EXPORT_PAGE_MAX entries a call so each stays within a query's limit.
import { EXPORT_PAGE_MAX, type ExportPage, type RequestOf } from '../../contract/canister';
import { optionsOf } from '../../contract/board-options';
import { MESSAGES, boardNotFound } from '../../contract/messages';
import { MAX_OFFSET, checkBoardId } from '../../contract/rules';
import { ns } from '../domain/json';
import { Fail } from '../domain/fail';
import { parseArchiveId } from '../domain/periods';
import type { Ctx, Untrusted } from '../state/context';
import { currentPeriod } from '../state/game-state';
import { slotPlayer } from '../state/slots';
import { ownedGame } from './developers';
import { archivePage, boardPage, readBoard } from './reads';

const offsetOf = (v: unknown): number =>
    typeof v === 'number' && Number.isInteger(v) && v > 0 ? Math.min(v, MAX_OFFSET) : 0;
const limitOf = (v: unknown): number =>
    typeof v === 'number' && Number.isInteger(v) && v > 0 ? Math.min(v, EXPORT_PAGE_MAX) : EXPORT_PAGE_MAX;

export function exportPage(ctx: Ctx, req: Untrusted<RequestOf<'dev_export_board'>>): ExportPage {
    const { game } = ownedGame(ctx, req, false);
    const gameId = game.record.gameId;
    const idError = checkBoardId(req.boardId);
    if (idError) throw new Fail(400, idError);
    const board = game.record.boards.find((b) => b.scoreboardId === req.boardId);
    if (board === undefined) throw new Fail(404, boardNotFound(String(req.boardId)));
    const offset = offsetOf(req.offset);
    const limit = limitOf(req.limit);
    const { format, tiebreak } = optionsOf(board);
    // Only a board with the option says so (the CSV export then has a tiebreak column).
    const withTiebreak = tiebreak === undefined ? {} : { tiebreak };
    const playerOf = (slot: number | undefined): string =>
        slot === undefined ? '' : (slotPlayer(ctx, gameId, slot) ?? '');

    if (req.archiveId !== undefined) {
        // Only an archive of this board: another board's (or game's) id is as unknown as a made-up one.
        const parsed = typeof req.archiveId === 'string' ? parseArchiveId(req.archiveId) : undefined;
        if (parsed === undefined || parsed.gameId !== gameId || parsed.boardId !== board.scoreboardId)
            throw new Fail(404, MESSAGES.archiveNotFound);
        const page = archivePage(ctx, { gameId, boardId: board.scoreboardId, archiveId: req.archiveId }, offset, limit);
        const end = offset + page.entries.length;
        return {
            scoreboardId: board.scoreboardId,
            archiveId: page.archiveId,
            periodStart: page.config.periodStart,
            sortBy: page.config.sortBy,
            format,
            ...withTiebreak,
            totalEntries: page.stored,
            offset,
            entries: page.entries.map((e, i) => ({ ...e, playerId: playerOf(page.slots[i]) })),
            nextOffset: page.entries.length > 0 && end < page.stored ? end : null,
        };
    }

    const totalEntries = readBoard(ctx, { gameId, boardId: board.scoreboardId, limit: 1 }).totalEntries;
    const entries = boardPage(ctx, game, board.scoreboardId, offset, limit).map(({ slot, ...e }) => ({
        ...e,
        playerId: playerOf(slot),
    }));
    const end = offset + entries.length;
    return {
        scoreboardId: board.scoreboardId,
        periodStart: ns(currentPeriod(board, ctx.env.now())),
        sortBy: board.sortBy,
        format,
        ...withTiebreak,
        totalEntries,
        offset,
        entries,
        nextOffset: entries.length > 0 && end < totalEntries ? end : null,
    };
}
