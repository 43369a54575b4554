// The gateway's own behaviour around the canister: board reads cached for the configured TTL
// (R2), and a canister that cannot be reached answered with 503 JSON while the process keeps
// serving (the dashboard's JSON API included, with no promise left unhandled).

import { MESSAGES } from '../../contract/messages';
import { ROUTES } from '../../gateway/routes';
import { startService, type TestService, dashboardHeaders } from '../support/gateway';

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

/** The dashboard's JSON API, one request each (no body: the routes take one optionally). */
/** With a body the route's schema accepts (so that the canister is what fails). */
const BODIES: Record<string, unknown> = {
    'POST /dashboard/api/games/some-game/boards': { scoreboardId: 'month', type: 'monthly', sortOrder: 'asc' },
    'PUT /dashboard/api/games/some-game/boards/month': { ties: 'shared' },
    'PUT /dashboard/api/games/some-game/standard-boards': { sortOrder: 'asc' },
    'POST /dashboard/api/games/some-game/server-key': {},
    'PUT /dashboard/api/games/some-game/server-settings': { serverOnly: true },
    'POST /dashboard/api/games/some-game/webhooks': { url: 'https://hooks.example.com/lb', kinds: ['new_leader'] },
    'PUT /dashboard/api/games/some-game/webhooks/whk_0123456789abcdef': { paused: true },
    'POST /dashboard/api/games/some-game/reports/all-time/p1': { action: 'dismiss' },
    'POST /dashboard/api/games/some-game/review/all-time/p1': { action: 'dismiss' },
    'PUT /dashboard/api/games/some-game/reward-claims': { rewardClaims: 'server' },
};

const DASHBOARD_API = [
    'GET /dashboard/api/me',
    ...Object.keys(BODIES),
    'GET /dashboard/api/games/some-game/boards/all-time/export',
    'GET /dashboard/api/games/some-game/boards/all-time/entries',
    'GET /dashboard/api/games/some-game/backup',
    'DELETE /dashboard/api/games/some-game/boards/all-time/entries/p1',
    'POST /dashboard/api/games/some-game/players/p1/wipe',
    'PUT /dashboard/api/games/some-game/bans/p1',
    'DELETE /dashboard/api/games/some-game/bans/p1',
    'GET /dashboard/api/games/some-game/moderation-log',
    'GET /dashboard/api/games/some-game/suspicion-log',
    'GET /dashboard/api/games/some-game/analytics',
    'GET /dashboard/api/games/some-game/boards/weekly/grants',
    'GET /dashboard/api/games/some-game/reports',
    'GET /dashboard/api/games/some-game/reports/all-time/p1',
    'GET /dashboard/api/games/some-game/review',
    'DELETE /dashboard/api/games/some-game/server-key',
    'GET /dashboard/api/games/some-game/webhooks',
    'DELETE /dashboard/api/games/some-game/webhooks/whk_0123456789abcdef',
    'POST /dashboard/api/games/some-game/webhooks/whk_0123456789abcdef/test',
];

test('with the canister unreachable, every dashboard JSON route is 503 JSON and no promise is left unhandled', async () => {
    // An unhandled rejection ends a real gateway; here it fails the test at once.
    let onUnhandled: (reason: unknown) => void = () => undefined;
    const unhandled = new Promise<never>((_, reject) => {
        onUnhandled = (reason) => reject(new Error(`unhandled rejection: ${String(reason)}`));
    });
    unhandled.catch(() => undefined);
    process.on('unhandledRejection', onUnhandled);
    const s = await startService();
    await s.replica.stop();
    try {
        const token = 'a'.repeat(40); // well-formed; whether it is live only the canister knows
        const headers = dashboardHeaders(s.signIn.secret, token);
        for (const route of DASHBOARD_API) {
            const [method, path] = route.split(' ');
            const res = await Promise.race([s.request(method, path, { headers, body: BODIES[route] }), unhandled]);
            expect({ route, status: res.status, body: res.body }).toEqual({
                route,
                status: 503,
                body: { ok: false, error: MESSAGES.unavailable },
            });
        }
        // A body its schema refuses never reaches the canister: 400 even now.
        const bad = await s.request('PUT', '/dashboard/api/games/some-game/bans/p1', {
            headers,
            body: { reason: [['x']] },
        });
        expect(bad.status).toBe(400);
        expect((await s.request('GET', '/nowhere')).status).toBe(404);
        // Every dashboard JSON route is in the list above.
        const served = ROUTES.filter((r) => r.path.startsWith('/dashboard/api/')).map((r) => r.method.toUpperCase());
        expect(served.sort()).toEqual(DASHBOARD_API.map((r) => r.split(' ')[0]).sort());
    } finally {
        process.off('unhandledRejection', onUnhandled);
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
