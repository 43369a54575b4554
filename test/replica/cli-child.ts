// `npm run replica`'s program (replica/cli.ts) in a child process with the probe canister, for
// tests that need a replica in another process (locks, kill -9).
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';

import { PROBE_WASM, probeInit } from './probe';

const ROOT = path.join(__dirname, '..', '..');

export interface ReplicaChild {
    child: ChildProcess;
    /** The first line on stdout (the JSON ready line), or undefined if the process ended first. */
    ready: Promise<string | undefined>;
    exited: Promise<number | null>;
    stderr(): string;
}

/** Starts the replica CLI on `dataDir` with the probe canister (init argument `seed`), on a free port. */
export function runReplicaCli(dataDir: string, seed: string): ReplicaChild {
    const child = spawn(
        process.execPath,
        [
            '--import',
            'tsx',
            path.join(ROOT, 'replica', 'cli.ts'),
            '--port',
            '0',
            '--data-dir',
            dataDir,
            '--canister',
            `probe=${PROBE_WASM}`,
            '--arg',
            `probe=${Buffer.from(probeInit(seed)).toString('hex')}`,
            '--json',
            '--quiet',
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const lines = readline.createInterface({ input: child.stdout! });
    const ready = new Promise<string | undefined>((resolve) => {
        lines.once('line', resolve);
        lines.once('close', () => resolve(undefined));
    });
    return { child, ready, exited, stderr: () => stderr };
}
