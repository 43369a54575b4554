// The whole service as npm start runs it (replica in its own thread, gateway), loaded over
// HTTP by a client in another process: submits and leaderboard reads per second, latencies.
// Prints a table; asserts nothing.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { readConfig } from '../../gateway/config';
import { startLocal } from '../../local/start';
import { tempDir } from '../support/replica';
import { table } from './stats';

const run = promisify(execFile);

export async function benchService(seconds = 8): Promise<void> {
    const service = await startLocal(
        readConfig({
            PORT: '0',
            REPLICA_PORT: '0',
            IDP_PORT: '0',
            DATA_DIR: tempDir('bench-service'),
            READ_CACHE_TTL_SECONDS: '30',
        }),
    );
    try {
        const { gameId, apiKey } = service.demo!;
        const rows: Array<Array<string | number>> = [];
        for (const [kind, connections] of [
            ['submit', 1],
            ['submit', 16],
            ['submit', 64],
            ['read', 16],
        ] as const) {
            const job = { url: service.gateway.url, apiKey, gameId, kind, connections, seconds };
            const { stdout } = await run(
                process.execPath,
                ['--import', 'tsx', path.join(__dirname, 'load-client.ts'), JSON.stringify(job)],
                { cwd: path.join(__dirname, '..', '..') },
            );
            const r = JSON.parse(stdout) as {
                perSecond: number;
                p50: number;
                p95: number;
                statuses: Record<string, number>;
            };
            rows.push([
                kind === 'submit' ? 'POST /scores' : 'GET /leaderboard?limit=100 (cached 30 s)',
                connections,
                r.perSecond,
                r.p50,
                r.p95,
                JSON.stringify(r.statuses),
            ]);
        }
        table(
            `npm start service under load over HTTP (${seconds} s per row, client in another process)`,
            ['request', 'connections', 'per second', 'p50 ms', 'p95 ms', 'statuses'],
            rows,
        );
    } finally {
        await service.stop();
    }
}
