// An operator's backup of one game as `npm run admin -- backup` takes it (gateway/backups/take.ts),
// at 1,000, 10,000 and BACKUP_BENCH_PLAYERS (default 100,000) players: the staging calls that pause
// the game's writes (metered instructions, count, wall time here, and the pause estimated on the
// IC), the chunks read and the file's size, then the restore into a fresh canister. Prints a
// table and returns the figures; asserts nothing.
import type { Principal } from '@dfinity/principal';

import { GAME_FILE_FORMAT, SERVICE_BACKUP_VERSION, type GameFileHeader } from '../../contract/service-backup';
import type { Replica } from '../../replica/replica';
import { LIMITS } from '../../replica/subnet';
import { call, freshCanister, populate } from './canister.bench';
import { table } from './stats';

/**
 * The IC pause model: each staging call is an update of ~2 s round trip (ingress, consensus, the
 * reply), plus its execution at about 2 B instructions a second (deterministic time slicing runs
 * a long message ~2 B instructions a round, ~1 round a second).
 */
export const PAUSE_MODEL = { roundTripSeconds: 2, instructionsPerSecond: 2e9 } as const;

export interface BackupRow {
    players: number;
    /** move_out_begin {backup: true} until `ready`: the game's writes pause meanwhile. */
    staging: { calls: number; max: number; total: number; wallMs: number };
    /** staging calls x the round trip + staging instructions at the model's pace. */
    icPauseSeconds: number;
    /** The game's file: a header line and one line per chunk. */
    fileBytes: number;
    /** move_out_chunk queries, one per chunk. */
    chunks: { count: number; max: number; total: number };
    /** move_in_chunk updates into a fresh canister, then move_in_end. */
    restore: { max: number; total: number; wallMs: number; end: number; players: number };
}

const GAME = 'g-backup';

/** Pause on the IC by PAUSE_MODEL, in seconds. */
export const icPause = (calls: number, instructions: number): number =>
    calls * PAUSE_MODEL.roundTripSeconds + instructions / PAUSE_MODEL.instructionsPerSecond;

const instructionsOf = async (
    r: Replica,
    id: Principal,
    method: string,
    req: unknown,
    isQuery = false,
): Promise<{ n: number; reply: any }> => {
    const m = await call(r, id, method, req, isQuery);
    return { n: Number(m.instructions), reply: m.reply };
};

/** Max and total of metered instructions. */
const spread = (ns: number[]): { max: number; total: number } => ({
    max: Math.max(...ns),
    total: ns.reduce((s, n) => s + n, 0),
});

