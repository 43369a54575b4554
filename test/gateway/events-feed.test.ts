// GET /events with the server key (issue 25): paging with after/limit, long polling that answers
// when an event happens (this gateway's own write wakes it at once; another's is seen by the
// game's shared watcher), a client that leaves stops waiting, a draining gateway answers its
// waiters, a bounded number of waiters (429), bad parameters 400, other credentials 401 (a
// session 400: 401 on a request with a session means that session is dead). No test
// asserts a duration: conditions are awaited, events are driven by actions.
import { createHash } from 'node:crypto';

import { feedWatcher } from '../../gateway/ic/feed-watcher';
import { serveTestGateway, startService, dashboardHeaders } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let serverKey: string;
let apiKey: string;
let dashboard: Record<string, string>;
const G = 'feed-game';

beforeAll(async () => {
    s = await startService();
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'feeder', email: 'feeder@test', provider: 'test' },
    });
    const sessionHash = createHash('sha256').update(sessionToken).digest('hex');
    apiKey = (await s.canister.ok('dev_register_game', { sessionHash, gameId: G, name: 'Feed Game' })).apiKey;
    dashboard = dashboardHeaders(s.signIn.secret, sessionToken);
    const made = await s.request('POST', `/dashboard/api/games/${G}/server-key`, { headers: dashboard });
    expect(made.status).toBe(200);
    serverKey = made.body.data.serverKey;
});
afterAll(() => s.stop());

const auth = () => ({ Authorization: `Bearer ${serverKey}` });
const feed = (query: string, headers: Record<string, string> = auth(), url = s.gateway.url, signal?: AbortSignal) =>
    fetch(`${url}/events${query}`, { headers, signal }).then(async (r) => ({ status: r.status, body: await r.json() }));
const ban = (playerId: string) =>
    s.request('PUT', `/dashboard/api/games/${G}/bans/${playerId}`, { headers: dashboard, body: { reason: 'feed' } });

/** Resolves once `check` holds (looked at on each turn of the event loop: no fixed delay). */
async function until(check: () => boolean): Promise<void> {
    while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

test('an empty feed answers at once with wait=0 (or none): no events, next 0', async () => {
    for (const query of ['', '?wait=0', '?after=0&limit=5&wait=0']) {
        const res = await feed(query);
        expect(res).toEqual({ status: 200, body: { ok: true, data: { events: [], next: 0, latest: 0 } } });
    }
});

test('a wait=30 read is answered when an event happens: a ban through this gateway', async () => {
    const before = (await feed('')).body.data.latest;
    const waiting = feed(`?after=${before}&wait=30`);
    await until(() => s.gateway.feed.waiting(G) === 1);
    expect((await ban('feed-p1')).status).toBe(200);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data.events).toEqual([
        expect.objectContaining({ kind: 'player_banned', playerId: 'feed-p1', reason: 'feed', seq: before + 1 }),
    ]);
    expect(res.body.data.next).toBe(before + 1);
    expect(s.gateway.feed.waiting(G)).toBe(0);
});

test("an event written past this gateway (another gateway, the canister directly) reaches the game's watcher", async () => {
    const before = (await feed('')).body.data.latest;
    const sessionToken = dashboard.Cookie.slice('lb_dev='.length);
    const sessionHash = createHash('sha256').update(sessionToken).digest('hex');
    const first = feed(`?after=${before}&wait=30`);
    const second = feed(`?after=${before}&wait=30&limit=1`);
    await until(() => s.gateway.feed.waiting(G) === 2);
    await s.canister.ok('dev_ban', { sessionHash, gameId: G, playerId: 'feed-p2', reason: 'elsewhere' });
    const [a, b] = await Promise.all([first, second]);
    for (const res of [a, b])
        expect(res.body.data.events[0]).toMatchObject({ kind: 'player_banned', playerId: 'feed-p2', seq: before + 1 });
});

test('paging with after and limit, in order, and where to go on', async () => {
    const before = (await feed('')).body.data.latest;
    for (const p of ['page-a', 'page-b', 'page-c']) expect((await ban(p)).status).toBe(200);
    const page1 = (await feed(`?after=${before}&limit=2`)).body.data;
    expect(page1.events.map((e: { playerId: string }) => e.playerId)).toEqual(['page-a', 'page-b']);
    expect(page1.events.map((e: { seq: number }) => e.seq)).toEqual([before + 1, before + 2]);
    expect(page1.events[0].id).toBe(`evt_${G}_${before + 1}`);
    expect(page1).toMatchObject({ next: before + 2, latest: before + 3 });
    const page2 = (await feed(`?after=${page1.next}&limit=2`)).body.data;
    expect(page2.events.map((e: { playerId: string }) => e.playerId)).toEqual(['page-c']);
    expect(page2.next).toBe(before + 3);
    // Past the end: empty, at once without wait.
    expect((await feed(`?after=${page2.next}`)).body.data).toMatchObject({ events: [], next: before + 3 });
    // With events already there, wait= does not hold the answer.
    expect((await feed(`?after=${before}&wait=30`)).body.data.events).toHaveLength(3);
});

