// `npm run soak -- --minutes N [--without kind,kind]`: the soak of ./soak.ts for N minutes of
// traffic (default 10), without some kinds of clients if asked (./soak.ts CLIENTS); prints its table (requests by kind and status, p50/p99, what the logs and the webhook
// endpoint saw, each check) and exits 1 when a check failed.
import { parseArgs } from 'node:util';

import { CLIENTS, runSoak } from './soak';

async function main(): Promise<void> {
    const { values } = parseArgs({
        options: { minutes: { type: 'string', default: '10' }, without: { type: 'string', default: '' } },
    });
    const minutes = Number(values.minutes);
    if (!(minutes > 0)) throw new Error('--minutes must be a positive number');
    const without = values.without.split(',').filter((k) => k !== '');
    const unknown = without.filter((k) => !CLIENTS.some((c) => c.kind === k));
    if (unknown.length > 0)
        throw new Error(`--without: no client kind ${unknown.join(', ')} (${CLIENTS.map((c) => c.kind).join(', ')})`);
    const result = await runSoak({ minutes, without, log: (line) => console.log(`soak: ${line}`) });
    console.log(`\n${result.table}`);
    const failed = Object.values(result.failures).some((f) => f.count > 0);
    process.exit(failed ? 1 : 0);
}

main().catch((e: unknown) => {
    console.error(`soak failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
});
