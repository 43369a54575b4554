// `npm start` as a user runs it, for tests: a child process (its own process group) on free
// ports with the given data directory, its banner read (API base URL, canister URL, shards, demo
// game, the built-in provider), its whole output kept, and Ctrl-C as a terminal sends it.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

export interface NpmStart {
    child: ChildProcess;
    /** Everything printed so far, stdout and stderr interleaved as they came. */
    output: () => string;
    /** The API base URL (http://localhost:<port>). */
    url: string;
    apiKey: string;
    /** The local replica (http://127.0.0.1:<port>). */
    replicaUrl: string;
    /** The canister the banner names: the directory. */
    directory: string;
    /** The directory's shards (none with SHARDS=0). */
    shards: string[];
    /** The built-in OpenID provider. */
    idpUrl: string;
    dataDir: string;
    exited: Promise<number | null>;
    /** Ctrl-C: SIGINT to the whole process group; resolves once it exited. */
    stop(): Promise<void>;
}

/** Runs `npm start` on `dataDir` with PORT, REPLICA_PORT and IDP_PORT 0 (free ports) and `env` on top. */
export function npmStart(dataDir: string, env: Record<string, string> = {}): Promise<NpmStart> {
    const child = spawn('npm', ['start'], {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', REPLICA_PORT: '0', IDP_PORT: '0', DATA_DIR: dataDir, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const stop = async (): Promise<void> => {
        if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
        await exited;
    };
    return new Promise((resolve, reject) => {
        let started = false;
        const onData = (chunk: Buffer): void => {
            output += chunk.toString();
            if (started || !output.includes('Ctrl-C stops')) return;
            const url = /API base URL:\s+(\S+)/.exec(output)?.[1];
            const apiKey = /Demo API key:\s+(\S+)/.exec(output)?.[1];
            const canister = /Canister URL:\s+(\S+)\/\?canisterId=(\S+)/.exec(output);
            const idpUrl = /local accounts at (\S+)\)/.exec(output)?.[1];
            if (url === undefined || apiKey === undefined || canister === null || idpUrl === undefined) return;
            started = true;
            const shards = /Shards:\s+([\w-]+(?:, [\w-]+)*)/.exec(output)?.[1].split(', ') ?? [];
            resolve({
                child,
                output: () => output,
                url,
                apiKey,
                replicaUrl: canister[1],
                directory: canister[2],
                shards,
                idpUrl,
                dataDir,
                exited,
                stop,
            });
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        void exited.then((code) => {
            if (!started) reject(new Error(`npm start exited with ${String(code)}:\n${output}`));
        });
    });
}
