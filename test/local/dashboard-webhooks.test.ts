// The dashboard's Webhooks tab in headless Chromium, against a real HTTP receiver on 127.0.0.1
// (the test gateway allows loopback as `npm start` does): an endpoint added from the form shows
// its secret once; "Send a test event" reaches the receiver signed under that secret and shows
// the status and latency; a real event (a ban) is delivered by the gateway's loop and listed in
// the delivery log; a failing receiver shows the endpoint failing with its next retry, and paused
// with the last error after 24 hours of the replica clock, and once resumed after the log moved
// on, the events it lost meanwhile in red; pause,
// resume and delete (confirmed, without JavaScript); another developer reaches none of it.
// Screenshots (desktop and phone) go to dashboard-webhooks*.png in the screenshot folder.
// On the stack npm start runs by default: a directory, and a shard that holds the games.
import { createHash } from 'node:crypto';

import type { Page } from 'playwright-core';

import { GIVE_UP_SECONDS, type WebhookView } from '../../contract/webhooks';
import { parseAllow } from '../../gateway/webhooks/address-policy';
import { verifySignature } from '../../gateway/webhooks/signature';
import { clickAndLoad, DESKTOP } from '../support/browser';
import { dashboardStack, registerGame, shotsOf, signUp, type Developer } from '../support/dashboard';
import { DEFAULT_STACK } from '../support/gateway';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

const GAME = 'hook-race';

// As `npm start`: delivery on, loopback allowed (the receiver is on 127.0.0.1), polling briskly.
const s = dashboardStack('dashboard-webhooks', {
    stack: { ...DEFAULT_STACK, webhooks: { deliver: true, delivery: { policy: parseAllow('loopback') }, pollMs: 100 } },
});
let receiver: Receiver;
let ada: Developer;
let secret: string;

beforeAll(async () => {
    receiver = await startReceiver();
});

afterAll(async () => {
    await receiver?.close();
});

const click = clickAndLoad;
const text = async (page: Page): Promise<string> => (await page.textContent('main')) ?? '';
const url = (p = ''): string => `${s.signIn.publicUrl}/dashboard/games/${GAME}/webhooks${p}`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A full-page screenshot of the tab as Ada sees it on the desktop, and on a phone. */
async function shots(name: string): Promise<void> {
    await ada.page.goto(url());
    await shotsOf(s, ada, name, url());
}

/** Ada's session as the canister knows it (the SHA-256 of her cookie). */
async function sessionHash(): Promise<string> {
    const token = (await ada.context.cookies()).find((c) => c.name === 'lb_dev')!.value;
    return createHash('sha256').update(token).digest('hex');
}

/** The (first) endpoint as the canister shows it to its developer. */
async function endpoint(): Promise<WebhookView> {
    const [w] = await s.canister.ok('dev_list_webhooks', { sessionHash: await sessionHash(), gameId: GAME });
    return w!;
}

