// `npm run admin -- backup <dir>` and `restore <dir>` (docs/operations.md): a whole service, or one
// game, into files and back into a running service. Each game is staged by its canister as a move
// stages it (its writes pause only while it is staged: a point in time), read chunk by chunk into
// `games/<gameId>.jsonl`; the directory's records go to `directory.jsonl`; `manifest.json`, written
// last, lists every file with its SHA-256. A restore checks the whole folder before it changes
// anything, imports each game on the target's own canisters (move_in_chunk / move_in_end, which
// check the export's checksum again), then writes the directory's records; its journal lets a run
// that stopped resume (or `--abort` drop what it half imported).
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';

import type { GameView } from '../contract/canister';
import {
    BACKUP_RECORDS_BYTES,
    BACKUP_RECORDS_PAGE,
    DIRECTORY_TABLES,
    GAME_FILE_FORMAT,
    RESTORED_TABLES,
    SERVICE_BACKUP_FORMAT,
    SERVICE_BACKUP_VERSION,
    type BackupFileEntry,
    type BackupGameEntry,
    type BackupManifest,
    type DirectoryRecord,
    type GameFileHeader,
} from '../contract/service-backup';
import type { CanisterClient } from './canister';
import { canisterFailure } from './errors';
import { ok } from './move-game';

const MANIFEST = 'manifest.json';
const DIRECTORY_FILE = 'directory.jsonl';
const gameFile = (gameId: string): string => `games/${gameId}.jsonl`;

