// GET /metrics as an operator's Prometheus scrapes it, on the real stack (a directory and a
// shard in the replica, the gateway, a real webhook receiver): the counters and histograms move
// as the traffic says, every canister's polled gauges are there, a frozen canister is reported
// and never fails the scrape, and nobody but the operator gets anything.
import { FUNDING } from '../../canister/service/funding';
import { DEFAULT_CYCLES } from '../../replica/subnet';
import type { LogLevel } from '../../gateway/ops/log';
import { parseAllow } from '../../gateway/webhooks/address-policy';
import { anotherGateway, DEFAULT_STACK, startService } from '../support/gateway';
import { scrape, samples, total, value, type Scrape } from '../support/metrics';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { addWebhook, developer, eventually, ownGame, type Developer } from '../support/webhooks';

const TOKEN = 'test-metrics-token-0123456789abcdef0123456789';
const GAME = 'metrics-game';

let s: Awaited<ReturnType<typeof startService>>;
let receiver: Receiver;
let dev: Developer;
let apiKey: string;
const logged: Array<{ level: LogLevel; msg: string; fields?: Record<string, unknown> }> = [];

beforeAll(async () => {
    receiver = await startReceiver();
    s = await startService({
        ...DEFAULT_STACK,
        metrics: { token: TOKEN },
        log: (level, msg, fields) => logged.push({ level, msg, fields }),
        webhooks: { deliver: true, delivery: { policy: parseAllow('loopback') }, pollMs: 20 },
    });
    dev = await developer(s, 'metrics-dev');
    apiKey = await ownGame(s, dev, GAME);
    await addWebhook(s, dev, GAME, receiver.url, ['score_submitted']);
    // The directory's funding check (due on its clock) reads the shard it made after install.
    await s.replica.advanceTime(FUNDING.checkEverySeconds * 1000);
    for (let i = 0; i < 20; i++) await s.replica.tick();
    await s.gateway.cycles.poll();
});
afterAll(async () => {
    await s.stop();
    await receiver.close();
});

const metrics = (token = TOKEN): Promise<Scrape> => scrape(`${s.gateway.url}/metrics`, token);

