// Hostile clients through the gateway: characters the canister once could not decode and huge
// strings batched beside innocent submits of other games, and credentials revoked while a
// gateway still has them cached.
import { startService, type TestService } from '../support/gateway';

let s: TestService;
let now = Date.parse('2026-03-04T12:00:00Z');
let keyA: string;
let keyB: string;

beforeAll(async () => {
    s = await startService({ clock: () => now });
    keyA = await s.game('game-a');
    keyB = await s.game('game-b');
});
afterAll(() => s.stop());

const HOSTILE_CHARACTERS = ['\u200b', '\u00ad', '\ufeff', '\u0085', '\u2028'];

test('hostile submits batched with innocent ones of other games fail alone; every innocent submit succeeds', async () => {
    const hostile: Array<{ key: string; body: Record<string, unknown>; status: number }> = [];
    HOSTILE_CHARACTERS.forEach((c, i) => {
        hostile.push({
            key: keyA,
            body: { playerId: `bad_nick_${i}`, score: 1, streak: 0, nickname: `Bad${c}Name` },
            status: 400,
        });
        // With time validation off any token is accepted and ignored (rule L2).
        hostile.push({
            key: keyA,
            body: { playerId: `bad_token_${i}`, score: 1, streak: 0, playSessionToken: `ps_${c}` },
            status: 200,
        });
    });
    hostile.push({
        key: keyA,
        body: { playerId: 'huge_nick', score: 1, streak: 0, nickname: 'N'.repeat(60_000) },
        status: 400,
    });
    hostile.push({
        key: keyA,
        body: { playerId: 'huge_token', score: 1, streak: 0, playSessionToken: `ps_${'\u200b'.repeat(20_000)}` },
        status: 200,
    });
    const innocent = Array.from({ length: 60 }, (_, i) => ({
        key: i % 2 === 0 ? keyB : keyA,
        body: { playerId: `good_${i}`, score: 100 + i, streak: 1 },
        status: 200,
    }));
    const all = [...innocent.slice(0, 30), ...hostile, ...innocent.slice(30)];
    const replies = await Promise.all(
        all.map((r) => s.request('POST', '/scores', { headers: { 'X-API-Key': r.key }, body: r.body })),
    );
    expect(replies.map((r) => r.status)).toEqual(all.map((r) => r.status));
    for (const [i, r] of replies.entries()) {
        if (all[i].status === 400)
            expect(r.body).toEqual({
                ok: false,
                error: expect.stringMatching(/^Nickname (can only contain|must be 16)/),
            });
    }
    const boardB = await s.request('GET', '/leaderboard?limit=1000', { headers: { 'X-API-Key': keyB } });
    expect(boardB.body.data.total).toBe(30);
    const boardA = await s.request('GET', '/leaderboard?limit=1000', { headers: { 'X-API-Key': keyA } });
    expect(boardA.body.data.total).toBe(30 + HOSTILE_CHARACTERS.length + 1);
});

test('names with any printable character round-trip through the canister', async () => {
    const name = `Level ${HOSTILE_CHARACTERS.join('')} 😀 'quoted' "double" \\u{41} \u0301`;
    await s.canister.ok('admin_create_board', { gameId: 'game-b', scoreboardId: 'odd-names', type: 'targeted', name });
    const boards = await s.request('GET', '/games/game-b/scoreboards', { headers: { 'X-API-Key': keyB } });
    expect(
        boards.body.data.scoreboards.find((b: { scoreboardId: string }) => b.scoreboardId === 'odd-names').name,
    ).toBe(name);
    expect((await s.direct('/games/game-b/scoreboards/odd-names')).body.data.config.name).toBe(name);
});

/** A new game, its key's headers, and one accepted submit (player p1) that shows the key works. */
async function gameWithAPlayer(gameId: string): Promise<{ 'X-API-Key': string }> {
    const headers = { 'X-API-Key': await s.game(gameId) };
    const first = await s.request('POST', '/scores', { headers, body: { playerId: 'p1', score: 5, streak: 0 } });
    expect(first.status).toBe(200);
    return headers;
}

test('a rotated key fails at once on writes, however recently the gateway checked it; reads follow within seconds', async () => {
    const headers = await gameWithAPlayer('rotating');
    expect((await s.request('GET', '/game', { headers })).status).toBe(200);
    await s.canister.ok('admin_rotate_key', { gameId: 'rotating' });
    const writes = [
        s.request('POST', '/scores', { headers, body: { playerId: 'p2', score: 5, streak: 0 } }),
        s.request('PUT', '/players/p1/nickname', { headers, body: { nickname: 'Renamed' } }),
        s.request('POST', '/achievements', { headers, body: { playerId: 'p1', achievementId: 'a1' } }),
        s.request('POST', '/play-sessions/start', { headers, body: { playerId: 'p1' } }),
        s.request('POST', '/play-sessions/end', {
            headers,
            body: { playSessionToken: 'ps_00000000000000000000000000000000' },
        }),
    ];
    for (const reply of await Promise.all(writes))
        expect(reply).toMatchObject({ status: 401, body: { ok: false, error: 'Invalid API key' } });
    // The gateway's cached lookup lets reads trail for a few seconds at most.
    now += 5_000;
    expect((await s.request('GET', '/game', { headers })).status).toBe(401);
});

test('a deactivated game refuses writes at once (403), reads within seconds', async () => {
    const headers = await gameWithAPlayer('sunset');
    await s.canister.ok('admin_update_game', { gameId: 'sunset', isActive: false });
    const rename = await s.request('PUT', '/players/p1/nickname', { headers, body: { nickname: 'Renamed' } });
    expect(rename).toMatchObject({ status: 403, body: { ok: false, error: 'This game is deactivated' } });
    expect(
        (await s.request('POST', '/scores', { headers, body: { playerId: 'p2', score: 5, streak: 0 } })).status,
    ).toBe(403);
    now += 5_000;
    expect((await s.request('GET', '/players/p1/profile', { headers })).status).toBe(403);
});
