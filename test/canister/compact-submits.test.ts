// submit_scores_compact, as the real wasm runs it: a batch sent compact answers and stores what
// submit_scores does for the same batch, and a shared key is worth nothing on another game or
// where a submit brings its own credential; a malformed batch is a clear 400 that changes
// nothing, and only gateways may call it.
import { Ed25519KeyIdentity } from '@dfinity/identity';
import type { Principal } from '@dfinity/principal';

import type { SubmitRequest } from '../../contract/canister';
import { compactSubmits } from '../../contract/compact-submits';
import { addLeaderboard, startLeaderboard, type TestCanister } from '../support/canister';
import { callTextAs } from '../support/replica';

let plain: TestCanister;
let compact: TestCanister;
const keys = new Map<TestCanister, { a: string; b: string }>();

beforeAll(async () => {
    plain = await startLeaderboard();
    compact = await addLeaderboard(plain);
    for (const c of [plain, compact]) {
        const a = (await c.ok('admin_register_game', { developerId: 'dev-c', gameId: 'game-a', name: 'A' })).apiKey;
        const b = (await c.ok('admin_register_game', { developerId: 'dev-c', gameId: 'game-b', name: 'B' })).apiKey;
        keys.set(c, { a, b });
    }
}, 120_000);
afterAll(() => plain?.replica.stop());

/** The raw JSON text of a method's reply, sent as `caller` (the gateway by default) with `text` as its request. */
const raw = (c: TestCanister, method: string, text: string, caller: Principal = c.gateway.getPrincipal()) =>
    callTextAs(c.replica, caller, c.canisterId, method, text);

const top = async (c: TestCanister, gameId: string) =>
    JSON.stringify(await c.ok('read_board', { gameId, boardId: 'all-time', limit: 100 }));

test('a mixed batch sent compact answers and stores what submit_scores does', async () => {
    const batch = (c: TestCanister): SubmitRequest[] => {
        const { a, b } = keys.get(c)!;
        return [
            ...Array.from({ length: 6 }, (_, i) => ({
                apiKey: a,
                gameId: 'game-a',
                playerId: `p${i}`,
                score: 10 * i,
                streak: i,
            })),
            { apiKey: b, gameId: 'game-b', playerId: 'q1', score: 5, streak: 1, nickname: 'Quinn_1' },
            { apiKey: a, gameId: 'game-a', playerId: 'p9', score: 7, streak: 0, scoreboardId: 'nope' },
            { apiKey: 'key_game-a_wrong', gameId: 'game-a', playerId: 'p8', score: 7, streak: 0 },
        ];
    };
    const sent = JSON.stringify(compactSubmits(batch(compact)));
    expect(JSON.parse(sent).shared).toEqual({ gameId: 'game-a', keys: { 'game-a': keys.get(compact)!.a } });
    const answers = [
        await raw(plain, 'submit_scores', JSON.stringify({ submits: batch(plain) })),
        await raw(compact, 'submit_scores_compact', sent),
    ];
    expect(answers[1]).toBe(answers[0]);
    expect(JSON.parse(answers[0]).ok.map((r: object) => Object.keys(r)[0])).toEqual([
        ...Array(7).fill('ok'),
        'err',
        'err',
    ]);
    for (const game of ['game-a', 'game-b']) expect(await top(compact, game)).toBe(await top(plain, game));
});

test("a shared key opens no other game, and never replaces a submit's own credential", async () => {
    const { a, b } = keys.get(compact)!;
    const before = await top(compact, 'game-b');
    const reply = JSON.parse(
        await raw(
            compact,
            'submit_scores_compact',
            JSON.stringify({
                shared: { gameId: 'game-a', keys: { 'game-a': a, 'game-c': a } },
                submits: [
                    // Another game named, no key: none is shared for it.
                    { gameId: 'game-b', playerId: 'x1', score: 999, streak: 9 },
                    // game-a's key given as another game's: checked against that game.
                    { gameId: 'game-c', playerId: 'x3', score: 999, streak: 9 },
                    // game-b's key with the shared game: a key of one game is worth nothing on another.
                    { apiKey: b, playerId: 'x2', score: 999, streak: 9 },
                    // A session of its own (unknown): refused as a session, not written with the key.
                    { sessionHash: '0'.repeat(64), score: 999, streak: 9 },
                ],
            }),
        ),
    );
    expect(reply.ok.map((r: { err?: { status: number } }) => r.err?.status)).toEqual([401, 401, 401, 401]);
    expect(await top(compact, 'game-b')).toBe(before);
    expect(await top(compact, 'game-a')).not.toContain('999');
    // Game ids an object already answers to take nothing from the table but their own entry.
    const odd = JSON.parse(
        await raw(
            compact,
            'submit_scores_compact',
            '{"shared":{"keys":{"__proto__":"' +
                a +
                '","game-a":"' +
                a +
                '"}},"submits":[{"gameId":"__proto__","playerId":"x4","score":1,"streak":0},' +
                '{"gameId":"constructor","playerId":"x5","score":1,"streak":0},' +
                '{"gameId":"toString","playerId":"x6","score":1,"streak":0}]}',
        ),
    );
    expect(odd.ok.map((r: { err?: { status: number } }) => r.err?.status)).toEqual([401, 401, 401]);
});

test('a malformed batch is a clear 400 and changes nothing; strangers are refused', async () => {
    const { a } = keys.get(compact)!;
    const before = await top(compact, 'game-a');
    const submits = [{ playerId: 'm1', score: 12345, streak: 1 }];
    for (const shared of ['x', null, { gameId: 7 }, { keys: [a] }, { gameId: 'game-a', keys: { 'game-a': 7 } }])
        expect(JSON.parse(await raw(compact, 'submit_scores_compact', JSON.stringify({ shared, submits })))).toEqual({
            err: { status: 400, message: expect.stringMatching(/^Invalid shared: /) },
        });
    expect(JSON.parse(await raw(compact, 'submit_scores_compact', '{"shared":{"gameId":"g"},"submits":5}'))).toEqual({
        err: { status: 400, message: 'Invalid submits: must be a list' },
    });
    expect(JSON.parse(await raw(compact, 'submit_scores_compact', 'not json'))).toMatchObject({ err: { status: 400 } });
    const stranger = Ed25519KeyIdentity.generate().getPrincipal();
    expect(
        JSON.parse(
            await raw(
                compact,
                'submit_scores_compact',
                JSON.stringify({ shared: { gameId: 'game-a', keys: { 'game-a': a } }, submits }),
                stranger,
            ),
        ),
    ).toEqual({ err: { status: 403, message: 'This method is only for registered gateways and controllers' } });
    expect(await top(compact, 'game-a')).toBe(before);
});
