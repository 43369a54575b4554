// Through the HTTP API on the replica: the friends read (POST .../scoreboards/{b}/players) with
// an API key and with a session, unknown ids, duplicates, over 100, bad ids, another game's
// credential; the percentile of the rank routes when asked (and only then); shared ranks on a
// board with ties 'shared', at the gateway and at the canister's own URL.
import { startService, type TestService } from '../support/gateway';

let s: TestService;
let key: string;
let otherKey: string;
const GAME = 'friends-game';
const OTHER = 'other-friends';
/** p0..p4 with 500, 400, 400, 400, 100 (in that order). */
const SCORES = [500, 400, 400, 400, 100];
const pid = (i: number) => `dev_1700000000_0000000${i}`;

const withKey = (k = key) => ({ 'X-API-Key': k });
const path = (board: string, game = GAME) => `/games/${game}/scoreboards/${board}/players`;

beforeAll(async () => {
    s = await startService();
    key = await s.game(GAME);
    otherKey = await s.game(OTHER);
    await s.canister.ok('admin_update_board', { gameId: GAME, scoreboardId: 'daily', ties: 'shared' });
    for (const [i, score] of SCORES.entries()) {
        const r = await s.request('POST', '/scores', {
            headers: withKey(),
            body: { playerId: pid(i), gameId: GAME, score, streak: i },
        });
        expect(r.status).toBe(200);
    }
}, 600_000);
afterAll(() => s.stop());

async function signIn(subject: string): Promise<Record<string, string>> {
    const { token } = await s.signInPlayer(GAME, subject);
    return { 'X-Session-Token': token, 'X-Game-ID': GAME };
}

describe('friends: POST /games/{g}/scoreboards/{b}/players', () => {
    test('with the API key: ranked among themselves, with board rank and percentile; unknown ids missing; duplicates once', async () => {
        const r = await s.request('POST', path('weekly'), {
            headers: withKey(),
            body: { playerIds: [pid(4), 'dev_1700000000_99999999', pid(2), pid(4), pid(0)] },
        });
        expect(r.status).toBe(200);
        expect(r.body.data).toEqual({
            scoreboardId: 'weekly',
            entries: [
                {
                    playerId: pid(0),
                    rank: 1,
                    globalRank: 1,
                    percentile: 20,
                    nickname: expect.stringMatching(/^Player_/),
                    score: 500,
                    streak: 0,
                    authType: 'external',
                    submittedAt: expect.any(Number),
                },
                expect.objectContaining({ playerId: pid(2), rank: 2, globalRank: 3, percentile: 60, score: 400 }),
                expect.objectContaining({ playerId: pid(4), rank: 3, globalRank: 5, percentile: 100, score: 100 }),
            ],
            missing: ['dev_1700000000_99999999'],
            totalEntries: 5,
        });
    });

    test("on a board with ties 'shared' equal values share ranks, among the set and on the board", async () => {
        const r = await s.request('POST', path('daily'), {
            headers: withKey(),
            body: { playerIds: [pid(3), pid(1), pid(4)] },
        });
        expect(r.body.data.entries.map((e: any) => [e.playerId, e.rank, e.globalRank])).toEqual([
            [pid(1), 1, 2],
            [pid(3), 1, 2],
            [pid(4), 3, 5],
        ]);
    });

    test('with a session (X-Session-Token and X-Game-ID) it reads the same', async () => {
        const session = await signIn('friend-reader');
        const r = await s.request('POST', path('weekly'), { headers: session, body: { playerIds: [pid(1)] } });
        expect(r.status).toBe(200);
        expect(r.body.data).toMatchObject({
            entries: [expect.objectContaining({ playerId: pid(1), rank: 1, globalRank: 2 })],
            missing: [],
        });
        // A session of this game naming another game's board: refused.
        const elsewhere = await s.request('POST', path('weekly', OTHER), { headers: session, body: { playerIds: [] } });
        expect(elsewhere.status).toBe(400);
    });

    test('100 different ids are fine (sent twice each too); 101 is a 400 with a clear message', async () => {
        const hundred = Array.from({ length: 100 }, (_, i) => `dev_1700000000_${String(i).padStart(8, '0')}`);
        const ok = await s.request('POST', path('weekly'), {
            headers: withKey(),
            body: { playerIds: [...hundred, ...hundred] },
        });
        expect(ok.status).toBe(200);
        expect(ok.body.data.entries).toHaveLength(5);
        expect(ok.body.data.missing).toHaveLength(95);
        const over = await s.request('POST', path('weekly'), {
            headers: withKey(),
            body: { playerIds: [...hundred, 'one_more'] },
        });
        expect(over.status).toBe(400);
        expect(over.body).toEqual({ ok: false, error: 'Invalid playerIds: may hold at most 100 different player ids' });
    });

    test('bad bodies and ids are 400 naming the problem; nothing reaches the board', async () => {
        const cases: Array<[unknown, string]> = [
            [{}, 'Invalid playerIds: is required'],
            [{ playerIds: 'a,b' }, 'Invalid playerIds: must be a list of player ids'],
            [
                { playerIds: [pid(1), 'not valid'] },
                'Invalid playerIds[1]: must be 1-100 characters: letters, digits, underscores and hyphens',
            ],
            [{ playerIds: [pid(1), 42] }, 'Invalid playerIds: must be a list of player ids'],
            [
                { playerIds: ['@0123456789abcdef0123456789abcdef'] },
                'Invalid playerIds[0]: must be 1-100 characters: letters, digits, underscores and hyphens',
            ],
        ];
        for (const [body, error] of cases) {
            const r = await s.request('POST', path('weekly'), { headers: withKey(), body });
            expect({ body, status: r.status, answer: r.body }).toEqual({
                body,
                status: 400,
                answer: { ok: false, error },
            });
        }
        const board = await s.request('GET', `/games/${GAME}/scoreboards/weekly`, { headers: withKey() });
        expect(board.body.data.totalEntries).toBe(5);
    });

    test("another game's key, no credential, an unknown board", async () => {
        const other = await s.request('POST', path('weekly'), {
            headers: withKey(otherKey),
            body: { playerIds: [pid(0)] },
        });
        expect(other.status).toBe(400);
        expect(other.body.error).toMatch(/does not match the game of the API key/);
        expect((await s.request('POST', path('weekly'), { body: { playerIds: [pid(0)] } })).status).toBe(401);
        const unknown = await s.request('POST', path('nope'), { headers: withKey(), body: { playerIds: [pid(0)] } });
        expect(unknown.status).toBe(404);
    });

    test('it is in the API reference', async () => {
        const doc = (await s.request('GET', '/openapi.json')).body;
        const op = doc.paths['/games/{gameId}/scoreboards/{boardId}/players'].post;
        expect(op.operationId).toBe('post-board-players');
        expect(JSON.stringify(op)).toMatch(/globalRank/);
    });
});

