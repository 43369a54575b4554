// Device-code sign-in with a directory and two shards, through a real gateway and the built-in
// OpenID provider in headless Chromium: the gateway sends typed user codes to the directory
// only, which finds a shard's code with device_code_find and forwards the approval there; the
// game's poll on its shard gets the session. A wrong code is counted once (on the directory),
// so the per-client limit trips after as many wrong codes as on one canister, parallel guesses
// included; long codes tripped on the directory reach the shards; device_code_find and
// set_long_codes_until answer only the shard's own directory; pending codes move with their
// game. Logs the metered instructions; the approved page on a phone goes to
// sign-in-shard-approved-phone.png in the screenshot folder.
import * as path from 'node:path';

import { IDL } from '@dfinity/candid';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Principal } from '@dfinity/principal';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { loadIdentity } from '../../gateway/ic/identity';
import { moveGame } from '../../gateway/ops/move-game';
import type { RunningIdentityProvider } from '../../local/idp/thread';
import { OPERATOR } from '../../replica/replica';
import { launchBrowser, PHONE, screenshotDir } from '../support/browser';
import { startService } from '../support/gateway';
import { openSignUp, PASSWORD, startLocalSignIn } from '../support/idp';
import { tempDir } from '../support/replica';

let s: Awaited<ReturnType<typeof startService>>;
let idp: RunningIdentityProvider;
let browser: Browser;
let directory: string;
/** A game on each shard, in the shards' order. */
const games: string[] = [];

beforeAll(async () => {
    s = await startService({ shards: 2, trustProxy: true });
    directory = s.canisterId.toText();
    for (let i = 0; games.filter(Boolean).length < 2 && i < 8; i++) {
        const gameId = `codes-${i}`;
        await s.game(gameId);
        const at = s.shards.indexOf((await s.canisterOf(gameId)).toText());
        if (at >= 0 && games[at] === undefined) games[at] = gameId;
    }
    idp = await startLocalSignIn(s.signIn, {
        dataDir: tempDir('codes-idp'),
        clientSecret: 'codes-test-client-secret-0123456789abcdef',
        callbacks: ['/link/callback'],
    });
    browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await s?.stop();
});

const start = (gameId: string, address = '198.51.100.1') =>
    s.request('POST', '/auth/device/code', {
        headers: { 'X-Game-ID': gameId, 'X-Forwarded-For': address },
        body: {},
    });
const poll = (gameId: string, deviceCode: string) =>
    s.request('POST', '/auth/device/token', { headers: { 'X-Game-ID': gameId }, body: { device_code: deviceCode } });
const linkPage = (code: string, address: string) =>
    s.request('GET', `/link?code=${encodeURIComponent(code)}`, { headers: { 'X-Forwarded-For': address } });

/** Executions since `from` (an index of replica.executions()), as "canister method" counts. */
function ranSince(from: number): Record<string, number> {
    const out: Record<string, number> = {};
    const name = (id: string) => (id === directory ? 'directory' : `shard${s.shards.indexOf(id) + 1}`);
    for (const e of s.replica.executions().slice(from)) {
        const key = `${name(e.canister)} ${e.method.replace(/^canister_(update|query) /, '')}`;
        out[key] = (out[key] ?? 0) + 1;
    }
    return out;
}

/** Instructions each canister ran since `from` (a call's own messages and callbacks when calls are serial). */
function instructionsSince(from: number): Record<string, number> {
    const out: Record<string, number> = {};
    const name = (id: string) => (id === directory ? 'directory' : `shard${s.shards.indexOf(id) + 1}`);
    for (const e of s.replica.executions().slice(from))
        out[name(e.canister)] = (out[name(e.canister)] ?? 0) + Number(e.instructions);
    return out;
}

/** A JSON method of `canister` as `caller` (any principal), straight through the replica. */
async function as(caller: Principal, canister: string, method: string, request: unknown): Promise<any> {
    const arg = new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(request)]));
    const reply = await s.replica.update(Principal.fromText(canister), method, arg, caller);
    if (!('reply' in reply)) throw new Error(`${method} rejected: ${JSON.stringify(reply)}`);
    return JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string);
}

async function click(page: Page, name: string): Promise<void> {
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('button', { name, exact: true }).click(),
    ]);
}

