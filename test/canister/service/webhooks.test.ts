// Webhook endpoints and their delivery state: a developer's add/list/update/delete/test, and the
// gateways' loop (due, leases exclusive until they expire, in-order cursor, kinds, retries on the
// schedule, pause after a day of failures, resume, late reports, two gateways sharing work).
import type { NewEvent } from '../../../contract/events';
import {
    ATTEMPTS_KEPT,
    GIVE_UP_SECONDS,
    LEASE_EVENTS_MAX,
    LEASE_SECONDS,
    WEBHOOKS_MAX,
    retryDelaySeconds,
    type DeliveryReport,
    type Lease,
} from '../../../contract/webhooks';
import { recordEvent } from '../../../canister/service/events';
import { flushCallWrites } from '../../../canister/service/flush';
import {
    addWebhook,
    deleteWebhook,
    listWebhooks,
    loadWebhooks,
    testWebhook,
    TEST_EVENT_SECONDS,
    updateWebhook,
    webhookDue,
    webhookWork,
} from '../../../canister/service/webhooks';
import { newCtx } from '../../../canister/state/context';
import { loadGames } from '../../../canister/state/startup';
import { failure, harness, present, withGame, withReader, S, type Harness } from './harness';

const URL = 'https://hooks.example.com/in';
const game = (h: Harness, gameId = 'my-game') => h.games.get(gameId)!;

function banned(h: Harness, gameId: string, ...playerIds: string[]): void {
    for (const playerId of playerIds) recordEvent(h, game(h, gameId), { kind: 'player_banned', playerId, reason: 'x' });
    flushCallWrites(h);
}
function wiped(h: Harness, gameId: string, playerId: string): void {
    recordEvent(h, game(h, gameId), { kind: 'player_wiped', playerId } as NewEvent);
    flushCallWrites(h);
}

function add(h: Harness, gameId = 'my-game', kinds: string[] = ['player_banned']) {
    return addWebhook(h, game(h, gameId), { url: URL, kinds });
}

/** my-game with an endpoint for its bans, and these players banned. */
function hooked(...playerIds: string[]): Harness {
    const h = harness();
    withGame(h);
    add(h);
    banned(h, 'my-game', ...playerIds);
    return h;
}

/** What a gateway that answers the first `ok` events 2xx (and fails the next) reports. */
function report(lease: Lease, ok = lease.events.length, at = 0): DeliveryReport {
    const tried = lease.events.slice(0, Math.min(ok + 1, lease.events.length));
    return {
        leaseId: lease.leaseId,
        delivered: ok,
        attempts: tried.map((e, i) => ({
            at: at as never,
            eventId: e.id,
            kind: e.kind,
            ...(i < ok ? { status: 200 } : { status: 500, error: 'HTTP 500' }),
            latencyMs: 12,
        })),
    };
}
const work = (h: Harness, want = 10, reports: DeliveryReport[] = []) =>
    present(webhookWork(h, { reports, want })).leases;
const ids = (lease: Lease) => lease.events.map((e) => e.seq);
const view = (h: Harness, gameId = 'my-game') => present(listWebhooks(h, game(h, gameId)));

