// Several gateways delivering one canister's webhooks: each event goes out once while the lease
// that carries it lives, again (same id) only after it expires, and a gateway killed in the
// middle of a delivery (a real process, SIGKILL) leaves nothing undelivered.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

import type { IncomingMessage, ServerResponse } from 'node:http';

import { LEASE_SECONDS } from '../../contract/webhooks';
import type { RunningGateway } from '../../gateway/server/serve';
import { parseAllow } from '../../gateway/webhooks/address-policy';
import type { WebhookSettings } from '../../gateway/webhooks/worker';
import { startService } from '../support/gateway';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
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
let dev: Developer;
const gateways: RunningGateway[] = [];
const receivers: Receiver[] = [];

/** Deliveries wait up to 30 s for an answer here: a held request stays held while the test works. */
const settings: WebhookSettings = {
    deliver: true,
    delivery: { policy: parseAllow('loopback'), timeoutMs: 30_000 },
    pollMs: 20,
};

beforeAll(async () => {
    s = await startService();
});
afterAll(async () => {
    for (const r of receivers) await r.close();
    for (const g of gateways) await g.close(100);
    await s.stop();
});

async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
}
async function gateway(parallel?: number): Promise<RunningGateway> {
    const g = await webhookGateway(s, { ...settings, parallel });
    gateways.push(g);
    return g;
}
/** A receiver answer that holds each request until the test releases it. */
function holding(): { answer: (req: IncomingMessage, res: ServerResponse) => void; release(status: number): void } {
    const held: ServerResponse[] = [];
    return {
        answer: (_req, res) => held.push(res),
        release: (status) => {
            for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(status).end();
        },
    };
}
/** A new developer's game `g` with an endpoint for its bans at a receiver that holds each request. */
async function heldEndpoint(g: string) {
    const r = await receiver();
    const hold = holding();
    r.answer = hold.answer;
    dev = await developer(s, g);
    await ownGame(s, dev, g);
    const { webhookId } = await addWebhook(s, dev, g, r.url, ['player_banned']);
    return { r, hold, webhookId };
}
const ban = (gameId: string, playerId: string) =>
    s.canister.ok('dev_ban', { sessionHash: dev.sessionHash, gameId, playerId });
const due = async () => (await s.canister.ok('webhook_due', {})).due;

test('a gateway killed in the middle of a delivery: after its lease expires another delivers', async () => {
    const g = 'gw-killed';
    const { r, hold, webhookId } = await heldEndpoint(g);
    await ban(g, 'p1');
    // The only gateway delivering is a real process (npm run gateway) against this replica.
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join('gateway', 'main.ts')], {
        cwd: path.join(__dirname, '..', '..'),
        env: {
            ...process.env,
            IC_HOST: s.replica.url,
            CANISTER_ID: s.canisterId.toText(),
            GATEWAY_IDENTITY_PEM: s.gatewayIdentityFile,
            PORT: '0',
            WEBHOOK_ALLOW: 'loopback',
            WEBHOOK_TIMEOUT_SECONDS: '30',
        },
        stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
        await r.waitFor(1); // it holds the lease, and the receiver holds its request
        expect(await due()).toBe(0);
    } finally {
        child.kill('SIGKILL');
        await exited;
    }
    hold.release(200); // too late: its connection died with it
    r.answer = 200;
    await s.replica.advanceTime((LEASE_SECONDS + 1) * 1000);
    expect(await due()).toBe(1); // the lease expired: the endpoint is due again
    await gateway();
    await r.waitFor(2);
    const view = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect({ pending: v.pending, failures: v.failures }).toEqual({ pending: 0, failures: 0 });
        return v;
    });
    expect(r.received.map((d) => d.headers['x-event-id'])).toEqual([r.received[0]!.event.id, r.received[0]!.event.id]);
    expect(view.attempts[0]).toMatchObject({ status: 200, eventId: r.received[0]!.event.id });
});

test('two gateways deliver each event once between them while both live', async () => {
    while (gateways.length < 2) await gateway();
    const g = 'gw-shared';
    dev = await developer(s, g);
    await ownGame(s, dev, g);
    const endpoints = [];
    for (let i = 0; i < 5; i++) {
        const r = await receiver();
        endpoints.push({ r, ...(await addWebhook(s, dev, g, r.url, ['player_banned'])) });
    }
    for (let i = 0; i < 8; i++) await ban(g, `p${i}`);
    for (const { r, webhookId } of endpoints) {
        await r.waitFor(8);
        const view = await eventually(async () => {
            const v = await webhookView(s, dev, g, webhookId);
            expect(v.pending).toBe(0);
            return v;
        });
        const players = r.received.map((d) => d.event.playerId);
        expect(players).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']); // in order, each once
        expect(view.delivered).toBe(r.received[7]!.event.seq);
    }
});

