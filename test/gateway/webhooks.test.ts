// Webhook delivery end to end: the real canister in the replica records events and leases them,
// a gateway's delivery loop POSTs them to real HTTP receivers on 127.0.0.1 (allowed by this
// gateway's WEBHOOK_ALLOW=loopback), names resolved by a real DNS server of the test.
import { REVIEW } from '../../contract/board-options';
import { EVENTS_KEEP, EVENT_KINDS, type EventKind } from '../../contract/event-log';
import type { RunningGateway } from '../../gateway/server/serve';
import { parseAllow } from '../../gateway/webhooks/address-policy';
import { NAME_REFUSED } from '../../gateway/webhooks/deliver';
import { verifySignature } from '../../gateway/webhooks/signature';
import type { WebhookSettings } from '../../gateway/webhooks/worker';
import { startService } from '../support/gateway';
import { startDns, startReceiver, type Receiver, type TestDns } from '../support/webhook-receiver';
import {
    addWebhook,
    developer,
    eventually,
    ownGame,
    webhookGateway,
    webhookView,
    type Developer,
} from '../support/webhooks';

let s: Awaited<ReturnType<typeof startService>>;
let dns: TestDns;
/** The developer of each game (a developer registers 3 games at most). */
let dev: Developer;
let gateway: RunningGateway;
const receivers: Receiver[] = [];

const settings = (): WebhookSettings => ({
    deliver: true,
    delivery: { policy: parseAllow('loopback'), dnsServers: [dns.server], timeoutMs: 5_000, connectTimeoutMs: 5_000 },
    pollMs: 20,
});

beforeAll(async () => {
    dns = await startDns();
    s = await startService();
    // The service's own gateway has no delivery loop: this one delivers.
    gateway = await webhookGateway(s, settings());
});
afterAll(async () => {
    await gateway.close();
    await s.stop();
    await dns.close();
    for (const r of receivers) await r.close();
});

async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
}
const advance = (seconds: number) => s.replica.advanceTime(seconds * 1000);

async function submit(
    apiKey: string,
    gameId: string,
    playerId: string,
    score: number,
    status = 200,
    scoreboardId?: string,
): Promise<void> {
    await advance(3); // past the per-player pace
    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { gameId, playerId, score, streak: 1, scoreboardId },
    });
    expect(res.status).toBe(status);
}

/** Waits until the endpoint has nothing pending and nothing failing. */
const settled = (gameId: string, webhookId: string) =>
    eventually(async () => {
        const view = await webhookView(s, dev, gameId, webhookId);
        expect({ pending: view.pending, failures: view.failures }).toEqual({ pending: 0, failures: 0 });
        return view;
    });