/** One game of `players` players backed up from a fresh canister and restored into another. */
async function backupOf(players: number): Promise<BackupRow> {
    const source = await freshCanister();
    let chunks: string[] = [];
    let checksum = '';
    let row: Omit<BackupRow, 'restore'>;
    try {
        const { r, id } = source;
        const registered = await call(r, id, 'admin_register_game', {
            developerId: 'bench',
            gameId: GAME,
            name: 'Backup bench',
        });
        // One player in ten with metadata, as a game showing a car beside a score would.
        await populate(r, id, GAME, players, registered.reply.apiKey, [undefined], 0, (i) =>
            i % 10 === 0 ? { car: `c${i % 7}`, lap: i } : undefined,
        );
        // The staging, as the tool takes it: the game's writes pause from the first call to `ready`.
        const staged: number[] = [];
        const t0 = performance.now();
        let reply: { ready: boolean; chunks: number; checksum: string; players: number };
        do {
            const m = await instructionsOf(r, id, 'move_out_begin', { gameId: GAME, backup: true });
            staged.push(m.n);
            reply = m.reply;
        } while (!reply.ready);
        const wallMs = performance.now() - t0;
        checksum = reply.checksum;
        const read: number[] = [];
        for (let index = 0; index < reply.chunks; index++) {
            const m = await instructionsOf(r, id, 'move_out_chunk', { gameId: GAME, index }, true);
            read.push(m.n);
            chunks.push((m.reply as { data: string }).data);
        }
        await call(r, id, 'move_abort', { gameId: GAME });
        const header: GameFileHeader = {
            format: GAME_FILE_FORMAT,
            version: SERVICE_BACKUP_VERSION,
            gameId: GAME,
            chunks: reply.chunks,
            checksum,
        };
        const line = (text: string): number => Buffer.byteLength(text) + 1;
        const stagedSpread = spread(staged);
        row = {
            players,
            staging: { calls: staged.length, ...stagedSpread, wallMs: Math.round(wallMs) },
            icPauseSeconds: icPause(staged.length, stagedSpread.total),
            fileBytes: chunks.reduce((s, c) => s + line(c), line(JSON.stringify(header))),
            chunks: { count: chunks.length, ...spread(read) },
        };
    } finally {
        await source.r.stop();
    }
    // The restore: every chunk in order into a fresh canister, then activated.
    const target = await freshCanister();
    try {
        const { r, id } = target;
        const sent: number[] = [];
        const t0 = performance.now();
        for (const [index, data] of chunks.entries())
            sent.push((await instructionsOf(r, id, 'move_in_chunk', { gameId: GAME, index, data })).n);
        const end = await instructionsOf(r, id, 'move_in_end', { gameId: GAME, chunks: chunks.length, checksum });
        const wallMs = performance.now() - t0;
        chunks = [];
        return {
            ...row,
            restore: {
                ...spread(sent),
                wallMs: Math.round(wallMs),
                end: end.n,
                players: (end.reply as { players: number }).players,
            },
        };
    } finally {
        await target.r.stop();
    }
}

const billions = (n: number): string => `${(n / 1e9).toFixed(2)} B`;

/** BACKUP_BENCH_PLAYERS (default 100,000): the largest game; 1,000 and 10,000 are measured too. */
export async function benchBackup(): Promise<BackupRow[]> {
    const largest = Number(process.env.BACKUP_BENCH_PLAYERS ?? 100_000);
    const sizes = [...new Set([1_000, 10_000, largest])].sort((a, b) => a - b);
    const rows: BackupRow[] = [];
    for (const players of sizes) {
        const t0 = Date.now();
        rows.push(await backupOf(players));
        console.log(`(backup of ${players} players measured in ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    table(
        `Operator backup of one game (3 boards): pause and size. IC pause = staging calls x ${PAUSE_MODEL.roundTripSeconds} s + staging instructions / ${PAUSE_MODEL.instructionsPerSecond / 1e9} B a second`,
        [
            'players',
            'staging calls',
            'staging instr max / total',
            'pause here',
            'IC pause (est.)',
            'file',
            'chunks',
            'move_out_chunk max (query limit 5 B)',
            'move_in_chunk max / total (update limit 40 B)',
            'move_in_end',
            'restore here',
        ],
        rows.map((b) => [
            b.players,
            b.staging.calls,
            `${billions(b.staging.max)} / ${billions(b.staging.total)}`,
            `${(b.staging.wallMs / 1000).toFixed(1)} s`,
            `${b.icPauseSeconds.toFixed(1)} s`,
            `${(b.fileBytes / 1e6).toFixed(2)} MB`,
            b.chunks.count,
            `${billions(b.chunks.max)} (${((100 * b.chunks.max) / Number(LIMITS.query)).toFixed(0)} %)`,
            `${billions(b.restore.max)} (${((100 * b.restore.max) / Number(LIMITS.update)).toFixed(0)} %) / ${billions(b.restore.total)}`,
            billions(b.restore.end),
            `${(b.restore.wallMs / 1000).toFixed(1)} s`,
        ]),
    );
    for (const b of rows)
        if (b.restore.players !== b.players)
            console.log(`(!) the restore of ${b.players} players activated ${b.restore.players}`);
    return rows;
}

// `node --import tsx test/bench/backup.bench.ts`: this part alone, printed, nothing saved.
if (require.main === module) void benchBackup().then(() => process.exit(0));
