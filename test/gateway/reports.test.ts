// Player reports through the gateway: POST .../scoreboards/{boardId}/reports with the API key and
// with a session, its errors, one client address counted once and limited per minute, a
// credential of another game worth nothing, the developer's queue and actions on the dashboard
// API, and `entry_reported` reaching a real webhook receiver once per reporter and entry.
import { parseAllow } from '../../gateway/webhooks/address-policy';
import { startService } from '../support/gateway';
import { startDns, startReceiver, type Receiver, type TestDns } from '../support/webhook-receiver';
import { addWebhook, developer, eventually, ownGame, type Developer } from '../support/webhooks';

let s: Awaited<ReturnType<typeof startService>>;
let dns: TestDns;
let receiver: Receiver;
let dev: Developer;
let devB: Developer;
let keyA: string;
let keyB: string;
const A = 'rep-a';
const B = 'rep-b';

beforeAll(async () => {
    dns = await startDns();
    receiver = await startReceiver();
    s = await startService({
        trustProxy: true,
        // The gateway's clock stands still: the 30-a-minute window cannot end mid-test on a slow machine.
        clock: () => 1_700_000_000_000,
        webhooks: {
            deliver: true,
            delivery: { policy: parseAllow('loopback'), dnsServers: [dns.server], timeoutMs: 5_000 },
            pollMs: 20,
        },
    });
    dev = await developer(s, 'rep-dev-a');
    devB = await developer(s, 'rep-dev-b');
    keyA = await ownGame(s, dev, A);
    keyB = await ownGame(s, devB, B);
    await addWebhook(s, dev, A, receiver.url, ['entry_reported']);
    const submits = [
        { playerId: 'cheater', nickname: 'Cheater', score: 9_999_999 },
        { playerId: 'target', nickname: 'Target', score: 5000 },
        ...Array.from({ length: 50 }, (_, i) => ({ playerId: `p${i}`, nickname: `Pl${i}`, score: 10 + i })),
    ].map((p) => ({ gameId: A, apiKey: keyA, streak: 1, ...p }));
    await s.canister.ok('submit_scores', { submits });
    await s.canister.ok('submit_scores', {
        submits: [{ gameId: B, apiKey: keyB, playerId: 'b1', nickname: 'Bee', score: 5, streak: 1 }],
    });
});
afterAll(async () => {
    await s.stop();
    await dns.close();
    await receiver.close();
});

const reportPath = (game = A, board = 'all-time') => `/games/${game}/scoreboards/${board}/reports`;
const report = (
    body: Record<string, unknown>,
    headers: Record<string, string> = { 'X-API-Key': keyA },
    path = reportPath(),
) => s.request('POST', path, { headers: { 'X-Forwarded-For': '198.51.100.1', ...headers }, body });
const api = (method: string, path: string, body?: unknown, who: Developer = dev) =>
    s.request(method, `/dashboard/api${path}`, { headers: who.headers, body });
const queue = async () => (await api('GET', `/games/${A}/reports`)).body.data;
const RECEIVED = { ok: true, data: { message: 'Report received. Thank you.' } };

test('a player reports with the API key and with a session; the event reaches the webhook once per reporter', async () => {
    const body = { playerId: 'p1', nickname: 'Cheater', reason: 'cheating', text: '<script>alert(1)</script>' };
    expect((await report(body)).body).toEqual(RECEIVED);
    expect((await report({ ...body, reason: 'impossible_score' })).body).toEqual(RECEIVED);
    expect((await report(body)).body).toEqual(RECEIVED);

    const { token } = await s.signInPlayer(A, 'rep-alice', 'Alice');
    const session = { 'X-Session-Token': token, 'X-Game-ID': A, 'X-Forwarded-For': '198.51.100.2' };
    expect((await s.request('POST', '/scores', { headers: session, body: { score: 3, streak: 1 } })).status).toBe(200);
    expect((await report({ nickname: 'Cheater', reason: 'exploit', rank: 1 }, session)).body).toEqual(RECEIVED);

    expect(await queue()).toMatchObject({
        total: 1,
        items: [{ playerId: 'cheater', nickname: 'Cheater', reporters: 2, reasons: { cheating: 1, exploit: 1 } }],
    });
    const events = await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more comes
    expect(receiver.received.map((r) => [r.event.kind, r.event.reportedBy, r.event.reporters])).toEqual([
        ['entry_reported', 'p1', 1],
        ['entry_reported', expect.stringMatching(/^@/), 2],
    ]);
    expect(events[0].event).toMatchObject({ playerId: 'cheater', nickname: 'Cheater', reason: 'cheating' });
});