describe('endpoints', () => {
    test('add answers the secret once; list shows the endpoint without it', () => {
        const h = harness();
        withGame(h);
        const { webhook, secret } = present(add(h, 'my-game', ['new_leader', 'player_banned', 'new_leader']));
        expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
        expect(webhook).toMatchObject({
            url: URL,
            kinds: ['new_leader', 'player_banned'],
            state: 'active',
            delivered: 0,
            pending: 0,
            failures: 0,
            attempts: [],
        });
        expect(JSON.stringify(view(h))).not.toContain(secret);
        expect(view(h)).toEqual([webhook]);
        expect(game(h).record.webhooks).toEqual([
            { webhookId: webhook.webhookId, kinds: ['new_leader', 'player_banned'], paused: false },
        ]);
    });

    test('a new endpoint gets only events recorded after it was added', () => {
        const h = harness();
        withGame(h);
        withReader(h, 'my-game');
        banned(h, 'my-game', 'a', 'b');
        const { webhook } = add(h);
        expect(webhook.delivered).toBe(2);
        banned(h, 'my-game', 'c');
        expect(view(h)[0].pending).toBe(1);
        const [lease] = work(h);
        expect(lease.events.map((e) => (e as { playerId: string }).playerId)).toEqual(['c']);
    });

    test.each([
        [{ url: 'http//x', kinds: ['new_leader'] }, 'Invalid url:'],
        [{ url: 'https://u:p@x.com/', kinds: ['new_leader'] }, 'Invalid url:'],
        [{ url: 42, kinds: ['new_leader'] }, 'Invalid url:'],
        [{ url: URL, kinds: [] }, 'Invalid kinds:'],
        [{ url: URL, kinds: ['everything'] }, 'Invalid kinds:'],
        [{ url: URL, kinds: 'new_leader' }, 'Invalid kinds:'],
        [{ url: URL }, 'Invalid kinds:'],
    ])('%j is refused with a clear message and stores nothing', (req, message) => {
        const h = harness();
        withGame(h);
        const error = failure(() => addWebhook(h, game(h), req));
        expect(error.status).toBe(400);
        expect(error.message.startsWith(message)).toBe(true);
        expect(view(h)).toEqual([]);
        expect(h.store.webhooks.size()).toBe(0);
    });

    test(`at most ${WEBHOOKS_MAX} endpoints per game (409)`, () => {
        const h = harness();
        withGame(h);
        for (let i = 0; i < WEBHOOKS_MAX; i++) add(h);
        expect(failure(() => add(h))).toEqual({ status: 409, message: expect.stringContaining('at most 5 webhooks') });
        expect(view(h)).toHaveLength(WEBHOOKS_MAX);
    });

    test('update changes url, kinds and paused; bad input changes nothing', () => {
        const h = harness();
        withGame(h);
        const { webhook } = add(h);
        const webhookId = webhook.webhookId;
        const updated = present(
            updateWebhook(h, game(h), { webhookId, url: 'https://other.example/x', kinds: ['overtaken'] }),
        );
        expect(updated).toMatchObject({ url: 'https://other.example/x', kinds: ['overtaken'], state: 'active' });
        expect(failure(() => updateWebhook(h, game(h), { webhookId, paused: 'yes' })).message).toBe(
            'Invalid paused: must be true or false',
        );
        expect(failure(() => updateWebhook(h, game(h), { webhookId, kinds: ['x'], paused: true })).status).toBe(400);
        expect(view(h)[0]).toEqual(updated);
        expect(failure(() => updateWebhook(h, game(h), { webhookId: 'whk_nope', paused: true })).status).toBe(404);
        const paused = present(updateWebhook(h, game(h), { webhookId, paused: true }));
        expect(paused).toMatchObject({ state: 'paused', pausedReason: 'by the developer' });
        expect(game(h).record.webhooks).toEqual([{ webhookId, kinds: ['overtaken'], paused: true }]);
    });

    test("another game's endpoint is not found; delete removes it everywhere", () => {
        const h = harness();
        withGame(h, 'game-a');
        withGame(h, 'game-b');
        const { webhook } = add(h, 'game-a');
        const webhookId = webhook.webhookId;
        expect(failure(() => updateWebhook(h, game(h, 'game-b'), { webhookId, paused: true })).status).toBe(404);
        expect(failure(() => deleteWebhook(h, game(h, 'game-b'), { webhookId })).status).toBe(404);
        expect(failure(() => testWebhook(h, game(h, 'game-b'), { webhookId })).status).toBe(404);
        expect(deleteWebhook(h, game(h, 'game-a'), { webhookId }).message).toContain('deleted');
        expect(view(h, 'game-a')).toEqual([]);
        expect(game(h, 'game-a').record.webhooks).toEqual([]);
        expect(h.store.webhooks.size()).toBe(0);
        banned(h, 'game-a', 'x');
        expect(webhookDue(h)).toEqual({ due: 0 });
    });
});

