// The developer dashboard end to end in headless Chromium, against the built-in OpenID
// provider started here: sign up, register a game, copy its key and submit with it over HTTP,
// create a targeted board and submit to it, set a cap and see the rejected submit in the
// suspicion log, remove an entry, wipe a player, ban and see the submit refused, see the
// analytics charts drawn, download a backup; a second developer reaches none of it (pages and JSON API); forged
// forms change nothing; a session past 7 days of replica time signs out. Screenshots of each
// tab go to dashboard-*.png in the screenshot folder (docs/screenshots on `npm run screenshots`).
// On the stack npm start runs by default: a directory, and a shard that holds the games.
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import { clickAndLoad, screenshotDir, PHONE } from '../support/browser';
import { dashboardStack, openDashboard, shotsOf, signUpThere, type Developer } from '../support/dashboard';

const SHOTS = screenshotDir();
const GAME = 'dash-game';

const s = dashboardStack('dashboard-test', { callbacks: ['/link/callback', '/dashboard/callback'] });
let ada: Developer;

const click = clickAndLoad;

async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `dashboard-${name}.png`), fullPage: true });
}

/** A developer signs up at the provider through the dashboard's sign-in. */
async function signUp(email: string): Promise<Developer> {
    const developer = await openDashboard(s, { clipboard: true });
    expect(await developer.page.locator('h1').textContent()).toBe('Sign in');
    await signUpThere(s, developer.page, email);
    return developer;
}

const text = async (page: Page): Promise<string> => (await page.textContent('main')) ?? '';

async function submit(apiKey: string, body: Record<string, unknown>) {
    return s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey, 'X-Game-ID': GAME },
        body: { gameId: GAME, streak: 0, ...body },
    });
}

let apiKey: string;

test('sign up, register a game, copy its key and submit a score with it', async () => {
    ada = await signUp('ada@studio.example');
    const { page } = ada;
    expect(await text(page)).toContain('0 of 3 game slots used');
    await shot(page, 'games-empty');
    // A bad ID first: the message stands next to the form, what was typed stays.
    await page.getByLabel('Game ID').fill('Bad Id');
    await page.getByLabel('Name', { exact: true }).fill('Dash Game');
    await click(page, 'Register game');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/gameId/);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Dash Game');
    await page.getByLabel('Game ID').fill(GAME);
    await click(page, 'Register game');
    expect(page.url()).toContain(`/dashboard/games/${GAME}/key`);
    await page.getByRole('button', { name: 'Copy' }).click();
    apiKey = await page.evaluate(() => navigator.clipboard.readText());
    expect(apiKey).toMatch(new RegExp(`^key_${GAME}_\\d+$`));
    // As with npm start, the directory placed the new game on its shard.
    expect(s.shards).toContain((await s.canisterOf(GAME)).toText());
    expect(await page.locator('#snippet-curl').textContent()).toContain(apiKey);
    await shot(page, 'key');
    expect((await submit(apiKey, { playerId: 'dev_1700000000_aaaaaaaa', score: 120 })).status).toBe(200);
    await page.goto(`${s.signIn.publicUrl}/dashboard`);
    expect(await text(page)).toContain('1 of 3 game slots used');
    await shotsOf(s, ada, 'games');
});

test('create a targeted board and submit to it; browse its entries', async () => {
    const { page } = ada;
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/boards`);
    await page.getByLabel('Board ID').fill('daily'); // a standard board's id: refused, no change
    await click(page, 'Create board');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/standard board/);
    await page.getByLabel('Board ID').fill('level-1');
    await page.getByLabel('Name', { exact: true }).fill('Level 1');
    await page.getByLabel('Type').selectOption('targeted');
    await page.getByLabel('Rank by').selectOption('streak');
    await click(page, 'Create board');
    expect(await page.locator('[role=status]').textContent()).toBe('Board created.');
    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey, 'X-Game-ID': GAME },
        body: { gameId: GAME, playerId: 'dev_1700000000_bbbbbbbb', score: 10, streak: 7, scoreboardId: 'level-1' },
    });
    expect(res.status).toBe(200);
    await page.reload();
    await shot(page, 'boards');
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Level 1' }).click()]);
    expect(await text(page)).toContain('dev_1700000000_bbbbbbbb');
    await shot(page, 'board');
});

test('set a cap; the rejected submit shows in the suspicion log, filterable by player', async () => {
    const { page } = ada;
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/security`);
    await page.getByLabel('Max score', { exact: true }).fill('-5');
    await click(page, 'Save caps');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/maxScore|non-negative/);
    expect(await text(page)).toContain('lowest-first boards: the best time a human can reach');
    await page.getByLabel('Max score', { exact: true }).fill('1000');
    await page.getByLabel('Min score', { exact: true }).fill('2000');
    await click(page, 'Save caps');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/Invalid minScore: must not be above maxScore/);
    await page.getByLabel('Min score', { exact: true }).fill('');
    await page.getByLabel('Max score', { exact: true }).fill('1000');
    await click(page, 'Save caps');
    expect(await page.getByLabel('Max score', { exact: true }).inputValue()).toBe('1000');
    expect(await page.getByLabel('Min score', { exact: true }).inputValue()).toBe('');
    await s.replica.advanceTime(3_000);
    const refused = await submit(apiKey, { playerId: 'dev_1700000000_cccccccc', score: 5000 });
    expect(refused.body.error).toBe('Score rejected by game validation rules');
    await page.reload();
    expect(await text(page)).toContain('dev_1700000000_cccccccc');
    await page.getByLabel('Filter by player ID').fill('dev_1700000000_aaaaaaaa');
    await click(page, 'Filter');
    expect(await text(page)).not.toContain('dev_1700000000_cccccccc');
    await page.getByLabel('Filter by player ID').fill('');
    await click(page, 'Filter');
    await shot(page, 'security');
});

