// The heap estimate (canister/service/capacity.ts) against the wasm heap the replica reports
// (canister_status, as the IC does): an empty canister, empty games, and one game filled with
// players. Prints a table; asserts nothing. `node --import tsx test/bench/heap-estimate.ts [players...]`.
import { call, freshCanister, memoryOf, populate } from './canister.bench';
import { table } from './stats';

async function main(): Promise<void> {
    const sizes = process.argv.slice(2).map(Number);
    const { r, id } = await freshCanister();
    const rows: Array<Array<string | number>> = [];
    const row = async (label: string): Promise<void> => {
        const { heap, stable } = await memoryOf(r, id);
        const status = (await call(r, id, 'shard_status', {}, true)).reply;
        const mib = (n: number): string => `${(n / 1024 ** 2).toFixed(1)} MiB`;
        rows.push([
            label,
            mib(heap),
            mib(status.heapBytes),
            (status.heapBytes / heap).toFixed(2),
            mib(stable),
            mib(status.stableBytes),
        ]);
    };
    await row('empty canister');
    const games = Number(process.env.GAMES ?? 200);
    for (let g = 0; g < games; g++)
        await call(r, id, 'admin_register_game', { developerId: `dev-${g}`, gameId: `g-${g}`, name: 'empty' });
    await row(`${games} empty games (3 boards)`);
    const registered = await call(r, id, 'admin_register_game', { developerId: 'dev-x', gameId: 'g-x', name: 'x' });
    let filled = 0;
    for (const n of sizes) {
        const t0 = Date.now();
        await populate(r, id, 'g-x', n - filled, registered.reply.apiKey, undefined, filled);
        filled = n;
        await row(`and a game of ${filled.toLocaleString('en-US')} players`);
        console.log(`${n} players in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    await r.stop();
    table(
        'Heap estimate against the wasm heap',
        ['canister', 'wasm heap', 'estimate', 'ratio', 'stable memory', 'estimate'],
        rows,
    );
}

void main();