/** Opens the link page with the code, confirms, and creates an account at the provider. */
async function linkInBrowser(context: BrowserContext, url: string, email: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url);
    await click(page, 'Sign in with a local account');
    await openSignUp(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Display name').fill('Sharded Ada');
    await click(page, 'Create account');
    await page.waitForURL((u) => u.pathname === '/link/callback');
    return page;
}

test("a code of shard 2's game: found and approved through the directory on the link page, the game's poll gets the session", async () => {
    expect(games.filter(Boolean)).toHaveLength(2);
    const game = games[1];
    const code = (await start(game)).body.data;
    expect(code.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect((await poll(game, code.device_code)).status).toBe(428);
    const from = s.replica.executions().length;
    const context = await browser.newContext({ viewport: PHONE });
    const page = await linkInBrowser(context, code.verification_url_complete, 'sharded-ada@example.com');
    expect(await page.locator('h1').textContent()).toBe("You're signed in");
    expect(await page.textContent('body')).toContain(`return to Game ${game} (${game}) now`);
    await page.screenshot({ path: path.join(screenshotDir(), 'sign-in-shard-approved-phone.png'), fullPage: true });
    await context.close();
    const ran = ranSince(from);
    // The directory got the lookup (link page) and the approval (callback); shard 2 was asked
    // and approved; no shard was sent a lookup, and shard 1 approved nothing.
    expect(ran['directory device_code_lookup']).toBeGreaterThan(0);
    expect(ran['directory device_code_approve']).toBe(1);
    expect(ran['shard2 device_code_find']).toBe(ran['directory device_code_lookup'] + 1);
    expect(ran['shard2 device_code_approve']).toBe(1);
    for (const other of ['shard1 device_code_lookup', 'shard2 device_code_lookup', 'shard1 device_code_approve'])
        expect(ran[other]).toBeUndefined();

    const approved = await poll(game, code.device_code);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ email: 'sharded-ada@example.com', isNewUser: true, provider: 'local' });
    const profile = await s.request('GET', '/auth/profile', {
        headers: { 'X-Session-Token': approved.body.data.sessionId, 'X-Game-ID': game },
    });
    expect(profile.status).toBe(200);
    expect((await poll(game, code.device_code)).status).toBe(404);
});

test('a wrong code counts once: the per-client limit trips after 10, as on one canister, parallel guesses included', async () => {
    const from = s.replica.executions().length;
    for (let i = 0; i < 10; i++) expect((await linkPage('BCDF-GHJK', '203.0.113.50')).status).toBe(404);
    expect((await linkPage('BCDF-GHJK', '203.0.113.50')).status).toBe(429);
    // Refused even with a valid code of a shard's game; another client gets it.
    const valid = (await start(games[0], '203.0.113.51')).body.data.user_code as string;
    expect((await linkPage(valid, '203.0.113.50')).status).toBe(429);
    expect((await linkPage(valid, '203.0.113.51')).status).toBe(200);
    // 20 guesses at once: 10 counted wrong, the rest refused (nothing slips past while the shards answer).
    const burst = await Promise.all(Array.from({ length: 20 }, () => linkPage('CDFG-HJKL', '203.0.113.60')));
    expect(burst.map((r) => r.status).sort()).toEqual([...new Array(10).fill(404), ...new Array(10).fill(429)]);
    // The shards were asked (device_code_find), never sent a lookup: they counted nothing.
    const ran = ranSince(from);
    expect(ran['shard1 device_code_lookup']).toBeUndefined();
    expect(ran['shard2 device_code_lookup']).toBeUndefined();
    expect(ran['shard1 device_code_find']).toBe(ran['shard2 device_code_find']);
});