test('a duplicate comes only after a lease expires, with the same event id', async () => {
    for (const running of gateways.splice(0)) await running.close(100);
    const g = 'gw-duplicate';
    const { r, hold, webhookId } = await heldEndpoint(g);
    // The first gateway delivers one endpoint at a time: while its request is held it asks for no more.
    await gateway(1);
    await ban(g, 'p1');
    await r.waitFor(1);
    await gateway();
    // Leased and in flight: the other gateway may not take it.
    expect(await due()).toBe(0);
    await s.replica.advanceTime((LEASE_SECONDS + 1) * 1000);
    await r.waitFor(2); // the lease expired: delivered again
    expect(r.received[1]!.headers['x-event-id']).toBe(r.received[0]!.headers['x-event-id']);
    hold.release(200);
    const view = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect({ pending: v.pending, failures: v.failures }).toEqual({ pending: 0, failures: 0 });
        return v;
    });
    expect(view.delivered).toBe(r.received[0]!.event.seq);
    expect(r.received).toHaveLength(2);
});

test('one gateway leased an endpoint again while still delivering to it sends one request at a time', async () => {
    for (const running of gateways.splice(0)) await running.close(100);
    await gateway(); // alone, and free to take more leases while one request is held
    const g = 'gw-own-relapse';
    const { r, hold, webhookId } = await heldEndpoint(g);
    await ban(g, 'p1');
    await r.waitFor(1);
    await s.replica.advanceTime((LEASE_SECONDS + 1) * 1000);
    expect(await due()).toBe(1);
    await eventually(async () => expect(await due()).toBe(0)); // leased again, to the same gateway
    expect(r.received).toHaveLength(1); // which waits for its own request in flight
    hold.release(200);
    const view = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect({ pending: v.pending, failures: v.failures }).toEqual({ pending: 0, failures: 0 });
        return v;
    });
    expect(r.received).toHaveLength(1); // and then counts it as answered: no duplicate
    expect(view.delivered).toBe(r.received[0]!.event.seq);
});

test("slow endpoints of three games (15, beyond the 8 slots) do not hold up another game's events", async () => {
    for (const running of gateways.splice(0)) await running.close(100);
    await gateway(8);
    // 3 games x 5 endpoints whose receivers hold every request (slower than any slot should wait).
    const hold = holding();
    const slowDev = await developer(s, 'gw-slow');
    const held: Receiver[] = [];
    for (const g of ['gw-slow-1', 'gw-slow-2', 'gw-slow-3']) {
        await ownGame(s, slowDev, g);
        for (let i = 0; i < 5; i++) {
            const r = await receiver();
            r.answer = hold.answer;
            held.push(r);
            await addWebhook(s, slowDev, g, r.url, ['player_banned']);
        }
        await s.canister.ok('dev_ban', { sessionHash: slowDev.sessionHash, gameId: g, playerId: 'p1' });
    }
    // Every slot holds a slow request.
    await eventually(() => expect(held.filter((r) => r.received.length > 0).length).toBeGreaterThanOrEqual(8));
    dev = await developer(s, 'gw-other');
    const g = 'gw-other';
    await ownGame(s, dev, g);
    const r = await receiver();
    const { webhookId } = await addWebhook(s, dev, g, r.url, ['player_banned']);
    await ban(g, 'p2');
    // The other game's event arrives while every slow request is still unanswered (they would
    // hold their slots for the whole 30 s delivery timeout).
    await eventually(() => expect(r.received).toHaveLength(1), 20_000);
    expect(held.every((x) => x.received.length <= 1)).toBe(true);
    const view = await eventually(async () => {
        const v = await webhookView(s, dev, g, webhookId);
        expect(v.pending).toBe(0);
        return v;
    });
    expect(view.attempts[0]).toMatchObject({ status: 200 });
    // The slow ones get theirs too, once they answer.
    await eventually(() => expect(held.every((x) => x.received.length === 1)).toBe(true));
    hold.release(200);
    for (const gameId of ['gw-slow-1', 'gw-slow-2', 'gw-slow-3'])
        await eventually(async () => {
            const views = await s.canister.ok('dev_list_webhooks', { sessionHash: slowDev.sessionHash, gameId });
            expect(views.map((v) => v.pending)).toEqual([0, 0, 0, 0, 0]);
        });
});
