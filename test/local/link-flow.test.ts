// Player sign-in end to end in headless Chromium, against the built-in OpenID provider started
// here: a game starts a device code, the player opens verification_url_complete, confirms the
// code, picks the provider, creates an account there and comes back to "you're signed in"; the
// game's poll gets the session once. Then the session routes, the merge of a real anonymous
// player (boards and an archived period), logout, expiry by the replica's clock, the link
// page's refusals (CSRF, replayed callback), and ID-token sign-in against the same provider's
// keys with forged tokens refused. Screenshots go to sign-in-*.png in the screenshot folder
// (docs/screenshots on `npm run screenshots`). On the stack npm start runs by default: a
// directory, and a shard that holds the game.
import * as path from 'node:path';

import { SignJWT, generateKeyPair } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import type { RunningIdentityProvider } from '../../local/idp/thread';
import { launchBrowser, screenshotDir, PHONE } from '../support/browser';
import { DEFAULT_STACK, startService } from '../support/gateway';
import {
    fillSignUp,
    openSignUp,
    relyingParty,
    startCallbackServer,
    startLocalSignIn,
    type CallbackServer,
    CLIENT_ID,
    PASSWORD,
} from '../support/idp';
import { tempDir } from '../support/replica';

const SHOTS = screenshotDir();
const GAME = 'link-game';
const CLIENT_SECRET = 'link-flow-test-client-secret-0123456789';
const APP_CLIENT = 'mobile-app';

let s: Awaited<ReturnType<typeof startService>>;
let idp: RunningIdentityProvider;
let appCallback: CallbackServer;
let browser: Browser;
let key: string;

beforeAll(async () => {
    s = await startService(DEFAULT_STACK);
    key = await s.game(GAME);
    // As with npm start, the directory placed the game on its shard.
    expect(s.shards).toContain((await s.canisterOf(GAME)).toText());
    appCallback = await startCallbackServer();
    idp = await startLocalSignIn(s.signIn, {
        dataDir: tempDir('link-idp'),
        clientSecret: CLIENT_SECRET,
        callbacks: ['/link/callback'],
        others: [
            // An app of the game's own, for the ID-token route (its tokens name it as audience).
            { clientId: APP_CLIENT, redirectUris: [appCallback.redirectUri] },
            // Another application of the same provider: its tokens are not for this service.
            { clientId: 'someone-elses-app', redirectUris: [appCallback.redirectUri] },
        ],
    });
    // The same provider stands in for Google on the ID-token route: verified against its JWKS.
    s.signIn.providers.push({
        name: 'google',
        label: 'Continue with Google',
        issuer: idp.issuer,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        audiences: [APP_CLIENT],
    });
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await appCallback?.close();
    await s?.stop();
});

const apiKeyHeaders = { 'X-API-Key': '' };
const withKey = () => ({ ...apiKeyHeaders, 'X-API-Key': key });
const player = (token: string) => ({ 'X-Session-Token': token, 'X-Game-ID': GAME });

async function startCode(nickname?: string) {
    const res = await s.request('POST', '/auth/device/code', {
        headers: { 'X-Game-ID': GAME },
        body: nickname === undefined ? {} : { nickname },
    });
    expect(res.status).toBe(200);
    return res.body.data as { device_code: string; user_code: string; verification_url_complete: string };
}

const poll = (deviceCode: string) =>
    s.request('POST', '/auth/device/token', { headers: { 'X-Game-ID': GAME }, body: { device_code: deviceCode } });

async function click(page: Page, name: string): Promise<void> {
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('button', { name, exact: true }).click(),
    ]);
}

async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `sign-in-${name}.png`), fullPage: true });
}

/** Opens the link page with the code, confirms, and signs up (or in) at the provider. */
async function linkInBrowser(
    context: BrowserContext,
    url: string,
    account: { email: string; create: boolean },
    shots = false,
): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url);
    if (shots) await shot(page, 'confirm');
    await click(page, 'Sign in with a local account');
    if (account.create) {
        await openSignUp(page);
        if (shots) await shot(page, 'provider-sign-up');
        await page.getByLabel('Email').fill(account.email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByLabel('Display name').fill('Ada');
        await click(page, 'Create account');
    } else {
        await page.getByLabel('Email').fill(account.email);
        await page.getByLabel('Password').fill(PASSWORD);
        await click(page, 'Sign in');
    }
    await page.waitForURL((u) => u.pathname === '/link/callback');
    return page;
}

