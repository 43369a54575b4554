// `npm run bench`: runs every benchmark, prints its tables, writes bench/results/ (JSON and
// SVG plots) and rewrites the tables of bench/README.md and docs/costs.md. Exits 0; asserts nothing.
import * as os from 'node:os';

import { initBls } from '../../replica/crypto/bls';
import { benchBackup } from './backup.bench';
import { benchClientSize } from './client-size.bench';
import {
    benchCanister,
    benchEmptyCanister,
    benchMemory,
    freshCanister,
    populate,
    type CanisterResults,
} from './canister.bench';
import { benchDailyCost } from './daily-cost.bench';
import { benchDelivery } from './delivery.bench';
import { benchReplica } from './replica.bench';
import { writeTables } from './readme';
import { writeResults } from './results';
import { benchService, benchServiceShards } from './service.bench';
import { benchShards } from './shards.bench';
import { benchTraffic } from './traffic.bench';
import { benchWebhooks } from './webhooks.bench';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useRunTempRoot } = require('../support/temp-root.cjs') as { useRunTempRoot(): string };

async function main(): Promise<void> {
    useRunTempRoot(); // the replicas' data directories go with the run
    await initBls();
    console.log(`Benchmarks on ${os.cpus().length} cores, Node ${process.version}`);
    // BENCH_ONLY=canister,daily (any of client, replica, service, delivery, canister, webhooks, empty,
    // daily, shards, shard-service, backup, traffic): only those parts; the saved results keep the figures of the parts not run.
    const only = new Set(
        (
            process.env.BENCH_ONLY ??
            'client,replica,service,delivery,canister,daily,shards,shard-service,backup,traffic'
        ).split(','),
    );
    if (only.has('client')) benchClientSize();
    if (only.has('replica')) await benchReplica();
    const service = only.has('service') ? await benchService() : undefined;
    const delivery = only.has('delivery') ? await benchDelivery() : undefined;
    const canister: Partial<CanisterResults> = only.has('canister') ? await benchCanister() : {};
    if (only.has('canister') || only.has('webhooks')) canister.webhooks = await benchWebhooks();
    if (only.has('canister') || only.has('empty')) canister.emptyCanister = await benchEmptyCanister();
    if (only.has('daily')) canister.dailyCost = await benchDailyCost(freshCanister, populate);
    // BENCH_MEMORY=100000,1000000: memory per player at sizes too slow for the full table (1,000,000 takes ~half an hour).
    const memorySizes = (process.env.BENCH_MEMORY ?? '').split(',').filter(Boolean).map(Number);
    if (memorySizes.length > 0) canister.memoryOnly = await benchMemory(memorySizes);
    // Issue 27: a game's calls on a shard with 1, 2, 4 shards and memory per player there (~6 min);
    // the service with 1 and 2 shards under 1 s rounds, twice each (~4 min).
    const shards = {
        canister: only.has('shards') ? await benchShards() : undefined,
        service: only.has('shard-service') ? await benchServiceShards() : undefined,
    };
    // An operator's backup of a 1,000, 10,000 and 100,000-player game: its pause and size (~8 min).
    const backup = only.has('backup') ? await benchBackup() : undefined;
    // Cycles per submit at 1-1,000 submits/s over 50 games, without and with the gateway's linger (~3 min).
    const traffic = only.has('traffic') ? await benchTraffic() : undefined;
    await writeResults(service, canister, delivery, shards, backup, traffic);
    writeTables();
}

main().then(
    () => process.exit(0),
    (e: unknown) => {
        console.error(e);
        process.exit(1);
    },
);
