// `npm run bench`: runs every benchmark and prints its tables. Exits 0; asserts nothing.
import * as os from 'node:os';

import { initBls } from '../../replica/crypto/bls';
import { benchCanister } from './canister.bench';
import { benchReplica } from './replica.bench';
import { benchService } from './service.bench';

async function main(): Promise<void> {
    await initBls();
    console.log(`Benchmarks on ${os.cpus().length} cores, Node ${process.version}`);
    await benchReplica();
    await benchService();
    await benchCanister();
}

main().then(
    () => process.exit(0),
    (e: unknown) => {
        console.error(e);
        process.exit(1);
    },
);
