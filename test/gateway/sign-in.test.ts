// Sign-in through the HTTP API: device codes (shape, QR, 428/200 once/404/410), sessions on
// every session route, session writes as the account, merge, logout and account removal. The
// approval here is the canister call the link page makes after an identity provider vouched
// for the player (the browser flow with a real provider is test/local/link-flow.test.ts).
import { startService, type TestService } from '../support/gateway';

let s: TestService & { signIn: { publicUrl: string } };
let key: string;
let now = Date.parse('2026-03-04T12:00:00Z');
const GAME = 'sign-game';

beforeAll(async () => {
    s = await startService({ clock: () => now });
    key = await s.game(GAME);
});
afterAll(() => s.stop());

const player = (token: string) => ({ 'X-Session-Token': token, 'X-Game-ID': GAME });

const signInPlayer = (subject: string, nickname?: string) => s.signInPlayer(GAME, subject, nickname);

test('device code start: the contract shape, a code to type, the link page URLs and a QR code of the complete one', async () => {
    const res = await s.request('POST', '/auth/device/code', {
        headers: { 'X-Game-ID': GAME },
        body: { gameId: GAME, nickname: 'Newbie' },
    });
    expect(res.body).toEqual({
        ok: true,
        data: {
            device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
            user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
            verification_url: `${s.signIn.publicUrl}/link`,
            verification_url_complete: `${s.signIn.publicUrl}/link?code=${res.body.data.user_code}`,
            expires_in: 300,
            interval: 5,
            qr_data_url: expect.stringMatching(/^data:image\/png;base64,/),
        },
    });
    expect((await s.request('POST', '/auth/device/code', { body: {} })).status).toBe(400); // X-Game-ID needed
    const mismatch = await s.request('POST', '/auth/device/code', {
        headers: { 'X-Game-ID': GAME, 'X-API-Key': 'key_other-game_12345678901234567890' },
        body: {},
    });
    expect(mismatch.status).toBe(400);
    expect(
        (await s.request('POST', '/auth/device/code', { headers: { 'X-Game-ID': 'no-such-game' }, body: {} })).status,
    ).toBe(404);
    expect(
        (await s.request('POST', '/auth/device/code', { headers: { 'X-Game-ID': GAME }, body: { nickname: 'x' } })).body
            .error,
    ).toBe('Nickname must be at least 3 characters');
});

test('device token: 428 until approved, 200 exactly once with the session, then 404; unknown codes 404', async () => {
    const started = (
        await s.request('POST', '/auth/device/code', { headers: { 'X-Game-ID': GAME }, body: { nickname: 'Pollster' } })
    ).body.data;
    const poll = () =>
        s.request('POST', '/auth/device/token', {
            headers: { 'X-Game-ID': GAME },
            body: { device_code: started.device_code },
        });
    expect(await poll()).toMatchObject({ status: 428, body: { ok: false, error: 'authorization_pending' } });
    await s.canister.ok('device_code_approve', {
        userCode: started.user_code,
        client: 'test',
        identity: { issuer: 'https://idp.test', subject: 'pollster', email: 'p@example.com', provider: 'local' },
    });
    const approved = await poll();
    expect(approved.body).toEqual({
        ok: true,
        data: {
            sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
            nickname: 'Pollster',
            email: 'p@example.com',
            isNewUser: true,
            provider: 'local',
            gameProfile: { score: 0, streak: 0, achievements: [], playCount: 0, lastPlayed: expect.any(Number) },
        },
    });
    expect((await poll()).status).toBe(404);
    expect(
        (
            await s.request('POST', '/auth/device/token', {
                headers: { 'X-Game-ID': GAME },
                body: { device_code: 'x'.repeat(43) },
            })
        ).status,
    ).toBe(404);
    expect((await s.request('POST', '/auth/device/token', { headers: { 'X-Game-ID': GAME }, body: {} })).status).toBe(
        400,
    );
});

