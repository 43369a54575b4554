// Boards filtered by metadata through the HTTP API on the replica: `filter=<key>:<value>` on the
// board read (top and paging), the rank route, around-me, /leaderboard and the canister's own
// direct read (uncertified); 400 JSON errors for undeclared keys; the answers the official
// clients get (no filter) stay byte for byte what they were before the board had filters.
import { localClient } from '../support/client';
import { startService, type TestService } from '../support/gateway';

let s: TestService;
let key: string;
const GAME = 'filter-game';
/** p0..p7: scores 800, 700, ... 100; countries alternate DE, FR, DE, US, ... */
const COUNTRY = ['DE', 'FR', 'DE', 'US', 'DE', 'FR', 'DE', 'US'];
const pid = (i: number) => `dev_1700000000_0000000${i}`;
const withKey: Record<string, string> = {};
const get = (path: string, headers: Record<string, string> = { 'X-API-Key': key }) =>
    s.request('GET', path, { headers });
const board = (id: string, query = '') => `/games/${GAME}/scoreboards/${id}${query}`;

/** Reads the official clients make, as raw text. */
const OFFICIAL = () => [
    board('weekly'),
    board('weekly', '?limit=3&offset=2'),
    board('all-time'),
    board('weekly/around', `?playerId=${pid(3)}&before=1&after=1`),
    '/leaderboard?sort=score&limit=10',
    '/leaderboard?sort=streak',
    `/games/${GAME}/scoreboards`,
    `/players/${pid(2)}/rank`,
];

beforeAll(async () => {
    s = await startService({ readCacheTtlSeconds: 0 });
    key = await s.game(GAME);
    withKey['X-API-Key'] = key;
    for (const [i, country] of COUNTRY.entries()) {
        const r = await s.request('POST', '/scores', {
            headers: withKey,
            body: {
                playerId: pid(i),
                gameId: GAME,
                score: 800 - 100 * i,
                streak: i,
                metadata: { country, lvl: i % 2 },
            },
        });
        expect(r.status).toBe(200);
    }
}, 600_000);
afterAll(() => s.stop());

test("declaring filters changes none of the official clients' answers", async () => {
    const before = await Promise.all(OFFICIAL().map((p) => get(p)));
    await s.canister.ok('admin_update_board', { gameId: GAME, scoreboardId: 'weekly', filters: ['country', 'lvl'] });
    await s.canister.ok('admin_update_board', { gameId: GAME, scoreboardId: 'all-time', filters: ['country'] });
    const after = await Promise.all(OFFICIAL().map((p) => get(p)));
    expect(after.map((r) => [r.status, r.text])).toEqual(before.map((r) => [r.status, r.text]));
    expect(before.every((r) => r.status === 200)).toBe(true);
});

test('a filtered board read: ranks and totals inside the filter, paging, an integer value as text', async () => {
    const de = await get(board('weekly', '?filter=country:DE'));
    expect(de.status).toBe(200);
    expect(de.body.data.totalEntries).toBe(4);
    expect(de.body.data.entries.map((e: any) => [e.rank, e.score, e.metadata.country])).toEqual([
        [1, 800, 'DE'],
        [2, 600, 'DE'],
        [3, 400, 'DE'],
        [4, 200, 'DE'],
    ]);
    const page = await get(board('weekly', '?filter=country%3ADE&limit=2&offset=2'));
    expect(page.body.data.entries.map((e: any) => [e.rank, e.score])).toEqual([
        [3, 400],
        [4, 200],
    ]);
    const odd = await get(board('weekly', '?filter=lvl:1'));
    expect(odd.body.data.entries.map((e: any) => e.score)).toEqual([700, 500, 300, 100]);
    const nobody = await get(board('weekly', '?filter=country:XX'));
    expect([nobody.status, nobody.body.data.entries, nobody.body.data.totalEntries]).toEqual([200, [], 0]);
    const global = await get('/leaderboard?filter=country:US');
    expect(global.body.data).toEqual({
        leaderboard: [
            expect.objectContaining({ rank: 1, score: 500 }),
            expect.objectContaining({ rank: 2, score: 100 }),
        ],
        total: 2,
    });
});