let session: string;

test('the whole flow in Chromium: code, confirm, provider sign-up, done page; the game gets the session once', async () => {
    const code = await startCode('LinkedAda');
    const context = await browser.newContext({ viewport: PHONE });
    // The code entry page, as a player who types the code reaches it.
    const entry = await context.newPage();
    await entry.goto(`${s.signIn.publicUrl}/link`);
    expect(await entry.getByLabel('Code shown in your game').count()).toBe(1);
    await shot(entry, 'enter-code');
    await entry.getByLabel('Code shown in your game').fill('bcdf-ghjk'); // a wrong code: clear message
    await click(entry, 'Continue');
    expect(await entry.locator('[role=alert]').textContent()).toMatch(/code/i);
    await shot(entry, 'wrong-code');

    expect((await poll(code.device_code)).status).toBe(428);
    const page = await linkInBrowser(
        context,
        code.verification_url_complete,
        { email: 'ada@example.com', create: true },
        true,
    );
    expect(await page.locator('h1').textContent()).toBe("You're signed in");
    expect(await page.textContent('body')).toContain('ada@example.com');
    expect(await page.textContent('body')).toContain(`return to Game ${GAME} (${GAME}) now`); // names are not unique
    await shot(page, 'done');
    await context.close();

    const approved = await poll(code.device_code);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
        sessionId: expect.any(String),
        nickname: 'LinkedAda',
        email: 'ada@example.com',
        isNewUser: true,
        provider: 'local',
    });
    session = approved.body.data.sessionId;
    expect((await poll(code.device_code)).status).toBe(404);
});

test('session routes act as the signed-in player; a body playerId is ignored', async () => {
    const profile = await s.request('GET', '/auth/profile', { headers: player(session) });
    expect(profile.body.data).toMatchObject({ nickname: 'LinkedAda', email: 'ada@example.com', provider: 'local' });
    const renamed = await s.request('PUT', '/profile/nickname', {
        headers: player(session),
        body: { nickname: 'AdaTheFirst' },
    });
    expect(renamed.status).toBe(200);
    await s.replica.advanceTime(3_000);
    const scored = await s.request('POST', '/scores', {
        headers: player(session),
        body: { gameId: GAME, playerId: 'someone-else', score: 700, streak: 2 },
    });
    expect(scored.status).toBe(200);
    const rank = await s.request('GET', `/games/${GAME}/scoreboards/all-time/rank`, { headers: player(session) });
    expect(rank.body.data).toMatchObject({ found: true, rank: 1, score: 700, streak: 2 });
    const someone = await s.request('GET', `/player/someone-else/profile`, { headers: withKey() });
    expect(someone.status).toBe(404);
});

test('merge: a real anonymous player (boards and an archived day) joins the account once; its id is retired', async () => {
    // An anonymous player with a better score, on the daily board of yesterday and of today.
    const anon = 'dev_1700000000_abcdef01';
    const submit = (score: number) =>
        s.request('POST', '/scores', { headers: withKey(), body: { gameId: GAME, playerId: anon, score, streak: 9 } });
    expect((await submit(900)).status).toBe(200);
    await s.replica.advanceTime(86_400_000);
    expect((await submit(800)).status).toBe(200);
    // A fresh sign-in (the merge window follows the sign-in), by the same account.
    const code = await startCode();
    const context = await browser.newContext();
    await linkInBrowser(context, code.verification_url_complete, { email: 'ada@example.com', create: false });
    await context.close();
    const again = await poll(code.device_code);
    expect(again.body.data).toMatchObject({ isNewUser: false, nickname: 'AdaTheFirst' });
    const fresh = again.body.data.sessionId as string;

    const merged = await s.request('POST', '/migrate-account', { headers: player(fresh), body: { deviceId: anon } });
    expect(merged.status).toBe(200);
    const profile = await s.request('GET', '/auth/profile', { headers: player(fresh) });
    expect(profile.body.data.gameProfile).toMatchObject({ score: 900, streak: 9 });
    const archive = await s.request('GET', `/games/${GAME}/scoreboards/daily/archives/latest`, { headers: withKey() });
    expect(archive.body.data.entries.map((e: { nickname: string }) => e.nickname)).toEqual(['AdaTheFirst']);
    expect(
        (await s.request('POST', '/migrate-account', { headers: player(fresh), body: { deviceId: anon } })).status,
    ).toBe(400);
    await s.replica.advanceTime(3_000);
    const retired = await submit(1);
    expect(retired.status).toBe(400);
    expect(retired.body.error).toMatch(/merged|retired|account/i);
});

