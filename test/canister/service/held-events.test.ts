// Events held past a game's log for its webhook endpoints: an endpoint behind the whole log still
// gets every event of its kinds (a ban before a flood of clients' events above all), the held
// ring's cap and what clients may fill of it, losses counted in the endpoint's view, paused
// endpoints, and the bound on the `overtaken` events clients' submits make.
import { CLIENT_OVERTAKEN, EVENTS_KEEP, HELD_CLIENT_MAX, HELD_KEEP } from '../../../contract/event-log';
import type { GameEvent } from '../../../contract/events';
import { LEASE_EVENTS_MAX, type DeliveryReport, type Lease } from '../../../contract/webhooks';
import { deleteOwnGame, developerSignIn, purgeSome, registerOwnGame } from '../../../canister/service/developers';
import { eventSlots, readEvents, recordEvent, type EventCause } from '../../../canister/service/events';
import { flushCallWrites } from '../../../canister/service/flush';
import { ban } from '../../../canister/service/moderation';
import {
    addWebhook,
    deleteWebhook,
    listWebhooks,
    updateWebhook,
    webhookWork,
} from '../../../canister/service/webhooks';
import { statsOf } from '../../../canister/state/stats';
import { harnessWith, harness, hashOf, key, moveGame, person, present, withReader, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'held-game';
const game = (h: Harness) => h.games.get(G)!;

function setup(): Harness {
    const h = harnessWith(G);
    withReader(h, G); // every kind is recorded (a feed reader), as on a game with a server
    return h;
}
/** `n` events of clients' submits (score_submitted), 500 per call. */
function flood(h: Harness, n: number, cause: EventCause = 'client'): void {
    for (let i = 0; i < n; i++) {
        recordEvent(h, game(h), { kind: 'score_submitted', playerId: `p${i}`, score: i, streak: 0 }, cause);
        if (i % 500 === 499) flushCallWrites(h);
    }
    flushCallWrites(h);
}
function banned(h: Harness, playerId: string): void {
    ban(h, game(h), { playerId, reason: 'cheat' });
    flushCallWrites(h);
}
const hook = (h: Harness, kinds: string[]) =>
    present(addWebhook(h, game(h), { url: 'https://hooks.example.com/in', kinds })).webhook.webhookId;
const view = (h: Harness, webhookId: string) =>
    present(listWebhooks(h, game(h))).find((v) => v.webhookId === webhookId)!;
const work = (h: Harness, reports: DeliveryReport[] = [], want = 1) =>
    present(webhookWork(h, { reports, want })).leases;
const answered = (lease: Lease, ok = lease.events.length): DeliveryReport => ({
    leaseId: lease.leaseId,
    delivered: ok,
    attempts: [
        {
            at: 0 as never,
            eventId: lease.events[0]!.id,
            kind: lease.events[0]!.kind,
            status: ok > 0 ? 200 : 500,
            latencyMs: 1,
            ...(ok > 0 ? {} : { error: 'the endpoint answered 500' }),
        },
    ],
});
/** Delivers everything to the endpoint (each lease answered 2xx), lease by lease: the events of each. */
function leasesOf(h: Harness, webhookId: string): GameEvent[][] {
    const got: GameEvent[][] = [];
    let leases: Lease[] = [];
    // A call may grant nothing yet move the cursor past events of other kinds: call again while due.
    while (leases.length > 0 || view(h, webhookId).pending > 0) {
        leases = work(
            h,
            leases.map((l) => answered(l)),
        );
        for (const l of leases) if (l.webhookId === webhookId) got.push(l.events as GameEvent[]);
    }
    return got;
}
const deliverAll = (h: Harness, webhookId: string): GameEvent[] => leasesOf(h, webhookId).flat();

test('an endpoint failing while clients flood the log still gets the ban recorded before (the issue)', () => {
    const h = setup();
    const webhookId = hook(h, ['player_banned']);
    banned(h, 'cheater');
    // Its first delivery fails: it waits to retry while the log wraps more than once.
    const [first] = work(h);
    expect(first!.events.map((e) => e.kind)).toEqual(['player_banned']);
    work(h, [answered(first!, 0)], 0);
    flood(h, EVENTS_KEEP + 2_000);
    expect(readEvents(h, G, 0).missed).toBeDefined(); // the feed reader's log dropped it
    expect(view(h, webhookId)).toMatchObject({ state: 'failing' });
    h.advance(11);
    banned(h, 'second');
    const got = deliverAll(h, webhookId);
    expect(got.map((e) => (e as { playerId: string }).playerId)).toEqual(['cheater', 'second']);
    expect(got[0]).toMatchObject({ id: `evt_${G}_1`, seq: 1, kind: 'player_banned', reason: 'cheat' });
    const v = view(h, webhookId);
    expect(v).toMatchObject({ state: 'active', pending: 0, failures: 0 });
    expect(v.lost).toBeUndefined();
    // Delivered: nothing is held any more.
    const stats = statsOf(h, G);
    expect(stats.heldTo! - stats.heldFrom!).toBe(0);
});

test('clients fill at most HELD_CLIENT_MAX of the held ring: bans still fit, the rest is counted lost', () => {
    const h = setup();
    const webhookId = hook(h, ['score_submitted', 'player_banned']);
    banned(h, 'first');
    // Never delivered: everything after the log's first ring must be held, or counted lost.
    flood(h, EVENTS_KEEP + HELD_CLIENT_MAX + 500);
    banned(h, 'during');
    flood(h, EVENTS_KEEP);
    const stats = statsOf(h, G);
    expect(stats.heldTo! - stats.heldFrom!).toBe(HELD_CLIENT_MAX + 1); // the clients' share, then the ban
    const latest = readEvents(h, G, 0).latest;
    const v = view(h, webhookId);
    expect(v.lost).toMatchObject({ reason: 'held-full', count: latest - EVENTS_KEEP - HELD_CLIENT_MAX - 1 });
    const got = deliverAll(h, webhookId);
    const bans = got.filter((e) => e.kind === 'player_banned').map((e) => (e as { playerId: string }).playerId);
    expect(bans).toEqual(['first', 'during']);
    const seqs = got.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.length + v.lost!.count!).toBe(latest);
    expect(got.every((e) => !('_server' in e))).toBe(true);
});