test('around-me and the rank route count inside the filter', async () => {
    const around = await get(board('weekly/around', `?playerId=${pid(4)}&before=1&after=1&filter=country:DE`));
    expect(around.status).toBe(200);
    expect([around.body.data.rank, around.body.data.entries.map((e: any) => e.score)]).toEqual([3, [600, 400, 200]]);
    const { token } = await s.signInPlayer(GAME, 'ranked-de');
    const session = { 'X-Session-Token': token, 'X-Game-ID': GAME };
    await s.request('POST', '/scores', {
        headers: session,
        body: { score: 650, streak: 0, metadata: { country: 'DE' } },
    });
    const rank = await get(board('weekly/rank', '?filter=country:DE&percentile=true'), session);
    expect(rank.body.data).toEqual({ found: true, rank: 2, score: 650, streak: 0, totalPlayers: 5, percentile: 40 });
    const elsewhere = await get(board('weekly/rank', '?filter=country:FR'), session);
    expect(elsewhere.body.data).toMatchObject({ found: false, totalPlayers: 2 });
});

test('a key the board does not declare, or a malformed filter, is a 400 JSON error on every route', async () => {
    const cases: Array<[string, string]> = [
        [
            board('weekly', '?filter=car:red'),
            "Invalid filter: 'car' is not a filter of board 'weekly' (its filters: country, lvl)",
        ],
        [
            board('daily', '?filter=country:DE'),
            "Invalid filter: 'country' is not a filter of board 'daily' (it has none)",
        ],
        [
            board('weekly', '?filter=country'),
            "Invalid filter: must be <key>:<value>, a key of the board's filters and its value",
        ],
        [board('weekly', '?filter=country:DE&filter=country:FR'), 'Invalid filter: give it once, as a plain value'],
        [
            board('weekly/around', `?playerId=${pid(0)}&filter=car:red`),
            "Invalid filter: 'car' is not a filter of board 'weekly' (its filters: country, lvl)",
        ],
        [
            '/leaderboard?filter=lvl:1',
            "Invalid filter: 'lvl' is not a filter of board 'all-time' (its filters: country)",
        ],
    ];
    for (const [path, error] of cases) {
        const r = await get(path);
        expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 400, body: { ok: false, error } });
    }
});

test("the canister's own read takes the filter too, served uncertified with the same JSON", async () => {
    // The board's own path is certified (in the tree): its filtered reads are still answered.
    expect((await s.direct(board('weekly'))).status).toBe(200);
    const path = board('weekly', '?filter=country:FR&limit=5');
    const [direct, gateway] = await Promise.all([s.direct(path), get(path)]);
    expect(direct.status).toBe(200);
    expect(direct.body).toEqual(gateway.body);
    expect(direct.body.data.entries.map((e: any) => e.score)).toEqual([700, 300]);
    expect(direct.headers.get('ic-certificateexpression')).toContain('no_certification');
    const bad = await s.direct(board('weekly', '?filter=car:red'));
    expect([bad.status, bad.body.ok]).toEqual([400, false]);
});

test("the JS client's filter option, on the gateway reads and the direct read", async () => {
    // The client of p5 (FR, 300): its stored player id.
    const kept = new Map([[`leaderboard:${GAME}:playerId`, pid(5)]]);
    const store = { getItem: (k: string) => kept.get(k) ?? null, setItem: () => {}, removeItem: () => {} };
    const c = localClient(s, key, GAME, { store });
    expect((await c.board('weekly', { filter: 'country:FR' })).entries.map((e) => e.score)).toEqual([700, 300]);
    expect((await c.leaderboard({ filter: 'country:FR' })).total).toBe(2);
    expect(await c.aroundMe('weekly', { filter: 'country:FR', before: 1, after: 0 })).toMatchObject({ rank: 2 });
    expect((await c.direct.board('weekly', { filter: 'country:DE', limit: 2 })).entries.map((e) => e.score)).toEqual([
        800, 650,
    ]);
    await expect(c.board('weekly', { filter: 'car:red' })).rejects.toMatchObject({ status: 400 });
});