/** A file written 0600 a line at a time, its SHA-256 and size counted as it goes. */
function secretFile(dir: string, name: string): { line(text: string): void; close(): BackupFileEntry } {
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

/** The directory of a service, and a client for any of its canisters. */
async function serviceOf(
    directory: CanisterClient,
): Promise<{ shards: string[]; client: (canisterId: string) => CanisterClient }> {
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
    return { shards: listed.slice(1).map((s) => s.canisterId), client };
}

// ---- backup ------------------------------------------------------------------------------------

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
function aboutGames(records: DirectoryRecord[], games: Set<string>): DirectoryRecord[] {
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

// ---- checking a backup ---------------------------------------------------------------------------

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

// ---- restore --------------------------------------------------------------------------------------

export interface RestoreOptions {
    /** One game of the backup only (with its developer and its players' accounts). */
    game?: string;
    /** Games the target holds already are deleted there first (else the restore refuses them by name). */
    replace?: boolean;
    /** Drops the games a stopped restore half imported (per its journal), and nothing else. */
    abort?: boolean;
    /** Checks the backup and lists what a restore would do, changing nothing. */
    check?: boolean;
    log: (line: string) => void;
    /** How long a replaced game's id may take to be free on its canister (ms). */
    purgeWaitMs?: number;
}

export interface RestoreReport {
    games: Array<{ gameId: string; canisterId: string; players: number }>;
    directoryRecords: { written: number; kept: number };
    aborted?: string[];
    /** `check`: the games the target holds already (a restore refuses them unless --replace). */
    held?: string[];
    seconds: number;
}

/** What a restore into one target did so far (in the backup's folder): a second run resumes from it. */
interface Journal {
    target: string;
    games: Record<string, { canisterId: string; state: 'importing' | 'done'; replaced?: true }>;
    /** Developers and accounts this restore created: only theirs get the backup's identities and sessions. */
    created?: { developers: string[]; accounts: string[] };
}

const journalPath = (dir: string, target: string): string => path.join(dir, `restore-${target}.json`);

function saveJournal(dir: string, journal: Journal): void {
    const file = journalPath(dir, journal.target);
    const fd = openSync(`${file}.partial`, 'w', 0o600);
    writeSync(fd, JSON.stringify(journal));
    closeSync(fd);
    renameSync(`${file}.partial`, file);
}

/** Restores the backup in `dir` (or `o.game` of it) into the service `directory` leads. */
export async function restoreService(
    dir: string,
    directory: CanisterClient,
    o: RestoreOptions,
): Promise<RestoreReport> {
    const started = Date.now();
    const backup = checkBackup(dir);
    const target = directory.canisterId.toText();
    const { shards, client } = await serviceOf(directory);
    const journal: Journal = existsSync(journalPath(dir, target))
        ? (JSON.parse(readFileSync(journalPath(dir, target), 'utf8')) as Journal)
        : { target, games: {} };
    if (o.abort) {
        const aborted: string[] = [];
        for (const [gameId, step] of Object.entries(journal.games)) {
            if (step.state !== 'importing') continue;
            const reply = await client(step.canisterId).relay('move_abort', { gameId });
            if ('err' in reply && reply.err.status !== 404) throw canisterFailure(reply.err);
            aborted.push(gameId);
        }
        rmSync(journalPath(dir, target), { force: true });
        o.log(`dropped the half imports of ${aborted.length} game(s)`);
        return {
            games: [],
            directoryRecords: { written: 0, kept: 0 },
            aborted,
            seconds: (Date.now() - started) / 1000,
        };
    }
    if (o.game !== undefined && !backup.manifest.games.some((g) => g.gameId === o.game))
        throw new Error(`The backup holds no game '${o.game}'`);
    const games = backup.manifest.games.filter((g) => o.game === undefined || g.gameId === o.game);
    // Refused before anything changes: games the target holds that this restore did not put there.
    const held = new Set((await ok(directory, 'admin_list_games', {})).map((g) => g.gameId));
    const taken = games.filter((g) => held.has(g.gameId) && journal.games[g.gameId]?.state !== 'done');
    if (o.check) {
        o.log(`${dir} is whole: ${games.length} game(s), ${backup.records.length} directory records`);
        return {
            games: games.map((g) => ({ gameId: g.gameId, canisterId: g.canisterId, players: g.players })),
            directoryRecords: { written: 0, kept: 0 },
            held: taken.map((g) => g.gameId),
            seconds: (Date.now() - started) / 1000,
        };
    }
    if (taken.length > 0 && !o.replace)
        throw new Error(
            `The target already holds ${taken.map((g) => `'${g.gameId}'`).join(', ')}: nothing was restored (--replace deletes the target's copy first)`,
        );
    const placing = await placingShards(directory, shards, client);
    const report: RestoreReport = { games: [], directoryRecords: { written: 0, kept: 0 }, seconds: 0 };
    for (const game of games) {
        let step = journal.games[game.gameId];
        if (step?.state === 'done') continue;
        if (step === undefined) {
            step = { canisterId: placeOf(game, target, shards, placing), state: 'importing' };
            journal.games[game.gameId] = step;
            saveJournal(dir, journal);
        }
        if (held.has(game.gameId) && step.replaced !== true) {
            await ok(directory, 'admin_delete_game', { gameId: game.gameId, confirm: game.gameId });
            step.replaced = true;
            saveJournal(dir, journal);
            o.log(`${game.gameId}: the target's copy was deleted (--replace)`);
        }
        const players = await importGame(game, backup.chunks(game.gameId), client(step.canisterId), o);
        if (step.canisterId !== target) {
            const views = await ok(client(step.canisterId), 'admin_list_games', {});
            const view: GameView | undefined = views.find((v) => v.gameId === game.gameId);
            await ok(directory, 'admin_set_location', { gameId: game.gameId, canisterId: step.canisterId, view });
        }
        step.state = 'done';
        saveJournal(dir, journal);
        report.games.push({ gameId: game.gameId, canisterId: step.canisterId, players });
        o.log(`${game.gameId}: ${players} players restored on ${step.canisterId}`);
    }
    // Then the directory's records: developers (owning the restored games), identities, sessions, accounts.
    const restored = new Set(games.map((g) => g.gameId));
    const records = o.game === undefined ? backup.records : aboutGames(backup.records, restored);
    // A developer or account the target had keeps its own identities and sessions: a backup (its
    // checksums are no signature) never signs anyone in as them.
    const created = (journal.created ??= { developers: [], accounts: [] });
    for (const table of RESTORED_TABLES) {
        const rows = records
            .filter(([t, key, value]) => t === table && ownerCreated(table, key, value, created))
            .map(([, key, value]): [string, unknown] => [key, ownedOnly(table, value, restored)]);
        for (const page of pages(rows)) {
            const done = await ok(directory, 'admin_restore_records', { table, records: page });
            report.directoryRecords.written += done.written;
            report.directoryRecords.kept += done.kept;
            if (table === 'developers' || table === 'accounts') {
                const had = new Set(done.existing);
                created[table].push(...page.map(([key]) => key).filter((key) => !had.has(key)));
                saveJournal(dir, journal);
            }
        }
    }
    rmSync(journalPath(dir, target), { force: true });
    report.seconds = (Date.now() - started) / 1000;
    o.log(`restored ${report.games.length} game(s) in ${report.seconds.toFixed(1)} s`);
    return report;
}

/** Whether a record of identities or sessions is of a developer or account this restore created. */
function ownerCreated(
    table: string,
    key: string,
    value: unknown,
    created: { developers: string[]; accounts: string[] },
): boolean {
    switch (table) {
        case 'developerKeys':
            return created.developers.includes(value as string);
        case 'developerSessions':
            return created.developers.includes((value as { developerId: string }).developerId);
        case 'accountKeys':
            return created.accounts.includes(value as string);
        default:
            return true;
    }
}

/** A developer's record names only the games restored (the target may not hold the others). */
function ownedOnly(table: string, value: unknown, restored: Set<string>): unknown {
    if (table !== 'developers') return value;
    const developer = value as { gameIds: string[] };
    return { ...developer, gameIds: developer.gameIds.filter((id) => restored.has(id)) };
}

/** Records in pages a call carries: at most BACKUP_RECORDS_PAGE, about BACKUP_RECORDS_BYTES of JSON. */
function pages(rows: Array<[string, unknown]>): Array<Array<[string, unknown]>> {
    const out: Array<Array<[string, unknown]>> = [];
    let page: Array<[string, unknown]> = [];
    let bytes = 0;
    for (const row of rows) {
        const size = JSON.stringify(row).length;
        if (page.length > 0 && (page.length >= BACKUP_RECORDS_PAGE || bytes + size > BACKUP_RECORDS_BYTES)) {
            out.push(page);
            page = [];
            bytes = 0;
        }
        page.push(row);
        bytes += size;
    }
    if (page.length > 0) out.push(page);
    return out;
}

/** The target's shards taking new games, with how many games each holds (fewest first gets the next). */
async function placingShards(
    directory: CanisterClient,
    shards: string[],
    client: (canisterId: string) => CanisterClient,
): Promise<Map<string, number>> {
    const listed = (await ok(directory, 'list_shards', {})).shards.slice(1).filter((s) => s.placing);
    const counts = new Map<string, number>();
    for (const s of listed)
        if (shards.includes(s.canisterId))
            counts.set(s.canisterId, (await ok(client(s.canisterId), 'admin_list_games', {})).length);
    return counts;
}

/**
 * Where a game goes: the canister that held it when the target has it (the same service), else
 * on a target with shards the placing shard holding the fewest, else the target itself.
 */
function placeOf(game: BackupGameEntry, target: string, shards: string[], placing: Map<string, number>): string {
    if (game.canisterId === target || shards.includes(game.canisterId)) return game.canisterId;
    if (placing.size === 0) return target;
    const [fewest] = [...placing.entries()].sort((a, b) => a[1] - b[1])[0];
    placing.set(fewest, placing.get(fewest)! + 1);
    return fewest;
}

/**
 * Sends a game's chunks to `canister` in order (it says which comes next: a stopped run goes on
 * where it was), then activates it there; the export's checksum is checked by the canister.
 */
async function importGame(
    game: BackupGameEntry,
    chunks: string[],
    canister: CanisterClient,
    o: RestoreOptions,
): Promise<number> {
    const gameId = game.gameId;
    const waitUntil = Date.now() + (o.purgeWaitMs ?? 10 * 60_000);
    let next = 0;
    for (let index = 0; index < chunks.length; index = Math.max(index + 1, next)) {
        if (index < next) continue;
        const reply = await canister.relay('move_in_chunk', { gameId, index, data: chunks[index] });
        if ('err' in reply) {
            // A replaced game's records are still being removed there: its id is free once they are.
            if (index === 0 && reply.err.status === 409 && /already holds/.test(reply.err.message)) {
                if (Date.now() > waitUntil) throw canisterFailure(reply.err);
                await new Promise((resolve) => setTimeout(resolve, 1000));
                index = -1;
                continue;
            }
            throw canisterFailure(reply.err);
        }
        next = reply.ok.next;
    }
    const end = await canister.relay('move_in_end', { gameId, chunks: chunks.length, checksum: game.checksum });
    if ('ok' in end) return end.ok.players;
    // Activated by a run that stopped before its journal said so.
    if (end.err.status === 409 && /is here already/.test(end.err.message)) return game.players;
    throw canisterFailure(end.err);
}