describe('percentile and shared ranks on the rank routes', () => {
    test('GET /players/{id}/rank?percentile=true: rank 1 of 5 is 20, the last 100; absent unless asked', async () => {
        const first = await s.request('GET', `/players/${pid(0)}/rank?percentile=true`, { headers: withKey() });
        expect(first.body.data).toEqual({ rank: 1, score: 500, streak: 0, totalPlayers: 5, percentile: 20 });
        const last = await s.request('GET', `/players/${pid(4)}/rank?percentile=true`, { headers: withKey() });
        expect(last.body.data).toMatchObject({ rank: 5, percentile: 100 });
        const plain = await s.request('GET', `/players/${pid(0)}/rank`, { headers: withKey() });
        expect(plain.body.data).toEqual({ rank: 1, score: 500, streak: 0, totalPlayers: 5 });
        const bad = await s.request('GET', `/players/${pid(0)}/rank?percentile=yes`, { headers: withKey() });
        expect(bad.body).toEqual({ ok: false, error: 'Invalid percentile: must be true or false' });
    });

    test('around-me with ?percentile=true, at the gateway and at the canister URL, with shared ranks', async () => {
        const q = `/games/${GAME}/scoreboards/daily/around?playerId=${pid(3)}&before=1&after=1&percentile=true`;
        const expected = {
            rank: 2,
            percentile: 40,
            entries: [
                expect.objectContaining({ rank: 2, score: 400 }),
                expect.objectContaining({ rank: 2, score: 400 }),
                expect.objectContaining({ rank: 5, score: 100 }),
            ],
        };
        expect((await s.request('GET', q, { headers: withKey() })).body.data).toEqual(expected);
        expect((await s.direct(q)).body.data).toEqual(expected);
    });

    test('the board rank route (session) with ?percentile=true; board pages show shared ranks on both hosts', async () => {
        const session = await signIn('ranked-player');
        await s.request('POST', '/scores', { headers: session, body: { score: 400, streak: 0 } });
        const rank = await s.request('GET', `/games/${GAME}/scoreboards/daily/rank?percentile=true`, {
            headers: session,
        });
        expect(rank.body.data).toEqual({
            found: true,
            rank: 2,
            score: 400,
            streak: 0,
            totalPlayers: 6,
            percentile: 33.4,
        });
        const plain = await s.request('GET', `/games/${GAME}/scoreboards/daily/rank`, { headers: session });
        expect(plain.body.data).not.toHaveProperty('percentile');
        const ranks = [1, 2, 2, 2, 2, 6];
        const page = await s.request('GET', `/games/${GAME}/scoreboards/daily`, { headers: withKey() });
        expect(page.body.data.entries.map((e: any) => e.rank)).toEqual(ranks);
        const direct = await s.direct(`/games/${GAME}/scoreboards/daily`);
        expect(direct.body.data.entries.map((e: any) => e.rank)).toEqual(ranks);
        // The default board keeps distinct ranks.
        const weekly = await s.request('GET', `/games/${GAME}/scoreboards/weekly`, { headers: withKey() });
        expect(weekly.body.data.entries.map((e: any) => e.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    });
});
