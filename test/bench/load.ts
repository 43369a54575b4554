// A load generator's job (load-client.ts), and its run in a process of its own: the window's
// answered requests per second, latency percentiles (ms) and the count of each status.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

export interface LoadJob {
    url: string;
    apiKey: string;
    gameId: string;
    /** Submits only: spread them over these games in turn (each with its own key) instead of `gameId`. */
    targets?: Array<{ gameId: string; apiKey: string }>;
    kind: 'submit' | 'read' | 'rank';
    connections: number;
    seconds: number;
    /** Seconds of load before the measured window (default 0). */
    warmup?: number;
}

export interface Load {
    perSecond: number;
    p50: number;
    p99: number;
    /** Errors and timeouts (autocannon's). */
    errors: number;
    statuses: Record<string, number>;
}

const run = promisify(execFile);

export async function runLoad(job: LoadJob): Promise<Load> {
    const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', path.join(__dirname, 'load-client.ts'), JSON.stringify(job)],
        { cwd: path.join(__dirname, '..', '..') },
    );
    return JSON.parse(stdout) as Load;
}