describe('leases', () => {
    test('due counts endpoints with work; a lease holds its endpoint until it expires', () => {
        const h = harness();
        withGame(h);
        const { webhook } = add(h);
        expect(webhookDue(h)).toEqual({ due: 0 });
        banned(h, 'my-game', 'a', 'b', 'c');
        expect(webhookDue(h)).toEqual({ due: 1 });
        const [lease] = work(h);
        expect(lease).toMatchObject({ gameId: 'my-game', webhookId: webhook.webhookId, url: URL });
        expect(lease.secret).toMatch(/^whsec_/);
        expect(ids(lease)).toEqual([1, 2, 3]);
        expect(lease.events[0].id).toBe('evt_my-game_1');
        expect(lease.expiresAt).toBe((h.time + LEASE_SECONDS * S) * 1000);
        // Nobody else gets it while it is live.
        expect(present(webhookDue(h))).toEqual({ due: 0, nextAt: lease.expiresAt });
        expect(work(h)).toEqual([]);
        h.advance(LEASE_SECONDS - 1);
        expect(work(h)).toEqual([]);
        h.advance(1);
        // Expired: another gateway gets the same events again (same ids), under a new lease.
        const [again] = work(h);
        expect(ids(again)).toEqual([1, 2, 3]);
        expect(again.events.map((e) => e.id)).toEqual(lease.events.map((e) => e.id));
        expect(again.leaseId).not.toBe(lease.leaseId);
    });

    test('the cursor moves in order, at most LEASE_EVENTS_MAX events a lease', () => {
        const h = harness();
        withGame(h);
        add(h);
        const total = 2 * LEASE_EVENTS_MAX + 5;
        banned(h, 'my-game', ...Array.from({ length: total }, (_, i) => `p${i}`));
        const [first] = work(h);
        expect(ids(first)).toEqual(Array.from({ length: LEASE_EVENTS_MAX }, (_, i) => i + 1));
        const [second] = work(h, 10, [report(first)]);
        expect(ids(second)[0]).toBe(LEASE_EVENTS_MAX + 1);
        const [third] = work(h, 10, [report(second)]);
        expect(ids(third)).toEqual([1, 2, 3, 4, 5].map((i) => 2 * LEASE_EVENTS_MAX + i));
        expect(work(h, 10, [report(third)])).toEqual([]);
        expect(view(h)[0]).toMatchObject({ delivered: total, pending: 0, state: 'active' });
        expect(webhookDue(h)).toEqual({ due: 0 });
    });

    test('events of other kinds are skipped, never delivered', () => {
        const h = harness();
        withGame(h);
        withReader(h, 'my-game'); // the feed reads every kind: all of them are recorded
        add(h, 'my-game', ['player_wiped']);
        banned(h, 'my-game', 'a', 'b');
        wiped(h, 'my-game', 'c');
        banned(h, 'my-game', 'd');
        wiped(h, 'my-game', 'e');
        banned(h, 'my-game', 'f');
        const [lease] = work(h);
        expect(lease.events.map((e) => [e.seq, e.kind])).toEqual([
            [3, 'player_wiped'],
            [5, 'player_wiped'],
        ]);
        expect(work(h, 10, [report(lease)])).toEqual([]);
        expect(view(h)[0].delivered).toBe(6);
        // Only other kinds since: it skips past them without a lease.
        banned(h, 'my-game', 'g');
        expect(webhookDue(h).due).toBe(1);
        expect(work(h)).toEqual([]);
        expect(webhookDue(h)).toEqual({ due: 0 });
        expect(view(h)[0].delivered).toBe(7);
    });

    test('two gateways share the work without overlap, fairly across games', () => {
        const h = harness();
        const gameIds = ['game-a', 'game-b', 'game-c'];
        for (const g of gameIds) {
            withGame(h, g);
            add(h, g);
            add(h, g);
            banned(h, g, 'x', 'y');
        }
        expect(webhookDue(h).due).toBe(6);
        const one = work(h, 3);
        // One endpoint of each game first.
        expect(one.map((l) => l.gameId).sort()).toEqual(gameIds);
        const two = work(h, 10);
        expect(two).toHaveLength(3);
        const taken = [...one, ...two].map((l) => `${l.gameId}/${l.webhookId}`);
        expect(new Set(taken).size).toBe(6);
        expect(work(h, 10)).toEqual([]);
        // Both report; every event was delivered exactly once per endpoint.
        work(
            h,
            0,
            one.map((l) => report(l)),
        );
        work(
            h,
            0,
            two.map((l) => report(l)),
        );
        for (const g of gameIds) expect(view(h, g).map((v) => v.delivered)).toEqual([2, 2]);
        expect(webhookDue(h)).toEqual({ due: 0 });
    });
});

test('a game with nothing in flight gets the next lease before games whose deliveries are in flight', () => {
    const h = harness();
    for (const g of ['slow-a', 'slow-b', 'other']) withGame(h, g);
    for (const g of ['slow-a', 'slow-b']) {
        for (let i = 0; i < WEBHOOKS_MAX; i++) add(h, g);
        banned(h, g, 'x');
    }
    add(h, 'other');
    // The slow games' endpoints take the free slots, one per game in turn...
    expect(work(h, 2).map((l) => l.gameId)).toEqual(['slow-a', 'slow-b']);
    expect(work(h, 1).map((l) => l.gameId)).toEqual(['slow-a']);
    // ...and while they are in flight another game's event takes the next slot, whoever's turn it was.
    banned(h, 'other', 'y');
    expect(work(h, 1).map((l) => l.gameId)).toEqual(['other']);
    expect(work(h, 1).map((l) => l.gameId)).toEqual(['slow-b']);
});

