// The load generator, in its own process: autocannon with `connections` keep-alive clients
// for `warmup` + `seconds`. Submits carry a new player each (no player meets the 2 s pace of
// its own previous submit); reads ask for the cached top 100; ranks ask for a player's rank
// (the players the bench submitted first). Only the answers of the last `seconds` count: the
// first ones would measure opening thousands of connections and the first wave of a closed
// loop, not the service's pace. Prints one JSON line: answered (2xx) requests per second,
// latency percentiles (ms) and the count of each status, over that window.
import autocannon from 'autocannon';

import type { LoadJob } from './load';
import { summarize } from './stats';

const job = JSON.parse(process.argv[2]) as LoadJob;
/** Players rank_0 .. rank_{RANKED-1} exist (the bench submits them first); rank reads cycle through them. */
export const RANKED = 1000;
let n = 0;

const instance = autocannon(
    {
        url: job.url,
        connections: job.connections,
        duration: (job.warmup ?? 0) + job.seconds,
        headers: { 'x-api-key': job.apiKey, 'content-type': 'application/json' },
        requests: [
            job.kind === 'submit'
                ? {
                      method: 'POST',
                      path: '/scores',
                      setupRequest: (req) => {
                          const t = job.targets?.[n % job.targets.length] ?? job;
                          return {
                              ...req,
                              headers: { ...req.headers, 'x-api-key': t.apiKey },
                              body: JSON.stringify({
                                  playerId: `load_${process.pid}_${n++}`,
                                  gameId: t.gameId,
                                  score: n % 100_000,
                                  streak: n % 50,
                              }),
                          };
                      },
                  }
                : job.kind === 'read'
                  ? { method: 'GET', path: '/leaderboard?limit=100' }
                  : {
                        method: 'GET',
                        setupRequest: (req) => ({ ...req, path: `/players/rank_${n++ % RANKED}/rank` }),
                    },
        ],
    },
    (error, result) => {
        if (error) throw error;
        const statuses: Record<string, number> = {};
        for (const code of window.statuses) statuses[code] = (statuses[code] ?? 0) + 1;
        const latency = summarize(window.latencies);
        process.stdout.write(
            `${JSON.stringify({
                // Answered: a 503 (the gateway shedding load) is not a request served.
                perSecond: window.latencies.length / job.seconds,
                p50: Math.round(latency.median),
                p99: Math.round(latency.p99),
                errors: result.errors + result.timeouts,
                statuses,
            })}\n`,
        );
    },
);
/** The answers in the measured window: each status, and the latency of each 2xx. */
const window = { statuses: [] as number[], latencies: [] as number[] };
const measureFrom = Date.now() + (job.warmup ?? 0) * 1000;
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (Date.now() < measureFrom) return;
    window.statuses.push(statusCode);
    if (statusCode >= 200 && statusCode < 300) window.latencies.push(responseTime);
});
process.once('SIGINT', () => instance.stop());