/** Bans a player from the Moderation tab, as the developer would. */
async function ban(playerId: string, reason: string): Promise<void> {
    const { page } = ada;
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/moderation`);
    await page.locator('#f-ban-player').fill(playerId);
    await page.locator('#f-ban-reason').fill(reason);
    await click(page, 'Ban player');
    expect(await page.locator('[role=status]').textContent()).toBe('Player banned.');
}

/** Waits (on the gateway's own delivery loop) until the endpoint's view satisfies `ok`. */
async function until(ok: (w: WebhookView) => boolean): Promise<WebhookView> {
    for (;;) {
        const w = await endpoint();
        if (ok(w)) return w;
        await new Promise((r) => setTimeout(r, 200));
    }
}

test('a developer adds an endpoint and sees its secret once; each kind is explained', async () => {
    ada = await signUp(s, 'ada@hooks.example');
    const { page } = ada;
    await registerGame(page, GAME, 'Hook Race');
    await page.goto(url());
    expect(await text(page)).toContain('No endpoints yet.');
    for (const hint of ['Someone took rank 1 of a board', 'A player was banned from this game.'])
        expect(await text(page)).toContain(hint);

    // No kind ticked: the canister's message by the form, the URL kept, nothing added.
    await page.getByLabel('URL').fill(receiver.url);
    await click(page, 'Add endpoint');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/^Invalid kinds/);
    expect(await page.getByLabel('URL').inputValue()).toBe(receiver.url);

    await page.getByRole('checkbox', { name: /player_banned/ }).check();
    await page.getByRole('checkbox', { name: /new_leader/ }).check();
    await click(page, 'Add endpoint');
    secret = await page.locator('#webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(await text(page)).toContain('you will not see it again');
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(1);

    // Shown once: the tab read again has the endpoint, never the secret.
    await page.goto(url());
    const body = await page.content();
    expect(body).not.toContain(secret);
    expect(await text(page)).toContain(receiver.url);
    expect(await text(page)).toContain('new_leader, player_banned');
    expect(await page.locator('.card .badge', { hasText: 'active' }).count()).toBe(1);
});

test('"Send a test event" reaches the receiver signed, and shows its status and latency', async () => {
    const { page } = ada;
    await click(page, 'Send a test event');
    const [got] = await receiver.waitFor(1);
    expect(got!.event).toMatchObject({ kind: 'test', seq: 0, gameId: GAME });
    expect(got!.headers['x-event-kind']).toBe('test');
    expect(got!.headers['x-event-id']).toBe(got!.event.id);
    expect(verifySignature(secret, got!.headers['x-signature'] as string, got!.body, nowSeconds())).toBeUndefined();
    expect(verifySignature(secret + 'x', got!.headers['x-signature'] as string, got!.body, nowSeconds())).toBeDefined();
    expect(await page.locator('[role=status]').textContent()).toMatch(
        new RegExp(`Test event ${got!.event.id}: 200 in \\d+ ms`),
    );
    // The delivery log lists it; a test moves nothing.
    await page.goto(url());
    expect(await text(page)).toContain(got!.event.id);
    expect((await endpoint()).delivered).toBe(0);
});

test('a real event is delivered by the gateway and listed; a failing receiver shows its next retry', async () => {
    const { page } = ada;
    await ban('dev_1700000000_a1b2c3d4', 'aimbot');
    const all = await receiver.waitFor(2);
    const banned = all[1]!;
    expect(banned.event).toMatchObject({
        kind: 'player_banned',
        playerId: 'dev_1700000000_a1b2c3d4',
        reason: 'aimbot',
    });
    expect(verifySignature(secret, banned.headers['x-signature'] as string, banned.body, nowSeconds())).toBeUndefined();
    await until((w) => w.delivered === banned.event.seq);
    await page.goto(url());
    const log = await page.locator('.log').textContent();
    expect(log).toContain(banned.event.id);
    expect(log).toContain('player_banned');

    receiver.answer = 500;
    await ban('dev_1700000000_0badcafe', 'speedhack');
    await until((w) => w.state === 'failing');
    await page.goto(url());
    const main = await text(page);
    expect(main).toMatch(/failing\s+since/);
    expect(main).toMatch(/next retry at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(main).toContain('1 event pending');
    expect(await page.locator('.log').textContent()).toContain('500');
    await shots('webhooks');
});

test('pause and resume; the resumed endpoint gets what it missed', async () => {
    const { page } = ada;
    await click(page, 'Pause');
    expect(await page.locator('[role=status]').textContent()).toMatch(/^Endpoint paused/);
    expect(await text(page)).toMatch(/paused\s+by the developer/);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);

    receiver.answer = 200;
    const before = receiver.received.length;
    await click(page, 'Resume');
    expect(await page.locator('[role=status]').textContent()).toMatch(/^Endpoint resumed/);
    const got = await receiver.waitFor(before + 1);
    expect(got.at(-1)!.event).toMatchObject({ kind: 'player_banned', playerId: 'dev_1700000000_0badcafe' });
    const w = await until((v) => v.pending === 0);
    expect(w).toMatchObject({ state: 'active', failures: 0 });
});

test('an endpoint failing for 24 hours (on the replica clock) is shown paused with the last error', async () => {
    const { page } = ada;
    receiver.answer = 503;
    await ban('dev_1700000000_deadbeef', 'wallhack');
    await until((w) => w.state === 'failing');
    await s.replica.advanceTime(GIVE_UP_SECONDS * 1000 + 1000);
    const w = await until((v) => v.state === 'paused');
    await page.goto(url());
    expect(await text(page)).toContain(`paused ${w.pausedReason}`);
    expect(w.pausedReason).toMatch(/503/);
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(1);

    // While it is paused the game's server records more than the log keeps: resumed, the
    // endpoint goes on with the log, and its card says in red what it lost.
    const hash = await sessionHash();
    const { serverKey } = await s.canister.ok('dev_rotate_server_key', { sessionHash: hash, gameId: GAME });
    const serverKeyHash = createHash('sha256').update(serverKey).digest('hex');
    for (let from = 0; from < 310; from += 155) {
        const submits = Array.from({ length: 155 }, (_, k) => ({
            serverKeyHash,
            gameId: GAME,
            playerId: `rise_${from + k}`,
            score: 100 + from + k, // each the new leader, passing ten on every board
            streak: 0,
        }));
        await s.canister.ok('submit_scores', { submits });
    }
    receiver.answer = 200;
    await click(page, 'Resume');
    const resumed = await until((v) => v.pending === 0 && v.state === 'active');
    expect(resumed.lost).toMatchObject({ reason: 'paused' });
    await page.goto(url());
    const lost = page.locator('p.error', { hasText: 'Lost:' });
    expect((await lost.textContent())!.replace(/\s+/g, ' ')).toMatch(
        new RegExp(
            `Lost: the events of its kinds among #${resumed.lost!.from} to #${resumed.lost!.to} left the log while it was paused`,
        ),
    );
});