test('requests, canister calls, batches, sign-in steps and webhook deliveries are counted as they happened', async () => {
    const headers = { 'X-API-Key': apiKey };
    for (const playerId of ['ada', 'bob', 'cy']) {
        const res = await s.request('POST', '/scores', {
            headers,
            body: { gameId: GAME, playerId, score: 10, streak: 1 },
        });
        expect(res.status).toBe(200);
    }
    for (let i = 0; i < 2; i++) expect((await s.request('GET', '/leaderboard?limit=5', { headers })).status).toBe(200);
    expect((await s.request('GET', '/players/ada/profile', { headers })).status).toBe(200);
    expect((await s.request('GET', '/no/such/path-secret-123', { headers })).status).toBe(404);
    const started = await s.request('POST', '/auth/device/code', { headers: { 'X-Game-ID': GAME }, body: {} });
    expect(started.status).toBe(200);
    const poll = await s.request('POST', '/auth/device/token', {
        headers: { 'X-Game-ID': GAME },
        body: { device_code: started.body.data.device_code },
    });
    expect(poll.status).toBe(428);
    await receiver.waitFor(3);

    // Deliveries are counted once reported: the scrape that sees all three.
    const m = await eventually(async () => {
        const scraped = await metrics();
        expect(value(scraped, 'leaderboard_webhook_deliveries_total', { game: GAME, result: 'ok' })).toBe(3);
        return scraped;
    });
    const requests = (method: string, route: string, status: string) =>
        value(m, 'leaderboard_http_requests_total', { method, route, status });
    expect(requests('POST', '/scores', '200')).toBe(3);
    expect(requests('GET', '/leaderboard', '200')).toBe(2);
    expect(requests('GET', '/players/:playerId/profile', '200')).toBe(1);
    expect(requests('POST', '/auth/device/token', '428')).toBe(1);
    // No route matched: one label for all such paths, never the raw URL.
    expect(requests('GET', 'other', '404')).toBe(1);
    expect(JSON.stringify(m)).not.toContain('path-secret-123');
    expect(value(m, 'leaderboard_http_request_duration_seconds', { method: 'POST', route: '/scores' })).toBe(3);
    expect(m.leaderboard_http_request_duration_seconds.type).toBe('histogram');

    expect(value(m, 'leaderboard_sign_in_steps_total', { step: 'device_code_start', outcome: 'ok' })).toBe(1);
    expect(value(m, 'leaderboard_sign_in_steps_total', { step: 'device_code_poll', outcome: 'pending' })).toBe(1);

    // The game lives on the shard: its submits went there, in batches that carried all three.
    const shard = s.shards[0];
    expect((await s.canisterOf(GAME)).toText()).toBe(shard);
    const submits = { method: 'submit_scores', canister: shard, role: 'shard', result: 'ok' };
    expect(value(m, 'leaderboard_canister_calls_total', submits)).toBeGreaterThanOrEqual(1);
    expect(value(m, 'leaderboard_canister_call_duration_seconds', { method: 'submit_scores', role: 'shard' })).toBe(
        value(m, 'leaderboard_canister_calls_total', submits),
    );
    const [batches] = samples(m, 'leaderboard_submit_batch_size');
    expect(Number(batches.sum)).toBe(3);
    expect(Number(batches.count)).toBe(value(m, 'leaderboard_canister_calls_total', submits));
    expect(value(m, 'leaderboard_submits_queued')).toBe(0);
    expect(value(m, 'leaderboard_submit_batches_in_flight')).toBe(0);
    expect(total(m, 'leaderboard_submits_shed_total')).toBe(0);
    expect(total(m, 'leaderboard_canister_traps_total')).toBe(0);
    expect(value(m, 'leaderboard_feed_waiters')).toBe(0);
    // Every event leased was delivered: caught up.
    expect(value(m, 'leaderboard_webhook_lag_seconds', { game: GAME })).toBe(0);
    expect(value(m, 'leaderboard_webhook_deliveries_total', { game: GAME, result: 'failed' })).toBeUndefined();

    // Polled: both canisters' room (and cycles: the directory's cycles_status), the alarm.
    const directory = s.canisterId.toText();
    for (const [canister, role] of [
        [directory, 'directory'],
        [shard, 'shard'],
    ]) {
        const labels = { canister, role };
        expect(value(m, 'leaderboard_canister_up', labels)).toBe(1);
        expect(value(m, 'leaderboard_canister_frozen', labels)).toBe(0);
        expect(value(m, 'leaderboard_canister_heap_bytes', labels)).toBeGreaterThan(0);
        expect(value(m, 'leaderboard_canister_heap_limit_bytes', labels)).toBeGreaterThan(0);
        expect(value(m, 'leaderboard_canister_stable_bytes', labels)).toBeGreaterThanOrEqual(0);
        expect(value(m, 'leaderboard_canister_games', labels)).toBeGreaterThanOrEqual(0);
        expect(value(m, 'leaderboard_canister_cycles', labels)).toBeGreaterThan(0);
        expect(value(m, 'leaderboard_canister_burn_cycles_per_day', labels)).toBeGreaterThan(0);
        expect(value(m, 'leaderboard_canister_runway_days', labels)).toBeGreaterThan(0);
    }
    expect(value(m, 'leaderboard_canister_games', { canister: shard })).toBe(1);
    expect(value(m, 'leaderboard_cycles_status_up')).toBe(1);
    expect(value(m, 'leaderboard_cycles_alarm', { level: 'ok' })).toBe(1);
    expect(value(m, 'leaderboard_cycles_alarm', { level: 'critical' })).toBe(0);
    expect(s.gateway.cycles.latest()).toMatchObject({ alarm: 'ok' });
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);
});

