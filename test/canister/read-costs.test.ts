// What a top-100 read and a rank cost the canister (metered instructions, deterministic: the
// replica meters the real wasm) on a game of 1,000 players: read_board and the global leaderboard
// render their entries as text, not as objects walked by JSON.stringify (12.2 M and 11.9 M before),
// already quoted for the reply's Candid text (6.9 M and 5.6 M before: 5.35 M and 4.42 M; called
// without Azle's async wrapper, 5.23 M and 4.31 M). Ids the rank reads no longer test when a
// player or board holds them are still refused when none does.
import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { packedRankText } from '../../contract/packed-ranks';
import { replyResult } from '../../contract/wire';

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

/** A packed rank read (contract/packed-ranks.ts) as `caller` sends it: its `{ok}` or `{err}` and its cost. */
function packed(
    method: 'own_player_rank_packed' | 'own_board_rank_packed',
    arg: Uint8Array,
    caller = c.gateway.getPrincipal(),
): { result: any; instructions: bigint } {
    const answer = c.replica.query(c.canisterId, method, arg, caller);
    if (!('reply' in answer)) throw new Error(answer.reject.message);
    const runs = c.replica.executions().filter((e) => e.method.endsWith(` ${method}`));
    const bytes = IDL.decode([IDL.Vec(IDL.Nat8)], answer.reply)[0] as unknown as Uint8Array;
    return { result: replyResult(method, bytes), instructions: runs[runs.length - 1].instructions };
}

const text = (s: string): Uint8Array => new Uint8Array(IDL.encode([IDL.Text], [s]));

// What the gateway calls: its own-player reads packed (no JSON either way, the key's bytes cut
// from the request), from a registered gateway told by its principal's bytes (0.41 M and 0.43 M
// as JSON; 1.21 M and 1.23 M before, when the caller was written as text). The caller's bytes
// without a Principal, the reply in one buffer, the clock without BigInt: 0.295 M and 0.304 M
// measured (0.33 M and 0.35 M before).
test("the gateway's packed rank reads answer as the JSON ones, for at most 0.31 M and 0.32 M instructions", () => {
    const playerId = `dev_1700000000_${(500).toString(16).padStart(8, '0')}`;
    const json = query('player_rank', { gameId: G, playerId, percentile: true }).reply;
    const rank = packed('own_player_rank_packed', text(packedRankText({ gameId: G, playerId, percentile: true })));
    expect(JSON.stringify(rank.result)).toBe(JSON.stringify({ ok: json }));
    expect(rank.instructions).toBeLessThanOrEqual(310_000n);
    const onBoard = packed('own_board_rank_packed', text(packedRankText({ gameId: G, boardId: 'daily', playerId })));
    expect(JSON.stringify(onBoard.result)).toBe(
        JSON.stringify({ ok: query('board_rank', { gameId: G, boardId: 'daily', playerId }).reply }),
    );
    expect(onBoard.instructions).toBeLessThanOrEqual(320_000n);
});

test('a packed rank read of garbage, a cut key, another game or no gateway is a clear JSON error', async () => {
    const held = `dev_1700000000_${(500).toString(16).padStart(8, '0')}`;
    const other = 'other-costs';
    const { apiKey } = await c.ok<{ apiKey: string }>('admin_register_game', {
        developerId: 'dev-costs',
        gameId: other,
        name: 'Other',
    });
    await c.ok('submit_scores', { submits: [{ apiKey, gameId: other, playerId: 'only-there', score: 5, streak: 1 }] });
    const before = query('player_rank', { gameId: G, playerId: held }).reply;
    const err = (
        arg: Uint8Array,
        method: 'own_player_rank_packed' | 'own_board_rank_packed' = 'own_player_rank_packed',
    ) => packed(method, arg).result.err;
    const notPacked = { status: 400, message: expect.stringContaining('packed rank request') };
    expect(err(new Uint8Array([1, 2, 3]))).toMatchObject(notPacked);
    expect(err(new Uint8Array(IDL.encode([IDL.Vec(IDL.Nat8)], [[1, 2]])))).toMatchObject(notPacked);
    expect(err(text('hello'))).toMatchObject(notPacked);
    expect(err(text(`9\n${G}/${held}`))).toMatchObject(notPacked);
    expect(err(text(`0${G}/${held}`))).toMatchObject(notPacked);
    // A cut key, a key past the player, another game's player under this game, a path out of it.
    expect(err(text(`0\n${G}/`))).toMatchObject({ status: 400 });
    expect(err(text(`0\n${G}/${held.slice(0, -1)}`))).toMatchObject({ status: 404 });
    expect(err(text(`0\n${G}/only-there`))).toMatchObject({ status: 404, message: 'Player not found' });
    expect(err(text(`0\n${G}/../${other}/only-there`))).toMatchObject({ status: 400 });
    expect(err(text(`0\n${G}x/${held}`))).toMatchObject({ status: 404, message: 'Game not found' });
    expect(err(text(`0\n${G}/${held}"`))).toMatchObject({ status: 400 });
    expect(err(text(`0\n${G}/${held.slice(0, -1)}\\u{30}`))).toMatchObject({ status: 400 });
    expect(err(text(`0\n${G}/${held.slice(0, -1)}é`))).toMatchObject({ status: 400 });
    expect(err(text(`0nope!\n${G}/${held}`), 'own_board_rank_packed')).toMatchObject({ status: 400 });
    expect(err(text(`0nope\n${G}/${held}`), 'own_board_rank_packed')).toMatchObject({ status: 404 });
    expect(packed('own_player_rank_packed', text(`0\n${other}/only-there`)).result.ok).toMatchObject({ rank: 1 });
    const anonymous = packed('own_player_rank_packed', text(`0\n${G}/${held}`), Principal.anonymous()).result;
    expect(anonymous.err).toMatchObject({ status: 403 });
    expect(query('player_rank', { gameId: G, playerId: held }).reply).toEqual(before);
});
