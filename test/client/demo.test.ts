// The /demo reaction game in headless Chromium on a phone-sized screen, on the JavaScript client
// alone: a scripted round (the page's clock driven by the test) submits its time to the lowest-
// first board, the board shows it, the badge is green for the canister's certified direct read
// and red once the test's relay between the page and the replica flips one byte; another
// player's name with HTML in it stays text; sign-in shows the code and QR and, approved, signs
// the player in. Screenshots go to demo-*.png (docs/screenshots on `npm run screenshots`).
import * as http from 'node:http';
import * as path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { serveGateway, type RunningGateway } from '../../gateway/server/serve';
import { launchBrowser, screenshotDir, PHONE } from '../support/browser';
import { DEFAULT_STACK, startService, type TestService } from '../support/gateway';
import { startRelay, type Relay } from '../support/relay';

const SHOTS = screenshotDir();
const GAME = 'demo-test';
const BOARD = 'reaction';

let s: TestService & { signIn: Parameters<typeof serveGateway>[0]['signIn'] };
let apiKey: string;
let relay: Relay;
let gateway: RunningGateway;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
    s = await startService(DEFAULT_STACK);
    apiKey = await s.game(GAME, async (c) => {
        await c.ok('admin_create_board', {
            gameId: GAME,
            scoreboardId: BOARD,
            type: 'targeted',
            sortOrder: 'asc',
            format: { kind: 'milliseconds' },
        });
    });
    relay = await startRelay(s.replica.url);
    // The demo's gateway as npm start serves it: {canister_url} and the demo's board read are the directory's.
    gateway = await serveGateway({
        canister: s.canister,
        port: 0,
        host: '127.0.0.1',
        readCacheTtlSeconds: 0,
        signIn: s.signIn,
        canisterUrl: `${relay.url}/?canisterId=${s.canisterId.toText()}`,
        demo: {
            gameId: GAME,
            apiKey,
            boardId: BOARD,
            canisterUrl: `${relay.url}/?canisterId=${s.canisterId.toText()}`,
            network: 'local',
        },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    page = await context.newPage();
    page.on('console', (m) => {
        // Chromium logs every 4xx fetch (around-me is 404 before the first round): the page handles those.
        if (
            m.type() === 'error' &&
            !m.text().startsWith('Failed to load resource: the server responded with a status of 4')
        )
            problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    // The page's timers and clocks are the test's; its random delay is the shortest (1.5 s).
    await page.clock.install();
    await page.addInitScript(() => {
        Math.random = () => 0;
    });
});

afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await relay?.close();
    await s?.stop();
});

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `demo-${name}.png`), fullPage: true });
const badge = () => page.locator('#badge');
const texts = (list: string) => page.locator(`#${list} li`).allTextContents();

/** Lets the page's 15 s refresh run (the direct read is rendered again once the replica's clock passed 30 s). */
async function refreshBoard(): Promise<void> {
    await s.replica.advanceTime(30_000);
    await page.clock.runFor(15_000);
}

test('a round: wait for green, tap, the time is submitted and shown on a verified board', async () => {
    // As with npm start, the game lives on the shard: the page's read at the directory is redirected there.
    expect(s.shards).toContain((await s.canisterOf(GAME)).toText());
    // Other players are already there (one of them with HTML in their name, later).
    await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: {
            playerId: 'dev_1700000000_aaaaaaaa',
            score: 287,
            streak: 0,
            scoreboardId: BOARD,
            nickname: 'Quick_Ada',
        },
    });
    await page.goto(`${gateway.url}/demo`);
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 1000);
    await page.locator('#badge[data-verified=yes]').waitFor();
    expect(await badge().textContent()).toContain('verified');
    expect(await texts('top')).toEqual(['1.Quick_Ada0:00.287']);
    await shot('start');

    await page.locator('#pad').click();
    expect(await page.locator('#pad').getAttribute('data-state')).toBe('waiting');
    await page.clock.runFor(1500);
    expect(await page.locator('#pad').getAttribute('data-state')).toBe('go');
    await page.clock.runFor(312);
    await page.locator('#pad').click();
    expect(await page.locator('#pad').textContent()).toMatch(/^312 ms/);
    await page.locator('#status', { hasText: 'Saved: 0:00.312' }).waitFor();
    // Around me comes through the API at once; the player is marked.
    await page.locator('#around li.me', { hasText: '0:00.312' }).waitFor();

    await refreshBoard();
    await page.locator('#top li', { hasText: '0:00.312' }).waitFor();
    expect(await badge().getAttribute('data-verified')).toBe('yes');
    // Lowest first (needs the canister's 'asc' ranking, the boards work): 287 ms, then 312 ms.
    expect((await texts('top')).map((t) => t.replace(/^\d+\./, ''))).toEqual([
        'Quick_Ada0:00.287',
        expect.stringMatching(/0:00\.312$/),
    ]);
    await shot('play');
    expect(problems).toEqual([]);
});

test('one flipped byte between the page and the canister: the badge turns red "NOT verified"', async () => {
    relay.alter = (url, body) =>
        url.startsWith('/games/') ? Buffer.from(body.toString().replace('"score":287', '"score":187')) : body;
    await page.clock.runFor(15_000);
    await page.locator('#badge[data-verified=no]').waitFor();
    expect(await badge().textContent()).toContain('NOT verified');
    const color = await badge().evaluate((el) => getComputedStyle(el).color);
    expect(color).toBe('rgb(180, 35, 24)');
    await shot('not-verified');
});

test("a relay's HTML in a player's name stays text", async () => {
    relay.alter = (url, body) =>
        url.startsWith('/games/')
            ? Buffer.from(body.toString().replace('"nickname":"Quick_Ada"', '"nickname":"<img src=x id=pwned>"'))
            : body;
    await page.clock.runFor(15_000);
    await page.locator('#top li', { hasText: '<img src=x id=pwned>' }).waitFor();
    expect(await page.locator('#pwned').count()).toBe(0);
    expect(await badge().getAttribute('data-verified')).toBe('no');
    relay.alter = (_url, body) => body;
    await page.clock.runFor(15_000);
    await page.locator('#badge[data-verified=yes]').waitFor();
});

test('/client serves the bundle and nothing above it', async () => {
    const get = (rawPath: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
            const u = new URL(gateway.url);
            const req = http.get({ host: u.hostname, port: u.port, path: rawPath }, (res) => {
                let body = '';
                res.on('data', (c: Buffer) => (body += c.toString()));
                res.on('end', () => resolve({ status: res.statusCode!, body }));
            });
            req.on('error', reject);
        });
    expect((await get('/client/leaderboard-client.js')).status).toBe(200);
    for (const p of [
        '/client/../package.json',
        '/client/..%2f..%2fpackage.json',
        '/client/%2e%2e/%2e%2e/package.json',
    ]) {
        const res = await get(p);
        expect({ p, status: res.status }).toEqual({ p, status: 404 });
        expect(res.body).not.toContain('"devDependencies"');
    }
});

test('sign-in: the code and its QR, then signed in once the code is approved', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#signin-box:not([hidden])').waitFor();
    const code = (await page.locator('#signin-code').textContent())!;
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(await page.locator('#signin-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await shot('sign-in');
    await s.approveDeviceCode(code, 'demo-player');
    await page.clock.runFor(5_000);
    await page.locator('#who', { hasText: 'signed in as' }).waitFor();
    await page.locator('#signin-box').waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
});
