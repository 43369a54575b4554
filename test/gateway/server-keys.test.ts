// The server key through the gateway (issue 25): Authorization: Bearer makes the game's server,
// which writes for any player and reads with the API key's routes; server-only games refuse the
// public key (403) and sessions (400); each credential only where it belongs, with clear 401s.
import { createHash } from 'node:crypto';

import { MESSAGES } from '../../contract/messages';
import { startService, dashboardHeaders } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let apiKey: string;
let serverKey: string;
let otherServerKey: string;

const G = 'srv-game';
beforeAll(async () => {
    s = await startService();
    apiKey = await s.game(G);
    await s.game('srv-other');
    serverKey = (await s.canister.ok('admin_rotate_server_key', { gameId: G })).serverKey;
    otherServerKey = (await s.canister.ok('admin_rotate_server_key', { gameId: 'srv-other' })).serverKey;
});
afterAll(() => s.stop());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
let n = 0;
const player = () => `dev_1700000000_${(++n).toString(16).padStart(8, '0')}`;
const submit = (headers: Record<string, string>, playerId: string | undefined, score = 10) =>
    s.request('POST', '/scores', { headers, body: { playerId, score, streak: 1 } });

test('the server key submits for a new anonymous player and reads with the API-key routes', async () => {
    const p = player();
    const res = await submit(bearer(serverKey), p, 123);
    expect(res.status).toBe(200);
    expect(res.body.data.message).toMatch(/^Score submitted/);
    const board = await s.request('GET', '/leaderboard', { headers: bearer(serverKey) });
    expect(board.status).toBe(200);
    expect(board.body.data.leaderboard).toEqual([expect.objectContaining({ score: 123, authType: 'external' })]);
    const profile = await s.request('GET', `/players/${p}/profile`, { headers: bearer(serverKey) });
    expect(profile.body.data.gameProfile.score).toBe(123);
    const renamed = await s.request('PUT', `/players/${p}/nickname`, {
        headers: bearer(serverKey),
        body: { nickname: 'ServerNamed' },
    });
    expect(renamed.body).toMatchObject({ ok: true, data: { nickname: 'ServerNamed' } });
    expect((await s.request('GET', '/game', { headers: bearer(serverKey) })).body.data.gameId).toBe(G);
    // A write needs the player it acts for, as with the API key.
    expect((await submit(bearer(serverKey), undefined)).body).toEqual({
        ok: false,
        error: 'Invalid playerId: is required',
    });
});

test("the server key writes for a signed-in player's account id", async () => {
    const { token } = await s.signInPlayer(G, 'srv-alice', 'SrvAlice');
    const me = await s.request('GET', '/auth/profile', { headers: { 'X-Session-Token': token, 'X-Game-ID': G } });
    expect(me.status).toBe(200);
    const accountId = (await s.canister.ok('resolve_session', { gameId: G, sessionHash: hash(token) })).playerId;
    const res = await submit(bearer(serverKey), accountId, 77);
    expect(res.status).toBe(200);
    const unlock = await s.request('POST', '/achievements', {
        headers: bearer(serverKey),
        body: { playerId: accountId, achievementIds: ['srv-1'] },
    });
    expect(unlock.body).toMatchObject({ ok: true, data: { unlocked: 1 } });
    // An account id that does not play the game is 404; the API key cannot name account ids at all.
    expect((await submit(bearer(serverKey), '@' + 'ab'.repeat(16))).status).toBe(404);
    const withKey = await submit({ 'X-API-Key': apiKey }, accountId);
    expect(withKey.status).toBe(400);
    expect(withKey.body.error).toMatch(/^Invalid playerId: /);
});