test('remove an entry, wipe a player, ban a player and see the submit refused; the log shows it all', async () => {
    const { page } = ada;
    await s.replica.advanceTime(3_000);
    expect((await submit(apiKey, { playerId: 'dev_1700000000_dddddddd', score: 900 })).status).toBe(200);
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/boards/all-time`);
    expect(await text(page)).toContain('dev_1700000000_dddddddd');
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page
            .getByRole('button', { name: /^Remove .*'s entry$/ })
            .first()
            .click(),
    ]);
    expect(await page.locator('[role=status]').textContent()).toBe('Entry removed.');
    expect(await text(page)).not.toContain('dev_1700000000_dddddddd');

    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/moderation`);
    await page.locator('#f-wipe-player').fill('dev_1700000000_aaaaaaaa');
    await click(page, 'Wipe player');
    expect(await page.locator('[role=status]').textContent()).toBe('Player wiped.');
    const board = await s.request('GET', `/games/${GAME}/scoreboards/all-time`, {
        headers: { 'X-API-Key': apiKey },
    });
    expect(board.body.data.entries).toEqual([]);

    await page.locator('#f-ban-player').fill('dev_1700000000_eeeeeeee');
    await page.locator('#f-ban-reason').fill('impossible scores');
    await click(page, 'Ban player');
    expect((await submit(apiKey, { playerId: 'dev_1700000000_eeeeeeee', score: 1 })).body).toEqual({
        ok: false,
        error: 'This player is banned from this game.',
    });
    expect(await text(page)).toContain('impossible scores');
    await shot(page, 'moderation');

    // The same through the JSON API, as a developer's own tool would (session + X-CSRF-Token).
    const session = (await ada.context.cookies()).find((c) => c.name === 'lb_dev')!.value;
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    const api = (method: string, path: string, headers: Record<string, string> = {}) =>
        fetch(`${s.signIn.publicUrl}/dashboard/api${path}`, {
            method,
            headers: { Cookie: `lb_dev=${session}`, ...headers },
        });
    expect((await api('DELETE', `/games/${GAME}/bans/dev_1700000000_eeeeeeee`)).status).toBe(403); // no CSRF token
    const lifted = await api('DELETE', `/games/${GAME}/bans/dev_1700000000_eeeeeeee`, { 'X-CSRF-Token': csrf });
    expect(await lifted.json()).toEqual({ ok: true, data: { message: "'dev_1700000000_eeeeeeee' may submit again." } });
    const log = await (await api('GET', `/games/${GAME}/moderation-log`)).json();
    expect(log.data[0]).toMatchObject({ action: 'unban', playerId: 'dev_1700000000_eeeeeeee' });
});

test('analytics: the charts are drawn from the day counters, with the numbers in a table', async () => {
    const { page } = ada;
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/analytics`);
    await page.waitForSelector('body[data-charts=drawn]');
    const drawn = await page.$$eval('canvas', (canvases) =>
        canvases.map((c) => (c as HTMLCanvasElement).width > 0 && (c as HTMLCanvasElement).height > 0),
    );
    expect(drawn).toEqual([true, true, true, true]);
    expect(await text(page)).toMatch(/By day/);
    await shot(page, 'analytics');
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/settings`);
    await shot(page, 'settings');
});

