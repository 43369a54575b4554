// Starts the replica in its own worker thread (see worker.ts) and deploys canisters there;
// the embedder talks to it over its HTTP interface like any client, or over a MessagePort
// (`request`, the same interface without sockets).
import * as path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';

import { apiPortClient } from './api-port';
import type { ApiAnswer, ApiRequest } from './http/server';

import type { InstalledCanister } from './cli';
import type { ReplicaOptions } from './replica';
import { startWorkerThread, type WorkerMessage } from './worker-thread';

export interface ThreadRequest {
    options: Omit<ReplicaOptions, 'log'>;
    canisters: Array<{ name: string; wasmPath: string; arg?: Uint8Array }>;
}

type ReadyMessage = {
    type: 'ready';
    url: string;
    rootKey: Uint8Array;
    canisters: InstalledCanister[];
    extra: Record<string, unknown>;
};
type LogMessage = { type: 'log'; canister: string; line: string };
export type ThreadMessage = WorkerMessage<ReadyMessage, LogMessage>;

export type ThreadCommand =
    { type: 'setExtra'; key: string; value: unknown } | { type: 'api'; port: MessagePort } | { type: 'stop' };

export interface ReplicaThread {
    url: string;
    rootKey: Uint8Array;
    canisters: InstalledCanister[];
    /** An IC HTTP interface request (`/api/...`), answered as the HTTP port would, without sockets. */
    request(request: ApiRequest): Promise<ApiAnswer>;
    getExtra(key: string): unknown;
    setExtra(key: string, value: unknown): void;
    stop(): Promise<void>;
}

export async function startReplicaThread(
    request: ThreadRequest,
    log?: (canister: string, line: string) => void,
): Promise<ReplicaThread> {
    const { worker, ready, stop } = await startWorkerThread<ReadyMessage, LogMessage>(
        path.join(__dirname, 'worker.cjs'),
        request,
        'replica',
        (message) => log?.(message.canister, message.line),
    );
    const extra: Record<string, unknown> = { ...ready.extra };
    const channel = new MessageChannel();
    worker.postMessage({ type: 'api', port: channel.port2 } satisfies ThreadCommand, [channel.port2]);
    const api = apiPortClient(channel.port1);
    return {
        url: ready.url,
        rootKey: ready.rootKey,
        canisters: ready.canisters,
        request: api.request,
        getExtra: (key) => extra[key],
        setExtra(key, value) {
            extra[key] = value;
            worker.postMessage({ type: 'setExtra', key, value } satisfies ThreadCommand);
        },
        stop() {
            api.close();
            return stop();
        },
    };
}