test('a client that disconnects stops waiting', async () => {
    const latest = (await feed('')).body.data.latest;
    const left = new AbortController();
    const gone = feed(`?after=${latest}&wait=30`, auth(), s.gateway.url, left.signal).catch((e: Error) => e.name);
    await until(() => s.gateway.feed.waiting(G) === 1);
    left.abort();
    expect(await gone).toBe('AbortError');
    await until(() => s.gateway.feed.waiting(G) === 0);
});

test('bad after, limit or wait are 400 with the field named', async () => {
    for (const [query, field] of [
        ['?wait=31', 'wait'],
        ['?wait=-1', 'wait'],
        ['?wait=abc', 'wait'],
        ['?wait=1.5', 'wait'],
        ['?wait=1&wait=2', 'wait'],
        ['?after=-1', 'after'],
        ['?after=x', 'after'],
        ['?limit=0', 'limit'],
        ['?limit=101', 'limit'],
    ]) {
        const res = await feed(query);
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(new RegExp(`^Invalid ${field}: `));
    }
});

test('only the server key reads the feed: the public key, nothing or a revoked key are 401, a session 400', async () => {
    const clients: Array<[Record<string, string>, number]> = [
        [{ 'X-API-Key': apiKey }, 401],
        // Clients sign out on 401 with a session: the feed is no reason to.
        [{ 'X-Session-Token': 'a'.repeat(43), 'X-Game-ID': G }, 400],
        [{}, 401],
    ];
    for (const [headers, status] of clients) {
        const res = await feed('', headers);
        expect(res.status).toBe(status);
        expect(res.body.error).toMatch(/server key/);
    }
    expect((await feed('', { ...auth(), 'X-API-Key': apiKey })).status).toBe(400);
    const other = 'feed-other';
    await s.game(other);
    const key = (await s.canister.ok('admin_rotate_server_key', { gameId: other })).serverKey;
    const mine = await feed('', { Authorization: `Bearer ${key}` });
    expect(mine.status).toBe(200); // its own game's feed: nothing of feed-game's
    expect(mine.body.data.events).toEqual([]);
});

test('a draining gateway answers its waiters at once; waiters beyond the limits get 429', async () => {
    const gateway = await serveTestGateway(s.canister, { feed: { perGame: 1, total: 10 } });
    const latest = (await feed('')).body.data.latest;
    const waiting = feed(`?after=${latest}&wait=30`, auth(), gateway.url);
    await until(() => gateway.feed.waiting(G) === 1);
    const refused = await feed(`?after=${latest}&wait=30`, auth(), gateway.url);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many requests are waiting for this game's events/);
    // A read that does not wait is no waiter.
    expect((await feed(`?after=${latest}`, auth(), gateway.url)).status).toBe(200);
    const closed = gateway.close();
    const res = await waiting;
    expect(res).toEqual({ status: 200, body: { ok: true, data: { events: [], next: latest, latest } } });
    await closed;
});

test('one query a poll asks about every waited-on game; a refused key ends its wait at once', async () => {
    const games = ['feed-many-a', 'feed-many-b', 'feed-many-c'];
    const hashes: string[] = [];
    for (const gameId of games) {
        await s.canister.ok('admin_register_game', { developerId: 'feed-ops', gameId, name: gameId });
        const { serverKey: key } = await s.canister.ok('admin_rotate_server_key', { gameId });
        hashes.push(createHash('sha256').update(key).digest('hex'));
    }
    // The real canister client, with the games of each events_latest query written down.
    const asked: string[][] = [];
    const counting = {
        ...s.canister,
        call: ((method: string, request: { games?: Array<{ gameId: string }> }) => {
            if (method === 'events_latest') asked.push(request.games!.map((g) => g.gameId));
            return s.canister.call(method as never, request as never);
        }) as typeof s.canister.call,
    };
    const watcher = feedWatcher(counting, { pollMs: 20, perGame: 5, total: 10 });
    const leave = new AbortController();
    const waits = games.map((gameId, i) => watcher.wait(gameId, hashes[i], 1_000_000, 60_000, leave.signal));
    await until(() => asked.length >= 2);
    expect(asked[0]).toEqual(games);
    expect(asked[1]).toEqual(games);
    // A wrong hash (a rotated key, say): that waiter reads again at once and hears why.
    const refused = watcher.wait('feed-many-a', 'f'.repeat(64), 1_000_000, 60_000, leave.signal);
    await refused;
    leave.abort();
    await Promise.all(waits);
    expect(watcher.waiting()).toBe(0);
});
