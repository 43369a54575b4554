// What a game costs on a shard (issue 27): metered instructions of a batched submit and a top-100
// read on a game the directory placed on a shard, when the directory has 1, 2 and 4 shards,
// beside the same game on a single canister (a directory without shards); and memory per player
// on a shard (canister_status wasm heap and stable memory, and the shard's own heap estimate of
// canister/service/capacity.ts). Prints tables and returns the figures; asserts nothing.
import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { OPERATOR, startReplica, type Replica } from '../../replica/replica';
import { ensureShards } from '../../local/shards';
import type { CanisterClient } from '../../gateway/ic/canister';
import { initArg, leaderboardWasm } from '../support/canister';
import { tempDir } from '../support/replica';
import { benchPlayerId, call, memoryOf } from './canister.bench';
import { table } from './stats';

/** The gateway and operator the directory is installed with (and gives its shards): calls name them as caller. */
const GATEWAY = Principal.fromUint8Array(new Uint8Array([0x0b, 0x65, 0x6e, 0x63, 0x68, 0x01]));
const OPERATOR_2 = Principal.fromUint8Array(new Uint8Array([0x0b, 0x65, 0x6e, 0x63, 0x68, 0x02]));

/** The shard configurations measured: 0 = the single canister (the game on the directory). */
export const SHARD_COUNTS = [0, 1, 2, 4] as const;

export interface ShardResults {
    /** Players in the measured game of each configuration. */
    players: number;
    /** Metered instructions by operation, by shard count ('0' = the single canister; '1@100000': 1 shard, that many players). */
    instructions: Record<string, Record<string, number>>;
    /**
     * Memory per player on a shard, between `from` and `to` players of one game of the 3 standard
     * boards: wasm heap, stable memory, and the heap the shard estimates (shard_status heapBytes).
     */
    memory?: { from: number; to: number; heap: number; stable: number; estimate: number };
}

const player = benchPlayerId;

/** Players first .. first + count - 1 of a game, 200 submits a call, as the gateway would send them. */
async function fill(r: Replica, id: Principal, gameId: string, apiKey: string, first: number, count: number) {
    for (let from = first; from < first + count; from += 200) {
        const submits = [];
        for (let i = from; i < Math.min(first + count, from + 200); i++)
            submits.push({ apiKey, gameId, playerId: player(i), score: (i * 2654435761) % 1_000_003, streak: i % 50 });
        await call(r, id, 'submit_scores', { submits }, false, GATEWAY);
    }
}

/** The directory as ensureShards wants it: operator calls answering `{ok}` or `{err}`. */
function directoryClient(r: Replica, id: Principal): CanisterClient {
    return {
        call: async (method: string, req: unknown) => {
            const reply = await r.update(
                id,
                method,
                new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(req)])),
                OPERATOR,
            );
            if (!('reply' in reply)) throw new Error(`${method}: ${reply.reject.message}`);
            return JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string);
        },
    } as unknown as CanisterClient;
}

/** The measured rows on `gameId` (on canister `id`, `players` players): each call's instructions. */
async function measure(r: Replica, id: Principal, gameId: string, apiKey: string, players: number, round: number) {
    const m = new Map<string, number>();
    await r.advanceTime(3_000); // past every player's 2 s pace
    const batch = Array.from({ length: 100 }, (_, i) => ({
        apiKey,
        gameId,
        playerId: player((i * 7919) % players),
        score: 1_500_000 + round * 1000 + i,
        streak: 1,
    }));
    const cost = Number((await call(r, id, 'submit_scores', { submits: batch }, false, GATEWAY)).instructions);
    m.set('batch of 100 submits (one call, existing players, new bests, 3 boards)', cost);
    m.set('  per submit in the batch', Math.round(cost / 100));
    await r.advanceTime(3_000);
    m.set(
        'submit, existing player, new best (one call, fan-out to 3)',
        Number(
            (
                await call(
                    r,
                    id,
                    'submit_scores',
                    { submits: [{ apiKey, gameId, playerId: player(7), score: 2_000_000 + round, streak: 60 }] },
                    false,
                    GATEWAY,
                )
            ).instructions,
        ),
    );
    m.set(
        'top-100 board read (read_board)',
        Number(
            (await call(r, id, 'read_board', { gameId, boardId: 'all-time', limit: 100 }, true, GATEWAY)).instructions,
        ),
    );
    m.set(
        'top-100 global leaderboard',
        Number((await call(r, id, 'leaderboard', { gameId, sort: 'score', limit: 100 }, true, GATEWAY)).instructions),
    );
    return m;
}

/**
 * One configuration: a directory with `shards` shards, one game per canister that holds games
 * (`players` players each), the first game measured on its canister.
 */