test('only the operator scrapes: no token, a wrong one, an API key or a dashboard session get 401, never CORS', async () => {
    const refused = [
        {},
        { Authorization: `Bearer ${TOKEN}x` },
        { Authorization: `Bearer ${TOKEN.slice(0, -1)}` },
        { Authorization: TOKEN },
        { Authorization: `Bearer ${apiKey}` },
        { 'X-API-Key': apiKey },
        dev.headers,
        { ...dev.headers, Origin: 'https://evil.example' },
    ];
    for (const headers of refused) {
        const res = await fetch(`${s.gateway.url}/metrics`, { headers });
        expect({ status: res.status, body: await res.json() }).toEqual({
            status: 401,
            body: { ok: false, error: expect.stringMatching(/Bearer <METRICS_TOKEN>/) },
        });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const ok = await fetch(`${s.gateway.url}/metrics`, {
        headers: { Authorization: `Bearer ${TOKEN}`, Origin: 'https://evil.example' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
});

test('without METRICS_TOKEN /metrics is absent from the public port; METRICS_PORT serves it on loopback alone', async () => {
    const plain = await anotherGateway(s, { log: () => undefined });
    const local = await anotherGateway(s, { metrics: { port: 0 }, log: () => undefined });
    try {
        for (const g of [plain, local]) {
            for (const headers of [{}, { Authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
                const res = await fetch(`${g.url}/metrics`, { headers });
                expect({ status: res.status, body: await res.json() }).toEqual({
                    status: 404,
                    body: { ok: false, error: expect.stringMatching(/GET \/metrics/) },
                });
            }
        }
        expect(plain.metricsUrl).toBeUndefined();
        expect(local.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
        const m = await scrape(local.metricsUrl!);
        expect(value(m, 'leaderboard_canister_up', { canister: s.canisterId.toText() })).toBe(1);
        expect((await fetch(local.metricsUrl!.replace('/metrics', '/health'))).status).toBe(404);
    } finally {
        await plain.close();
        await local.close();
    }
});

test("a directory low on cycles: the alarm in the metrics, one loud log line, the dashboard's banner", async () => {
    const directory = s.canisterId.toText();
    const before = s.gateway.cycles.latest()!.canisters[0];
    expect(before.canisterId).toBe(directory);
    logged.length = 0;
    // Ten days of its burn above its freezing threshold: under the 30 days the alarm starts at.
    s.replica.setCycles(directory, BigInt(Math.round(before.freezingThresholdCycles + 10 * before.burnPerDay)));
    try {
        await s.gateway.cycles.poll();
        await s.gateway.cycles.poll(); // a second poll at the same level says nothing new
        const m = await metrics();
        expect(value(m, 'leaderboard_cycles_alarm', { level: 'ok' })).toBe(0);
        expect(value(m, 'leaderboard_canister_runway_days', { canister: directory })).toBeLessThan(30);
        const alarm = s.gateway.cycles.latest()!.alarm;
        expect(alarm).not.toBe('ok');
        expect(logged).toEqual([
            {
                level: 'error',
                msg: s.gateway.cycles.latest()!.message,
                fields: expect.objectContaining({ alarm }),
            },
        ]);
        const page = await s.request('GET', '/dashboard', { headers: dev.headers });
        expect(page.status).toBe(200);
        expect(page.text).toMatch(/Service notice\.<\/strong> The service is running low on cycles/);
    } finally {
        s.replica.setCycles(directory, DEFAULT_CYCLES);
    }
    await s.gateway.cycles.poll();
    expect(s.gateway.cycles.latest()!.alarm).toBe('ok');
    expect(logged[logged.length - 1]).toMatchObject({ level: 'info', msg: expect.stringMatching(/alarm cleared/) });
    const page = await s.request('GET', '/dashboard', { headers: dev.headers });
    expect(page.text).not.toContain('Service notice');
});

test('a frozen canister is reported frozen and unreachable, the scrape still answers; a frozen directory raises the alarm', async () => {
    logged.length = 0;
    const shard = s.shards[0];
    const directory = s.canisterId.toText();
    s.replica.setCycles(shard, 1n);
    try {
        await s.gateway.cycles.poll();
        const m = await metrics();
        expect(value(m, 'leaderboard_canister_frozen', { canister: shard })).toBe(1);
        expect(value(m, 'leaderboard_canister_up', { canister: shard })).toBe(0);
        expect(value(m, 'leaderboard_canister_heap_bytes', { canister: shard })).toBeUndefined();
        expect(value(m, 'leaderboard_canister_up', { canister: directory })).toBe(1);
        // The gateway's own calls to it: rejected by the IC, out of cycles (reject code 2, IC0207).
        expect(
            value(m, 'leaderboard_canister_rejects_total', {
                method: 'shard_status',
                canister: shard,
                reject_code: '2',
                error_code: 'IC0207',
            }),
        ).toBeGreaterThanOrEqual(1);

        s.replica.setCycles(directory, 1n);
        await s.gateway.cycles.poll();
        const down = await metrics();
        expect(value(down, 'leaderboard_canister_frozen', { canister: directory, role: 'directory' })).toBe(1);
        expect(value(down, 'leaderboard_cycles_status_up')).toBe(0);
        expect(value(down, 'leaderboard_cycles_alarm', { level: 'critical' })).toBe(1);
        // The shard is still listed (known from before) and still frozen.
        expect(value(down, 'leaderboard_canister_frozen', { canister: shard })).toBe(1);
        const loud = logged.filter((l) => l.level === 'error');
        expect(loud).toEqual([
            {
                level: 'error',
                msg: expect.stringMatching(new RegExp(`directory ${directory} is frozen`)),
                fields: expect.objectContaining({ alarm: 'critical' }),
            },
        ]);
    } finally {
        s.replica.setCycles(directory, DEFAULT_CYCLES);
        s.replica.setCycles(shard, DEFAULT_CYCLES);
    }
    await s.gateway.cycles.poll();
    const back = await metrics();
    expect(value(back, 'leaderboard_canister_frozen', { canister: shard })).toBe(0);
    expect(value(back, 'leaderboard_canister_up', { canister: shard })).toBe(1);
    expect(logged[logged.length - 1]).toMatchObject({ level: 'info', msg: expect.stringMatching(/alarm cleared/) });
});
