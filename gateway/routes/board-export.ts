// A board's CSV export for its developer (the dashboard's download button links here): the
// current period or one archive, every entry, streamed page by page from the canister's
// dev_export_board query, so a board of any size goes out without being held in memory.
// RFC 4180 text by csv-stringify; a cell a player wrote that a spreadsheet would run as a
// formula (= + - @, tab, CR first) is prefixed with ' (OWASP's defence against CSV injection).
import { stringify } from 'csv-stringify/sync';
import type { Response } from 'express';
import { z } from 'zod';

import { formatScore, type ScoreFormat } from '../../contract/board-options';
import type { ExportEntry, ExportPage } from '../../contract/canister';
import { ARCHIVE_ID, ExportQuery } from '../../contract/dashboard-schemas';
import { invalid } from '../../contract/rules';
import { ApiFailure } from '../http/errors';
import { BOARD_ID, route } from './route';
import { gameId } from './dashboard-route';

const CSV = 'text/csv; charset=utf-8';
/** Lets spreadsheets read the file as UTF-8 (metadata may hold any text); CSV readers skip it. */
const BOM = '\ufeff';

/** Text a spreadsheet would evaluate as a formula gets a leading ' (it then reads as text). */
export const defuse = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/**
 * The columns: a formatted score only when the board's format is not a plain number, a tiebreak
 * only on a board with one.
 */
export function columnsOf(format: ScoreFormat, tiebreak = false): string[] {
    return [
        'rank',
        'playerId',
        'nickname',
        'score',
        ...(format.kind === 'number' ? [] : ['scoreFormatted']),
        ...(tiebreak ? ['tiebreak'] : []),
        'streak',
        'metadata',
        'submittedAt',
    ];
}

/** Rows as RFC 4180 text: fields with a comma, quote or line break quoted, quotes doubled, CRLF ends. */
export const csvText = (rows: Array<Array<string | number>>): string =>
    stringify(rows, { record_delimiter: 'windows' });

const iso = (ns: number): string => new Date(Math.floor(ns / 1e6)).toISOString();

export function rowOf(e: ExportEntry, format: ScoreFormat, tiebreak = false): Array<string | number> {
    return [
        e.rank,
        defuse(e.playerId),
        defuse(e.nickname),
        e.score,
        ...(format.kind === 'number' ? [] : [formatScore(e.score, format)]),
        ...(tiebreak ? [e.tiebreak ?? ''] : []),
        e.streak,
        e.metadata === undefined ? '' : defuse(JSON.stringify(e.metadata)),
        iso(e.submittedAt),
    ];
}

/** `<game>_<board>_<period start day, or all-time>.csv`: ids are [A-Za-z0-9_-] only, safe in the header. */
function fileName(gameId: string, page: ExportPage): string {
    const period = page.periodStart === 0 ? 'all-time' : iso(page.periodStart).slice(0, 10);
    return `${gameId}_${page.scoreboardId}_${period}${page.archiveId === undefined ? '' : '_archive'}.csv`;
}

const exportCsv = route({
    method: 'get',
    path: '/dashboard/api/games/{gameId}/boards/{boardId}/export',
    id: 'dashboard-board-export',
    summary: "A board's current period, or one of its archives, as a CSV file",
    description:
        "Every entry, best first: `rank`, `playerId`, `nickname`, `score` (the integer), `scoreFormatted` (only when the board has a display format: the score as the board shows it), `tiebreak` (only on a board with the option; empty when the entry has none), `streak`, `metadata` (JSON text; empty when none) and `submittedAt` (ISO 8601, UTC). RFC 4180 CSV with CRLF line ends and a UTF-8 byte order mark. A cell a player chose (player id, nickname, metadata) that starts with = + - @, a tab or a carriage return gets a leading ' so spreadsheets do not run it as a formula: strip it when reading the file with a program. The file is streamed as the canister answers, a page at a time (a page is what one query returns), so a large board needs no more memory than a small one; entries that move between pages while a live board is exported may be listed twice or not at all, and an export that a period rollover interrupts is cut off (an incomplete download), never mixed. Archives keep the top entries of their period (at most 1,000).",
    auth: 'developer',
    params: { gameId, boardId: BOARD_ID },
    query: ExportQuery,
    data: z.string(),
    file: { mediaType: CSV, description: 'the CSV file (Content-Disposition: attachment)' },
    errors: {
        400: 'an id or archiveId is invalid',
        404: 'not one of your games, or no such board or archive of it',
    },
    async handle(ctx, { res, params, query, caller }) {
        const archives = query.get('archiveId') ?? [];
        if (archives.length > 1 || query.has('archiveId[]'))
            throw new ApiFailure(400, invalid('archiveId', 'give it once'));
        const archiveId = archives[0] === '' ? undefined : archives[0];
        if (archiveId !== undefined && !ARCHIVE_ID.test(archiveId))
            throw new ApiFailure(400, invalid('archiveId', `must match ${ARCHIVE_ID.source}`));
        const read = (offset: number): Promise<ExportPage> =>
            ctx.canister.ok('dev_export_board', {
                sessionHash: caller.sessionHash,
                gameId: params.gameId,
                boardId: params.boardId,
                archiveId,
                offset,
            });
        // The first page before the first byte: a refusal (not yours, no such board) is a JSON error.
        let page = await read(0);
        const first = page;
        const tiebreak = first.tiebreak !== undefined;
        const columns = columnsOf(first.format, tiebreak);
        res.status(200);
        res.setHeader('Content-Type', CSV);
        res.setHeader('Content-Disposition', `attachment; filename="${fileName(params.gameId, first)}"`);
        res.setHeader('Cache-Control', 'no-store');
        await write(res, BOM + csvText([columns]));
        for (;;) {
            if (page.periodStart !== first.periodStart)
                throw new ApiFailure(409, 'The period ended during the export: export it again.');
            const rows = page.entries.map((e) => rowOf(e, first.format, tiebreak));
            if (rows.length > 0) await write(res, csvText(rows));
            if (page.nextOffset === null || res.destroyed) return '';
            page = await read(page.nextOffset);
        }
    },
});

/** Writes a chunk, waiting while the client's connection is full (or until it goes away). */
export function write(res: Response, text: string): Promise<void> {
    if (res.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
        const done = (): void => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
        };
        res.on('drain', done);
        res.on('close', done);
    });
}

export default [exportCsv];
