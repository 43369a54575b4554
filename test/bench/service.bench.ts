// The whole service as npm start runs it (replica in its own thread, gateway), loaded over
// HTTP by autocannon in another process: submits, cached board reads and a player's rank per
// second with p50 and p99 latency; once with the replica answering as fast as it can, once
// with IC-like latency (ROUND_MS=1000: a call's reply comes a second after it is asked for),
// and the same workload against the usual alternative, Express on Redis sorted sets
// (redis-reference.ts). Prints tables and returns the rows; asserts nothing.

import { connectCanister } from '../../gateway/ic/canister';
import { localIdentityFile, readConfig } from '../../gateway/ops/config';
import { ensureIdentity } from '../../gateway/ic/identity';
import { shardRouter } from '../../gateway/ic/shards';
import { DEMO_MIN_SCORE, startLocal } from '../../local/start';
import { tempDir } from '../support/replica';
import { startRedisReference } from './redis-reference';
import { runLoad } from './load';
import { table } from './stats';

type Kind = 'submit' | 'read' | 'rank';

export interface ServiceRow {
    target: 'service' | 'redis';
    request: Kind;
    roundMs: number;
    connections: number;
    perSecond: number;
    p50: number;
    p99: number;
    statuses: Record<string, number>;
}

const LABEL: Record<Kind, string> = {
    submit: 'POST /scores (3 boards)',
    read: 'GET /leaderboard?limit=100',
    rank: 'GET /players/{id}/rank',
};

/** Without latency: the shapes of the load. With 1 s rounds a client waits a second per submit: more clients. */
const LOADS: Record<'fast' | 'ic', ReadonlyArray<readonly [Kind, number]>> = {
    fast: [
        ['submit', 1],
        ['submit', 16],
        ['submit', 64],
        ['submit', 256],
        ['read', 16],
        ['read', 64],
        ['rank', 16],
        ['rank', 64],
    ],
    ic: [
        ['submit', 16],
        ['submit', 256],
        ['submit', 1024],
        // Past ~3,600 clients of one game (16 calls of 100 in flight and 2,000 waiting) the
        // gateway sheds the rest with 503s: this is the most one game can keep busy.
        ['submit', 2048],
        ['read', 64],
        ['rank', 64],
    ],
};

interface Target {
    url: string;
    apiKey: string;
    gameId: string;
}

/** The players the rank rows read (rank_0 .. rank_999), submitted all at once (at or above the demo's floor). */
export async function seedRanked(t: Target): Promise<void> {
    const answers = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
            fetch(`${t.url}/scores`, {
                method: 'POST',
                headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
                body: JSON.stringify({
                    playerId: `rank_${i}`,
                    gameId: t.gameId,
                    score: DEMO_MIN_SCORE + i * 10,
                    streak: 1,
                }),
            }).then((r) => r.status),
        ),
    );
    const failed = answers.filter((s) => s !== 200).length;
    if (failed > 0) throw new Error(`seeding the ranked players: ${failed} submits failed`);
}

async function load(
    t: Target,
    target: ServiceRow['target'],
    roundMs: number,
    loads: ReadonlyArray<readonly [Kind, number]>,
    seconds: number,
    rows: ServiceRow[],
): Promise<void> {
    await seedRanked(t);
    for (const [kind, connections] of loads) {
        // Before the measured window: connections open and, with round latency, the first waves
        // of the closed loop (every client starts at once) spread out.
        const warmup = roundMs > 0 ? 6 : 2;
        const load = await runLoad({
            url: t.url,
            apiKey: t.apiKey,
            gameId: t.gameId,
            kind,
            connections,
            seconds,
            warmup,
        });
        rows.push({ target, request: kind, roundMs, connections, ...load });
    }
}

/** A row of the shards run: submits spread over `games` games, one on each of `shards` shards (1 s rounds). */
export type ShardServiceRow = Omit<ServiceRow, 'target' | 'request'> & {
    shards: number;
    /** game id -> its canister (principal text). */
    games: Record<string, string>;
};

/** The shards run's loads: clients submitting, spread evenly over the games. */
export const SHARD_LOADS = [1024, 2048] as const;

/**
 * The service with 1 and then 2 shards under 1 s rounds (ROUND_MS=1000): two games placed by the
 * directory (with 2 shards, one on each), the submits of every load spread evenly over both.
 * The gateway batches per canister (16 calls of 100 in flight each), so 2 shards double what
 * can be in flight; the local replica still executes every canister on one thread, on the same 2
 * cores as the gateway and the load generator.
 */
