// Runs the built-in OpenID provider in a worker thread for thread.ts. Messages: 'ready'
// (issuer, url), 'log', 'failed', 'stopped'.
import { parentPort, workerData } from 'node:worker_threads';

import { startIdentityProvider } from './index';
import type { IdentityProviderOptions } from './options';
import type { IdpThreadCommand, IdpThreadMessage } from './thread';

const port = parentPort!;
const post = (message: IdpThreadMessage): void => port.postMessage(message);

async function main(): Promise<void> {
    const provider = await startIdentityProvider(workerData as IdentityProviderOptions, (line) =>
        post({ type: 'log', line }),
    );
    port.on('message', (command: IdpThreadCommand) => {
        if (command.type === 'stop') {
            void provider
                .close()
                .catch((e: unknown) =>
                    post({ type: 'log', line: `closing failed: ${e instanceof Error ? e.message : String(e)}` }),
                )
                .then(() => post({ type: 'stopped' }));
        }
    });
    post({ type: 'ready', issuer: provider.issuer, url: provider.url });
}

main().catch((e: unknown) => {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
});