test("the server's events are not the clients': they fill the whole held ring", () => {
    const h = setup();
    const webhookId = hook(h, ['score_submitted']);
    flood(h, EVENTS_KEEP + HELD_CLIENT_MAX + 10, 'server');
    const stats = statsOf(h, G);
    expect(stats.heldTo! - stats.heldFrom!).toBe(HELD_CLIENT_MAX + 10);
    expect(view(h, webhookId).lost).toBeUndefined();
    flood(h, HELD_KEEP, 'server');
    expect(view(h, webhookId).lost).toMatchObject({ reason: 'held-full', count: HELD_CLIENT_MAX + 10 });
});

test('only what an endpoint needs is held: other kinds, delivered events and paused endpoints hold nothing', () => {
    const h = setup();
    const bans = hook(h, ['player_banned']);
    const paused = hook(h, ['score_submitted']);
    updateWebhook(h, game(h), { webhookId: paused, paused: true });
    flood(h, EVENTS_KEEP + 100);
    expect(statsOf(h, G).heldTo ?? 0).toBe(0);
    // Resumed: it goes on with the log, and says which seqs left it while paused.
    updateWebhook(h, game(h), { webhookId: paused, paused: false });
    const v = view(h, paused);
    expect(v.delivered).toBe(100);
    expect(v.lost).toMatchObject({ reason: 'paused', from: 1, to: 100 });
    expect(v.lost!.count).toBeUndefined();
    expect(view(h, bans).lost).toBeUndefined();
    // Deleting an endpoint forgets what it lost.
    deleteWebhook(h, game(h), { webhookId: paused });
    flushCallWrites(h);
    expect(statsOf(h, G).lost).toEqual({});
});