test('bad reports get clear JSON errors', async () => {
    const ok = { playerId: 'p2', nickname: 'Cheater', reason: 'cheating' };
    const cases: Array<[Record<string, unknown>, string, number, RegExp]> = [
        [{ ...ok, reason: 'spite' }, reportPath(), 400, /^Invalid reason: must be one of cheating/],
        [{ ...ok, text: 'x'.repeat(201) }, reportPath(), 400, /^Invalid text/],
        [{ ...ok, rank: -1 }, reportPath(), 400, /^Invalid rank/],
        [{ ...ok, nickname: 'Pl2' }, reportPath(), 400, /own entry/],
        [{ ...ok, playerId: undefined }, reportPath(), 400, /^Invalid playerId: is required/],
        [{ ...ok, nickname: 'Nobody' }, reportPath(), 404, /No entry named 'Nobody'/],
        [ok, reportPath(A, 'no-board'), 404, /no-board/],
        [{ ...ok, playerId: 'stranger' }, reportPath(), 404, /Player not found/],
    ];
    for (const [body, path, status, error] of cases) {
        const res = await report(body, undefined, path);
        expect([res.status, res.body.ok]).toEqual([status, false]);
        expect(res.body.error).toMatch(error);
    }
    expect((await queue()).items).toHaveLength(1);
});

test("another game's key or developer gets nothing of game A", async () => {
    const fromB = await report({ playerId: 'b1', nickname: 'Cheater', reason: 'cheating' }, { 'X-API-Key': keyB });
    expect(fromB.status).toBe(400);
    expect(fromB.body.error).toMatch(/does not match the game of the API key/);
    // On its own game's path, B's key finds no entry of A's.
    const onB = await report(
        { playerId: 'b1', nickname: 'Cheater', reason: 'cheating' },
        { 'X-API-Key': keyB },
        reportPath(B),
    );
    expect(onB.status).toBe(404);
    expect(
        (await s.request('GET', `/dashboard/api/games/${A}/reports`, { headers: { 'X-API-Key': keyB } })).status,
    ).toBe(401);
    expect((await api('GET', `/games/${A}/reports`, undefined, devB)).status).toBe(404);
    expect((await api('POST', `/games/${A}/reports/all-time/cheater`, { action: 'dismiss' }, devB)).status).toBe(404);
    expect((await queue()).items[0]).toMatchObject({ reporters: 2 });
});

test('50 reports from one client are one reporter, and past 30 a minute the client waits', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
        const res = await report(
            { playerId: `p${i}`, nickname: 'Target', reason: 'offensive_name' },
            {
                'X-API-Key': keyA,
                'X-Forwarded-For': '203.0.113.9',
            },
        );
        statuses.push(res.status);
        if (res.status === 429) {
            expect(res.body.error).toBe('Too many reports from this client: at most 30 a minute');
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        }
    }
    expect(statuses.filter((x) => x === 200)).toHaveLength(30);
    expect(statuses.filter((x) => x === 429)).toHaveLength(20);
    const items = (await queue()).items;
    expect(items.find((i: { playerId: string }) => i.playerId === 'target')).toMatchObject({ reporters: 1 });
});

test('the developer reads an item and acts on it: logged, and the item cleared', async () => {
    const detail = await api('GET', `/games/${A}/reports/all-time/cheater`);
    expect(detail.body.data).toMatchObject({
        item: { reporters: 2 },
        entry: { rank: 1, score: 9_999_999 },
        banned: false,
        reports: [{ reason: 'exploit' }, { playerId: 'p1', reason: 'cheating', text: '<script>alert(1)</script>' }],
    });
    const bad = await api('POST', `/games/${A}/reports/all-time/cheater`, { action: 'nuke' });
    expect([bad.status, bad.body.error]).toEqual([400, 'Invalid action: must be one of dismiss, remove, ban']);
    const banned = await api('POST', `/games/${A}/reports/all-time/cheater`, { action: 'ban' });
    expect(banned.body).toEqual({
        ok: true,
        data: { message: "'cheater' is banned: it writes nothing more to this game." },
    });
    expect((await api('POST', `/games/${A}/reports/all-time/target`, { action: 'dismiss' })).status).toBe(200);
    expect(await queue()).toEqual({ total: 0, offset: 0, items: [] });
    const log = (await api('GET', `/games/${A}/moderation-log?limit=2`)).body.data;
    expect(log.map((e: { action: string; playerId: string }) => [e.action, e.playerId])).toEqual([
        ['dismiss-report', 'target'],
        ['ban', 'cheater'],
    ]);
    expect((await api('GET', `/games/${A}/reports/all-time/cheater`)).status).toBe(404);
    await eventually(() => expect(receiver.received).toHaveLength(3));
});
