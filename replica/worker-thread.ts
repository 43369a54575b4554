// The starting side of a service run in its own worker thread (the replica's threaded.ts, and
// the local identity provider, which uses it too): the thread posts 'ready' (with what the
// starter needs) or 'failed', any other messages (its log lines) as it runs, and 'stopped' once
// a { type: 'stop' } command has shut it down.
import { Worker } from 'node:worker_threads';

/** What such a thread posts; `Ready` is its 'ready' message, `Other` any others (log lines). */
export type WorkerMessage<Ready extends { type: 'ready' }, Other extends { type: string }> =
    Ready | Other | { type: 'failed'; message: string } | { type: 'stopped' };

export interface StartedThread<Ready> {
    worker: Worker;
    ready: Ready;
    /** Asks the thread to stop and ends it once it has (at once if it exited already); the same promise each time. */
    stop(): Promise<void>;
}

/**
 * Starts `file` in a worker thread with `workerData` and resolves once it is ready; rejects if it
 * fails or exits before. Messages other than ready/failed/stopped go to `onMessage`; a thread
 * that fails after it was ready is reported to `onError` (`name` says which thread).
 */
export function startWorkerThread<Ready extends { type: 'ready' }, Other extends { type: string }>(
    file: string,
    workerData: unknown,
    name: string,
    onMessage: (message: Other) => void,
    onError: (line: string) => void = () => undefined,
): Promise<StartedThread<Ready>> {
    const worker = new Worker(file, { workerData });
    let ready = false;
    let exited = false;
    let stopped: (() => void) | undefined;
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> =>
        (stopping ??= new Promise<void>((done) => {
            stopped = () => void worker.terminate().then(() => done());
            if (exited) stopped();
            else worker.postMessage({ type: 'stop' });
        }));
    return new Promise((resolve, reject) => {
        worker.on('error', (e) => {
            if (ready) onError(`${name} thread failed: ${e.stack ?? e.message}`);
            else reject(e);
        });
        worker.on('exit', (code) => {
            exited = true;
            if (!ready) reject(new Error(`The ${name} thread exited (${code})`));
            stopped?.();
        });
        worker.on('message', (message: WorkerMessage<Ready, Other>) => {
            if (message.type === 'failed') {
                void worker.terminate();
                reject(new Error((message as { message: string }).message));
            } else if (message.type === 'stopped') {
                stopped?.();
            } else if (message.type === 'ready') {
                ready = true;
                resolve({ worker, ready: message as Ready, stop });
            } else {
                onMessage(message as Other);
            }
        });
    });
}
