// The local stack's built-in OpenID provider, end to end in headless Chromium: a person creates
// an account on its sign-up page and comes back to the client with a code; the client (the
// relying party, openid-client) exchanges it with PKCE; the ID token is verified with jose
// against the provider's published keys. Then: signing in again gives the same subject, wrong
// passwords and forged forms get nothing, failures are throttled, and no page loads anything
// from elsewhere. Screenshots of the pages go to <tmp>/idp-shots/.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import type { RunningIdentityProvider } from '../../local/idp/thread';
import { launchBrowser, PHONE } from '../support/browser';
import {
    fillSignUp,
    openSignUp,
    relyingParty,
    startCallbackServer,
    startTestIdentityProvider,
    type CallbackServer,
    type RelyingParty,
    CLIENT_ID,
    PASSWORD,
} from '../support/idp';
import { tempDir } from '../support/replica';

const SHOTS = path.join(os.tmpdir(), 'idp-shots');
const DESKTOP = { width: 1280, height: 800 };

const EMAIL = 'ada@example.com';
const NAME = 'Ada Lovelace';
const CLIENT_SECRET = 'a-test-client-secret-that-is-long-enough';

let callback: CallbackServer;
let idp: RunningIdentityProvider;
let web: RelyingParty;
let browser: Browser;
const logs: string[] = [];

beforeAll(async () => {
    callback = await startCallbackServer();
    idp = await startTestIdentityProvider(
        {
            dataDir: tempDir('idp'),
            port: 0,
            trustProxy: true,
            clients: [
                { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [callback.redirectUri] },
                { clientId: 'public-app', redirectUris: [callback.redirectUri] },
            ],
        },
        logs,
    );
    web = await relyingParty(idp.issuer, {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUri: callback.redirectUri,
    });
    browser = await launchBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await callback?.close();
});

/** A fresh visitor: own cookies; records every request the pages make. */
/** A new browser; `address` names its client address (the provider trusts X-Forwarded-For here). */
async function visitor(
    viewport = DESKTOP,
    address?: string,
): Promise<{ context: BrowserContext; page: Page; requests: URL[] }> {
    const context = await browser.newContext({
        viewport,
        extraHTTPHeaders: address === undefined ? {} : { 'X-Forwarded-For': address },
    });
    const page = await context.newPage();
    const requests: URL[] = [];
    page.on('request', (r) => requests.push(new URL(r.url())));
    return { context, page, requests };
}

/** Clicks a submit button and waits for the page it leads to. */
async function submit(page: Page, button: string): Promise<void> {
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('button', { name: button, exact: true }).click(),
    ]);
}

async function text(page: Page, selector: string): Promise<string> {
    return ((await page.locator(selector).first().textContent()) ?? '').trim();
}

function codesReceived(): number {
    return callback.hits.filter((u) => u.searchParams.has('code')).length;
}

async function expectEveryInputLabelled(page: Page): Promise<void> {
    const unlabelled = await page.$$eval('input:not([type=hidden])', (inputs) =>
        inputs
            .filter(
                (i) =>
                    (i as HTMLInputElement).labels === null ||
                    (i as HTMLInputElement).labels!.length === 0 ||
                    (i as HTMLInputElement).labels![0].textContent!.trim() === '',
            )
            .map((i) => i.id || i.getAttribute('name')),
    );
    expect(unlabelled).toEqual([]);
}

/** Only the provider and the client's redirect URI are ever contacted. */
function expectOnlyOwnOrigins(requests: URL[]): void {
    const allowed = new Set([new URL(idp.url).origin, new URL(callback.redirectUri).origin]);
    expect(requests.map((u) => u.origin).filter((o) => !allowed.has(o))).toEqual([]);
}

async function verifyIdToken(idToken: string, audience: string) {
    const jwksUri = web.config.serverMetadata().jwks_uri!;
    expect(jwksUri).toBe(`${idp.issuer}/jwks`);
    const { payload, protectedHeader } = await jwtVerify(idToken, createRemoteJWKSet(new URL(jwksUri)), {
        issuer: idp.issuer,
        audience,
        algorithms: ['RS256'],
    });
    const now = Math.floor(Date.now() / 1000);
    expect(payload.exp!).toBeGreaterThan(now);
    expect(payload.iat!).toBeLessThanOrEqual(now + 5);
    return { payload, protectedHeader };
}

let subject: string;

