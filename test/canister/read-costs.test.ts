// What a top-100 read and a rank cost the canister (metered instructions, deterministic: the
// replica meters the real wasm) on a game of 1,000 players: read_board and the global leaderboard
// render their entries as text, not as objects walked by JSON.stringify (12.2 M and 11.9 M before),
// already quoted for the reply's Candid text (6.9 M and 5.6 M before: 5.35 M and 4.42 M; called
// without Azle's async wrapper, 5.23 M and 4.31 M). Ids the rank reads no longer test when a
// player or board holds them are still refused when none does.
import { IDL } from '@dfinity/candid';

import { startLeaderboard, type TestCanister } from '../support/canister';

const G = 'game-costs';
const PLAYERS = 1000;
let c: TestCanister;

beforeAll(async () => {
    c = await startLeaderboard({ testMode: true });
    const { apiKey } = await c.ok('admin_register_game', { developerId: 'dev-costs', gameId: G, name: 'Costs' });
    for (let from = 0; from < PLAYERS; from += 200)
        await c.ok('submit_scores', {
            submits: Array.from({ length: 200 }, (_, k) => {
                const i = from + k;
                return {
                    apiKey,
                    gameId: G,
                    playerId: `dev_1700000000_${i.toString(16).padStart(8, '0')}`,
                    score: (i * 2654435761) % 1_000_003,
                    streak: i % 50,
                };
            }),
        });
}, 600_000);

afterAll(() => c?.replica.stop());

/** A query's reply and its metered instructions. */
function query(method: string, request: unknown): { reply: any; instructions: bigint } {
    const arg = new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(request)]));
    const answer = c.replica.query(c.canisterId, method, arg);
    if (!('reply' in answer)) throw new Error(answer.reject.message);
    const runs = c.replica.executions().filter((e) => e.method.endsWith(` ${method}`));
    const reply = JSON.parse(IDL.decode([IDL.Text], answer.reply)[0] as string);
    return { reply: reply.ok, instructions: runs[runs.length - 1].instructions };
}

test('a top-100 board read costs at most 5.3 M instructions', () => {
    const { reply, instructions } = query('read_board', { gameId: G, boardId: 'all-time', limit: 100 });
    expect(reply.entries).toHaveLength(100);
    expect(reply.totalEntries).toBe(PLAYERS);
    expect(instructions).toBeLessThanOrEqual(5_300_000n);
});

test('a top-100 global leaderboard costs at most 4.4 M instructions', () => {
    const { reply, instructions } = query('leaderboard', { gameId: G, limit: 100 });
    expect(reply.leaderboard).toHaveLength(100);
    expect(reply.total).toBe(PLAYERS);
    expect(instructions).toBeLessThanOrEqual(4_400_000n);
});

// A rank needs the player's slot alone, read from the record's first bytes, and its reply is
// written as text; a live period is told without date arithmetic (0.86 M and 0.95 M before the
// slot read, 0.58 M and 0.66 M before these; 0.48 M and 0.54 M after). Methods called without
// Azle's async wrapper, keys put into Candid without JSON.stringify, ids tested only when no
// player or board holds them, replies quoted for Candid as written, the slot's digits read
// without an object: 0.35 M and 0.395 M measured.
test("a player's rank and their rank on a board cost at most 0.36 M and 0.40 M instructions", () => {
    const playerId = `dev_1700000000_${(500).toString(16).padStart(8, '0')}`;
    const rank = query('player_rank', { gameId: G, playerId });
    expect(rank.reply.totalPlayers).toBe(PLAYERS);
    expect(rank.instructions).toBeLessThanOrEqual(360_000n);
    const onBoard = query('board_rank', { gameId: G, boardId: 'daily', playerId });
    expect(onBoard.reply).toMatchObject({ found: true, rank: rank.reply.rank, totalPlayers: PLAYERS });
    expect(onBoard.instructions).toBeLessThanOrEqual(400_000n);
});

// Ids are tested only when no player or board holds them: an id that is not one, whatever Candid
// would make of it as a key (an escape naming a player's id, a quote, a lone surrogate), is refused.
test('a rank read of an id no player or board holds is refused as before', () => {
    const errorOf = (method: string, request: unknown): { status: number; message: string } => {
        const answer = c.replica.query(
            c.canisterId,
            method,
            new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(request)])),
        );
        if (!('reply' in answer)) throw new Error(answer.reject.message);
        return JSON.parse(IDL.decode([IDL.Text], answer.reply)[0] as string).err;
    };
    const held = `dev_1700000000_${(500).toString(16).padStart(8, '0')}`;
    for (const playerId of [`${held.slice(0, -1)}\\u{34}`, `${held}"`, `${held}\\`, '\ud800', 7])
        for (const method of ['player_rank', 'board_rank', 'around'])
            expect(errorOf(method, { gameId: G, boardId: 'daily', playerId })).toMatchObject({ status: 400 });
    expect(errorOf('board_rank', { gameId: G, boardId: 'no such board!', playerId: held })).toMatchObject({
        status: 400,
    });
});
