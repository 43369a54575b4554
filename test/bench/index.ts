// `npm run bench`: runs every benchmark, prints its tables and writes bench/results/ (JSON and
// SVG plots). Exits 0; asserts nothing.
import * as os from 'node:os';

import { initBls } from '../../replica/crypto/bls';
import { benchCanister } from './canister.bench';
import { benchReplica } from './replica.bench';
import { writeResults } from './results';
import { benchService } from './service.bench';

async function main(): Promise<void> {
    await initBls();
    console.log(`Benchmarks on ${os.cpus().length} cores, Node ${process.version}`);
    await benchReplica();
    const service = await benchService();
    const canister = await benchCanister();
    await writeResults(service, canister);
}

main().then(
    () => process.exit(0),
    (e: unknown) => {
        console.error(e);
        process.exit(1);
    },
);
