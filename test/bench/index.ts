// `npm run bench`: runs every benchmark, prints its tables, writes bench/results/ (JSON and
// SVG plots) and rewrites the tables of bench/README.md and docs/costs.md. Exits 0; asserts nothing.
import * as os from 'node:os';

import { initBls } from '../../replica/crypto/bls';
import { benchClientSize } from './client-size.bench';
import { benchCanister, benchMemory, freshCanister, populate, type CanisterResults } from './canister.bench';
import { benchDailyCost } from './daily-cost.bench';
import { benchDelivery } from './delivery.bench';
import { benchReplica } from './replica.bench';
import { writeTables } from './readme';
import { writeResults } from './results';
import { benchService } from './service.bench';
import { benchWebhooks } from './webhooks.bench';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useRunTempRoot } = require('../support/temp-root.cjs') as { useRunTempRoot(): string };

async function main(): Promise<void> {
    useRunTempRoot(); // the replicas' data directories go with the run
    await initBls();
    console.log(`Benchmarks on ${os.cpus().length} cores, Node ${process.version}`);
    // BENCH_ONLY=canister,daily (any of client, replica, service, delivery, canister, webhooks, daily): only those parts;
    // the saved results keep the figures of the parts not run.
    const only = new Set((process.env.BENCH_ONLY ?? 'client,replica,service,delivery,canister,daily').split(','));
    if (only.has('client')) benchClientSize();
    if (only.has('replica')) await benchReplica();
    const service = only.has('service') ? await benchService() : undefined;
    const delivery = only.has('delivery') ? await benchDelivery() : undefined;
    const canister: Partial<CanisterResults> = only.has('canister') ? await benchCanister() : {};
    if (only.has('canister') || only.has('webhooks')) canister.webhooks = await benchWebhooks();
    if (only.has('daily')) canister.dailyCost = await benchDailyCost(freshCanister, populate);
    // BENCH_MEMORY=100000,1000000: memory per player at sizes too slow for the full table (1,000,000 takes ~half an hour).
    const memorySizes = (process.env.BENCH_MEMORY ?? '').split(',').filter(Boolean).map(Number);
    if (memorySizes.length > 0) canister.memoryOnly = await benchMemory(memorySizes);
    await writeResults(service, canister, delivery);
    writeTables();
}

main().then(
    () => process.exit(0),
    (e: unknown) => {
        console.error(e);
        process.exit(1);
    },
);
