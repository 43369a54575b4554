// Starts the replica in its own worker thread (see worker.ts) and deploys canisters there;
// the embedder talks to it over its HTTP interface like any client.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { InstalledCanister } from './cli';
import type { ReplicaOptions } from './replica';

export interface ThreadRequest {
    options: Omit<ReplicaOptions, 'log'>;
    canisters: Array<{ name: string; wasmPath: string; arg?: Uint8Array }>;
}

export type ThreadMessage =
    | {
          type: 'ready';
          url: string;
          rootKey: Uint8Array;
          canisters: InstalledCanister[];
          extra: Record<string, unknown>;
      }
    | { type: 'log'; canister: string; line: string }
    | { type: 'failed'; message: string }
    | { type: 'stopped' };

export type ThreadCommand = { type: 'setExtra'; key: string; value: unknown } | { type: 'stop' };

export interface ReplicaThread {
    url: string;
    rootKey: Uint8Array;
    canisters: InstalledCanister[];
    getExtra(key: string): unknown;
    setExtra(key: string, value: unknown): void;
    stop(): Promise<void>;
}

export function startReplicaThread(
    request: ThreadRequest,
    log?: (canister: string, line: string) => void,
): Promise<ReplicaThread> {
    const worker = new Worker(path.join(__dirname, 'worker.cjs'), { workerData: request });
    const extra: Record<string, unknown> = {};
    let stopped: (() => void) | undefined;
    return new Promise((resolve, reject) => {
        worker.on('error', reject);
        worker.on('exit', (code) => reject(new Error(`The replica thread exited (${code})`)));
        worker.on('message', (message: ThreadMessage) => {
            switch (message.type) {
                case 'log':
                    log?.(message.canister, message.line);
                    break;
                case 'failed':
                    void worker.terminate();
                    reject(new Error(message.message));
                    break;
                case 'stopped':
                    stopped?.();
                    break;
                case 'ready':
                    Object.assign(extra, message.extra);
                    resolve({
                        url: message.url,
                        rootKey: message.rootKey,
                        canisters: message.canisters,
                        getExtra: (key) => extra[key],
                        setExtra(key, value) {
                            extra[key] = value;
                            worker.postMessage({ type: 'setExtra', key, value } satisfies ThreadCommand);
                        },
                        stop: () =>
                            new Promise<void>((done) => {
                                stopped = () => void worker.terminate().then(() => done());
                                worker.postMessage({ type: 'stop' } satisfies ThreadCommand);
                            }),
                    });
                    break;
            }
        });
    });
}
