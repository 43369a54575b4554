// Starts the built-in OpenID provider in its own worker thread, which loads TypeScript through
// tsx (worker.cjs): oidc-provider is ESM-only, and a process that cannot import it (jest, which
// compiles to CommonJS) can still start the provider this way. This file imports nothing
// ESM-only. The provider's own log lines come back through `log`.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { IdentityProviderOptions, RunningIdentityProvider } from './options';

export type { IdentityProviderClient, IdentityProviderOptions, RunningIdentityProvider } from './options';

export type IdpThreadMessage =
    | { type: 'ready'; issuer: string; url: string }
    | { type: 'log'; line: string }
    | { type: 'failed'; message: string }
    | { type: 'stopped' };

export type IdpThreadCommand = { type: 'stop' };

export function startIdentityProviderThread(
    o: IdentityProviderOptions,
    log: (line: string) => void = () => undefined,
): Promise<RunningIdentityProvider> {
    const worker = new Worker(path.join(__dirname, 'worker.cjs'), { workerData: o });
    let ready = false;
    let exited = false;
    let stopped: (() => void) | undefined;
    let closing: Promise<void> | undefined;
    return new Promise((resolve, reject) => {
        worker.on('error', (e) => {
            if (ready) log(`identity provider thread failed: ${e.stack ?? e.message}`);
            else reject(e);
        });
        worker.on('exit', (code) => {
            exited = true;
            if (!ready) reject(new Error(`The identity provider thread exited (${code})`));
            stopped?.();
        });
        worker.on('message', (message: IdpThreadMessage) => {
            switch (message.type) {
                case 'log':
                    log(message.line);
                    break;
                case 'failed':
                    void worker.terminate();
                    reject(new Error(message.message));
                    break;
                case 'stopped':
                    stopped?.();
                    break;
                case 'ready':
                    ready = true;
                    resolve({
                        issuer: message.issuer,
                        url: message.url,
                        close: () =>
                            (closing ??= new Promise<void>((done) => {
                                stopped = () => void worker.terminate().then(() => done());
                                if (exited) stopped();
                                else worker.postMessage({ type: 'stop' } satisfies IdpThreadCommand);
                            })),
                    });
                    break;
            }
        });
    });
}