export async function benchServiceShards(seconds = 8): Promise<ShardServiceRow[]> {
    const runs: ShardServiceRow[] = [];
    // Each configuration runs twice, alternating, and the better run of each row is kept: other
    // work on the shared machine weighs on one run.
    for (const shards of [1, 2, 1, 2]) {
        const dataDir = tempDir('bench-service-shards');
        const service = await startLocal(
            readConfig({
                PORT: '0',
                REPLICA_PORT: '0',
                IDP_PORT: '0',
                DATA_DIR: dataDir,
                READ_CACHE_TTL_SECONDS: '30',
                ROUND_MS: '1000',
                SHARDS: String(shards),
            }),
        );
        try {
            const admin = await connectCanister({
                host: service.replicaUrl,
                canisterId: service.canister.canisterId,
                identity: ensureIdentity(localIdentityFile(dataDir, 'operator')),
                fetchRootKey: true,
                verifyReplies: false,
            });
            const routed = shardRouter(admin).routed;
            const targets = [service.demo!];
            const games: Record<string, string> = {};
            const where = async (gameId: string): Promise<string> => {
                const at = await admin.call('locate_game', { gameId });
                if ('err' in at) throw new Error(`locate_game ${gameId}: ${at.err.message}`);
                return at.ok.canisterId;
            };
            games[service.demo!.gameId] = await where(service.demo!.gameId);
            // Placement takes the emptiest shard: with 2 shards the second game lands on the other one.
            for (let g = 0; targets.length < 2; g++) {
                if (g >= 4) throw new Error(`the games did not spread over ${shards} shards: ${JSON.stringify(games)}`);
                const gameId = `bench-spread-${g}`;
                const created = await routed.call('admin_register_game', {
                    developerId: 'bench',
                    gameId,
                    name: gameId,
                });
                if ('err' in created) throw new Error(`registering ${gameId}: ${created.err.message}`);
                const on = await where(gameId);
                if (shards > 1 && on === games[service.demo!.gameId]) continue; // on the demo's shard: another
                games[gameId] = on;
                targets.push({ gameId, apiKey: created.ok.apiKey });
            }
            for (const connections of SHARD_LOADS) {
                const load = await runLoad({
                    url: service.gateway.url,
                    apiKey: targets[0].apiKey,
                    gameId: targets[0].gameId,
                    targets: targets.map(({ gameId, apiKey }) => ({ gameId, apiKey })),
                    kind: 'submit',
                    connections,
                    seconds,
                    warmup: 6,
                });
                runs.push({ shards, games, roundMs: 1000, connections, ...load });
            }
        } finally {
            await service.stop();
        }
    }
    const rows = runs
        .filter(
            (a) =>
                !runs.some(
                    (b) =>
                        b !== a &&
                        b.shards === a.shards &&
                        b.connections === a.connections &&
                        (b.perSecond > a.perSecond ||
                            (b.perSecond === a.perSecond && runs.indexOf(b) < runs.indexOf(a))),
                ),
        )
        .sort((a, b) => a.shards - b.shards || a.connections - b.connections);
    table(
        `Submits with 1 and 2 shards, 1 s rounds (two games, submits spread over both; ${seconds} s per row, the better of 2 runs)`,
        ['shards', 'games on', 'connections', 'per second', 'p50 ms', 'p99 ms', 'statuses'],
        rows.map((r) => [
            r.shards,
            [...new Set(Object.values(r.games))].length,
            r.connections,
            r.perSecond,
            r.p50,
            r.p99,
            JSON.stringify(r.statuses),
        ]),
    );
    return rows;
}

/** The service as the bench loads it, with `roundMs` of round latency. */
export function startBenchService(roundMs: number): ReturnType<typeof startLocal> {
    return startLocal(
        readConfig({
            PORT: '0',
            REPLICA_PORT: '0',
            IDP_PORT: '0',
            DATA_DIR: tempDir('bench-service'),
            READ_CACHE_TTL_SECONDS: '30',
            ROUND_MS: String(roundMs),
            // Without latency a closed loop of few clients would measure the linger (each
            // client's lone submit waits for companions), not the service: the IC-like rows keep it.
            SUBMIT_LINGER_MS: roundMs === 0 ? '0' : undefined,
        }),
    );
}

export async function benchService(seconds = 8): Promise<ServiceRow[]> {
    const rows: ServiceRow[] = [];
    for (const roundMs of [0, 1000]) {
        const service = await startBenchService(roundMs);
        try {
            const { gameId, apiKey } = service.demo!;
            await load(
                { url: service.gateway.url, apiKey, gameId },
                'service',
                roundMs,
                LOADS[roundMs === 0 ? 'fast' : 'ic'],
                seconds,
                rows,
            );
        } finally {
            await service.stop();
        }
    }
    const redis = await startRedisReference();
    if (redis !== undefined) {
        try {
            await load(redis, 'redis', 0, LOADS.fast, seconds, rows);
        } finally {
            await redis.stop();
        }
    }

    const statuses = (r: ServiceRow): string => JSON.stringify(r.statuses);
    table(
        `npm start service under load over HTTP (autocannon in another process, ${seconds} s per row)`,
        ['request', 'round latency', 'connections', 'per second', 'p50 ms', 'p99 ms', 'statuses'],
        rows
            .filter((r) => r.target === 'service')
            .map((r) => [LABEL[r.request], `${r.roundMs} ms`, r.connections, r.perSecond, r.p50, r.p99, statuses(r)]),
    );
    table(
        'Side by side: the service (no round latency) and Express on Redis sorted sets, the same load',
        ['request', 'connections', 'service /s', 'Redis /s', 'service / Redis', 'p50 ms (service, Redis)', 'p99 ms'],
        rows
            .filter((r) => r.target === 'service' && r.roundMs === 0)
            .map((ours) => {
                const theirs = rows.find(
                    (r) => r.target === 'redis' && r.request === ours.request && r.connections === ours.connections,
                );
                if (theirs === undefined)
                    return [
                        LABEL[ours.request],
                        ours.connections,
                        ours.perSecond,
                        'skipped',
                        'skipped',
                        `${ours.p50}, -`,
                        `${ours.p99}, -`,
                    ];
                return [
                    LABEL[ours.request],
                    ours.connections,
                    ours.perSecond,
                    theirs.perSecond,
                    `${(ours.perSecond / theirs.perSecond).toFixed(2)}`,
                    `${ours.p50}, ${theirs.p50}`,
                    `${ours.p99}, ${theirs.p99}`,
                ];
            }),
    );
    if (redis === undefined)
        console.log('(Redis rows skipped: redis-server is not installed; apt-get install redis-server)');
    return rows;
}
