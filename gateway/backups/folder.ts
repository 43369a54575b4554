// An operator's backup folder (docs/operations.md): its files' names, each written 0600 with its
// SHA-256 counted, the whole folder checked before a restore changes anything, the directory's
// records about some games, and a client for each canister of the service backed up or restored.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';

import {
    GAME_FILE_FORMAT,
    SERVICE_BACKUP_FORMAT,
    SERVICE_BACKUP_VERSION,
    type BackupFileEntry,
    type BackupManifest,
    type DirectoryRecord,
    type GameFileHeader,
} from '../../contract/service-backup';
import type { CanisterClient } from '../ic/canister';
import { ok } from '../ops/move-game';

export const MANIFEST = 'manifest.json';
export const DIRECTORY_FILE = 'directory.jsonl';
export const gameFile = (gameId: string): string => `games/${gameId}.jsonl`;

/** A file written 0600 a line at a time, its SHA-256 and size counted as it goes. */
export function secretFile(dir: string, name: string): { line(text: string): void; close(): BackupFileEntry } {
    const full = path.join(dir, name);
    mkdirSync(path.dirname(full), { recursive: true, mode: 0o700 });
    const fd = openSync(full, 'wx', 0o600);
    const hash = createHash('sha256');
    let bytes = 0;
    return {
        line(text) {
            const data = Buffer.from(`${text}\n`);
            writeSync(fd, data);
            hash.update(data);
            bytes += data.length;
        },
        close() {
            closeSync(fd);
            return { name, bytes, sha256: hash.digest('hex') };
        },
    };
}

/** How many games each of `placing` (the target's shards taking new games) holds: the fewest gets the next. */
export async function gamesOn(
    placing: string[],
    client: (canisterId: string) => CanisterClient,
): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const id of placing) counts.set(id, (await ok(client(id), 'admin_list_games', {})).length);
    return counts;
}

/** The directory of a service, and a client for any of its canisters. */
export async function serviceOf(
    directory: CanisterClient,
): Promise<{ shards: string[]; placing: string[]; client: (canisterId: string) => CanisterClient }> {
    const listed = (await ok(directory, 'list_shards', {})).shards;
    const self = directory.canisterId.toText();
    if (listed[0]?.role === 'shard') throw new Error(`${self} is a shard: name its directory`);
    const clients = new Map<string, CanisterClient>();
    const client = (id: string): CanisterClient => {
        if (id === self) return directory;
        if (directory.forCanister === undefined) throw new Error('This client reaches one canister only');
        let c = clients.get(id);
        if (c === undefined) clients.set(id, (c = directory.forCanister(Principal.fromText(id))));
        return c;
    };
    const shards = listed.slice(1);
    return {
        shards: shards.map((s) => s.canisterId),
        placing: shards.filter((s) => s.placing).map((s) => s.canisterId),
        client,
    };
}

export function aboutGames(records: DirectoryRecord[], games: Set<string>): DirectoryRecord[] {
    const developers = new Set<string>();
    const accounts = new Set<string>();
    for (const [table, key, value] of records) {
        if (table === 'developers' && (value as { gameIds: string[] }).gameIds.some((id) => games.has(id)))
            developers.add(key);
        if (table === 'accounts' && (value as { games: string[] }).games.some((id) => games.has(id))) accounts.add(key);
    }
    return records.filter(([table, key, value]) => {
        switch (table) {
            case 'developers':
                return developers.has(key);
            case 'developerKeys':
                return developers.has(value as string);
            case 'developerSessions':
                return developers.has((value as { developerId: string }).developerId);
            case 'accounts':
                return accounts.has(key);
            case 'accountKeys':
                return accounts.has(value as string);
            case 'locations':
            case 'remoteGames':
                return games.has(key);
        }
    });
}

/** A backup folder checked whole: its manifest, directory records, and each game's chunks on demand. */
export interface CheckedBackup {
    manifest: BackupManifest;
    records: DirectoryRecord[];
    chunks(gameId: string): string[];
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * Reads and checks the backup in `dir` before anything is restored: the manifest's format and
 * version, every file it lists (present, its size, its SHA-256), each game file's header against
 * the manifest. Throws with the file (and the checksums) at fault.
 */
export function checkBackup(dir: string): CheckedBackup {
    const manifestPath = path.join(dir, MANIFEST);
    if (!existsSync(manifestPath))
        throw new Error(`${dir} is not a complete backup: ${MANIFEST} is missing (a backup writes it last)`);
    let manifest: Partial<BackupManifest>;
    try {
        manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Partial<BackupManifest>;
    } catch {
        throw new Error(`${manifestPath} is not JSON: the backup is damaged`);
    }
    if (manifest.format !== SERVICE_BACKUP_FORMAT)
        throw new Error(`${manifestPath} is not the manifest of a service backup (format '${SERVICE_BACKUP_FORMAT}')`);
    if (typeof manifest.version !== 'number' || manifest.version > SERVICE_BACKUP_VERSION)
        throw new Error(
            `${manifestPath}: backup version ${String(manifest.version)} was written by a newer release; this one restores version ${SERVICE_BACKUP_VERSION} (upgrade first)`,
        );
    if (!Array.isArray(manifest.files) || !Array.isArray(manifest.games))
        throw new Error(`${manifestPath} lists no files: the backup is damaged`);
    const contents = new Map<string, Buffer>();
    for (const file of manifest.files) {
        const full = path.join(dir, file.name);
        if (path.relative(dir, full).startsWith('..'))
            throw new Error(`${manifestPath} names a file outside the backup`);
        if (!existsSync(full)) throw new Error(`${file.name} is missing: the backup is partial`);
        const data = readFileSync(full);
        const actual = sha256(data);
        if (data.length !== file.bytes || actual !== file.sha256)
            throw new Error(
                `${file.name} is corrupt: its SHA-256 is ${actual} (${data.length} bytes), the manifest says ${file.sha256} (${file.bytes} bytes)`,
            );
        contents.set(file.name, data);
    }
    const lines = (name: string): string[] => {
        const data = contents.get(name);
        if (data === undefined) throw new Error(`${name} is not in ${MANIFEST}: the backup is partial`);
        const all = data.toString('utf8').split('\n');
        if (all[all.length - 1] === '') all.pop();
        return all;
    };
    for (const game of manifest.games) {
        const [first, ...chunks] = lines(game.file);
        const header = JSON.parse(first ?? 'null') as Partial<GameFileHeader> | null;
        if (
            header?.format !== GAME_FILE_FORMAT ||
            header.gameId !== game.gameId ||
            header.checksum !== game.checksum ||
            header.chunks !== game.chunks ||
            chunks.length !== game.chunks
        )
            throw new Error(
                `${game.file} does not match ${MANIFEST} (game, chunks or checksum): the backup is damaged`,
            );
        if (typeof header.version !== 'number' || header.version > SERVICE_BACKUP_VERSION)
            throw new Error(`${game.file}: version ${String(header.version)} was written by a newer release`);
    }
    const records = lines(DIRECTORY_FILE).map((line) => JSON.parse(line) as DirectoryRecord);
    return {
        manifest: manifest as BackupManifest,
        records,
        chunks: (gameId) => lines(gameFile(gameId)).slice(1),
    };
}