test('server-only: the public key 403, a session 400, the server key 200; achievements the same', async () => {
    const game = 'srv-only';
    const key = await s.game(game);
    const skey = (await s.canister.ok('admin_rotate_server_key', { gameId: game })).serverKey;
    await s.canister.ok('admin_update_game', { gameId: game, serverOnly: true });
    const { token } = await s.signInPlayer(game, 'srv-bob', 'SrvBob');
    const session = { 'X-Session-Token': token, 'X-Game-ID': game };
    const p = player();
    expect(await submit({ 'X-API-Key': key }, p)).toMatchObject({
        status: 403,
        body: { ok: false, error: MESSAGES.serverOnly },
    });
    expect(await submit(session, undefined)).toMatchObject({
        status: 400,
        body: { ok: false, error: MESSAGES.serverOnly },
    });
    expect((await submit(bearer(skey), p)).status).toBe(200);
    const unlock = (headers: Record<string, string>, playerId?: string) =>
        s.request('POST', '/achievements', { headers, body: { playerId, achievementIds: ['a1'] } });
    expect(await unlock({ 'X-API-Key': key }, p)).toMatchObject({ status: 403, body: { error: MESSAGES.serverOnly } });
    expect(await unlock(session)).toMatchObject({ status: 400, body: { error: MESSAGES.serverOnly } });
    expect(await unlock(bearer(skey), p)).toMatchObject({ status: 200, body: { data: { unlocked: 1 } } });
    // Reads with the public key still work.
    const board = await s.request('GET', '/leaderboard', { headers: { 'X-API-Key': key } });
    expect(board.body.data.leaderboard).toHaveLength(1);
});

test('the server key is refused on routes for clients only, and the reverse, each with a clear 401', async () => {
    const deviceCode = await s.request('POST', '/auth/device/code', {
        headers: { ...bearer(serverKey), 'X-Game-ID': G },
        body: {},
    });
    expect(deviceCode.status).toBe(401);
    expect(deviceCode.body.error).toMatch(/for game clients: the server key/);
    const logout = await s.request('POST', '/auth/logout', { headers: { ...bearer(serverKey), 'X-Game-ID': G } });
    expect(logout.status).toBe(401);
    // The API key as Bearer, the server key as X-API-Key.
    const asBearer = await submit(bearer(apiKey), player());
    expect(asBearer).toMatchObject({ status: 401, body: { ok: false } });
    expect(asBearer.body.error).toMatch(/the API key goes in X-API-Key/);
    const asApiKey = await submit({ 'X-API-Key': serverKey }, player());
    expect(asApiKey.status).toBe(401);
    expect(asApiKey.body.error).toMatch(/A server key goes in Authorization: Bearer, never in X-API-Key/);
    expect((await s.request('GET', '/leaderboard', { headers: { 'X-API-Key': serverKey } })).status).toBe(401);
    // Both at once: 400, send one.
    const both = await submit({ ...bearer(serverKey), 'X-API-Key': apiKey }, player());
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/^Send one credential/);
    // Malformed or unknown keys.
    for (const authorization of ['Bearer', `Bearer skey_${G}_short`, `bearer  ${serverKey}x`, 'Bearer a b']) {
        const res = await submit({ Authorization: authorization }, player());
        expect(res.status).toBe(401);
        expect(res.body.error).toMatch(/^Invalid server key/);
    }
    // Other schemes (a proxy's Basic auth) are ignored as before: the API key decides.
    expect((await submit({ Authorization: 'Basic dXNlcjpwYXNz', 'X-API-Key': apiKey }, player())).status).toBe(200);
    expect((await submit({ Authorization: `Token ${serverKey}` }, player())).body.error).toBe(MESSAGES.missingApiKey);
    const signIn = await s.request('POST', '/auth/device/code', {
        headers: { Authorization: 'Basic dXNlcjpwYXNz', 'X-Game-ID': G },
        body: {},
    });
    expect(signIn.status).toBe(200);
});

test('a server key of another game is refused, whatever game the request names', async () => {
    // Its own game is in the key: naming this game is a mismatch; the key's game writes nothing here.
    const named = await submit({ ...bearer(otherServerKey), 'X-Game-ID': G }, player());
    expect(named.status).toBe(400);
    expect(named.body.error).toMatch(/does not match the game of the server key/);
    // A key shaped for this game with another game's secret part.
    const forged = `skey_${G}_${otherServerKey.slice(-43)}`;
    expect(await submit(bearer(forged), player())).toMatchObject({
        status: 401,
        body: { ok: false, error: MESSAGES.invalidServerKey },
    });
});

