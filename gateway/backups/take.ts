// `npm run admin -- backup <dir> [--game <id>]` (docs/operations.md): each game staged by its
// canister as a move stages it (its writes pause only while it is staged: a point in time) and read
// chunk by chunk into `games/<gameId>.jsonl`, the directory's records into `directory.jsonl`, and
// `manifest.json` last, listing every file with its SHA-256.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import * as path from 'node:path';

import {
    DIRECTORY_TABLES,
    GAME_FILE_FORMAT,
    SERVICE_BACKUP_FORMAT,
    SERVICE_BACKUP_VERSION,
    type BackupFileEntry,
    type BackupGameEntry,
    type BackupManifest,
    type DirectoryRecord,
    type GameFileHeader,
} from '../../contract/service-backup';
import type { CanisterClient } from '../ic/canister';
import { ok } from '../ops/move-game';
import { DIRECTORY_FILE, MANIFEST, aboutGames, gameFile, secretFile, serviceOf } from './folder';

export interface BackupOptions {
    /** One game only (with the directory records that are about it). */
    game?: string;
    log: (line: string) => void;
}

export interface BackupReport {
    dir: string;
    games: Array<{ gameId: string; players: number; bytes: number; pausedMs: number }>;
    directoryRecords: number;
    bytes: number;
    seconds: number;
}

/** Backs up the service `directory` leads (or `o.game`) into the new folder `dir`. */
export async function backupService(dir: string, directory: CanisterClient, o: BackupOptions): Promise<BackupReport> {
    const started = Date.now();
    if (existsSync(path.join(dir, MANIFEST))) throw new Error(`${dir} holds a backup already: name a new folder`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { shards, client } = await serviceOf(directory);
    const listed = (await ok(directory, 'admin_list_games', {})).map((g) => g.gameId);
    if (o.game !== undefined && !listed.includes(o.game)) throw new Error(`No game '${o.game}' in this service`);
    const gameIds = o.game === undefined ? listed : [o.game];
    const files: BackupFileEntry[] = [];
    const games: BackupGameEntry[] = [];
    for (const gameId of gameIds) {
        const located = await ok(directory, 'locate_game', { gameId });
        const entry = await backupGame(dir, gameId, client(located.canisterId), o.log);
        files.push(entry.file);
        games.push(entry.game);
    }
    // The directory's records last: a game registered meanwhile is in neither (its developer may be).
    const records = await directoryRecords(directory, o.game);
    const out = secretFile(dir, DIRECTORY_FILE);
    for (const record of records) out.line(JSON.stringify(record));
    files.push(out.close());
    const manifest: BackupManifest = {
        format: SERVICE_BACKUP_FORMAT,
        version: SERVICE_BACKUP_VERSION,
        createdAt: new Date().toISOString(),
        directory: directory.canisterId.toText(),
        shards,
        ...(o.game === undefined ? {} : { game: o.game }),
        games,
        files,
    };
    const temporary = path.join(dir, `${MANIFEST}.partial`);
    const fd = openSync(temporary, 'w', 0o600);
    writeSync(fd, `${JSON.stringify(manifest, null, 1)}\n`);
    closeSync(fd);
    renameSync(temporary, path.join(dir, MANIFEST));
    const report: BackupReport = {
        dir,
        games: games.map((g, i) => ({
            gameId: g.gameId,
            players: g.players,
            bytes: files[i].bytes,
            pausedMs: g.pausedMs,
        })),
        directoryRecords: records.length,
        bytes: files.reduce((sum, f) => sum + f.bytes, 0),
        seconds: (Date.now() - started) / 1000,
    };
    o.log(`backed up ${games.length} game(s) and ${records.length} directory records, ${report.bytes} bytes`);
    return report;
}

/** One game: staged (writes paused meanwhile), read chunk by chunk into its file, the staged copy dropped. */
async function backupGame(
    dir: string,
    gameId: string,
    canister: CanisterClient,
    log: (line: string) => void,
): Promise<{ file: BackupFileEntry; game: BackupGameEntry }> {
    const begin = Date.now();
    let staged = await ok(canister, 'move_out_begin', { gameId, backup: true });
    while (!staged.ready) staged = await ok(canister, 'move_out_begin', { gameId, backup: true });
    const pausedMs = Date.now() - begin;
    log(`${gameId}: ${staged.players} players staged in ${pausedMs} ms (its writes paused meanwhile)`);
    const name = gameFile(gameId);
    const out = secretFile(dir, name);
    try {
        const header: GameFileHeader = {
            format: GAME_FILE_FORMAT,
            version: SERVICE_BACKUP_VERSION,
            gameId,
            chunks: staged.chunks,
            checksum: staged.checksum,
        };
        out.line(JSON.stringify(header));
        for (let index = 0; index < staged.chunks; index++)
            out.line((await ok(canister, 'move_out_chunk', { gameId, index })).data);
    } finally {
        await canister.relay('move_abort', { gameId }).catch(() => undefined);
    }
    const file = out.close();
    const game: BackupGameEntry = {
        gameId,
        file: name,
        canisterId: canister.canisterId.toText(),
        players: staged.players,
        chunks: staged.chunks,
        checksum: staged.checksum,
        pausedMs,
    };
    return { file, game };
}

/** Every record of the directory's tables, in pages; for one game, those about it. */
async function directoryRecords(directory: CanisterClient, game: string | undefined): Promise<DirectoryRecord[]> {
    const all: DirectoryRecord[] = [];
    for (const table of DIRECTORY_TABLES) {
        let start: number | null = 0;
        while (start !== null) {
            const page: { records: Array<[string, unknown]>; next: number | null } = await ok(
                directory,
                'admin_backup_records',
                { table, start },
            );
            for (const [key, value] of page.records) all.push([table, key, value]);
            start = page.next;
        }
    }
    return game === undefined ? all : aboutGames(all, new Set([game]));
}

/**
 * The records about `games`: their developers (with their identities and dashboard sessions),
 * their players' accounts (with their identities), where they lived.
 */