test('a device code expires after 300 s of replica time: 410 expired_token', async () => {
    const started = (await s.request('POST', '/auth/device/code', { headers: { 'X-Game-ID': GAME }, body: {} })).body
        .data;
    await s.replica.advanceTime(301_000);
    await s.canister.agent.syncTime(s.canisterId);
    const res = await s.request('POST', '/auth/device/token', {
        headers: { 'X-Game-ID': GAME },
        body: { device_code: started.device_code },
    });
    expect(res).toMatchObject({ status: 410, body: { ok: false, error: 'expired_token' } });
});

test('session routes: profile, nickname, scores, leaderboard, achievements, play sessions and the board rank act as the signed-in player', async () => {
    const { token } = await signInPlayer('routes', 'Router');
    const headers = player(token);
    expect((await s.request('GET', '/auth/profile', { headers })).body.data).toMatchObject({
        nickname: 'Router',
        email: 'routes@example.com',
        provider: 'local',
    });
    expect(
        (await s.request('POST', '/scores', { headers, body: { playerId: 'old_anon_id', score: 777, streak: 4 } }))
            .status,
    ).toBe(200);
    expect((await s.request('GET', '/leaderboard', { headers })).body.data.leaderboard).toContainEqual({
        rank: expect.any(Number),
        nickname: 'Router',
        score: 777,
        streak: 4,
        authType: 'local',
    });
    expect((await s.request('GET', `/games/${GAME}/scoreboards/weekly/rank`, { headers })).body.data).toMatchObject({
        found: true,
        score: 777,
    });
    expect(
        (await s.request('PUT', '/profile/nickname', { headers, body: { nickname: 'RouterTwo' } })).body.data,
    ).toEqual({ nickname: 'RouterTwo', message: expect.any(String) });
    expect(
        (await s.request('POST', '/achievements', { headers, body: { achievementId: 'first' } })).body.data,
    ).toMatchObject({ unlocked: 1 });
    const started = await s.request('POST', '/play-sessions/start', { headers, body: {} });
    expect(started.body.data.ok).toMatch(/^ps_/);
    expect(
        (await s.request('POST', '/play-sessions/end', { headers, body: { playSessionToken: started.body.data.ok } }))
            .status,
    ).toBe(200);
    expect((await s.request('GET', '/auth/profile', { headers })).body.data).toMatchObject({
        nickname: 'RouterTwo',
        gameProfile: { score: 777, achievements: ['first'] },
    });
    // The anonymous id in the body was ignored: no profile was made for it.
    expect((await s.request('GET', '/players/old_anon_id/profile', { headers: { 'X-API-Key': key } })).status).toBe(
        404,
    );
});

test('session problems: 401 only for dead sessions; other problems are 400', async () => {
    const { token } = await signInPlayer('problems');
    expect((await s.request('GET', '/auth/profile', { headers: { 'X-Session-Token': token } })).status).toBe(400); // no X-Game-ID
    expect((await s.request('GET', '/auth/profile', { headers: { ...player(token), 'X-API-Key': key } })).status).toBe(
        400,
    );
    expect((await s.request('GET', '/auth/profile', { headers: player('A'.repeat(43)) })).status).toBe(401);
    expect((await s.request('GET', '/auth/profile', { headers: player('garbage') })).status).toBe(401);
    expect((await s.request('GET', '/auth/profile', { headers: { 'X-API-Key': key } })).status).toBe(401);
    expect(
        (await s.request('POST', '/scores', { headers: player(token), body: { score: -1, streak: 0 } })).status,
    ).toBe(400);
});