test('logout ends the session (401); sessions die after 30 days of replica time; codes expire after 300 s (410)', async () => {
    expect((await s.request('POST', '/auth/logout', { headers: player(session) })).status).toBe(200);
    expect((await s.request('GET', '/auth/profile', { headers: player(session) })).status).toBe(401);

    const code = await startCode();
    const context = await browser.newContext();
    await linkInBrowser(context, code.verification_url_complete, { email: 'ada@example.com', create: false });
    await context.close();
    const live = (await poll(code.device_code)).body.data.sessionId as string;
    await s.replica.advanceTime(30 * 86_400_000 + 1_000);
    expect((await s.request('GET', '/auth/profile', { headers: player(live) })).status).toBe(401);

    const late = await startCode();
    await s.replica.advanceTime(301_000);
    expect(await poll(late.device_code)).toMatchObject({ status: 410, body: { ok: false, error: 'expired_token' } });
});

test('the link page refuses forged forms and replayed callbacks with a clear page, and approves nothing', async () => {
    const code = await startCode();
    // A form posted from elsewhere: no CSRF cookie or token.
    const forged = await fetch(`${s.signIn.publicUrl}/link/start`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
        body: new URLSearchParams({ code: code.user_code, provider: 'local', csrf: 'x' }),
        redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('did not come from this page');
    // A callback without the flow cookie (replayed or forged).
    const replayed = await fetch(`${s.signIn.publicUrl}/link/callback?code=abc&state=xyz`, { redirect: 'manual' });
    expect(replayed.status).toBe(400);
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${s.signIn.publicUrl}/link/callback?code=abc&state=xyz`);
    expect(await page.locator('h1').textContent()).toBe('That did not work');
    await shot(page, 'error');
    await context.close();
    expect((await poll(code.device_code)).status).toBe(428);
});

test("ID-token sign-in: a real token from the provider signs in; forged, tampered, malformed and other apps' tokens are 401", async () => {
    // The game's app gets an ID token from the provider itself (here: the browser flow of its client).
    const app = await relyingParty(idp.issuer, { clientId: APP_CLIENT, redirectUri: appCallback.redirectUri });
    const request = await app.begin();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await fillSignUp(page, 'grace@example.com');
    await Promise.all([
        page.waitForURL((u) => u.href.startsWith(appCallback.redirectUri)),
        page.getByRole('button', { name: 'Create account', exact: true }).click(),
    ]);
    const tokens = await app.finish(page.url(), request);
    // Signed in at the provider already: another application gets its own token at once.
    const other = await relyingParty(idp.issuer, {
        clientId: 'someone-elses-app',
        redirectUri: appCallback.redirectUri,
    });
    const otherRequest = await other.begin();
    await page.goto(otherRequest.url.href);
    await page.waitForURL((u) => u.href.startsWith(appCallback.redirectUri));
    const foreign = await other.finish(page.url(), otherRequest);
    await context.close();

    const signIn = (idToken: string) =>
        s.request('POST', '/auth/google', { headers: { 'X-Game-ID': GAME }, body: { id_token: idToken } });
    const ok = await signIn(tokens.id_token!);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ sessionId: expect.any(String), email: 'grace@example.com', isNewUser: true });

    const { privateKey } = await generateKeyPair('RS256');
    const [, payload] = tokens.id_token!.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forge = (extra: Record<string, unknown>) =>
        new SignJWT({ ...claims, ...extra }).setProtectedHeader({ alg: 'RS256', kid: 'forged' }).sign(privateKey);
    expect((await signIn(await forge({}))).status).toBe(401); // not signed by the provider
    const tampered = tokens.id_token!.split('.');
    tampered[1] = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    expect((await signIn(tampered.join('.'))).status).toBe(401); // signature no longer matches
    expect(
        (
            await s.request('POST', '/auth/apple', {
                headers: { 'X-Game-ID': GAME },
                body: { id_token: tokens.id_token },
            })
        ).status,
    ).toBe(400); // not configured
    expect((await signIn('not.a.token')).status).toBe(401);
    expect((await signIn(foreign.id_token!)).status).toBe(401); // signed by the provider, for another audience
});
