// Rewards end to end on the replica's manual clock: a weekly board with a prize table (set on the
// dashboard API), submits, the week's close granting exactly the table's ranks, the player's read,
// claims (a second changes nothing), the game's rewardClaims enforced for each credential, other
// games' keys and other players refused, and each grant once in the feed and at a webhook endpoint.
import { createHash } from 'node:crypto';

import { parseAllow } from '../../gateway/webhooks/address-policy';
import { startService } from '../support/gateway';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { addWebhook, developer, eventually, ownGame, type Developer } from '../support/webhooks';

const G = 'rw-game';
let s: Awaited<ReturnType<typeof startService>>;
let receiver: Receiver;
let dev: Developer;
let apiKey: string;
let otherKey: string;
let serverKey: string;

const key = (k: string) => ({ 'X-API-Key': k });
const bearer = (k: string) => ({ Authorization: `Bearer ${k}` });
const hash = (t: string) => createHash('sha256').update(t).digest('hex');
const advance = (seconds: number) => s.replica.advanceTime(seconds * 1000);
const rewards = (playerId: string, headers: Record<string, string>) =>
    s.request('GET', `/players/${playerId}/rewards`, { headers });
const claim = (playerId: string, grantId: string, headers: Record<string, string>) =>
    s.request('POST', `/players/${playerId}/rewards/${grantId}/claim`, { headers });

beforeAll(async () => {
    receiver = await startReceiver();
    // The service's gateway delivers (to 127.0.0.1: no names to resolve).
    s = await startService({ webhooks: { deliver: true, delivery: { policy: parseAllow('loopback') }, pollMs: 20 } });
    dev = await developer(s, 'rw-dev');
    apiKey = await ownGame(s, dev, G);
    otherKey = await ownGame(s, dev, 'rw-other');
    serverKey = (await s.canister.ok('dev_rotate_server_key', { sessionHash: dev.sessionHash, gameId: G })).serverKey;
    await addWebhook(s, dev, G, receiver.url, ['reward_granted']);
});
afterAll(async () => {
    await s.stop();
    await receiver.close();
});

