// Starts the built-in OpenID provider in its own worker thread, which loads TypeScript through
// tsx (worker.cjs): oidc-provider is ESM-only, and a process that cannot import it (jest, which
// compiles to CommonJS) can still start the provider this way. This file imports nothing
// ESM-only. The provider's own log lines come back through `log`.
import * as path from 'node:path';

import { startWorkerThread, type WorkerMessage } from '../../replica/worker-thread';
import type { IdentityProviderOptions, RunningIdentityProvider } from './options';

export type { IdentityProviderClient, IdentityProviderOptions, RunningIdentityProvider } from './options';

type ReadyMessage = { type: 'ready'; issuer: string; url: string };
type LogMessage = { type: 'log'; line: string };
export type IdpThreadMessage = WorkerMessage<ReadyMessage, LogMessage>;

export type IdpThreadCommand = { type: 'stop' };

export async function startIdentityProviderThread(
    o: IdentityProviderOptions,
    log: (line: string) => void = () => undefined,
): Promise<RunningIdentityProvider> {
    const { ready, stop } = await startWorkerThread<ReadyMessage, LogMessage>(
        path.join(__dirname, 'worker.cjs'),
        o,
        'identity provider',
        (message) => log(message.line),
        log,
    );
    return { issuer: ready.issuer, url: ready.url, close: stop };
}