test('rotation: the old key is refused for writes at once, the new one works', async () => {
    const game = 'srv-rotate';
    await s.game(game);
    const first = (await s.canister.ok('admin_rotate_server_key', { gameId: game })).serverKey;
    expect((await submit(bearer(first), player())).status).toBe(200);
    const second = (await s.canister.ok('admin_rotate_server_key', { gameId: game })).serverKey;
    // The gateway may trust its cached lookup for reads a few seconds; the canister checks every write.
    expect(await submit(bearer(first), player())).toMatchObject({ status: 401 });
    expect((await submit(bearer(second), player())).status).toBe(200);
});

test('the reference shows the bearer scheme on the routes that take it', async () => {
    const doc = (await s.request('GET', '/openapi.json')).body;
    expect(doc.components.securitySchemes.serverKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/scores'].post.security).toContainEqual({ serverKey: [] });
    expect(doc.paths['/events'].get.security).toEqual([{ serverKey: [] }]);
    expect(doc.paths['/auth/device/code'].post.security).toEqual([]);
});

function hash(token: string): string {
    return createHash('sha256').update(token).digest('hex');
}

test("the dashboard JSON API: create, rotate and revoke the key, server settings; another developer's game is 404", async () => {
    const devs = await Promise.all(
        ['srv-dev', 'srv-stranger'].map(async (subject) => {
            const { sessionToken } = await s.canister.ok('dev_sign_in', {
                identity: { issuer: 'https://idp.test', subject, email: `${subject}@test`, provider: 'test' },
            });
            return {
                sessionHash: hash(sessionToken),
                headers: dashboardHeaders(s.signIn.secret, sessionToken),
            };
        }),
    );
    const [mine, stranger] = devs;
    const game = 'srv-dash';
    await s.canister.ok('dev_register_game', { sessionHash: mine.sessionHash, gameId: game, name: 'Srv Dash' });
    const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = mine.headers) =>
        s.request(method, `/dashboard/api/games/${game}${path}`, { headers, body });
    const made = await api('POST', '/server-key');
    expect(made.status).toBe(200);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const key = made.body.data.serverKey;
    expect(key).toMatch(new RegExp(`^skey_${game}_[A-Za-z0-9_-]{43}$`));
    const me = await s.request('GET', '/dashboard/api/me', { headers: mine.headers });
    const view = me.body.data.games.find((g: { gameId: string }) => g.gameId === game);
    expect(view.serverKeyCreatedAt).toEqual(expect.any(Number));
    expect(JSON.stringify(me.body)).not.toContain(key.slice(-43));
    expect(await api('PUT', '/server-settings', { serverOnly: true })).toMatchObject({
        status: 200,
        body: { data: { serverOnly: true, serverSkipsChecks: false } },
    });
    expect(await api('PUT', '/server-settings', { serverOnly: 'yes' })).toMatchObject({ status: 400 });
    expect((await api('PUT', '/server-settings', {})).body.data).toEqual({
        serverOnly: true,
        serverSkipsChecks: false,
    });
    // Another developer, no session, no CSRF token.
    expect((await api('POST', '/server-key', undefined, stranger.headers)).status).toBe(404);
    expect((await api('DELETE', '/server-key', undefined, stranger.headers)).status).toBe(404);
    expect((await api('POST', '/server-key', undefined, {})).status).toBe(401);
    expect((await api('POST', '/server-key', undefined, { Cookie: mine.headers.Cookie })).status).toBe(403);
    expect((await submit(bearer(key), player())).status).toBe(200);
    expect((await api('DELETE', '/server-key')).body).toEqual({ ok: true, data: { message: 'Server key revoked.' } });
    expect(await submit(bearer(key), player())).toMatchObject({
        status: 401,
        body: { error: MESSAGES.invalidServerKey },
    });
});