async function configuration(
    shards: number,
    players: number,
    memoryTo: number,
): Promise<{ rows: Map<string, number>; large?: Map<string, number>; memory?: ShardResults['memory'] }> {
    const r = await startReplica({
        dataDir: tempDir('bench-shards'),
        log: () => undefined,
        checkpointBytes: 64 * 1024 * 1024,
        testMode: true,
    });
    try {
        const directory = r.createCanister();
        await r.installCode(directory, leaderboardWasm(), {
            arg: initArg({ gateways: [GATEWAY], operators: [OPERATOR_2] }),
        });
        if (shards > 0) await ensureShards(directoryClient(r, directory), leaderboardWasm(), shards);
        // One game per shard (placement takes the emptiest heap): register until every canister holds one.
        const games: Array<{ gameId: string; apiKey: string; on: Principal }> = [];
        const holders = new Set<string>();
        for (let g = 0; g < 3 * Math.max(1, shards) && holders.size < Math.max(1, shards); g++) {
            const gameId = `g-shard-${g}`;
            const { reply } = await call(r, directory, 'admin_register_game', {
                developerId: `dev-${g}`,
                gameId,
                name: gameId,
            });
            const at = (await call(r, directory, 'locate_game', { gameId }, true)).reply as { canisterId: string };
            const on = Principal.fromText(at.canisterId);
            if (shards > 0 && on.toText() === directory.toText()) throw new Error('a game stayed on the directory');
            holders.add(on.toText());
            games.push({ gameId, apiKey: reply.apiKey as string, on });
            await fill(r, on, gameId, reply.apiKey as string, 0, players);
        }
        const [measured] = games;
        const rows = await measure(r, measured.on, measured.gameId, measured.apiKey, players, 0);
        if (shards !== 1 || memoryTo <= players) return { rows };
        // Memory per player on the shard: from 10,000 players (Azle's reserved heap outgrown) to memoryTo.
        const from = memoryTo >= 20_000 ? 10_000 : players;
        await fill(r, measured.on, measured.gameId, measured.apiKey, players, from - players);
        const status = async () =>
            (await call(r, measured.on, 'shard_status', {}, true, GATEWAY)).reply as { heapBytes: number };
        const before = { ...(await memoryOf(r, measured.on, directory)), estimate: (await status()).heapBytes };
        await fill(r, measured.on, measured.gameId, measured.apiKey, from, memoryTo - from);
        const after = { ...(await memoryOf(r, measured.on, directory)), estimate: (await status()).heapBytes };
        const per = (k: 'heap' | 'stable' | 'estimate') => Math.round((after[k] - before[k]) / (memoryTo - from));
        const large = await measure(r, measured.on, measured.gameId, measured.apiKey, memoryTo, 1);
        return {
            rows,
            large,
            memory: { from, to: memoryTo, heap: per('heap'), stable: per('stable'), estimate: per('estimate') },
        };
    } finally {
        await r.stop();
    }
}

/**
 * BENCH_SHARD_PLAYERS (default 1,000): players of the measured game; BENCH_SHARD_MEMORY (default
 * 100,000): the 1-shard game is then filled to that many for memory per player and a second column.
 */
export async function benchShards(): Promise<ShardResults> {
    const players = Number(process.env.BENCH_SHARD_PLAYERS ?? 1000);
    const memoryTo = Number(process.env.BENCH_SHARD_MEMORY ?? 100_000);
    const instructions: ShardResults['instructions'] = {};
    let memory: ShardResults['memory'];
    const columns: string[] = [];
    for (const shards of SHARD_COUNTS) {
        const t0 = Date.now();
        const got = await configuration(shards, players, memoryTo);
        for (const [name, n] of got.rows) (instructions[name] ??= {})[String(shards)] = n;
        columns.push(String(shards));
        if (got.large !== undefined) {
            for (const [name, n] of got.large) instructions[name][`1@${memoryTo}`] = n;
            memory = got.memory;
        }
        console.log(`(${shards} shard(s) measured in ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    if (memory !== undefined) columns.push(`1@${memoryTo}`);
    const label = (c: string): string =>
        c === '0'
            ? 'single canister'
            : c.includes('@')
              ? `1 shard, ${Number(c.split('@')[1]).toLocaleString('en-US')} players`
              : `${c} shard(s)`;
    table(
        `A game's calls on its shard: metered instructions (${players.toLocaleString('en-US')} players a game)`,
        ['operation', ...columns.map(label), 'largest / smallest (same size)'],
        Object.entries(instructions).map(([name, by]) => {
            const same = SHARD_COUNTS.map((s) => by[String(s)]);
            return [name, ...columns.map((c) => by[c]), (Math.max(...same) / Math.min(...same)).toFixed(3)];
        }),
    );
    if (memory !== undefined)
        table(
            `Memory per player on a shard (one game of 3 boards, ${memory.from.toLocaleString('en-US')} -> ${memory.to.toLocaleString('en-US')} players)`,
            ['wasm heap', 'stable memory', 'total', 'heap estimate (shard_status)'],
            [[`${memory.heap} B`, `${memory.stable} B`, `${memory.heap + memory.stable} B`, `${memory.estimate} B`]],
        );
    return { players, instructions, memory };
}

// `node --import tsx test/bench/shards.bench.ts`: this part alone, printed, nothing saved.
if (require.main === module) void benchShards().then(() => process.exit(0));
