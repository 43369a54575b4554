// The dashboard's JSON API checks every input before the canister sees it: the session cookie,
// the CSRF token of writes, path ids, query integers and bodies by their schemas.
import { createHash } from 'node:crypto';

import { startService, dashboardHeaders } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let headers: Record<string, string>;

beforeAll(async () => {
    s = await startService();
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'ada', email: 'ada@test', provider: 'test' },
    });
    await s.canister.ok('dev_register_game', {
        sessionHash: createHash('sha256').update(sessionToken).digest('hex'),
        gameId: 'api-game',
        name: 'API Game',
    });
    headers = dashboardHeaders(s.signIn.secret, sessionToken);
});
afterAll(() => s.stop());

const api = (method: string, path: string, body?: unknown, h: Record<string, string> = headers) =>
    s.request(method, `/dashboard/api${path}`, { headers: h, body });

test('reads and writes with the session; bodies are optional where every field is', async () => {
    const me = await api('GET', '/me');
    expect(me.body).toMatchObject({
        ok: true,
        data: { developer: { email: 'ada@test' }, games: [{ gameId: 'api-game' }] },
    });
    expect((await api('PUT', '/games/api-game/bans/p1')).body).toEqual({
        ok: true,
        data: { message: "'p1' is banned: it writes nothing more to this game." },
    });
    expect((await api('PUT', '/games/api-game/bans/p2', { reason: 'cheating' })).status).toBe(200);
    const log = await api('GET', '/games/api-game/moderation-log?limit=1');
    expect(log.body.data).toEqual([
        expect.objectContaining({ action: 'ban', playerId: 'p2', detail: 'banned: cheating' }),
    ]);
    expect((await api('DELETE', '/games/api-game/bans/p1')).status).toBe(200);
});

test('no cookie is 401, a write without the CSRF token 403', async () => {
    expect((await api('GET', '/me', undefined, {})).body).toEqual({
        ok: false,
        error: 'Sign in to the dashboard first.',
    });
    expect((await api('PUT', '/games/api-game/bans/p3', {}, { Cookie: headers.Cookie })).status).toBe(403);
});

test.each([
    [
        'PUT',
        '/games/api-game/bans/p3',
        { reason: 'x'.repeat(201) },
        'Invalid reason: must be text of at most 200 characters',
    ],
    [
        'PUT',
        '/games/api-game/bans/p3',
        { reason: { text: 'x' } },
        'Invalid reason: must be text of at most 200 characters',
    ],
    ['PUT', '/games/api-game/bans/p3', [1], 'The request body must be a JSON object'],
    ['POST', '/games/api-game/players/p3/wipe', { archives: 'yes' }, 'Invalid archives: must be true or false'],
    ['PUT', '/games/api-game/bans/bad.id', {}, expect.stringMatching(/^Invalid playerId in path/)],
    [
        'GET',
        '/games/api-game/boards/all-time/entries?limit=abc',
        undefined,
        'Invalid limit: must be an integer from 1 to 1000',
    ],
    ['GET', '/games/api-game/boards/all-time/entries?limit=1&limit=2', undefined, 'Invalid limit: give it once'],
    ['GET', '/games/api-game/boards/all-time/entries?offset=-1', undefined, expect.stringMatching(/^Invalid offset/)],
    ['GET', '/games/api-game/analytics?days=91', undefined, 'Invalid days: must be an integer from 1 to 90'],
    ['GET', '/games/api-game/suspicion-log?playerId=a.b', undefined, expect.stringMatching(/^Invalid playerId/)],
])('%s %s with a bad input is 400', async (method, path, body, error) => {
    const res = await api(method, path, body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { ok: false, error } });
});

