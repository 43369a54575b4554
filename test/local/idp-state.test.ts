// The built-in OpenID provider's state in <dataDir>/idp/: a restart on the same directory keeps
// the signing key (same kid), the accounts and the browser sessions; the password is nowhere in
// clear text; one provider per directory; expired adapter entries go; throttling and hashing
// by their own rules.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Browser, Page } from 'playwright-core';

import { hashPassword, LoginThrottle, verifyPassword, AccountStore } from '../../local/idp/accounts';
import { FileAdapterStore } from '../../local/idp/adapter';
import type { RunningIdentityProvider } from '../../local/idp/thread';
import { launchBrowser } from '../support/browser';
import {
    fillSignUp,
    relyingParty,
    startCallbackServer,
    startTestIdentityProvider,
    type CallbackServer,
} from '../support/idp';
import { tempDir } from '../support/replica';

const EMAIL = 'grace@example.com';
const PASSWORD = 'Üñïcødé pässwörd 4 restart';
const CLIENT = { clientId: 'leaderboard-gateway', clientSecret: 'restart-test-secret-0123456789' };

let callback: CallbackServer;
let browser: Browser;

beforeAll(async () => {
    callback = await startCallbackServer();
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    await callback?.close();
});

function start(dataDir: string, port = 0): Promise<RunningIdentityProvider> {
    return startTestIdentityProvider({ dataDir, port, clients: [{ ...CLIENT, redirectUris: [callback.redirectUri] }] });
}

async function submit(page: Page, button: string): Promise<void> {
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('button', { name: button, exact: true }).click(),
    ]);
}

async function kids(idp: RunningIdentityProvider): Promise<string[]> {
    const jwks = (await (await fetch(`${idp.url}/jwks`)).json()) as { keys: Array<{ kid: string }> };
    return jwks.keys.map((k) => k.kid);
}

function filesUnder(dir: string): string[] {
    return fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .map((f) => path.join(dir, f))
        .filter((f) => fs.statSync(f).isFile());
}

test('restart on the same data directory: same JWKS kid, the account signs in with the same subject, the session survives', async () => {
    const dataDir = tempDir('idp-restart');
    let idp = await start(dataDir);
    const port = Number(new URL(idp.url).port);
    const issuer = idp.issuer;
    const kidBefore = await kids(idp);
    expect(kidBefore).toHaveLength(1);

    // Sign up in one browser context (it keeps its session cookie across the restart).
    let rp = await relyingParty(idp.issuer, { ...CLIENT, redirectUri: callback.redirectUri });
    const signedIn = await browser.newContext();
    const page = await signedIn.newPage();
    let request = await rp.begin();
    await page.goto(request.url.href);
    await fillSignUp(page, EMAIL, PASSWORD);
    await submit(page, 'Create account');
    await page.waitForURL((u) => u.href.startsWith(callback.redirectUri));
    const before = await rp.finish(page.url(), request);
    const sub = before.claims()!.sub;

    await idp.close();
    for (const file of ['jwks.json', 'secrets.json', 'accounts.json', 'adapter.json'])
        expect(fs.existsSync(path.join(dataDir, 'idp', file))).toBe(true);

    idp = await start(dataDir, port);
    try {
        expect(idp.issuer).toBe(issuer);
        expect(await kids(idp)).toEqual(kidBefore);
        const jwks = createRemoteJWKSet(new URL(`${idp.url}/jwks`));
        // A token signed before the restart still verifies against the keys published after it.
        expect((await jwtVerify(before.id_token!, jwks, { issuer, audience: CLIENT.clientId })).payload.sub).toBe(sub);

        // The browser that signed in before the restart is still signed in: a code, no page.
        rp = await relyingParty(idp.issuer, { ...CLIENT, redirectUri: callback.redirectUri });
        request = await rp.begin();
        await page.goto(request.url.href);
        await page.waitForURL((u) => u.href.startsWith(callback.redirectUri));
        expect((await rp.finish(page.url(), request)).claims()!.sub).toBe(sub);
        await signedIn.close();

        // A new browser signs in with the account created before the restart.
        const fresh = await browser.newContext();
        const freshPage = await fresh.newPage();
        request = await rp.begin();
        await freshPage.goto(request.url.href);
        await freshPage.getByLabel('Email').fill(EMAIL);
        await freshPage.getByLabel('Password').fill(PASSWORD);
        await submit(freshPage, 'Sign in');
        await freshPage.waitForURL((u) => u.href.startsWith(callback.redirectUri));
        const after = await rp.finish(freshPage.url(), request);
        const { payload, protectedHeader } = await jwtVerify(after.id_token!, jwks, {
            issuer,
            audience: CLIENT.clientId,
        });
        expect(payload.sub).toBe(sub);
        expect(protectedHeader.kid).toBe(kidBefore[0]);
        await fresh.close();

        // One provider per data directory.
        await expect(start(dataDir)).rejects.toThrow(/in use by another identity provider/);
    } finally {
        await idp.close();
    }

    // The password is nowhere under the data directory in clear text (nor in common encodings).
    const encodings = [PASSWORD, PASSWORD.normalize('NFKC'), PASSWORD.normalize('NFD')].flatMap((p) => [
        Buffer.from(p, 'utf8'),
        Buffer.from(p, 'utf16le'),
        Buffer.from(Buffer.from(p).toString('base64')),
        Buffer.from(Buffer.from(p).toString('base64url')),
        Buffer.from(Buffer.from(p).toString('hex')),
        Buffer.from(encodeURIComponent(p)),
        Buffer.from(JSON.stringify(p).slice(1, -1)),
    ]);
    const files = filesUnder(dataDir);
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
        const content = fs.readFileSync(file);
        for (const encoded of encodings)
            expect({ file, found: content.includes(encoded) }).toEqual({ file, found: false });
    }
    const accounts = JSON.parse(fs.readFileSync(path.join(dataDir, 'idp', 'accounts.json'), 'utf8')).accounts;
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ id: sub, email: EMAIL });
    expect(accounts[0].password).toMatch(/^scrypt\$16\$8\$2\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    // Secrets are readable by their owner only; no temporary file is left behind.
    for (const file of ['jwks.json', 'secrets.json', 'accounts.json', 'adapter.json'])
        expect(fs.statSync(path.join(dataDir, 'idp', file)).mode & 0o077).toBe(0);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
});