test("device_code_find and set_long_codes_until answer only the shard's own directory: 403 for anyone else", async () => {
    const code = (await start(games[1], '198.51.100.9')).body.data.user_code as string;
    const refused = { err: { status: 403, message: "This method is only for this shard's directory" } };
    const callers = {
        stranger: Ed25519KeyIdentity.generate().getPrincipal(),
        gateway: loadIdentity(s.gatewayIdentityFile).getPrincipal(),
        operator: loadIdentity(s.operatorIdentityFile).getPrincipal(),
        'replica operator': OPERATOR,
    };
    for (const [who, caller] of Object.entries(callers))
        for (const target of [s.shards[1], directory]) {
            const find = await as(caller, target, 'device_code_find', { userCode: code });
            const long = await as(caller, target, 'set_long_codes_until', { until: Number.MAX_SAFE_INTEGER });
            expect({ who, target, find, long }).toEqual({ who, target, find: refused, long: refused });
        }
    // Nothing changed: shard 2's next code is still short, and the code is still found.
    expect((await start(games[1], '198.51.100.10')).body.data.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect((await linkPage(code, '198.51.100.9')).status).toBe(200);
});

test('metered instructions of lookup and approve through the directory (logged)', async () => {
    const game = games[1];
    const code = (await start(game, '198.51.100.20')).body.data.user_code as string;
    const identity = { issuer: 'https://idp.test', subject: 'metered', email: 'm@example.com', provider: 'local' };
    let from = s.replica.executions().length;
    expect(await s.canister.call('device_code_lookup', { userCode: code, client: 'metered' })).toMatchObject({
        ok: { gameId: game },
    });
    const lookup = instructionsSince(from);
    from = s.replica.executions().length;
    expect(await s.canister.call('device_code_lookup', { userCode: 'DFGH-JKLM', client: 'metered' })).toMatchObject({
        err: { status: 404 },
    });
    const miss = instructionsSince(from);
    from = s.replica.executions().length;
    expect(await s.canister.call('device_code_approve', { userCode: code, client: 'metered', identity })).toEqual({
        ok: { gameId: game, gameName: `Game ${game}` },
    });
    const approve = instructionsSince(from);
    console.log(
        `2 shards, instructions per canister: lookup ${JSON.stringify(lookup)}, wrong code ${JSON.stringify(miss)}, approve ${JSON.stringify(approve)}`,
    );
});

test("long codes tripped on the directory make every shard's new codes long; a long code is found through the directory", async () => {
    expect((await start(games[0], '198.51.100.30')).body.data.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const guesses: Array<Promise<number>> = [];
    for (let c = 0; c < 60; c++)
        for (let i = 0; i < 10; i++) guesses.push(linkPage('BCDF-GHJK', `10.1.${c}.1`).then((r) => r.status));
    expect(new Set(await Promise.all(guesses))).toEqual(new Set([404]));
    for (const [i, game] of games.entries()) {
        const long = (await start(game, `198.51.100.${40 + i}`)).body.data.user_code as string;
        expect({ game, long }).toEqual({ game, long: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/) });
        const page = await linkPage(long.toLowerCase(), `198.51.100.${40 + i}`);
        expect(page.status).toBe(200);
        expect(page.text).toContain(long);
    }
}, 600_000);

test('pending and approved codes move with their game: the poll and the link page find them on the new shard', async () => {
    const game = games[0];
    const [from, to] = s.shards;
    expect((await s.canisterOf(game)).toText()).toBe(from);
    const approved = (await start(game, '198.51.100.60')).body.data;
    const pending = (await start(game, '198.51.100.61')).body.data;
    /** The link page's approval of `userCode` once `subject` signed in (as the client 'mover'). */
    const approve = (userCode: string, subject: string) =>
        s.canister.call('device_code_approve', {
            userCode,
            client: 'mover',
            identity: { issuer: 'https://idp.test', subject, email: `${subject}@example.com`, provider: 'local' },
        });
    expect(await approve(approved.user_code, 'mover-a')).toMatchObject({ ok: { gameId: game } });
    // The gateway knows the game on `from` (the polls went there).
    expect((await poll(game, pending.device_code)).status).toBe(428);
    await moveGame(game, s.at(from), s.at(to), () => undefined, s.at(directory));
    expect((await s.canisterOf(game)).toText()).toBe(to);
    // The poll of the approved code: `moved` on the old shard, redeemed on the new one.
    const session = await poll(game, approved.device_code);
    expect(session.status).toBe(200);
    expect(session.body.data.email).toBe('mover-a@example.com');
    // The pending code: the link page finds it through the directory, it is approved and redeemed there.
    const page = await linkPage(pending.user_code, '198.51.100.61');
    expect(page.status).toBe(200);
    expect(page.text).toContain(pending.user_code);
    expect(await approve(pending.user_code, 'mover-b')).toMatchObject({ ok: { gameId: game } });
    expect((await poll(game, pending.device_code)).body.data.email).toBe('mover-b@example.com');
}, 600_000);
