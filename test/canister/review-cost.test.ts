// What review of implausible scores costs a submit, in metered instructions (deterministic: the
// same wasm and calls always count the same): a board without the option, and after it was
// turned off again, costs what it did (within 1 %); with `flag`, a plausible new best pays the
// rule's one descent, and a flagged (or held) one its queue entry.
import type { Principal } from '@dfinity/principal';

import type { Replica } from '../../replica/replica';
import { call, freshCanister, populate } from '../bench/canister.bench';

const GAME = 'review-cost';
const PLAYERS = 400;
const player = (i: number): string => `dev_1700000000_${i.toString(16).padStart(8, '0')}`;

let r: Replica;
let id: Principal;
let apiKey: string;

beforeAll(async () => {
    ({ r, id } = await freshCanister());
    ({ apiKey } = (await call(r, id, 'admin_register_game', { developerId: 'dev-cost', gameId: GAME, name: 'Cost' }))
        .reply as { apiKey: string });
    await call(r, id, 'admin_create_board', { gameId: GAME, scoreboardId: 'level', type: 'targeted' });
    await populate(r, id, GAME, PLAYERS, apiKey, ['level']);
    await r.advanceTime(3_000);
});
afterAll(() => r.stop());

const review = (value: unknown) =>
    call(r, id, 'admin_update_board', { gameId: GAME, scoreboardId: 'level', review: value });
const submit = async (i: number, score: number) =>
    (
        await call(r, id, 'submit_scores', {
            submits: [{ apiKey, gameId: GAME, playerId: player(i), score, streak: 1, scoreboardId: 'level' }],
        })
    ).instructions;

/** The least of three submits of new firsts (players `from`.. `from + 2`): one path, whoever submits. */
async function least(from: number, score: number): Promise<bigint> {
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push(await submit(from + i, score + i));
    return counts.reduce((a, b) => (a < b ? a : b));
}

test('a board without review costs the same before and after the option; flag pays a descent, a flag its entry', async () => {
    // populate's scores are below 1,000,003: these are plausible new firsts (under twice the first).
    await submit(7, 1_000_100);
    const never = await least(10, 1_000_110);
    await review({ mode: 'flag' });
    const plausible = await least(20, 1_000_120);
    const flagged = await submit(30, 5_000_000);
    await review({ mode: 'off' });
    const off = await least(40, 5_000_040);
    console.log(
        `review cost (instructions, board of ${PLAYERS}): never ${never}, flag on ${plausible}, flagged ${flagged}, off again ${off}`,
    );
    expect(Math.abs(Number(off - never)) / Number(never)).toBeLessThan(0.01);
    expect(Number(plausible - never)).toBeLessThan(0.05 * Number(never));
    expect(flagged - plausible).toBeGreaterThan(500_000n);
    // hold: a held submit writes its queue entry instead of the board's (no events, no table write).
    await review({ mode: 'hold' });
    const held = await submit(50, 50_000_000);
    console.log(`review cost (instructions, board of ${PLAYERS}): held ${held}`);
    expect(held - plausible).toBeGreaterThan(500_000n);
});