test('boards are created and edited with their options; order and operator refused with entries (409)', async () => {
    const created = await api('POST', '/games/api-game/boards', {
        scoreboardId: 'laps',
        type: 'targeted',
        sortOrder: 'asc',
        operator: 'best',
        ties: 'shared',
        format: { kind: 'milliseconds' },
    });
    expect(created.body).toMatchObject({
        ok: true,
        data: { scoreboardId: 'laps', sortOrder: 'asc', ties: 'shared', format: { kind: 'milliseconds' } },
    });
    const me = await api('GET', '/me');
    expect(me.body.data.games[0].standardBoards).toEqual({ sortOrder: 'desc', operator: 'best' });
    expect(me.body.data.games[0].boards.find((b: { scoreboardId: string }) => b.scoreboardId === 'laps')).toMatchObject(
        { sortOrder: 'asc', format: { kind: 'milliseconds' } },
    );
    expect((await api('PUT', '/games/api-game/boards/laps', { operator: 'sum' })).body.data.operator).toBe('sum');
    expect((await api('PUT', '/games/api-game/standard-boards', { sortOrder: 'asc' })).body).toEqual({
        ok: true,
        data: { sortOrder: 'asc', operator: 'best' },
    });
    const { apiKey } = me.body.data.games[0];
    const submit = (scoreboardId?: string) =>
        s.request('POST', '/scores', {
            headers: { 'X-API-Key': apiKey },
            body: { playerId: 'p9', score: 5, streak: 0, scoreboardId },
        });
    expect((await submit('laps')).status).toBe(200);
    await s.replica.advanceTime(3_000);
    expect((await submit()).status).toBe(200);
    const refused = await api('PUT', '/games/api-game/boards/laps', { operator: 'latest', format: { kind: 'number' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/^Board 'laps' has entries: its order and operator cannot change/);
    // Format and ties change any time.
    expect(
        (await api('PUT', '/games/api-game/boards/laps', { format: { kind: 'decimal', places: 3 } })).body.data.format,
    ).toEqual({ kind: 'decimal', places: 3 });
    // So does the number of top entries its events watch.
    expect((await api('PUT', '/games/api-game/boards/laps', { eventTop: 3 })).body.data.eventTop).toBe(3);
    const standard = await api('PUT', '/games/api-game/standard-boards', { sortOrder: 'desc' });
    expect(standard.status).toBe(409);
    expect(standard.body.error).toMatch(/^The standard boards' order and operator cannot change while/);
});

test.each([
    [{ scoreboardId: 'b1', type: 'targeted', sortOrder: 'up' }, 'Invalid sortOrder: must be desc or asc'],
    [{ scoreboardId: 'b1', type: 'targeted', operator: 'max' }, 'Invalid operator: must be best, latest or sum'],
    [{ scoreboardId: 'b1', type: 'targeted', ties: 'split' }, 'Invalid ties: must be distinct or shared'],
    [
        { scoreboardId: 'b1', type: 'targeted', format: { kind: 'decimal', places: 7 } },
        "Invalid format: must be { kind: 'number' | 'milliseconds' } or { kind: 'decimal', places: 1-6 }",
    ],
    [
        { scoreboardId: 'b1', type: 'targeted', format: { kind: 'number', places: 2 } },
        "Invalid format: must be { kind: 'number' | 'milliseconds' } or { kind: 'decimal', places: 1-6 }",
    ],
    [{ scoreboardId: 'b1', type: 'weekly' }, 'Invalid type: must be targeted, monthly or custom'],
    [{ scoreboardId: 'b1', type: 'targeted', eventTop: 26 }, 'Invalid eventTop: must be a whole number from 0 to 25'],
    [{ scoreboardId: 'b1', type: 'targeted', eventTop: 1.5 }, 'Invalid eventTop: must be a whole number from 0 to 25'],
])('creating a board with %j is 400 and creates nothing', async (body, error) => {
    const res = await api('POST', '/games/api-game/boards', body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { ok: false, error } });
    const me = await api('GET', '/me');
    expect(me.body.data.games[0].boards.map((b: { scoreboardId: string }) => b.scoreboardId)).not.toContain('b1');
});
