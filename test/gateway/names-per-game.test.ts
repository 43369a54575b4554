// Through the HTTP API on the replica: nicknames are unique within a game (rule N3). Two
// games accept the same name (first submit, PUT nickname, a signed-in player's seed), while a
// look-alike (case, I/l/1, O/0) in the same game is still refused: N1 falls back to Player_<n>
// or ignores it, N2 suffixes it; a signed-in account takes its name into another game, suffixed
// where a look-alike holds it.
import { startService, type TestService } from '../support/gateway';

let s: TestService;
const keys: Record<string, string> = {};
const ONE = 'names-one';
const TWO = 'names-two';
const pid = (i: number) => `dev_1700000000_0000${String(i).padStart(4, '0')}`;

beforeAll(async () => {
    s = await startService();
    keys[ONE] = await s.game(ONE);
    keys[TWO] = await s.game(TWO);
}, 600_000);
afterAll(() => s.stop());

async function submit(gameId: string, playerId: string, nickname?: string): Promise<string> {
    const r = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': keys[gameId] },
        body: { playerId, gameId, score: 10, streak: 1, ...(nickname === undefined ? {} : { nickname }) },
    });
    expect(r.status).toBe(200);
    return nameOf(gameId, playerId);
}
async function nameOf(gameId: string, playerId: string): Promise<string> {
    const r = await s.request('GET', `/players/${playerId}/profile`, { headers: { 'X-API-Key': keys[gameId] } });
    expect(r.status).toBe(200);
    return r.body.data.nickname;
}
async function rename(gameId: string, playerId: string, nickname: string): Promise<{ status: number; body: any }> {
    return s.request('PUT', `/players/${playerId}/nickname`, {
        headers: { 'X-API-Key': keys[gameId] },
        body: { nickname },
    });
}

test('the same name in two games is accepted on a first submit and on PUT nickname', async () => {
    expect(await submit(ONE, pid(1), 'StarPilot')).toBe('StarPilot');
    expect(await submit(TWO, pid(1), 'StarPilot')).toBe('StarPilot');
    expect(await submit(TWO, pid(2))).toMatch(/^Player_\d+$/);
    await s.replica.advanceTime(3_000);
    expect(await submit(ONE, pid(3))).toMatch(/^Player_\d+$/);
    const put = await rename(ONE, pid(3), 'NightOwl');
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ nickname: 'NightOwl', message: 'Nickname set to NightOwl.' });
    const same = await rename(TWO, pid(2), 'NightOwl');
    expect(same.status).toBe(200);
    expect(same.body.data.nickname).toBe('NightOwl');
});

test('a look-alike in the same game is still refused: N1 falls back or ignores, N2 suffixes', async () => {
    await s.replica.advanceTime(3_000);
    // First submit with a look-alike of ONE's StarPilot: a default name instead (N1).
    expect(await submit(ONE, pid(10), 'STARPI1OT')).toMatch(/^Player_\d+$/);
    await s.replica.advanceTime(3_000);
    // A later submit with it: ignored, no error (N1).
    expect(await submit(ONE, pid(10), 'StarPiIot')).toMatch(/^Player_\d+$/);
    // PUT nickname: the first free suffix, in this game only.
    const put = await rename(ONE, pid(10), 'starpil0t');
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ nickname: 'starpil0t_1', message: expect.stringMatching(/taken/) });
    expect(await nameOf(TWO, pid(1))).toBe('StarPilot');
    // An invalid name is still 400 everywhere (N3).
    expect((await rename(TWO, pid(1), 'no')).status).toBe(400);
});

test('a signed-in account takes its name into another game, suffixed where a look-alike holds it (N2)', async () => {
    const first = await s.signInPlayer(ONE, 'names-carol', 'Carolina');
    expect(first.approval.nickname).toBe('Carolina');
    await s.replica.advanceTime(3_000);
    expect(await submit(TWO, pid(20), 'CaroIina')).toBe('CaroIina');
    const second = await s.signInPlayer(TWO, 'names-carol');
    expect(second.approval.nickname).toBe('Carolina_1');
    const profile = await s.request('GET', '/auth/profile', {
        headers: { 'X-Session-Token': second.token, 'X-Game-ID': TWO },
    });
    expect(profile.status).toBe(200);
    expect(profile.body.data.nickname).toBe('Carolina_1');
});
