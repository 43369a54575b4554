// The Security tab's server key in headless Chromium: create it (shown once, with a copy button
// and the warning), submit with it over HTTP, reload (gone for good, only its date), rotate (the
// old key refused at once), turn on server-only submits (the public key refused), revoke.
// Screenshots (desktop and phone) go to dashboard-server-key*.png in the screenshot folder.
// On the stack npm start runs by default: a directory, and a shard that holds the games.
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import { MESSAGES } from '../../contract/messages';
import { clickAndLoad, screenshotDir } from '../support/browser';
import { dashboardStack, registerGame, shotsOf, signUp, type Developer } from '../support/dashboard';

const SHOTS = screenshotDir();
const GAME = 'skey-dash';

const s = dashboardStack('server-key-test', { callbacks: ['/link/callback', '/dashboard/callback'] });
let sam: Developer;
let page: Page;
let apiKey: string;

beforeAll(async () => {
    sam = await signUp(s, 'sam@studio.example', { clipboard: true });
    page = sam.page;
    apiKey = await registerGame(page, GAME, 'Server Key Game');
});

const security = () => page.goto(`${s.signIn.publicUrl}/dashboard/games/${GAME}/security`);
const card = async () => (await page.locator('#server-key-card').textContent()) ?? '';
const submit = (
    headers: Record<string, string>,
    score: number,
    playerId = `dev_1700000000_${score.toString(16).padStart(8, '0')}`,
) => s.request('POST', '/scores', { headers, body: { playerId, score, streak: 1 } });
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function shots(name: string): Promise<void> {
    // The phone shows the same tab as it reads after the action (a new key is never shown twice).
    const url = page.url().endsWith('/server-key')
        ? `${s.signIn.publicUrl}/dashboard/games/${GAME}/security`
        : undefined;
    await shotsOf(s, sam, name, url);
}

let first: string;

test('create a server key: shown once with a copy button and the warning; it submits over HTTP', async () => {
    await security();
    expect(await card()).toContain('This game has no server key.');
    await clickAndLoad(page, 'Create server key');
    await page.getByRole('button', { name: 'Copy' }).click();
    first = await page.evaluate(() => navigator.clipboard.readText());
    expect(first).toMatch(new RegExp(`^skey_${GAME}_[A-Za-z0-9_-]{43}$`));
    expect(await card()).toContain('shown only this once');
    expect(await card()).toContain('Never ship it in a game client');
    expect(await card()).toMatch(/A server key exists, made \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-server-key-new.png'), fullPage: true });
    expect((await submit(bearer(first), 100)).status).toBe(200);
    // Reloaded, the key is gone for good: only its date stays.
    await security();
    expect(await page.locator('#server-key').count()).toBe(0);
    expect(await page.content()).not.toContain(first);
    expect(await card()).toContain('A server key exists');
    await shots('server-key');
});

test('rotate: a new key, the old one refused at once', async () => {
    await security();
    await page.getByLabel('I understand the current server key stops working at once').check();
    await clickAndLoad(page, 'Rotate server key');
    const second = await page.locator('#server-key').inputValue();
    expect(second).not.toBe(first);
    expect(await submit(bearer(first), 101)).toMatchObject({ status: 401, body: { error: MESSAGES.invalidServerKey } });
    expect((await submit(bearer(second), 102)).status).toBe(200);
});

test('server-only submits: the public key refused, then revoke the server key', async () => {
    await security();
    await page.getByLabel(/from the server key only/).check();
    await clickAndLoad(page, 'Save server settings');
    expect(await page.locator('[role=status]').textContent()).toBe('Server settings saved.');
    expect(await page.getByLabel(/from the server key only/).isChecked()).toBe(true);
    expect(await submit({ 'X-API-Key': apiKey }, 103)).toMatchObject({
        status: 403,
        body: { error: MESSAGES.serverOnly },
    });
    await shots('server-only');
    await clickAndLoad(page, 'Revoke server key');
    expect(await page.locator('[role=status]').textContent()).toBe('The server key was revoked: it no longer works.');
    expect(await card()).toContain('This game has no server key.');
});