test('settings: download a backup of the game, on a computer and on a phone', async () => {
    const { page } = ada;
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/settings`);
    const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download a backup of this game' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${GAME}_backup_\\d{4}-\\d\\d-\\d\\d\\.jsonl$`));
    const file = fs
        .readFileSync((await download.path())!, 'utf8')
        .trimEnd()
        .split('\n');
    expect(JSON.parse(file[0])).toMatchObject({ format: 'leaderboard-game-backup', version: 1, gameId: GAME });
    expect(JSON.parse(file[file.length - 1])).toMatchObject({ end: true, items: file.length - 2 });
    expect(file.join('\n')).not.toContain(apiKey);
    expect(file.join('\n')).not.toContain('ada@studio.example');
    const phone = await s.browser.newContext({ viewport: PHONE });
    await phone.addCookies(await ada.context.cookies());
    const small = await phone.newPage();
    await small.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/settings`);
    const link = small.getByRole('link', { name: 'Download a backup of this game' });
    await link.scrollIntoViewIfNeeded();
    const box = (await link.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await small.screenshot({ path: path.join(SHOTS, 'dashboard-settings-backup-phone.png'), fullPage: true });
    await phone.close();
});

test('settings: deactivate and activate, request more slots, delete a game only with its id typed', async () => {
    const { page } = ada;
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/settings`);
    await click(page, 'Deactivate game');
    expect((await submit(apiKey, { playerId: 'dev_1700000000_abababab', score: 1 })).status).toBe(403);
    await click(page, 'Activate game');
    expect((await submit(apiKey, { playerId: 'dev_1700000000_abababab', score: 1 })).status).toBe(200);

    await page.goto(`${s.signIn.publicUrl}/dashboard`);
    await page.getByLabel('Game ID').fill('dash-two');
    await page.getByLabel('Name', { exact: true }).fill('Second');
    await click(page, 'Register game');
    await page.goto(`${s.signIn.publicUrl}/dashboard/games/dash-two/settings`);
    await page.getByLabel('Type dash-two to confirm').fill('dash-tw');
    await click(page, 'Delete game');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/confirm/);
    await page.getByLabel('Type dash-two to confirm').fill('dash-two');
    await click(page, 'Delete game');
    expect(await page.locator('[role=status]').textContent()).toBe('The game and all of its data were deleted.');
    expect(await text(page)).toContain('1 of 3 game slots used');

    await page.getByLabel('How many more games').fill('2');
    await page.getByLabel('What for (optional)').fill('A jam weekend');
    await click(page, 'Request more slots');
    expect(await text(page)).toContain('You asked for 2 more');
    const requests = await s.canister.ok('admin_list_requests', {});
    expect(requests.map((r) => r.email)).toEqual(['ada@studio.example']);
});

test("a second developer cannot reach the first one's game: pages, forms and the JSON API", async () => {
    const eve = await signUp('eve@elsewhere.example');
    for (const tab of ['settings', 'key', 'security', 'moderation', 'analytics']) {
        const res = await eve.page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/${tab}`);
        expect(res!.status()).toBe(404);
        expect(await text(eve.page)).not.toContain(apiKey);
    }
    const cookies = await eve.context.cookies();
    const session = cookies.find((c) => c.name === 'lb_dev')!.value;
    const api = await fetch(`${s.signIn.publicUrl}/dashboard/api/games/${GAME}/moderation-log`, {
        headers: { Cookie: `lb_dev=${session}` },
    });
    expect(api.status).toBe(404);
    // Eve's own valid CSRF token on a form aimed at Ada's game changes nothing.
    await eve.page.goto(`${s.signIn.publicUrl}/dashboard`);
    const csrf = await eve.page.locator('input[name=csrf]').first().inputValue();
    const rotate = await fetch(`${s.signIn.publicUrl}/dashboard/games/${GAME}/rotate`, {
        method: 'POST',
        headers: { Cookie: `lb_dev=${session}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, confirm: 'yes' }),
        redirect: 'manual',
    });
    expect(rotate.status).toBe(404);
    expect((await submit(apiKey, { playerId: 'dev_1700000000_ffffffff', score: 3 })).status).toBe(200);
    await eve.context.close();
});

test('forged forms change nothing; a session past 7 days is signed out', async () => {
    const cookies = await ada.context.cookies();
    const session = cookies.find((c) => c.name === 'lb_dev')!.value;
    for (const csrf of [undefined, 'forged-token']) {
        const res = await fetch(`${s.signIn.publicUrl}/dashboard/games/${GAME}/rotate`, {
            method: 'POST',
            headers: { Cookie: `lb_dev=${session}`, 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(csrf === undefined ? { confirm: 'yes' } : { csrf, confirm: 'yes' }),
            redirect: 'manual',
        });
        expect(res.status).toBe(403);
    }
    expect((await s.request('GET', '/game', { headers: { 'X-API-Key': apiKey } })).status).toBe(200); // key unchanged
    await s.replica.advanceTime(7 * 86_400_000 + 1_000);
    await ada.page.goto(`${s.signIn.publicUrl}/dashboard`);
    expect(await ada.page.locator('[role=alert]').textContent()).toBe('Your session has ended: sign in again.');
    await ada.context.close();
});
