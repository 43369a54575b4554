// What entry metadata costs in the canister: memory per entry (wasm heap and stable memory, two
// fresh canisters filled alike, one with 64 bytes of metadata on every submit) and metered
// instructions of submits and reads with and without it. Prints tables; asserts nothing.
//   node --import tsx test/bench/metadata.ts            (100,000 players; METADATA_PLAYERS=n to choose)
import type { Principal } from '@dfinity/principal';

import { initBls } from '../../replica/crypto/bls';
import type { Replica } from '../../replica/replica';
import { benchPlayerId, call, freshCanister, memoryOf, type Memory } from './canister.bench';
import { table } from './stats';

/** 64 bytes of JSON, different for every player (a car, a ghost replay id, a lap). */
function metadataOf(i: number): Record<string, unknown> {
    const m = { car: 'mclaren-72', ghost: `r-${i.toString(16).padStart(8, '0')}`, tyres: 'soft', lap: i % 10 };
    if (JSON.stringify(m).length !== 64) throw new Error('the sample metadata should be 64 bytes');
    return m;
}

const playerId = benchPlayerId;

async function game(r: Replica, id: Principal, gameId: string): Promise<string> {
    const registered = await call(r, id, 'admin_register_game', { developerId: `dev-${gameId}`, gameId, name: gameId });
    return registered.reply.apiKey as string;
}

/** `players` new players on the 3 standard boards, 200 per call, with or without metadata. */
async function fill(r: Replica, id: Principal, players: number, withMetadata: boolean): Promise<Memory> {
    const apiKey = await game(r, id, 'g-meta');
    const empty = await memoryOf(r, id);
    for (let from = 0; from < players; from += 200) {
        const submits = [];
        for (let i = from; i < Math.min(players, from + 200); i++)
            submits.push({
                apiKey,
                gameId: 'g-meta',
                playerId: playerId(i),
                score: (i * 2654435761) % 1_000_003,
                streak: i % 50,
                metadata: withMetadata ? metadataOf(i) : undefined,
            });
        await call(r, id, 'submit_scores', { submits });
    }
    const filled = await memoryOf(r, id);
    return { heap: filled.heap - empty.heap, stable: filled.stable - empty.stable };
}

async function memory(players: number): Promise<void> {
    const rows: Array<Array<string | number>> = [];
    const used: Memory[] = [];
    for (const withMetadata of [false, true]) {
        const t0 = Date.now();
        const { r, id } = await freshCanister();
        used.push(await fill(r, id, players, withMetadata));
        await r.stop();
        console.log(
            `(${players} players ${withMetadata ? 'with' : 'without'} metadata: ${(Date.now() - t0) / 1000} s)`,
        );
    }
    const [plain, noted] = used as [Memory, Memory];
    const entries = 3 * players;
    rows.push(['per player, without metadata', Math.round(plain.heap / players), Math.round(plain.stable / players)]);
    rows.push(['per player, 64 B on each entry', Math.round(noted.heap / players), Math.round(noted.stable / players)]);
    rows.push([
        'per entry with 64 B of metadata (the difference)',
        Math.round((noted.heap - plain.heap) / entries),
        Math.round((noted.stable - plain.stable) / entries),
    ]);
    table(
        `Entry metadata: memory (bytes), ${players.toLocaleString('en-US')} players on the 3 standard boards`,
        ['', 'wasm heap', 'stable memory'],
        rows,
    );
}

async function instructions(): Promise<void> {
    const { r, id } = await freshCanister();
    const apiKey = await game(r, id, 'g-meta');
    const players = 1000;
    for (let from = 0; from < players; from += 200) {
        const submits = [];
        for (let i = from; i < from + 200; i++)
            submits.push({ apiKey, gameId: 'g-meta', playerId: playerId(i), score: i, streak: 0, metadata: undefined });
        await call(r, id, 'submit_scores', { submits });
    }
    for (const board of ['plain', 'noted'])
        await call(r, id, 'admin_create_board', { gameId: 'g-meta', scoreboardId: board, type: 'targeted' });
    await r.advanceTime(3_000);
    const rows: Array<Array<string | number>> = [];
    const submit = async (i: number, score: number, metadata?: unknown): Promise<number> =>
        Number(
            (
                await call(r, id, 'submit_scores', {
                    submits: [{ apiKey, gameId: 'g-meta', playerId: playerId(i), score, streak: 0, metadata }],
                })
            ).instructions,
        );
    rows.push([
        'submit, existing player, new best (fan-out to 3)',
        await submit(7, 5_000),
        await submit(8, 5_000, metadataOf(8)),
    ]);
    rows.push([
        'submit, existing player, no new best (fan-out to 3)',
        await submit(9, 0),
        await submit(10, 0, metadataOf(10)),
    ]);
    rows.push(['submit, new player (fan-out to 3)', await submit(5000, 9), await submit(5001, 9, metadataOf(5001))]);
    // A targeted board of 100 entries each: one without metadata, one where every entry has some.
    const batch = async (board: string, withMetadata: boolean): Promise<number> =>
        Number(
            (
                await call(r, id, 'submit_scores', {
                    submits: Array.from({ length: 100 }, (_, i) => ({
                        apiKey,
                        gameId: 'g-meta',
                        playerId: playerId(i),
                        score: 1000 + i,
                        streak: 0,
                        scoreboardId: board,
                        metadata: withMetadata ? metadataOf(i) : undefined,
                    })),
                })
            ).instructions,
        ) / 100;
    rows.push([
        '  per submit in a batch of 100 (targeted board)',
        await batch('plain', false),
        await batch('noted', true),
    ]);
    const read = async (board: string): Promise<number> =>
        Number((await call(r, id, 'read_board', { gameId: 'g-meta', boardId: board, limit: 100 }, true)).instructions);
    rows.push(['top-100 board read (read_board)', await read('plain'), await read('noted')]);
    const around = async (board: string): Promise<number> =>
        Number(
            (
                await call(
                    r,
                    id,
                    'around',
                    { gameId: 'g-meta', boardId: board, playerId: playerId(50), before: 5, after: 5 },
                    true,
                )
            ).instructions,
        );
    rows.push(['around-me (5 above, 5 below)', await around('plain'), await around('noted')]);
    await r.stop();
    table(
        'Entry metadata: metered instructions (64 B of metadata on every submit or entry of the right column)',
        ['operation', 'without', 'with metadata'],
        rows,
    );
}

async function main(): Promise<void> {
    await initBls();
    await instructions();
    await memory(Number(process.env.METADATA_PLAYERS ?? 100_000));
}

main().then(
    () => process.exit(0),
    (e: unknown) => {
        console.error(e);
        process.exit(1);
    },
);