test('held events go with a deleted game', () => {
    const h = harness();
    const dev = developerSignIn(h, { identity: person('held-dev') });
    const sessionHash = hashOf(dev.sessionToken);
    registerOwnGame(h, { sessionHash, gameId: G, name: 'Held' });
    withReader(h, G);
    hook(h, ['score_submitted']);
    flood(h, EVENTS_KEEP + 50);
    expect(eventSlots(h, G)).toBe(EVENTS_KEEP + 50);
    deleteOwnGame(h, { sessionHash, gameId: G, confirm: G });
    while (purgeSome(h, 5_000));
    expect(h.store.events.size()).toBe(0);
});

test('held events and what endpoints lost move with the game', () => {
    const src = setup();
    const webhookId = hook(src, ['player_banned', 'score_submitted']);
    const paused = hook(src, ['player_banned']);
    updateWebhook(src, game(src), { webhookId: paused, paused: true });
    banned(src, 'cheater');
    flood(src, EVENTS_KEEP + 300);
    updateWebhook(src, game(src), { webhookId: paused, paused: false });
    flushCallWrites(src);
    const views = present(listWebhooks(src, game(src)));
    expect(views.find((v) => v.webhookId === paused)!.lost).toMatchObject({ reason: 'paused', from: 1, to: 301 });
    const dst = harness();
    moveGame(src, dst, G, 'rrkah-fqaaa-aaaaa-aaaaq-cai');
    expect(present(listWebhooks(dst, game(dst)))).toEqual(views);
    const got = deliverAll(dst, webhookId);
    expect(got[0]).toMatchObject({ seq: 1, kind: 'player_banned', playerId: 'cheater' });
    expect(got).toHaveLength(EVENTS_KEEP + 301);
    // The source forgets all of it.
    while (purgeSome(src, 5_000));
    expect(src.store.events.size()).toBe(0);
});

test(`clients' submits record at most ${CLIENT_OVERTAKEN.burst} overtaken events, refilled each minute; the server's all`, () => {
    const h = setup();
    const webhookId = hook(h, ['overtaken']);
    const submit = (playerId: string, score: number, server = false) => {
        const credential = server ? { serverKeyHash: hashOf(serverKey) } : { apiKey: key(h, G) };
        const [r] = submitBatch(h, { submits: [{ ...credential, gameId: G, playerId, score, streak: 0 }] });
        expect(r).toHaveProperty('ok');
    };
    const serverKey = withReader(h, G);
    const overtaken = () => {
        let count = 0;
        for (let after = 0, page = readEvents(h, G, 0); page.events.length > 0; page = readEvents(h, G, after)) {
            count += page.events.filter((e) => e.kind === 'overtaken').length;
            after = page.next;
        }
        return count;
    };
    // Rising scores of new players: each passes the 10 below it on all 3 boards (up to 30 events).
    for (let i = 0; i < 40; i++) submit(`rise${i}`, 100 + i);
    const flooded = overtaken();
    expect(flooded).toBe(CLIENT_OVERTAKEN.burst);
    const skipped = view(h, webhookId).overtakenSkipped!;
    expect(skipped).toBeGreaterThan(0);
    // The server key's submits are its own: not bounded.
    for (let i = 0; i < 5; i++) submit(`server${i}`, 1_000 + i, true);
    expect(overtaken()).toBe(flooded + 5 * 3 * 10);
    // A minute refills the clients' allowance.
    h.advance(60);
    submit('late', 5_000);
    expect(overtaken()).toBe(flooded + 150 + 30);
    expect(view(h, webhookId).overtakenSkipped).toBe(skipped);
});

test(`a lease behind the log reads at most ${LEASE_EVENTS_MAX} held events, in order, then the log`, () => {
    const h = setup();
    const webhookId = hook(h, ['player_banned']);
    for (let i = 0; i < 250; i++) ban(h, game(h), { playerId: `b${i}` });
    flushCallWrites(h);
    flood(h, EVENTS_KEEP);
    const leases = leasesOf(h, webhookId);
    expect(leases.map((l) => l.length)).toEqual([100, 100, 50]);
    expect(leases.flat().map((e) => e.seq)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(view(h, webhookId)).toMatchObject({ pending: 0, delivered: readEvents(h, G, 0).latest });
});