describe('reports', () => {
    test('failures retry on the schedule, and a success clears them', () => {
        const h = hooked('a', 'b');
        let [lease] = work(h);
        const failedAt = h.time;
        expect(work(h, 10, [report(lease, 1)])).toEqual([]);
        let v = view(h)[0];
        expect(v).toMatchObject({ state: 'failing', failures: 1, delivered: 1, failingSince: failedAt * 1000 });
        expect(v.nextAttemptAt).toBe((failedAt + retryDelaySeconds(1) * S) * 1000);
        expect(v.attempts.map((a) => [a.eventId, a.status])).toEqual([
            ['evt_my-game_2', 500],
            ['evt_my-game_1', 200],
        ]);
        for (let failures = 2; failures <= 4; failures++) {
            h.advance(retryDelaySeconds(failures - 1) - 1);
            expect(work(h)).toEqual([]);
            h.advance(1);
            [lease] = work(h);
            expect(ids(lease)).toEqual([2]);
            work(h, 0, [report(lease, 0)]);
            v = view(h)[0];
            expect(v).toMatchObject({ failures, failingSince: failedAt * 1000 });
            expect(present(webhookDue(h))).toEqual({ due: 0, nextAt: v.nextAttemptAt });
        }
        h.advance(retryDelaySeconds(4));
        [lease] = work(h);
        work(h, 0, [report(lease)]);
        v = view(h)[0];
        expect(v).toMatchObject({ state: 'active', failures: 0, delivered: 2, pending: 0 });
        expect(v.failingSince).toBeUndefined();
        expect(v.nextAttemptAt).toBeUndefined();
    });

    test('an endpoint failing for 24 hours is paused with the error; resume makes it due now', () => {
        const h = harness();
        withGame(h);
        const { webhook } = add(h);
        banned(h, 'my-game', 'a');
        const start = h.time;
        let tries = 0;
        while (view(h)[0].state !== 'paused') {
            const [lease] = work(h);
            expect(lease).toBeDefined();
            work(h, 0, [report(lease, 0)]);
            tries++;
            h.advance(retryDelaySeconds(tries));
        }
        const v = view(h)[0];
        expect(v.pausedReason).toBe('Failing for 24 hours: HTTP 500');
        expect(h.time - start).toBeGreaterThanOrEqual(GIVE_UP_SECONDS * S);
        expect(tries).toBeGreaterThan(20);
        expect(v.attempts).toHaveLength(ATTEMPTS_KEPT);
        expect(game(h).record.webhooks![0].paused).toBe(true);
        expect(webhookDue(h)).toEqual({ due: 0 });
        h.advance(3600 * 5);
        expect(work(h)).toEqual([]);
        const resumed = present(updateWebhook(h, game(h), { webhookId: webhook.webhookId, paused: false }));
        expect(resumed).toMatchObject({ state: 'active', failures: 0, pending: 1 });
        expect(webhookDue(h).due).toBe(1);
        expect(ids(work(h)[0])).toEqual([1]);
    });

    test('a report from an expired lease still moves the cursor, but its failure is ignored', () => {
        const h = hooked('a', 'b', 'c');
        const [slow] = work(h);
        h.advance(LEASE_SECONDS);
        const [fresh] = work(h);
        // The slow gateway got 2 answered before it lost the lease; its failure is not counted.
        work(h, 0, [report(slow, 2)]);
        expect(view(h)[0]).toMatchObject({ delivered: 2, failures: 0, state: 'active' });
        // The current holder finishes; the cursor never goes back.
        work(h, 0, [report(fresh)]);
        expect(view(h)[0]).toMatchObject({ delivered: 3, failures: 0 });
        // A replayed report changes nothing.
        work(h, 0, [report(slow, 3), report(fresh, 0)]);
        expect(view(h)[0]).toMatchObject({ delivered: 3, failures: 0 });
    });

    test('a report never moves the cursor beyond its own lease', () => {
        const h = hooked('a', 'b');
        const [lease] = work(h);
        banned(h, 'my-game', 'c', 'd');
        work(h, 0, [{ ...report(lease), delivered: 4 }]);
        expect(view(h)[0].delivered).toBe(0);
        work(h, 0, [report(lease)]);
        expect(view(h)[0]).toMatchObject({ delivered: 2, pending: 2 });
    });

    test('nonsense reports are ignored, never a trap', () => {
        const h = harness();
        withGame(h, 'game-a');
        withGame(h, 'game-b');
        const a = add(h, 'game-a').webhook;
        add(h, 'game-b');
        banned(h, 'game-a', 'x');
        banned(h, 'game-b', 'y');
        const leases = work(h);
        const lease = leases.find((l) => l.gameId === 'game-a')!;
        const forged = lease.leaseId.replace('game-a', 'game-b');
        const junk: unknown[] = [
            null,
            42,
            'x',
            [],
            { leaseId: 'nope', delivered: 1 },
            { leaseId: forged, delivered: 1 },
            { leaseId: `${'0'.repeat(32)}.${a.webhookId}.game-a`, delivered: 1 },
            { leaseId: lease.leaseId, delivered: -1 },
            { leaseId: lease.leaseId, delivered: 1.5 },
            { leaseId: lease.leaseId, delivered: '1' },
            { leaseId: lease.leaseId, delivered: 99 },
            { leaseId: { $: 1 }, delivered: 1 },
        ];
        expect(webhookWork(h, { reports: junk, want: 0 })).toEqual({ leases: [] });
        for (const g of ['game-a', 'game-b']) expect(view(h, g)[0]).toMatchObject({ delivered: 0, failures: 0 });
        // Attempts with nonsense fields are dropped or cleaned.
        webhookWork(h, {
            reports: [
                {
                    leaseId: lease.leaseId,
                    delivered: 1,
                    attempts: [
                        null,
                        { eventId: 1 },
                        { eventId: 'e', kind: 'new_leader', status: 9999, latencyMs: -5, at: 'x' },
                    ],
                },
            ],
            want: 0,
        });
        expect(view(h, 'game-a')[0]).toMatchObject({ delivered: 1, attempts: [{ eventId: 'e', latencyMs: 0 }] });
        expect(view(h, 'game-a')[0].attempts[0].status).toBeUndefined();
        for (const bad of [{ want: 51 }, { want: -1 }, { want: 1.5 }, { reports: {} }, { reports: 'x' }])
            expect(failure(() => webhookWork(h, bad)).status).toBe(400);
    });
});

