// A game's backup for its developer (the dashboard's Settings tab links here): the JSON lines
// file of docs/backups.md, streamed page by page from the canister's dev_backup_game query, so
// a game of any size goes out without being held in memory.
import { z } from 'zod';

import type { BackupPage } from '../../contract/backup';
import { backupWriter } from '../backups/game-file';
import { ApiFailure } from '../http/errors';
import { route } from './route';
import { gameId } from './dashboard-route';
import { write } from './board-export';

const JSON_LINES = 'application/jsonl; charset=utf-8';

const backup = route({
    method: 'get',
    path: '/dashboard/api/games/{gameId}/backup',
    id: 'dashboard-game-backup',
    summary: 'A backup of the game: its settings, boards, archives and players, as a file',
    description:
        "What you may see of the game, to run it elsewhere with `npm run admin -- import-game <file>`: the game's settings and boards, its counters, every player (id, nickname, entries with their metadata, ban), achievements, bans and archives. Never players' accounts (emails, identities), sessions, device codes, the API key, the server key or webhooks. JSON lines (UTF-8): a header `{format, version, gameId, exportedAt}`, one `[kind, key, value]` record a line, then `{end: true, items, sha256}`, the SHA-256 of every line before it; the format: docs/backups.md. Streamed as the canister answers, a page at a time; a period rollover during the download cuts it off (an incomplete file, which the import refuses), never mixes periods.",
    auth: 'developer',
    params: { gameId },
    data: z.string(),
    file: { mediaType: JSON_LINES, description: 'the backup file (Content-Disposition: attachment)' },
    errors: {
        400: 'the game id is invalid',
        404: 'not one of your games',
    },
    async handle(ctx, { res, params, caller }) {
        const read = (cursor: number): Promise<BackupPage> =>
            ctx.canister.ok('dev_backup_game', { sessionHash: caller.sessionHash, gameId: params.gameId, cursor });
        // The first page before the first byte: a refusal (not yours) is a JSON error.
        let page = await read(0);
        const periods = page.periods;
        const now = new Date();
        const file = backupWriter(params.gameId, now);
        res.status(200);
        res.setHeader('Content-Type', JSON_LINES);
        res.setHeader(
            'Content-Disposition',
            `attachment; filename="${params.gameId}_backup_${now.toISOString().slice(0, 10)}.jsonl"`,
        );
        res.setHeader('Cache-Control', 'no-store');
        for (;;) {
            if (page.periods !== periods)
                throw new ApiFailure(409, 'A period ended during the backup: download it again.');
            if (page.items.length > 0) await write(res, page.items.map((item) => file.line(item)).join(''));
            if (page.next === null || res.destroyed) break;
            page = await read(page.next);
        }
        await write(res, file.end());
        return '';
    },
});

/** For the dashboard's link. */
export const backupUrl = (id: string): string => `/dashboard/api/games/${id}/backup`;

export default [backup];