test('events of every kind arrive in order, signed under the endpoint secret, each once', async () => {
    const r = await receiver();
    const g = 'hooks-all';
    dev = await developer(s, g);
    const apiKey = await ownGame(s, dev, g);
    await s.canister.ok('dev_set_caps', { sessionHash: dev.sessionHash, gameId: g, maxScore: 1000 });
    const { webhookId, secret } = await addWebhook(s, dev, g, r.url, [...EVENT_KINDS]);
    await submit(apiKey, g, 'ada', 100); // new_leader on each board, score_submitted
    await submit(apiKey, g, 'bob', 200); // new_leader, overtaken (ada), score_submitted
    const board = await s.request('GET', `/games/${g}/scoreboards/all-time`, { headers: { 'X-API-Key': apiKey } });
    const reported = await s.request('POST', `/games/${g}/scoreboards/all-time/reports`, {
        headers: { 'X-API-Key': apiKey },
        body: { playerId: 'bob', nickname: board.body.data.entries[1].nickname, rank: 2, reason: 'cheating' },
    }); // entry_reported
    expect(reported.status).toBe(200);
    await submit(apiKey, g, 'eve', 5000, 400); // submit_rejected: above the cap
    await s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId: g, playerId: 'eve', reason: 'cap' });
    await s.canister.ok('dev_wipe_player', { sessionHash: dev.sessionHash, gameId: g, playerId: 'ada' });
    // A board with review: 20 entries (one call), then a score past twice the first (score_flagged), dismissed (score_reviewed).
    const review = { sessionHash: dev.sessionHash, gameId: g, scoreboardId: 'rev' };
    await s.canister.ok('dev_create_board', { ...review, type: 'targeted', review: { mode: 'flag' } });
    // And one on hold: a score past twice its first is held (score_held).
    await s.canister.ok('dev_create_board', {
        ...review,
        scoreboardId: 'hold',
        type: 'targeted',
        review: { mode: 'hold' },
    });
    for (const scoreboardId of ['rev', 'hold']) {
        const entries = await s.canister.ok('submit_scores', {
            submits: Array.from({ length: REVIEW.minEntries }, (_, i) => ({
                apiKey,
                gameId: g,
                playerId: `rev-${i}`,
                score: 10 + i,
                streak: 0,
                scoreboardId,
            })),
        });
        expect(entries.every((r) => 'ok' in r)).toBe(true);
    }
    await submit(apiKey, g, 'rev-0', 1000, 200, 'rev');
    await s.canister.ok('dev_review', { ...review, playerId: 'rev-0', action: 'dismiss' });
    await submit(apiKey, g, 'rev-1', 1000, 200, 'hold');
    // A daily league board: its division closes with the day (division_closed).
    const league = { divisionSize: 10, tiers: ['Low', 'High'], promote: 1, demote: 1 };
    await s.canister.ok('dev_create_board', {
        ...review,
        scoreboardId: 'league',
        type: 'targeted',
        period: 'daily',
        league,
    });
    await submit(apiKey, g, 'lea', 10, 200, 'league');
    // Delivered before the clock jumps a day (a jump past a lease in flight would lease it again).
    await settled(g, webhookId);
    // The daily board pays its first: its close grants a prize (reward_granted).
    const prizes = [{ from: 1, to: 1, reward: 'gold', amount: 1 }];
    await s.canister.ok('dev_update_board', { sessionHash: dev.sessionHash, gameId: g, scoreboardId: 'daily', prizes });
    await advance(86_400); // the daily period closes: period_closed, division_closed
    await submit(apiKey, g, 'cat', 50);
    const view = await settled(g, webhookId);

    const kinds = new Set(r.received.map((d) => d.event.kind as EventKind));
    expect([...kinds].sort()).toEqual([...EVENT_KINDS].sort());
    const seqs = r.received.map((d) => d.event.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length); // each once
    expect(view.delivered).toBe(seqs[seqs.length - 1]);
    const now = Date.now() / 1000;
    for (const d of r.received) {
        expect(verifySignature(secret, d.headers['x-signature'] as string, d.body, now)).toBeUndefined();
        expect(d.headers['x-event-id']).toBe(d.event.id);
        expect(d.headers['x-event-kind']).toBe(d.event.kind);
        expect(d.event.gameId).toBe(g);
    }
    expect(r.received.find((d) => d.event.kind === 'submit_rejected')!.event).toMatchObject({
        playerId: 'eve',
        score: 5000,
        reason: expect.stringMatching(/cap of 1000/),
    });
    expect(r.received.find((d) => d.event.kind === 'overtaken')!.event).toMatchObject({
        player: { playerId: 'ada' },
        by: { playerId: 'bob' },
    });
    expect(view.attempts[0]).toMatchObject({ status: 200 });
});

test('a failing receiver gets retries on the canister clock, with backoff, until it answers', async () => {
    const r = await receiver();
    r.answer = 500;
    const g = 'hooks-retry';
    dev = await developer(s, g);
    await ownGame(s, dev, g);
    const { webhookId } = await addWebhook(s, dev, g, r.url, ['player_banned']);
    await s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId: g, playerId: 'p1' });
    await r.waitFor(1);
    const failed = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect(v.failures).toBe(1);
        return v;
    });
    expect(failed).toMatchObject({ state: 'failing', attempts: [{ status: 500, error: 'the endpoint answered 500' }] });
    expect(Math.round((failed.nextAttemptAt! - failed.failingSince!) / 1e9)).toBe(10);
    expect((await s.canister.ok('webhook_due', {})).due).toBe(0);

    await advance(10); // the first retry is due
    await r.waitFor(2);
    const twice = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect(v.failures).toBe(2);
        return v;
    });
    // 10 s, then 20 s more: the second retry is due 30 s after the first failure.
    expect(Math.round((twice.nextAttemptAt! - twice.failingSince!) / 1e9)).toBe(30);
    await advance(10);
    expect((await s.canister.ok('webhook_due', {})).due).toBe(0); // not yet
    expect(r.received).toHaveLength(2);

    r.answer = 200;
    await advance(10);
    await r.waitFor(3);
    const view = await settled(g, webhookId);
    expect(view.state).toBe('active');
    const ids = r.received.map((d) => d.headers['x-event-id']);
    expect(new Set(ids).size).toBe(1); // the same event, the same id, three times
    expect(view.attempts.map((a) => a.status)).toEqual([200, 500, 500]);
});