test("a session belongs to its game: with another game's X-Game-ID every session route is 401 and nothing changes", async () => {
    const other = 'sign-other-game';
    const otherKey = await s.game(other);
    const { token } = await signInPlayer('roamer', 'Roamer');
    const elsewhere = { 'X-Session-Token': token, 'X-Game-ID': other };
    for (const [method, path, body] of [
        ['GET', '/auth/profile', undefined],
        ['PUT', '/profile/nickname', { nickname: 'Hijacked' }],
        ['POST', '/scores', { score: 999_999, streak: 1 }],
        ['POST', '/achievements', { achievementId: 'stolen' }],
        ['POST', '/play-sessions/start', {}],
        ['POST', '/migrate-account', { deviceId: 'dev_someone' }],
        ['GET', `/games/${other}/scoreboards/weekly/rank`, undefined],
        ['GET', `/games/${other}/scoreboards/weekly/around`, undefined],
        ['POST', '/auth/logout', undefined],
        ['DELETE', '/auth/account', undefined],
    ] as const) {
        const res = await s.request(method, path, { headers: elsewhere, body });
        expect({ path, status: res.status, error: res.body.error }).toEqual({
            path,
            status: 401,
            error: 'Invalid or expired session',
        });
    }
    // Nothing was written to the other game, and the session still works (and was not removed) in its own.
    expect((await s.request('GET', '/leaderboard', { headers: { 'X-API-Key': otherKey } })).body.data).toMatchObject({
        leaderboard: [],
        total: 0,
    });
    expect((await s.request('GET', '/auth/profile', { headers: player(token) })).body.data).toMatchObject({
        nickname: 'Roamer',
        gameProfile: { achievements: [] },
    });
    // The session's own X-Game-ID with another game in the path is refused too.
    expect((await s.request('GET', `/games/${other}/scoreboards/weekly/rank`, { headers: player(token) })).status).toBe(
        400,
    );
});

test('merge: the anonymous player joins the account, its id is retired, and only once', async () => {
    const anon = 'dev_1700000000_abcdef01';
    expect(
        (
            await s.request('POST', '/scores', {
                headers: { 'X-API-Key': key },
                body: { playerId: anon, score: 4242, streak: 2, nickname: 'DeviceName' },
            })
        ).status,
    ).toBe(200);
    await s.request('POST', '/achievements', {
        headers: { 'X-API-Key': key },
        body: { playerId: anon, achievementId: 'anon_badge' },
    });
    const { token } = await signInPlayer('merger');
    const merged = await s.request('POST', '/migrate-account', { headers: player(token), body: { deviceId: anon } });
    expect(merged.body).toEqual({
        ok: true,
        data: { message: expect.any(String), migratedGames: 1, migratedScoreboards: 3 },
    });
    expect((await s.request('GET', '/auth/profile', { headers: player(token) })).body.data).toMatchObject({
        nickname: 'DeviceName',
        gameProfile: { score: 4242, streak: 2, achievements: ['anon_badge'], playCount: 1 },
    });
    await s.replica.advanceTime(3_000);
    const refused = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': key },
        body: { playerId: anon, score: 1, streak: 0 },
    });
    expect(refused).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/merged into a signed-in account/) },
    });
    expect(
        (await s.request('POST', '/migrate-account', { headers: player(token), body: { deviceId: 'dev_other' } }))
            .status,
    ).toBe(400);
    expect((await s.request('POST', '/migrate-account', { headers: player(token), body: {} })).status).toBe(400);
});

test('logout and account removal: the session is dead at once (401) on every route', async () => {
    const first = await signInPlayer('leaver', 'Leaver');
    const second = await signInPlayer('leaver');
    expect(
        (await s.request('POST', '/scores', { headers: player(first.token), body: { score: 5, streak: 0 } })).status,
    ).toBe(200);
    expect((await s.request('POST', '/auth/logout', { headers: player(first.token) })).body).toEqual({
        ok: true,
        data: { message: 'Signed out.' },
    });
    expect(
        (await s.request('POST', '/scores', { headers: player(first.token), body: { score: 6, streak: 0 } })).status,
    ).toBe(401);
    expect((await s.request('GET', '/auth/profile', { headers: player(second.token) })).status).toBe(200);
    expect((await s.request('DELETE', '/auth/account', { headers: player(second.token) })).status).toBe(200);
    now += 6_000; // past the gateway's few seconds of lookup cache for reads
    for (const [method, path] of [
        ['GET', '/auth/profile'],
        ['POST', '/scores'],
        ['GET', '/leaderboard'],
        ['POST', '/auth/logout'],
    ] as const) {
        expect({
            path,
            status: (
                await s.request(method, path, {
                    headers: player(second.token),
                    body: method === 'POST' ? { score: 1, streak: 0 } : undefined,
                })
            ).status,
        }).toEqual({ path, status: 401 });
    }
});
