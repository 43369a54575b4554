// What a player's record costs the calls that read and write it, in metered instructions
// (deterministic: the same wasm and calls always count the same): an existing player's submit
// to the three standard boards, alone and in a batch, a new player's alone and in a batch, and a
// player's rank.
import type { Principal } from '@dfinity/principal';

import type { Replica } from '../../replica/replica';
import { call, freshCanister, populate } from '../bench/canister.bench';

const GAME = 'cost-game';
const PLAYERS = 400;
const player = (i: number): string => `dev_1700000000_${i.toString(16).padStart(8, '0')}`;

let r: Replica;
let id: Principal;
let apiKey: string;

const submit = (playerId: string, score: number) => ({ apiKey, gameId: GAME, playerId, score, streak: 3 });

beforeAll(async () => {
    ({ r, id } = await freshCanister());
    ({ apiKey } = (await call(r, id, 'admin_register_game', { developerId: 'dev-cost', gameId: GAME, name: 'Cost' }))
        .reply as { apiKey: string });
    await populate(r, id, GAME, PLAYERS, apiKey);
    await r.advanceTime(3_000);
});

afterAll(() => r.stop());

test('a submit costs under 1.81 M instructions (existing player, new best, 3 boards; 1.72 M measured), a new player under 2.11 M (2.01 M)', async () => {
    const existing = await call(r, id, 'submit_scores', { submits: [submit(player(7), 2_000_000)] });
    const created = await call(r, id, 'submit_scores', { submits: [submit('newcomer', 500_000)] });
    expect(existing.instructions).toBeLessThan(1_810_000n);
    expect(created.instructions).toBeLessThan(2_110_000n);
});

test('per submit of a batch of 100 existing players: under 1.65 M instructions (1.57 M measured)', async () => {
    await r.advanceTime(3_000);
    const batch = Array.from({ length: 100 }, (_, i) => submit(player((i * 7) % PLAYERS), 1_500_000 + i));
    const { instructions } = await call(r, id, 'submit_scores', { submits: batch });
    expect(instructions / 100n).toBeLessThan(1_650_000n);
});

test('per submit of a batch of 100 new players: under 1.63 M instructions (1.55 M measured)', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => submit(`batch-new-${i}`, 1_000_000 + i));
    const { instructions } = await call(r, id, 'submit_scores', { submits: batch });
    expect(instructions / 100n).toBeLessThan(1_630_000n);
});

test("a player's rank reads their record's slot for under 0.51 M instructions (0.49 M measured)", async () => {
    const { instructions } = await call(r, id, 'player_rank', { gameId: GAME, playerId: player(PLAYERS >> 1) }, true);
    expect(instructions).toBeLessThan(510_000n);
});
