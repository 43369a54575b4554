// Runs the replica in a worker thread for a process that embeds it (npm start), so that
// canister execution, signing and the log never block the embedder's event loop and the two
// use separate cores. Messages: 'ready' (urls, canister ids, named values), 'log', 'stopped'.
import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

import { serveApiPort } from './api-port';
import { deploy } from './cli';
import { startReplica } from './replica';
import type { ThreadRequest, ThreadMessage, ThreadCommand } from './threaded';

async function main(): Promise<void> {
    const port = parentPort!;
    const { options, canisters } = workerData as ThreadRequest;
    const post = (message: ThreadMessage): void => port.postMessage(message);
    const replica = await startReplica({ ...options, log: (canister, line) => post({ type: 'log', canister, line }) });
    const installed = await deploy(
        replica,
        canisters.map((c) => ({ name: c.name, wasm: new Uint8Array(fs.readFileSync(c.wasmPath)), arg: c.arg })),
    );
    port.on('message', (command: ThreadCommand) => {
        if (command.type === 'setExtra') replica.setExtra(command.key, command.value);
        if (command.type === 'api') serveApiPort(command.port, replica.serveApi);
        if (command.type === 'stop') void replica.stop().then(() => post({ type: 'stopped' }));
    });
    post({
        type: 'ready',
        url: replica.url,
        rootKey: replica.rootKey,
        canisters: installed,
        extra: replica.extras(),
    });
}

main().catch((e: unknown) => {
    parentPort!.postMessage({
        type: 'failed',
        message: e instanceof Error ? e.message : String(e),
    } satisfies ThreadMessage);
});