test('another developer reaches none of it; forms without the CSRF token change nothing', async () => {
    const eve = await signUp(s, 'eve@elsewhere.example');
    const res = await eve.page.goto(url());
    expect(res!.status()).toBe(404);
    const { webhookId } = await endpoint();
    const session = (await eve.context.cookies()).find((c) => c.name === 'lb_dev')!.value;
    await eve.page.goto(`${s.signIn.publicUrl}/dashboard`);
    const csrf = await eve.page.locator('input[name=csrf]').first().inputValue();
    const before = receiver.received.length;
    for (const op of ['test', 'pause', 'delete']) {
        const r = await fetch(url(`/${webhookId}/${op}`), {
            method: 'POST',
            headers: { Cookie: `lb_dev=${session}`, 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ csrf, confirm: 'yes' }),
            redirect: 'manual',
        });
        expect({ op, status: r.status }).toEqual({ op, status: 404 });
    }
    const adaSession = (await ada.context.cookies()).find((c) => c.name === 'lb_dev')!.value;
    const forged = await fetch(url(`/${webhookId}/delete`), {
        method: 'POST',
        headers: { Cookie: `lb_dev=${adaSession}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: 'forged', confirm: 'yes' }),
        redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(receiver.received.length).toBe(before);
    expect(await endpoint()).toMatchObject({ webhookId, state: 'active' });
    await eve.context.close();
});

test('the page has no inline script and works without JavaScript: delete, confirmed', async () => {
    const res = await ada.page.goto(url());
    expect(res!.headers()['content-security-policy']).not.toContain("'unsafe-inline' 'self'");
    expect(res!.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    expect(await ada.page.locator('script:not([src])').count()).toBe(0);

    const plain = await s.browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    await plain.addCookies(await ada.context.cookies());
    const page = await plain.newPage();
    await page.goto(url());
    // A URL with markup in it is text on the page, never markup.
    await page.getByLabel('URL').fill('https://example.com/x?"><img src=x id=pwned>');
    await page.getByRole('checkbox', { name: /new_leader/ }).check();
    await click(page, 'Add endpoint');
    expect(await page.locator('#pwned').count()).toBe(0);
    await page.goto(url());
    const cards = await page.locator('.card', { hasText: 'Delivery log' }).count();

    await page.locator('summary', { hasText: 'Delete…' }).first().click();
    const confirm = page.getByLabel(/Delete this endpoint/).first();
    expect(await confirm.getAttribute('required')).not.toBeNull(); // the browser asks for the tick
    await confirm.check();
    await click(page, 'Delete endpoint');
    expect(await page.locator('[role=status]').textContent()).toBe('Endpoint deleted.');
    expect(await page.locator('.card', { hasText: 'Delivery log' }).count()).toBe(cards - 1);
    await plain.close();
});