test('passwords: scrypt with a per-hash salt, checked in constant time; an unknown email costs a hash too', async () => {
    const a = await hashPassword('password one');
    const b = await hashPassword('password one');
    expect(a).not.toBe(b); // different salts
    expect(await verifyPassword('password one', a)).toBe(true);
    expect(await verifyPassword('password two', a)).toBe(false);
    // The same password typed as precomposed or decomposed characters.
    expect(await verifyPassword('caf\u0065\u0301 au lait', await hashPassword('caf\u00e9 au lait'))).toBe(true);

    const store = new AccountStore(tempDir('idp-accounts'));
    const created = await store.create({ email: 'Someone@Example.com', password: 'long enough', name: '' });
    expect(created).not.toBe('taken');
    expect(await store.create({ email: 'someone@example.com', password: 'another one', name: '' })).toBe('taken');
    expect(await store.authenticate('SOMEONE@example.com', 'long enough')).toMatchObject({
        email: 'Someone@Example.com',
    });
    expect(await store.authenticate('someone@example.com', 'wrong password')).toBeUndefined();
    expect(await store.authenticate('nobody@example.com', 'long enough')).toBeUndefined();
    await store.flush();
});

test('throttling: wrong passwords pause the client that sent them; the right one from another client always passes', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle({
        clientLimit: 10,
        freeFailures: 5,
        firstDelayMs: 30_000,
        windowMs: 15 * 60_000,
        now: () => now,
    });
    // Many clients guess one account's password, a few times each.
    for (let c = 0; c < 50; c++) {
        const client = `10.0.0.${c}`;
        for (let i = 0; i < 3 && throttle.retryAfterMs(client) === 0; i++)
            throttle.recordFailure(client, 'A@example.com');
    }
    // Past 5 failures of the account, each wrong password paused its client, for ever longer.
    expect(throttle.retryAfterMs('10.0.0.0')).toBe(0); // its 3 were among the first 5
    expect(throttle.retryAfterMs('10.0.0.1')).toBe(30_000); // the 6th failure
    expect(throttle.retryAfterMs('10.0.0.2')).toBe(60_000);
    expect(throttle.retryAfterMs('10.0.0.49')).toBe(15 * 60_000);
    // The account is not locked: a client that is not paused may try (the right password signs in).
    expect(throttle.retryAfterMs('198.51.100.7')).toBe(0);
    // A wrong password for it now pauses that client too (delays are on wrong attempts).
    throttle.recordFailure('198.51.100.8', 'a@example.com');
    expect(throttle.retryAfterMs('198.51.100.8')).toBe(15 * 60_000);

    // Per client: 10 failures within 15 minutes, whatever the emails, pause it until the oldest leaves.
    now += 15 * 60_000;
    for (let i = 0; i < 9; i++) throttle.recordFailure('203.0.113.1', `user${i}@example.com`);
    expect(throttle.retryAfterMs('203.0.113.1')).toBe(0);
    now += 60_000;
    throttle.recordFailure('203.0.113.1', 'user9@example.com');
    expect(throttle.retryAfterMs('203.0.113.1')).toBe(14 * 60_000);
    expect(throttle.retryAfterMs('203.0.113.2')).toBe(0);
    now += 14 * 60_000;
    expect(throttle.retryAfterMs('203.0.113.1')).toBe(0);
});

test('the adapter file: entries written through atomically, expired ones never returned and dropped', async () => {
    const dir = tempDir('idp-adapter');
    let now = Date.now();
    const store = new FileAdapterStore(dir, () => now);
    const codes = store.factory('AuthorizationCode');
    const sessions = store.factory('Session');
    await codes.upsert('code-1', { grantId: 'g1', kind: 'AuthorizationCode' }, 60);
    await codes.upsert('code-2', { grantId: 'g2', kind: 'AuthorizationCode' }, 600);
    await sessions.upsert('s-1', { uid: 'uid-1', kind: 'Session' }, 3600);
    expect(await codes.find('code-1')).toMatchObject({ grantId: 'g1' });
    expect(await sessions.findByUid('uid-1')).toMatchObject({ uid: 'uid-1' });
    await codes.consume('code-1');
    expect((await codes.find('code-1'))!.consumed).toEqual(expect.any(Number));

    // What another process would read from the file right now.
    expect(await new FileAdapterStore(dir, () => now).factory('AuthorizationCode').find('code-1')).toMatchObject({
        grantId: 'g1',
        consumed: expect.any(Number),
    });

    now += 61_000;
    expect(await codes.find('code-1')).toBeUndefined();
    expect(await codes.find('code-2')).toMatchObject({ grantId: 'g2' });
    await codes.revokeByGrantId('g2');
    expect(await codes.find('code-2')).toBeUndefined();
    await sessions.destroy('s-1');
    expect(await sessions.findByUid('uid-1')).toBeUndefined();
    await store.flush();
    const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'adapter.json'), 'utf8'));
    expect(Object.keys(onDisk.entries)).toEqual([]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
});