test('sign up on the sign-up page, come back with a code, exchange it with PKCE, verify the ID token against the JWKS', async () => {
    const { page, requests, context } = await visitor();
    const request = await web.begin();
    await page.goto(request.url.href);
    expect(await text(page, 'h1')).toBe('Sign in');
    await expectEveryInputLabelled(page);
    await page.screenshot({ path: path.join(SHOTS, 'sign-in-desktop.png'), fullPage: true });

    await openSignUp(page);
    expect(await text(page, 'h1')).toBe('Create an account');
    await expectEveryInputLabelled(page);
    await page.screenshot({ path: path.join(SHOTS, 'sign-up-desktop.png'), fullPage: true });

    // The server's own checks, shown next to each field (the form has novalidate).
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await submit(page, 'Create account');
    expect(await text(page, '#email-error')).toContain('valid email address');
    expect(await text(page, '#password-error')).toContain('at least 8 characters');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email').inputValue()).toBe('not-an-email');
    await page.screenshot({ path: path.join(SHOTS, 'sign-up-errors-desktop.png'), fullPage: true });

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Display name').fill(NAME);
    await submit(page, 'Create account');
    await page.waitForURL((u) => u.href.startsWith(callback.redirectUri));
    const back = new URL(page.url());
    expect(back.searchParams.get('state')).toBe(request.state);
    expect(back.searchParams.get('iss')).toBe(idp.issuer);
    expect(back.searchParams.get('code')).toBeTruthy();

    const tokens = await web.finish(page.url(), request);
    const { payload, protectedHeader } = await verifyIdToken(tokens.id_token!, CLIENT_ID);
    const jwks = (await (await fetch(`${idp.url}/jwks`)).json()) as { keys: Array<{ kid: string; d?: string }> };
    expect(jwks.keys.map((k) => k.kid)).toContain(protectedHeader.kid);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true); // only public keys are published
    expect(payload).toMatchObject({ email: EMAIL, email_verified: false, name: NAME, nonce: request.nonce });
    expect(payload.sub).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(payload.sub).not.toContain('ada');
    subject = payload.sub!;

    // The code is single-use.
    await expect(web.finish(page.url(), request)).rejects.toThrow();
    expectOnlyOwnOrigins(requests);
    await context.close();
});

test('a new browser signs in with the same account: same subject; an existing session signs in without a page; sign-out ends it', async () => {
    const { page, requests, context } = await visitor();
    const request = await web.begin();
    await page.goto(request.url.href);
    await page.getByLabel('Email').fill('ADA@example.com '); // emails match case-insensitively
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, 'Sign in');
    await page.waitForURL((u) => u.href.startsWith(callback.redirectUri));
    const tokens = await web.finish(page.url(), request);
    const { payload } = await verifyIdToken(tokens.id_token!, CLIENT_ID);
    expect(payload.sub).toBe(subject);
    expect(payload.email).toBe(EMAIL);

    // Signed in already: another first-party client (public, PKCE only) gets a code at once.
    const app = await relyingParty(idp.issuer, { clientId: 'public-app', redirectUri: callback.redirectUri });
    const appRequest = await app.begin();
    await page.goto(appRequest.url.href);
    await page.waitForURL((u) => u.href.startsWith(callback.redirectUri));
    const appTokens = await app.finish(page.url(), appRequest);
    expect((await verifyIdToken(appTokens.id_token!, 'public-app')).payload.sub).toBe(subject);

    // Sign out (RP-initiated logout), then the sign-in page is back.
    await page.goto(oidc_endSession(tokens.id_token!));
    expect(await text(page, 'h1')).toBe('Sign out?');
    await page.screenshot({ path: path.join(SHOTS, 'sign-out-desktop.png'), fullPage: true });
    await submit(page, 'Sign out');
    expect(await text(page, 'h1')).toBe('You are signed out');
    await page.goto((await web.begin()).url.href);
    expect(await text(page, 'h1')).toBe('Sign in');
    expectOnlyOwnOrigins(requests);
    await context.close();
});

function oidc_endSession(idToken: string): string {
    const url = new URL(web.config.serverMetadata().end_session_endpoint!);
    url.searchParams.set('id_token_hint', idToken);
    return url.href;
}

test('a wrong password or an unknown email: the same message next to the field, no code', async () => {
    const { page, context } = await visitor();
    const before = codesReceived();
    await page.goto((await web.begin()).url.href);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await submit(page, 'Sign in');
    expect(await text(page, '#password-error')).toBe('The email or password is incorrect.');
    expect(await page.getByLabel('Password').getAttribute('aria-describedby')).toBe('password-error');
    expect(await page.getByLabel('Email').inputValue()).toBe(EMAIL);
    expect(page.url().startsWith(idp.url)).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'sign-in-error-desktop.png'), fullPage: true });

    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not the password');
    await submit(page, 'Sign in');
    expect(await text(page, '#password-error')).toBe('The email or password is incorrect.');
    expect(codesReceived()).toBe(before);
    await context.close();
});

test('a forged form POST without the CSRF token is refused', async () => {
    const { page, context } = await visitor();
    const before = codesReceived();
    await page.goto((await web.begin()).url.href);
    const action = await page.locator('form[action$="/login"]').getAttribute('action');
    expect(action).toMatch(/^\/interaction\/[^/]+\/login$/);
    // Same browser, so the interaction cookie goes along: only the token is missing or wrong.
    const forged: Array<Record<string, string>> = [
        { email: EMAIL, password: PASSWORD },
        { email: EMAIL, password: PASSWORD, csrf: 'forged' },
    ];
    for (const form of forged) {
        const res = await context.request.post(`${idp.url}${action}`, { form, maxRedirects: 0 });
        expect(res.status()).toBe(403);
        expect(await res.text()).toContain('This form has expired');
    }
    // A signed-up account through a forged sign-up form does not come into being either.
    const signup = await context.request.post(`${idp.url}${action!.replace(/login$/, 'signup')}`, {
        form: { email: 'mallory@example.com', password: 'password123' },
        maxRedirects: 0,
    });
    expect(signup.status()).toBe(403);
    // And from another site: no cookies, no token.
    const crossSite = await fetch(`${idp.url}${action}`, {
        method: 'POST',
        body: new URLSearchParams({ email: EMAIL, password: PASSWORD }),
        redirect: 'manual',
    });
    expect(crossSite.status).toBe(400);
    expect(codesReceived()).toBe(before);

    // The real form still works.
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, 'Sign in');
    await page.waitForURL((u) => u.href.startsWith(callback.redirectUri));
    expect(codesReceived()).toBe(before + 1);
    await context.close();
});

