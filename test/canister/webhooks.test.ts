// Webhook delivery state in the real canister: only gateways get leases, and endpoints, cursors
// and leases survive both kinds of upgrade (the heap index is rebuilt from the records).
import { createHash } from 'node:crypto';

import { Ed25519KeyIdentity } from '@dfinity/identity';

import { LEASE_SECONDS } from '../../contract/webhooks';
import { startLeaderboard, leaderboardWasm, initArg, type TestCanister } from '../support/canister';

let c: TestCanister;
let sessionHash: string;
const gameId = 'hook-game';

beforeAll(async () => {
    c = await startLeaderboard();
    const { sessionToken } = await c.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'ada', email: 'ada@test', provider: 'test' },
    });
    sessionHash = createHash('sha256').update(sessionToken).digest('hex');
    await c.ok('dev_register_game', { sessionHash, gameId, name: 'Hook Game' });
});
afterAll(() => c.replica.stop());

const upgrade = (skipPreUpgrade = false) =>
    c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
        skipPreUpgrade,
    });
const ban = (playerId: string) => c.ok('dev_ban', { sessionHash, gameId, playerId, reason: 'test' });

test('only gateways and controllers call the delivery methods', async () => {
    const stranger = Ed25519KeyIdentity.generate();
    for (const [method, request] of [
        ['webhook_due', {}],
        ['webhook_work', { reports: [], want: 5 }],
    ] as const)
        expect(await c.call(method, request, stranger)).toEqual({
            err: { status: 403, message: 'This method is only for registered gateways and controllers' },
        });
});

test('endpoints, cursors and leases survive upgrades, with and without the snapshot', async () => {
    const { webhook, secret } = await c.ok('dev_add_webhook', {
        sessionHash,
        gameId,
        url: 'https://hooks.example.com/in',
        kinds: ['player_banned'],
    });
    await ban('p1');
    await ban('p2');
    expect(await c.ok('webhook_due', {})).toEqual({ due: 1 });
    await upgrade();
    expect(await c.ok('webhook_due', {})).toEqual({ due: 1 });
    const { leases } = await c.ok('webhook_work', { reports: [], want: 5 });
    expect(leases).toHaveLength(1);
    expect(leases[0]).toMatchObject({ gameId, webhookId: webhook.webhookId, secret });
    expect(leases[0].events.map((e: { id: string }) => e.id)).toEqual([`evt_${gameId}_1`, `evt_${gameId}_2`]);
    // The lease holds through an upgrade that skips pre_upgrade.
    await upgrade(true);
    expect((await c.ok('webhook_due', {})).due).toBe(0);
    expect((await c.ok('webhook_work', { reports: [], want: 5 })).leases).toEqual([]);
    const report = {
        leaseId: leases[0].leaseId,
        delivered: 2,
        attempts: [{ at: 0, eventId: `evt_${gameId}_1`, kind: 'player_banned', status: 200, latencyMs: 5 }],
    };
    expect(await c.ok('webhook_work', { reports: [report, null, { leaseId: 'x' }], want: 5 })).toEqual({
        leases: [],
    });
    const [view] = await c.ok('dev_list_webhooks', { sessionHash, gameId });
    expect(view).toMatchObject({ delivered: 2, pending: 0, state: 'active', attempts: [{ status: 200 }] });
    await ban('p3');
    await c.advance(LEASE_SECONDS * 1000);
    expect((await c.ok('webhook_work', { reports: [], want: 5 })).leases[0].events).toHaveLength(1);
});

test('an event held past the log for an endpoint survives upgrades, with and without the snapshot', async () => {
    const g = 'held-game';
    await c.ok('dev_register_game', { sessionHash, gameId: g, name: 'Held Game' });
    const { serverKey } = await c.ok('dev_rotate_server_key', { sessionHash, gameId: g });
    const serverKeyHash = createHash('sha256').update(serverKey).digest('hex');
    const { webhook } = await c.ok('dev_add_webhook', {
        sessionHash,
        gameId: g,
        url: 'https://hooks.example.com/held',
        kinds: ['player_banned'],
    });
    await c.ok('dev_ban', { sessionHash, gameId: g, playerId: 'cheater', reason: 'aimbot' });
    // The server's submits (not bounded like clients'): rising scores, 33 events each, past the whole log.
    for (let from = 0; from < 310; from += 155) {
        const submits = Array.from({ length: 155 }, (_, k) => ({
            serverKeyHash,
            gameId: g,
            playerId: `rise_${from + k}`,
            score: 100 + from + k,
            streak: 0,
        }));
        expect((await c.ok('submit_scores', { submits })).every((r: object) => 'ok' in r)).toBe(true);
    }
    const feed = await c.ok('read_events', { gameId: g, serverKeyHash, after: 0, limit: 1 });
    expect(feed.missed).toMatchObject({ from: 1 });
    await upgrade();
    await upgrade(true);
    let lease;
    for (let tries = 0; lease === undefined && tries < 100; tries++)
        lease = (await c.ok('webhook_work', { reports: [], want: 5 })).leases.find(
            (l: { webhookId: string }) => l.webhookId === webhook.webhookId,
        );
    expect(lease.events[0]).toMatchObject({ id: `evt_${g}_1`, kind: 'player_banned', playerId: 'cheater' });
    const views = await c.ok('dev_list_webhooks', { sessionHash, gameId: g });
    expect(views[0].lost).toBeUndefined();
});
