// The two rows issue 39's local-service goal names, quickly: submits and ranks at 64 connections
// against npm start (no round latency) and against Express + Redis, alternating the service and Redis
// per row so both see the same machine, ROUNDS times (default 1). Prints per-row rates and the
// ratio; asserts nothing. `node --import tsx test/bench/ratio.ts`
import { runLoad } from './load';
import { startRedisReference } from './redis-reference';
import { seedRanked, startBenchService } from './service.bench';

const ROWS = [
    ['submit', 64],
    ['rank', 64],
] as const;

async function main(): Promise<void> {
    const seconds = Number(process.env.SECONDS ?? 8);
    const rounds = Number(process.env.ROUNDS ?? 1);
    const service = await startBenchService(0);
    const redis = await startRedisReference();
    if (redis === undefined) throw new Error('redis-server is not installed');
    try {
        const ours = { url: service.gateway.url, ...service.demo! };
        await seedRanked(ours);
        await seedRanked(redis);
        for (let r = 0; r < rounds; r++)
            for (const [kind, connections] of ROWS) {
                const job = { kind, connections, seconds, warmup: 2 };
                const a = await runLoad({ ...job, url: ours.url, apiKey: ours.apiKey, gameId: ours.gameId });
                const b = await runLoad({ ...job, url: redis.url, apiKey: redis.apiKey, gameId: redis.gameId });
                console.log(
                    `${kind} x${connections}: service ${a.perSecond.toFixed(0)}/s (p50 ${a.p50} ms), redis ${b.perSecond.toFixed(0)}/s (p50 ${b.p50} ms), ratio ${(a.perSecond / b.perSecond).toFixed(2)} ${JSON.stringify(a.statuses)}`,
                );
            }
    } finally {
        await redis.stop();
        await service.stop();
    }
}

void main().then(() => process.exit(0));