test('wrong passwords pause the client that sent them, never the account: the right password from another client signs in', async () => {
    const { page, context } = await visitor();
    const email = 'throttled@example.com';
    await page.goto((await web.begin()).url.href);
    await fillSignUp(page, email);
    await submit(page, 'Create account');
    await page.waitForURL((u) => u.href.startsWith(callback.redirectUri));
    await context.close();

    // Someone else guesses: 6 wrong passwords; past 5 for the account, the 6th pauses its client.
    const guesser = await visitor(DESKTOP, '203.0.113.66');
    await guesser.page.goto((await web.begin()).url.href);
    for (let i = 0; i < 6; i++) {
        await guesser.page.getByLabel('Email').fill(email);
        await guesser.page.getByLabel('Password').fill(`wrong password ${i}`);
        await submit(guesser.page, 'Sign in');
        expect(await text(guesser.page, '#password-error')).toBe('The email or password is incorrect.');
    }
    const before = codesReceived();
    await guesser.page.getByLabel('Email').fill(email);
    await guesser.page.getByLabel('Password').fill(PASSWORD);
    await submit(guesser.page, 'Sign in');
    expect(await text(guesser.page, '#password-error')).toMatch(/^Too many failed attempts.*this device is paused/);
    expect(codesReceived()).toBe(before);
    await guesser.context.close();

    // The owner, from their own device, signs in with the right password at once.
    const owner = await visitor(DESKTOP, '2001:db8:5:6::7');
    await owner.page.goto((await web.begin()).url.href);
    await owner.page.getByLabel('Email').fill(email);
    await owner.page.getByLabel('Password').fill(PASSWORD);
    await submit(owner.page, 'Sign in');
    await owner.page.waitForURL((u) => u.href.startsWith(callback.redirectUri), { timeout: 10_000 });
    expect(codesReceived()).toBe(before + 1);
    await owner.context.close();
});

test('the authorization request must use PKCE S256 and the code flow', async () => {
    const { url } = await web.begin();
    const withoutPkce = new URL(url);
    withoutPkce.searchParams.delete('code_challenge');
    withoutPkce.searchParams.delete('code_challenge_method');
    const plain = new URL(url);
    plain.searchParams.set('code_challenge_method', 'plain');
    const implicit = new URL(url);
    implicit.searchParams.set('response_type', 'id_token');
    for (const bad of [withoutPkce, plain, implicit]) {
        const res = await fetch(bad, { redirect: 'manual' });
        expect(res.status).toBe(303);
        const location = new URL(res.headers.get('location')!, idp.url);
        expect(location.searchParams.get('code')).toBeNull();
        expect(location.searchParams.get('error') ?? new URLSearchParams(location.hash.slice(1)).get('error')).toMatch(
            /invalid_request|unsupported_response_type|unauthorized_client/,
        );
    }
});

test('the pages fit a phone and look right on a desktop', async () => {
    for (const [name, viewport] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
    ] as const) {
        const { page, requests, context } = await visitor(viewport);
        await page.goto((await web.begin()).url.href);
        expect(await text(page, 'h1')).toBe('Sign in');
        const overflow = async () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(await overflow()).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `sign-in-${name}.png`), fullPage: true });
        await page.getByLabel('Email').fill(EMAIL);
        await page.getByLabel('Password').fill('not the password');
        await submit(page, 'Sign in');
        expect(await page.locator('#password-error').isVisible()).toBe(true);
        expect(await overflow()).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `sign-in-error-${name}.png`), fullPage: true });
        await openSignUp(page);
        expect(await overflow()).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `sign-up-${name}.png`), fullPage: true });
        await page.getByLabel('Email').fill(EMAIL);
        await page.getByLabel('Password').fill('short');
        await submit(page, 'Create account');
        expect(await text(page, '#email-error')).toContain('already exists');
        expect(await page.locator('#password-error').isVisible()).toBe(true);
        expect(await overflow()).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `sign-up-errors-${name}.png`), fullPage: true });
        // Every page carries a CSP that allows nothing from elsewhere.
        const res = await context.request.get(page.url());
        expect(res.headers()['content-security-policy']).toContain("default-src 'none'");
        expectOnlyOwnOrigins(requests);
        await context.close();
    }
    expect(logs.filter((l) => /error/i.test(l) && !/error page/.test(l))).toEqual([]);
});