test('a weekly close grants the table, claims once, rewardClaims and other credentials refused, events once', async () => {
    // The prize table, on the dashboard's JSON API: the weekly board is timed; all-time never closes.
    const table = [
        { from: 1, to: 1, reward: 'gold', amount: 100 },
        { from: 2, to: 3, reward: 'silver', amount: 10 },
        { topPercent: 50, reward: 'chest', amount: 1 },
    ];
    const put = (boardId: string, body: unknown) =>
        s.request('PUT', `/dashboard/api/games/${G}/boards/${boardId}`, { headers: dev.headers, body });
    expect((await put('all-time', { prizes: table })).body.error).toMatch(/only for boards with periods/);
    expect((await put('weekly', { prizes: [{ from: 3, to: 1, reward: 'x', amount: 1 }] })).status).toBe(400);
    const set = await put('weekly', { prizes: table });
    expect(set.body.data.prizes).toEqual(table);

    // Six players this week (p1 best), one of them signed in.
    const { token } = await s.signInPlayer(G, 'rw-ann', 'RwAnn');
    const session = { 'X-Session-Token': token, 'X-Game-ID': G };
    const ann = (await s.canister.ok('resolve_session', { gameId: G, sessionHash: hash(token) })).playerId;
    const scores: Array<[string, number]> = [
        ['p1', 600],
        ['p2', 500],
        ['p3', 300],
        ['p4', 200],
        ['p5', 100],
    ];
    const submits = scores.map(([playerId, score]) => ({ apiKey, gameId: G, playerId, score, streak: 0 }));
    expect((await s.canister.ok('submit_scores', { submits })).every((r) => 'ok' in r)).toBe(true);
    const mine = await s.request('POST', '/scores', { headers: session, body: { score: 400, streak: 0 } });
    expect(mine.status).toBe(200);
    expect((await rewards('p1', key(apiKey))).body.data).toEqual({ rewards: [] });

    // The week closes (the rollover timer on the replica's clock).
    await advance(8 * 86_400);
    dev = await developer(s, 'rw-dev'); // a week on: the dashboard session ended
    await eventually(async () => expect((await rewards('p1', key(apiKey))).body.data.rewards).toHaveLength(2));
    const got = async (playerId: string, headers: Record<string, string> = key(apiKey)) =>
        ((await rewards(playerId, headers)).body.data.rewards as Array<Record<string, any>>).map((g) => [
            g.rank,
            g.reward,
            g.amount,
        ]);
    expect(await got('p1')).toEqual([
        [1, 'chest', 1],
        [1, 'gold', 100],
    ]);
    expect(await got('p2')).toEqual([
        [2, 'chest', 1],
        [2, 'silver', 10],
    ]);
    expect(await got('me', session)).toEqual([
        [3, 'chest', 1],
        [3, 'silver', 10],
    ]);
    expect([await got('p3'), await got('p4'), await got('p5')]).toEqual([[], [], []]);
    const grant = (await rewards('p1', key(apiKey))).body.data.rewards[1];
    expect(grant).toMatchObject({ scoreboardId: 'weekly', reward: 'gold', rank: 1, grantedAt: expect.any(Number) });
    expect(grant.claimedAt).toBeUndefined();

    // Claimed once; the second answers the same with alreadyClaimed and changes nothing.
    const first = await claim('p1', grant.grantId, key(apiKey));
    expect(first.body.data).toMatchObject({ claimed: true, alreadyClaimed: false, grant: { grantId: grant.grantId } });
    await advance(5);
    const second = await claim('p1', grant.grantId, key(apiKey));
    expect(second.body.data).toEqual({ ...first.body.data, alreadyClaimed: true });
    // Unclaimed first: the gold (claimed) now lists after the chest.
    expect((await rewards('p1', key(apiKey))).body.data.rewards.map((g: any) => g.reward)).toEqual(['chest', 'gold']);

    // Another player's grant, another game's key, a made-up grant: 404 (another game's read is its own, empty).
    const p2Grant = (await rewards('p2', key(apiKey))).body.data.rewards[0].grantId;
    expect((await claim('p1', p2Grant, key(apiKey))).status).toBe(404);
    expect((await claim('p2', p2Grant, key(otherKey))).status).toBe(404);
    expect((await claim('p2', 'weekly.1.0.1', key(apiKey))).status).toBe(404);
    expect((await claim('p2', 'not a grant', key(apiKey))).status).toBe(400);
    expect((await rewards('p2', key(otherKey))).body.data).toEqual({ rewards: [] });
    expect((await rewards('p2', {})).status).toBe(401);

    // rewardClaims: session refuses the API key (403); server refuses sessions (400: K2) and the key.
    const claims = (rewardClaims: string) =>
        s.request('PUT', `/dashboard/api/games/${G}/reward-claims`, { headers: dev.headers, body: { rewardClaims } });
    expect((await claims('anyone')).status).toBe(400);
    const setSession = await claims('session');
    expect(setSession.body).toEqual({ ok: true, data: { rewardClaims: 'session' } });
    const refused = await claim('p2', p2Grant, key(apiKey));
    expect(refused).toMatchObject({ status: 403, body: { error: expect.stringMatching(/signed-in player/) } });
    const annGrant = (await rewards('me', session)).body.data.rewards[0].grantId;
    expect((await claim('me', annGrant, session)).body.data.alreadyClaimed).toBe(false);
    expect((await claims('server')).body.data).toEqual({ rewardClaims: 'server' });
    const annOther = (await rewards('me', session)).body.data.rewards[0].grantId;
    expect((await claim('me', annOther, session)).status).toBe(400);
    expect((await claim('p2', p2Grant, key(apiKey))).status).toBe(403);
    // The canister itself refuses too (anyone may call it, not only through a gateway).
    expect(await s.canister.call('claim_reward', { gameId: G, apiKey, playerId: 'p2', grantId: p2Grant })).toEqual({
        err: { status: 403, message: expect.stringMatching(/server/) },
    });
    expect((await rewards('p2', key(apiKey))).body.data.rewards[0].claimedAt).toBeUndefined();
    const byServer = await claim('p2', p2Grant, bearer(serverKey));
    expect(byServer.body.data.alreadyClaimed).toBe(false);
    expect((await claim(ann, annOther, bearer(serverKey))).body.data.alreadyClaimed).toBe(false);

    // Each grant once in the feed and once at the endpoint.
    const feed = await s.request('GET', '/events?limit=100', { headers: bearer(serverKey) });
    const granted = (feed.body.data.events as any[]).filter((e) => e.kind === 'reward_granted');
    expect(granted).toHaveLength(6);
    expect(granted.find((e) => e.grantId === grant.grantId)).toMatchObject({
        playerId: 'p1',
        scoreboardId: 'weekly',
        rank: 1,
        reward: 'gold',
        amount: 100,
    });
    const delivered = await eventually(() => {
        expect(receiver.received).toHaveLength(6);
        return receiver.received.map((d) => d.event);
    });
    expect(new Set(delivered.map((e) => `${e.playerId}/${e.grantId}`)).size).toBe(6);
    expect(delivered.map((e) => e.id).sort()).toEqual(granted.map((e) => e.id).sort());

    // The dashboard's list of the close: every grant with its player, claims shown.
    const listed = await s.request('GET', `/dashboard/api/games/${G}/boards/weekly/grants`, { headers: dev.headers });
    expect(listed.body.data.periods).toEqual([expect.objectContaining({ count: 6 })]);
    expect(listed.body.data.grants.map((g: any) => [g.playerId, g.reward, g.claimedAt !== undefined])).toEqual([
        ['p1', 'gold', true],
        ['p1', 'chest', false],
        ['p2', 'silver', false],
        ['p2', 'chest', true],
        [ann, 'silver', true],
        [ann, 'chest', true],
    ]);
});
