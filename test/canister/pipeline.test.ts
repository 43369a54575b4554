// The canister's wasm on the replica: the score pipeline and reads through Candid, the same
// JSON over http_request (the direct canister URL), and errors as typed JSON.
import type { TestCanister } from '../support/canister';
import { startLeaderboard } from '../support/canister';

let c: TestCanister;
let apiKey: string;

beforeAll(async () => {
    c = await startLeaderboard();
    ({ apiKey } = await c.ok('admin_register_game', {
        developerId: 'dev-1',
        gameId: 'space-race',
        name: 'Space Race',
    }));
});
afterAll(() => c.replica.stop());

test('register, submit, read: the whole pipeline through Candid', async () => {
    expect(await c.ok('resolve_key', { apiKey })).toEqual({ gameId: 'space-race', isActive: true });
    const results = await c.ok('submit_scores', {
        submits: [
            {
                apiKey,
                gameId: 'space-race',
                playerId: 'dev_1700000000_aaaaaaaa',
                score: 120,
                streak: 4,
                nickname: 'Comet',
            },
            { apiKey, gameId: 'space-race', playerId: 'dev_1700000000_bbbbbbbb', score: 300, streak: 1 },
            { apiKey, gameId: 'space-race', playerId: 'dev_1700000000_cccccccc', score: -5, streak: 1 },
        ],
    });
    expect(results[0]).toEqual({ ok: { message: expect.stringContaining('Comet') } });
    expect(results[1]).toMatchObject({ ok: {} });
    expect(results[2]).toEqual({ err: { status: 400, message: expect.stringContaining('score') } });
    const board = await c.ok('leaderboard', { gameId: 'space-race', sort: 'score', limit: 10 });
    expect(board).toEqual({
        leaderboard: [
            { rank: 1, nickname: expect.stringMatching(/^Player_\d+$/), score: 300, streak: 1, authType: 'external' },
            { rank: 2, nickname: 'Comet', score: 120, streak: 4, authType: 'external' },
        ],
        total: 2,
    });
    const profile = await c.ok('profile', { gameId: 'space-race', playerId: 'dev_1700000000_aaaaaaaa' });
    expect(profile).toMatchObject({
        nickname: 'Comet',
        gameProfile: { score: 120, streak: 4, playCount: 1, achievements: [] },
    });
    expect(Number.isInteger(profile.created)).toBe(true);
    expect(profile.created).toBeGreaterThan(1.7e18);
});

test('board reads over http_request give the gateway envelope with the same data, CORS and a 30 s cache', async () => {
    const data = await c.ok('read_board', { gameId: 'space-race', boardId: 'weekly', limit: 5 });
    const res = await fetch(
        `${c.replica.url}/games/space-race/scoreboards/weekly?limit=5&canisterId=${c.canisterId.toText()}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(await res.json()).toEqual({ ok: true, data });
    const list = await fetch(`${c.replica.url}/games/space-race/scoreboards?canisterId=${c.canisterId.toText()}`);
    expect((await list.json()).data).toEqual(await c.ok('list_boards', { gameId: 'space-race' }));
});

test('http_request answers unknown paths, bad ids and writes with JSON errors', async () => {
    const base = `canisterId=${c.canisterId.toText()}`;
    const missing = await fetch(`${c.replica.url}/games/space-race/scoreboards/nope?${base}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ ok: false, error: "Scoreboard 'nope' not found for this game." });
    const unknown = await fetch(`${c.replica.url}/somewhere/else?${base}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ ok: false, error: 'Unknown endpoint: GET /somewhere/else' });
    const bad = await fetch(`${c.replica.url}/games/bad%20id/scoreboards?${base}`);
    expect(bad.status).toBe(400);
    const post = await fetch(`${c.replica.url}/games/space-race/scoreboards?${base}`, { method: 'PUT', body: '{}' });
    expect(post.status).toBe(405);
    expect((await post.json()).ok).toBe(false);
});

test('malformed requests get a typed 400 and change nothing', async () => {
    expect(await c.call('submit_scores', 'not an object')).toEqual({
        err: { status: 400, message: expect.any(String) },
    });
    expect(await c.call('submit_scores', { submits: 'nope' })).toEqual({
        err: { status: 400, message: 'Invalid submits: must be a list' },
    });
    const raw = await (c.agent as any)
        .call(c.canisterId, { methodName: 'submit_scores', arg: new Uint8Array([1, 2, 3]) })
        .catch((e: Error) => e);
    expect(raw).toBeDefined();
    expect((await c.ok('leaderboard', { gameId: 'space-race' })).total).toBe(2);
});