test('a name that resolves to a private address is refused at delivery; no connection is made', async () => {
    const r = await receiver();
    const g = 'hooks-dns';
    dev = await developer(s, g);
    await ownGame(s, dev, g);
    dns.names.set('hooks.rebind.test', ['127.0.0.1']);
    const { webhookId } = await addWebhook(s, dev, g, `http://hooks.rebind.test:${r.port}/hook`, ['player_banned']);
    await s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId: g, playerId: 'p1' });
    await r.waitFor(1);
    await settled(g, webhookId);
    const connections = r.connections;
    // The name now points at a private address (DNS rebinding), then at cloud metadata.
    dns.names.set('hooks.rebind.test', ['10.0.0.7']);
    await s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId: g, playerId: 'p2' });
    const refused = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect(v.failures).toBe(1);
        return v;
    });
    expect(refused.attempts[0]!.status).toBeUndefined();
    // The developer reads that the address is not allowed, never which one the name resolved to.
    expect(refused.attempts[0]!.error).toBe(`hooks.rebind.test: ${NAME_REFUSED}`);
    dns.names.set('hooks.rebind.test', ['169.254.169.254']);
    await advance(10);
    await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect(v.failures).toBe(2);
        expect(v.attempts[0]!.error).toBe(`hooks.rebind.test: ${NAME_REFUSED}`);
    });
    // "Send a test event" (the dashboard API, and the dashboard's form) says no more.
    dns.names.set('hooks.rebind.test', ['10.20.30.40']);
    const res = await fetch(`${gateway.url}/dashboard/api/games/${g}/webhooks/${webhookId}/test`, {
        method: 'POST',
        headers: dev.headers,
    });
    const body = JSON.stringify(await res.json());
    expect(body).toContain(NAME_REFUSED);
    const page = await fetch(`${gateway.url}/dashboard/games/${g}/webhooks`, { headers: dev.headers });
    const views = JSON.stringify(await webhookView(s, dev, g, webhookId)) + body + (await page.text());
    for (const address of ['10.0.0.7', '169.254.169.254', '10.20.30.40']) expect(views).not.toContain(address);
    expect(r.connections).toBe(connections);
    expect(r.received).toHaveLength(1);
});

test('redirects are not followed', async () => {
    const r = await receiver();
    const elsewhere = await receiver();
    r.answer = (_req, res) => res.writeHead(302, { Location: elsewhere.url }).end();
    const g = 'hooks-redirect';
    dev = await developer(s, g);
    await ownGame(s, dev, g);
    const { webhookId } = await addWebhook(s, dev, g, r.url, ['player_banned']);
    await s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId: g, playerId: 'p1' });
    const view = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect(v.failures).toBe(1);
        return v;
    });
    expect(view.attempts[0]).toMatchObject({ status: 302, error: 'redirects are not followed' });
    expect(elsewhere.connections).toBe(0);
});

test('an endpoint that never answers cannot hold the gateway: others are delivered meanwhile', async () => {
    const silent = await receiver();
    silent.answer = () => undefined; // holds every request
    const r = await receiver();
    const g = 'hooks-slow';
    dev = await developer(s, g);
    await ownGame(s, dev, g);
    const slow = await addWebhook(s, dev, g, silent.url, ['player_banned']);
    const fine = await addWebhook(s, dev, g, r.url, ['player_banned']);
    await s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId: g, playerId: 'p1' });
    await r.waitFor(1);
    await settled(g, fine.webhookId);
    const held = await eventually(async () => {
        const v = await webhookView(s, dev, g, slow.webhookId);
        expect(v.failures).toBe(1);
        return v;
    });
    expect(held.attempts[0]).toMatchObject({ error: 'no answer within 5 s' });
    expect(held.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(5000);
});

