// The load generator, in its own process: autocannon with `connections` keep-alive clients
// for `seconds`. Submits carry a new player each (no player meets the 2 s pace of its own
// previous submit); reads ask for the cached top 100; ranks ask for a player's rank (the players
// the bench submitted first). Prints one JSON line: requests per
// second, latency percentiles (ms) and the count of each status.
import autocannon from 'autocannon';

interface Job {
    url: string;
    apiKey: string;
    gameId: string;
    kind: 'submit' | 'read' | 'rank';
    connections: number;
    seconds: number;
}

const job = JSON.parse(process.argv[2]) as Job;
/** Players rank_0 .. rank_{RANKED-1} exist (the bench submits them first); rank reads cycle through them. */
export const RANKED = 1000;
let n = 0;

const instance = autocannon(
    {
        url: job.url,
        connections: job.connections,
        duration: job.seconds,
        headers: { 'x-api-key': job.apiKey, 'content-type': 'application/json' },
        requests: [
            job.kind === 'submit'
                ? {
                      method: 'POST',
                      path: '/scores',
                      setupRequest: (req) => ({
                          ...req,
                          body: JSON.stringify({
                              playerId: `load_${process.pid}_${n++}`,
                              gameId: job.gameId,
                              score: n % 100_000,
                              streak: n % 50,
                          }),
                      }),
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
        for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count ?? 0;
        process.stdout.write(
            `${JSON.stringify({
                // Answered: a 503 (the gateway shedding load) is not a request served.
                perSecond: result['2xx'] / job.seconds,
                p50: result.latency.p50,
                p99: result.latency.p99,
                errors: result.errors + result.timeouts,
                statuses,
            })}\n`,
        );
    },
);
process.once('SIGINT', () => instance.stop());
