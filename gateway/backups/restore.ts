// `npm run admin -- restore <dir> [--game <id>] [--replace] [--abort] [--check]`
// (docs/operations.md): the whole folder checked first, games the target holds refused by name
// unless --replace; each game imported on the target's own canisters (move_in_chunk /
// move_in_end, which check the export's checksum again), then the directory's records; a journal
// in the folder lets a run that stopped resume (or --abort drop what it half imported).
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import * as path from 'node:path';

import type { GameView } from '../../contract/canister';
import {
    BACKUP_RECORDS_BYTES,
    BACKUP_RECORDS_PAGE,
    RESTORED_TABLES,
    type BackupGameEntry,
} from '../../contract/service-backup';
import type { CanisterClient } from '../ic/canister';
import { canisterFailure } from '../http/errors';
import { ok } from '../ops/move-game';
import { aboutGames, checkBackup, gamesOn, serviceOf } from './folder';

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
    const { shards, placing: taking, client } = await serviceOf(directory);
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
    const placing = await gamesOn(taking, client);
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
        const players = await sendGame(game, backup.chunks(game.gameId), client(step.canisterId), o);
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
async function sendGame(
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
