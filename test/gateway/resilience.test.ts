// The gateway's own behaviour around the canister: board reads cached for the configured TTL
// (R2), and a canister that cannot be reached answered with 503 JSON while the process keeps
// serving.
import { startService, type TestService } from '../support/gateway';

test('board reads are cached for the TTL; profile reads are not', async () => {
    // The caches run on a clock the test moves: no waiting, and no outcome that depends on how
    // long the requests in between took.
    let now = 0;
    const s: TestService = await startService({ readCacheTtlSeconds: 1, clock: () => now });
    try {
        const key = await s.game('cached-game');
        const headers = { 'X-API-Key': key };
        await s.request('POST', '/scores', {
            headers,
            body: { playerId: 'p1', gameId: 'cached-game', score: 10, streak: 1 },
        });
        const first = await s.request('GET', '/leaderboard', { headers });
        expect(first.body.data.leaderboard[0].score).toBe(10);
        await s.request('POST', '/scores', {
            headers,
            body: { playerId: 'p2', gameId: 'cached-game', score: 99, streak: 1 },
        });
        expect((await s.request('GET', '/leaderboard', { headers })).body).toEqual(first.body);
        expect((await s.request('GET', '/players/p2/profile', { headers })).body.data.gameProfile.score).toBe(99);
        now += 999;
        expect((await s.request('GET', '/leaderboard', { headers })).body).toEqual(first.body);
        now += 1;
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
        const submit = await s.request('POST', '/scores', {
            headers,
            body: { playerId: 'p1', gameId: 'lonely-game', score: 1, streak: 0 },
        });
        expect(submit.status).toBe(503);
        expect(submit.body).toEqual({
            ok: false,
            error: 'The leaderboard service is temporarily unavailable. Try again shortly.',
        });
        expect((await s.request('GET', '/health')).status).toBe(503);
        expect((await s.request('GET', '/leaderboard', { headers })).status).toBe(503);
        expect((await s.request('GET', '/nowhere')).status).toBe(404);
        expect((await s.request('OPTIONS', '/scores')).status).toBe(200);
    } finally {
        await s.gateway.close();
    }
});

test('concurrent submits reach the canister in shared calls, each request with its own answer', async () => {
    const s = await startService();
    try {
        const key = await s.game('busy-game');
        const headers = { 'X-API-Key': key };
        await s.request('GET', '/game', { headers }); // the key is known from here on
        const before = s.replica.executions().filter((e) => e.method === 'canister_update submit_scores').length;
        const replies = await Promise.all(
            Array.from({ length: 40 }, (_, i) =>
                s.request('POST', '/scores', {
                    headers,
                    body: {
                        playerId: `p${i}`,
                        gameId: 'busy-game',
                        score: i,
                        streak: 0,
                        nickname: i === 3 ? 'x' : undefined,
                    },
                }),
            ),
        );
        expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 40 }, (_, i) => (i === 3 ? 400 : 200)));
        expect(replies[3].body).toEqual({ ok: false, error: 'Nickname must be at least 3 characters' });
        const calls =
            s.replica.executions().filter((e) => e.method === 'canister_update submit_scores').length - before;
        // Here gateway, replica and client share one thread, so requests come in between calls;
        // what matters is that submits shared calls (the batcher's own test checks the bounds).
        expect(calls).toBeLessThan(40);
        expect((await s.request('GET', '/leaderboard?limit=1', { headers })).body.data.total).toBe(39);
    } finally {
        await s.stop();
    }
});