test('"send a test event" delivers a signed test event now and answers the attempt', async () => {
    const r = await receiver();
    const g = 'hooks-test-event';
    dev = await developer(s, g);
    await ownGame(s, dev, g);
    const { webhookId, secret } = await addWebhook(s, dev, g, r.url, ['new_leader']);
    const path = `/dashboard/api/games/${g}/webhooks/${webhookId}/test`;
    // Sent by the gateway the developer's dashboard talks to, with its address policy.
    const post = async (headers: Record<string, string>) => {
        const res = await fetch(`${gateway.url}${path}`, { method: 'POST', headers });
        return { status: res.status, body: (await res.json()) as any };
    };
    const res = await post(dev.headers);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
        kind: 'test',
        status: 200,
        eventId: expect.stringMatching(/^evt_hooks-test-event_test_/),
    });
    const [got] = r.received;
    expect(got!.event).toMatchObject({ kind: 'test', seq: 0, gameId: g, id: res.body.data.eventId });
    expect(
        verifySignature(secret, got!.headers['x-signature'] as string, got!.body, Date.now() / 1000),
    ).toBeUndefined();
    const view = await webhookView(s, dev, g, webhookId);
    expect(view.attempts[0]).toMatchObject({ kind: 'test', status: 200 });
    expect(view.failures).toBe(0);
    // Test events are paced per endpoint (each is a POST to a URL of the developer's choice).
    const again = await post(dev.headers);
    expect(again.status).toBe(429);
    expect(again.body.error).toMatch(/at least 10 seconds apart/);
    await advance(10);
    // A failing endpoint's test says why; another developer, or no CSRF token, gets nothing sent.
    r.answer = 503;
    expect((await post(dev.headers)).body.data).toMatchObject({
        status: 503,
        error: 'the endpoint answered 503',
    });
    const other = await developer(s, 'someone-else');
    expect((await post(other.headers)).status).toBe(404);
    expect((await post({ Cookie: dev.headers.Cookie! })).status).toBe(403);
    expect(r.received).toHaveLength(2);
});

test('a ban reaches an endpoint that failed while one client flooded rising scores past the whole log', async () => {
    const r = await receiver();
    r.answer = 500;
    const g = 'hooks-flood';
    dev = await developer(s, g);
    const apiKey = await ownGame(s, dev, g);
    // A game with a server: its feed reads every kind, and it asks for every submit (34 events a submit at most).
    const { serverKey } = await s.canister.ok('dev_rotate_server_key', { sessionHash: dev.sessionHash, gameId: g });
    await s.canister.ok('dev_update_game', { sessionHash: dev.sessionHash, gameId: g, everySubmitEvents: true });
    const { webhookId } = await addWebhook(s, dev, g, r.url, ['player_banned']);
    const ban = (playerId: string) =>
        s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId: g, playerId, reason: 'bot' });
    const latest = async () =>
        (
            (await s.request('GET', '/events?after=0&limit=1', { headers: { Authorization: `Bearer ${serverKey}` } }))
                .body as any
        ).data;
    await ban('cheater');
    await eventually(async () => expect((await webhookView(s, dev, g, webhookId)).failures).toBe(1));
    // One client, the public key: new players with rising scores, each the new leader of every
    // board, 200 a call, a call a minute, until the log recorded `until` events (the endpoint still failing).
    let next = 0;
    const flood = async (until: number): Promise<void> => {
        while ((await latest()).latest < until) {
            const submits = Array.from({ length: 200 }, () => ({
                apiKey,
                gameId: g,
                playerId: `flood_${next}`,
                score: 1_000 + next++,
                streak: 0,
            }));
            const replies = await s.canister.ok('submit_scores', { submits });
            expect(replies.every((x) => 'ok' in x)).toBe(true);
            await advance(60);
        }
    };
    await flood(EVENTS_KEEP / 2);
    await ban('second'); // a moderator's ban in the middle of the flood
    await flood(EVENTS_KEEP + 1);
    // The log dropped the first ban: a feed reader from the start missed it.
    expect((await latest()).missed).toMatchObject({ from: 1 });
    expect(new Set(r.received.map((d) => d.event.playerId))).toEqual(new Set(['cheater'])); // failed attempts
    // The endpoint recovers (once its last retry, maybe still in flight, was reported): it gets
    // both bans, in order, and nothing is counted lost.
    await eventually(async () =>
        expect((await webhookView(s, dev, g, webhookId)).attempts).toHaveLength(r.received.length),
    );
    const failed = r.received.length;
    r.answer = 200;
    await advance(3_600); // past its next retry
    const view = await settled(g, webhookId);
    const delivered = r.received.slice(failed).map((d) => `${d.event.kind}:${d.event.playerId}`);
    expect(delivered).toEqual(['player_banned:cheater', 'player_banned:second']);
    expect(view).toMatchObject({ state: 'active' });
    expect(view.lost).toBeUndefined();
}, 600_000);
