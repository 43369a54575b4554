// The gateway's own behaviour around the canister: board reads cached for the configured TTL
// (R2), and a canister that cannot be reached answered with 503 JSON while the process keeps
// serving.
import { startService, type TestService } from '../support/gateway';

test('board reads are cached for the TTL; profile reads are not', async () => {
    const s: TestService = await startService({ readCacheTtlSeconds: 1 });
    try {
        const key = await s.game('cached-game');
        const headers = { 'X-API-Key': key };
        await s.request('POST', '/scores', { headers, body: { playerId: 'p1', gameId: 'cached-game', score: 10, streak: 1 } });
        const first = await s.request('GET', '/leaderboard', { headers });
        expect(first.body.data.leaderboard[0].score).toBe(10);
        await s.request('POST', '/scores', { headers, body: { playerId: 'p2', gameId: 'cached-game', score: 99, streak: 1 } });
        expect((await s.request('GET', '/leaderboard', { headers })).body).toEqual(first.body);
        expect((await s.request('GET', '/players/p2/profile', { headers })).body.data.gameProfile.score).toBe(99);
        await new Promise((r) => setTimeout(r, 1100));
        expect((await s.request('GET', '/leaderboard', { headers })).body.data.leaderboard[0].score).toBe(99);
    } finally {
        await s.stop();
    }
});

test('with the canister unreachable: 503 JSON, and the gateway keeps answering', async () => {
    const s = await startService();
    const key = await s.game('lonely-game');
    await s.replica.stop();
    try {
        const headers = { 'X-API-Key': key };
        const submit = await s.request('POST', '/scores', { headers, body: { playerId: 'p1', gameId: 'lonely-game', score: 1, streak: 0 } });
        expect(submit.status).toBe(503);
        expect(submit.body).toEqual({ ok: false, error: 'The leaderboard service is temporarily unavailable. Try again shortly.' });
        expect((await s.request('GET', '/health')).status).toBe(503);
        expect((await s.request('GET', '/leaderboard', { headers })).status).toBe(503);
        expect((await s.request('GET', '/nowhere')).status).toBe(404);
        expect((await s.request('OPTIONS', '/scores')).status).toBe(200);
    } finally {
        await s.gateway.close();
    }
});
