// A load generator in its own process: `connections` clients, each sending requests back to
// back for `seconds`; prints one JSON line with the count and latencies (ms).
import * as http from 'node:http';

interface Job {
    url: string;
    apiKey: string;
    gameId: string;
    kind: 'submit' | 'read';
    connections: number;
    seconds: number;
}

const job = JSON.parse(process.argv[2]) as Job;
const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
const target = new URL(job.url);

function request(method: string, path: string, body?: string): Promise<number> {
    return new Promise((resolve, reject) => {
        const req = http.request(
            {
                host: target.hostname,
                port: target.port,
                method,
                path,
                agent,
                headers: { 'X-API-Key': job.apiKey, 'Content-Type': 'application/json' },
            },
            (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
            },
        );
        req.on('error', reject);
        req.end(body);
    });
}

async function client(c: number, until: number, latencies: number[], statuses: Map<number, number>): Promise<void> {
    for (let i = 0; Date.now() < until; i++) {
        const t = performance.now();
        const status =
            job.kind === 'submit'
                ? await request(
                      'POST',
                      '/scores',
                      JSON.stringify({ playerId: `load_${c}_${i}`, gameId: job.gameId, score: i, streak: c }),
                  )
                : await request('GET', '/leaderboard?limit=100');
        latencies.push(performance.now() - t);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
}

async function main(): Promise<void> {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const until = Date.now() + job.seconds * 1000;
    await Promise.all(Array.from({ length: job.connections }, (_, c) => client(c, until, latencies, statuses)));
    latencies.sort((a, b) => a - b);
    const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    process.stdout.write(
        `${JSON.stringify({ count: latencies.length, perSecond: latencies.length / job.seconds, p50: at(0.5), p95: at(0.95), statuses: Object.fromEntries(statuses) })}\n`,
    );
    agent.destroy();
}

void main();