describe('test events', () => {
    test('a test lease is delivered at once; its report logs an attempt and never moves the cursor', () => {
        const h = harness();
        withGame(h);
        const { webhook, secret } = add(h);
        banned(h, 'my-game', 'a');
        const lease = present(testWebhook(h, game(h), { webhookId: webhook.webhookId }));
        expect(lease).toMatchObject({ url: URL, secret, webhookId: webhook.webhookId });
        expect(lease.events).toEqual([
            {
                id: expect.stringMatching(/^evt_my-game_test_[0-9a-f]+$/),
                seq: 0,
                gameId: 'my-game',
                kind: 'test',
                at: h.time * 1000,
                message: expect.any(String),
            },
        ]);
        // The endpoint's own work is not held by it.
        expect(webhookDue(h).due).toBe(1);
        work(h, 0, [report(lease)]);
        const v = view(h)[0];
        expect(v).toMatchObject({ delivered: 0, pending: 1, failures: 0 });
        expect(v.attempts.map((a) => [a.kind, a.status])).toEqual([['test', 200]]);
        // Test events are paced per endpoint (each makes a gateway POST somewhere).
        expect(failure(() => testWebhook(h, game(h), { webhookId: webhook.webhookId }))).toMatchObject({ status: 429 });
        h.advance(TEST_EVENT_SECONDS);
        // A failed test changes no state either, and a second report of it is ignored.
        const failing = present(testWebhook(h, game(h), { webhookId: webhook.webhookId }));
        work(h, 0, [report(failing, 0), report(failing, 0)]);
        expect(view(h)[0]).toMatchObject({ failures: 0, state: 'active' });
        expect(view(h)[0].attempts).toHaveLength(2);
    });
});

test('the index is rebuilt from the records at start', () => {
    const h = hooked('a');
    // An upgrade: a new heap over the same stable store.
    const after = Object.assign(newCtx(h.store, h.env), { time: h.time, advance: h.advance });
    loadGames(after);
    loadWebhooks(after);
    expect(webhookDue(after)).toEqual({ due: 1 });
    expect(ids(present(webhookWork(after, { reports: [], want: 5 })).leases[0])).toEqual([1]);
});
