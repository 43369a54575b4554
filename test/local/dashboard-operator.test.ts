// A developer's dashboard on the stack npm start runs (a directory and a shard) after an
// operator changes their game with the admin CLI: the game's pages, the games list and the JSON
// API show the change and answer 200 without the developer writing anything first; a period's
// rollover reaches the list too; a shard that does not answer is said so on its game's pages
// only; a change the directory missed while stopped reaches it once it runs again. Screenshots
// (desktop and phone) of a board an operator made and of a game whose canister did not answer
// go to dashboard-operator-*.png in the screenshot folder.
import { createHash } from 'node:crypto';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';
import type { Browser } from 'playwright-core';

import { RETRY_FIRST_SECONDS } from '../../canister/service/view-push';
import { ensureIdentity } from '../../gateway/ic/identity';
import { OPERATOR } from '../../replica/replica';
import { DESKTOP, PHONE, launchBrowser, screenshotDir } from '../support/browser';
import { admin, dashboardHeaders, startService } from '../support/gateway';
import { callAs, setRunning as setRunningOn } from '../support/replica';

const GAME = 'op-game';
const OTHER = 'op-other';
const SHOTS = screenshotDir();
const hash = (token: string): string => createHash('sha256').update(token).digest('hex');

let s: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let ada: { token: string; headers: Record<string, string> };
let shard: string;
const saved = { ...process.env };

async function devSignIn(subject: string): Promise<{ token: string; headers: Record<string, string> }> {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject, email: `${subject}@test`, provider: 'test' },
    });
    return { token: sessionToken, headers: dashboardHeaders(s.signIn.secret, sessionToken) };
}

/** A dashboard page as Ada (HTML). */
const page = (p: string) => s.request('GET', p, { headers: { Cookie: ada.headers.Cookie } });
/** The dashboard's JSON API as Ada. */
const api = (p: string) => s.request('GET', `/dashboard/api${p}`, { headers: ada.headers });
const gameOf = async (gameId: string): Promise<any> =>
    (await api('/me')).body.data.games.find((g: { gameId: string }) => g.gameId === gameId);

/**
 * The games list as Ada's tools read it, once `check` holds: the shard tells the directory on a
 * timer of its own, a few replica rounds after the operator's call answered.
 */
async function meOnce(check: (game: any) => boolean, gameId = GAME): Promise<any> {
    for (let round = 0; round < 100; round++) {
        const game = await gameOf(gameId);
        if (check(game)) return game;
        await s.replica.tick();
    }
    throw new Error(`the games list never showed the change: ${JSON.stringify(await gameOf(gameId))}`);
}

/** game_views_changed on the directory as `caller`, straight through the replica. */
const pushAs = (caller: Principal, request: unknown): Promise<any> =>
    callAs(s.replica, caller, s.canisterId, 'game_views_changed', request);
const setRunning = (canister: string, running: boolean, controller: Principal): Promise<void> =>
    setRunningOn(s.replica, canister, running, controller);

/** Full-page screenshots of a dashboard page as Ada, on the desktop and on a phone. */
async function shots(p: string, name: string): Promise<void> {
    for (const [viewport, suffix] of [
        [DESKTOP, ''],
        [PHONE, '-phone'],
    ] as const) {
        const context = await browser.newContext({ viewport });
        await context.addCookies([{ name: 'lb_dev', value: ada.token, url: s.signIn.publicUrl }]);
        const tab = await context.newPage();
        await tab.goto(`${s.signIn.publicUrl}${p}`);
        await tab.screenshot({ path: path.join(SHOTS, `dashboard-operator-${name}${suffix}.png`), fullPage: true });
        await context.close();
    }
}

beforeAll(async () => {
    s = await startService({ shards: 1 });
    Object.assign(process.env, {
        IC_HOST: s.replica.url,
        CANISTER_ID: s.canisterId.toText(),
        GATEWAY_IDENTITY_PEM: s.gatewayIdentityFile,
        OPERATOR_IDENTITY_PEM: s.operatorIdentityFile,
    });
    ada = await devSignIn('ada');
    for (const [gameId, name] of [
        [GAME, 'Operator Game'],
        [OTHER, 'Other Game'],
    ])
        await s.canister.ok('dev_register_game', { sessionHash: hash(ada.token), gameId, name });
    shard = (await s.canisterOf(GAME)).toText();
    browser = await launchBrowser();
});
afterAll(async () => {
    process.env = saved;
    await browser?.close();
    await s?.stop();
});

test('the games live on the shard, not on the directory', () => {
    expect(s.shards).toEqual([shard]);
});

test('a board an operator creates shows on its page, the boards tab, the list and the JSON API', async () => {
    await admin('create-board', GAME, 'lap-1', '--type', 'targeted', '--order', 'asc', '--format', 'milliseconds');
    const board = await page(`/dashboard/games/${GAME}/boards/lap-1`);
    expect(board.status).toBe(200);
    expect(board.text).toContain('<title>lap-1 · Operator Game');
    expect(board.text).toContain('lower first');
    const boards = await page(`/dashboard/games/${GAME}/boards`);
    expect(boards.status).toBe(200);
    expect(boards.text).toMatch(/lap-1<\/td>[\s\S]*?lower first[\s\S]*?1:23\.456/);
    const listed = await meOnce((g) => g.boards.some((b: { scoreboardId: string }) => b.scoreboardId === 'lap-1'));
    expect(listed.boards.find((b: { scoreboardId: string }) => b.scoreboardId === 'lap-1')).toMatchObject({
        sortOrder: 'asc',
        format: { kind: 'milliseconds' },
    });
    expect((await page('/dashboard')).text).toMatch(/op-game<\/td>[\s\S]*?<td>4<\/td>/);
    expect((await api(`/games/${GAME}/boards/lap-1/entries`)).status).toBe(200);
    await shots(`/dashboard/games/${GAME}/boards/lap-1`, 'board');
});

test("an operator's deactivation, new key, caps and time validation show at once on the game's pages", async () => {
    const before = await gameOf(GAME);
    expect(await admin('deactivate-game', GAME)).toMatchObject({ isActive: false });
    const { apiKey } = await admin('rotate-key', GAME);
    await admin('set-caps', GAME, '--max-score', '5000');
    await admin('set-time-validation', GAME, 'on', '--min-seconds', '7');
    const settings = await page(`/dashboard/games/${GAME}/settings`);
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('<span class="badge off">inactive</span>');
    expect(settings.text).toContain('Activate game');
    const key = await page(`/dashboard/games/${GAME}/key`);
    expect(key.text).toContain(apiKey);
    expect(key.text).not.toContain(before.apiKey);
    const security = await page(`/dashboard/games/${GAME}/security`);
    expect(security.text).toMatch(/name="maxScore"[^>]*value="5000"/);
    expect(security.text).toMatch(/name="minPlaySeconds"[^>]*value="7"/);
    const listed = await meOnce((g) => g.timeValidation.minPlaySeconds === 7);
    expect(listed).toMatchObject({ isActive: false, apiKey, caps: { maxScore: 5000 } });
    expect((await page('/dashboard')).text).toMatch(/op-game<\/td>\s*<td><span class="badge off">inactive/);
    await admin('activate-game', GAME);
});

test('a board an operator deletes is a 404 on its page, gone from the tab and the list', async () => {
    await admin('create-board', GAME, 'gone', '--type', 'targeted');
    expect((await page(`/dashboard/games/${GAME}/boards/gone`)).status).toBe(200);
    await s.canister.ok('admin_delete_board', { gameId: GAME, scoreboardId: 'gone' });
    const board = await page(`/dashboard/games/${GAME}/boards/gone`);
    expect(board.status).toBe(404);
    expect(board.text).toContain('Scoreboard &#39;gone&#39; not found for this game.');
    expect((await page(`/dashboard/games/${GAME}/boards`)).text).not.toContain('/boards/gone"');
    await meOnce((g) => !g.boards.some((b: { scoreboardId: string }) => b.scoreboardId === 'gone'));
});

test("a period's rollover on the shard reaches the games list", async () => {
    const daily = (g: any): number =>
        g.boards.find((b: { scoreboardId: string }) => b.scoreboardId === 'daily').periodStart;
    const before = daily(await gameOf(GAME));
    await s.replica.advanceTime(86_400_000);
    const list = await s.canister.ok('list_boards', { gameId: GAME });
    const lastReset = list.scoreboards.find((b) => b.scoreboardId === 'daily')!.lastReset;
    expect(lastReset).toBeGreaterThan(before);
    await meOnce((g) => daily(g) === lastReset);
});

test("a shard that does not answer: its games' pages say so, the list and the rest answer", async () => {
    await setRunning(shard, false, s.canisterId);
    try {
        const list = await page('/dashboard');
        expect(list.status).toBe(200);
        expect(list.text).toContain('Operator Game');
        const settings = await page(`/dashboard/games/${GAME}/settings`);
        expect(settings.status).toBe(503);
        expect(settings.text).toContain("This game's canister did not answer just now");
        expect(settings.text).toContain('<nav class="tabs"'); // the game's frame: its other tabs are a click away
        await shots(`/dashboard/games/${GAME}/boards`, 'unanswered');
    } finally {
        await setRunning(shard, true, s.canisterId);
    }
    expect((await page(`/dashboard/games/${GAME}/settings`)).status).toBe(200);
});

test('a change the directory missed while it was stopped reaches it when it runs again', async () => {
    await setRunning(s.canisterId.toText(), false, OPERATOR);
    try {
        await s.at(shard).ok('admin_update_game', { gameId: GAME, name: 'Renamed Game' });
        for (let round = 0; round < 5; round++) await s.replica.tick(); // the shard's call is refused
    } finally {
        await setRunning(s.canisterId.toText(), true, OPERATOR);
    }
    expect((await gameOf(GAME)).name).toBe('Operator Game');
    // The shard sends again RETRY_FIRST_SECONDS later (the replica's clock moves only when told).
    await s.replica.advanceTime((RETRY_FIRST_SECONDS + 1) * 1000);
    await meOnce((g) => g.name === 'Renamed Game');
    expect((await page('/dashboard')).text).toContain('Renamed Game');
});

test("only the directory's shards tell it of views, and a view dated ahead pins nothing", async () => {
    const view = await gameOf(GAME);
    const refused = { err: { status: 403, message: "This method is only for this directory's shards" } };
    for (const caller of [
        Principal.anonymous(),
        ensureIdentity(s.gatewayIdentityFile).getPrincipal(),
        ensureIdentity(s.operatorIdentityFile).getPrincipal(),
        OPERATOR, // a controller
    ])
        expect(await pushAs(caller, { at: 0, views: [{ ...view, name: 'Forged' }] })).toEqual(refused);
    const fromShard = Principal.fromText(shard);
    // A game the directory does not place on that shard (unknown here) is not kept.
    expect(await pushAs(fromShard, { at: 0, views: [{ ...view, gameId: 'nowhere' }] })).toEqual({ ok: { kept: 0 } });
    expect(await pushAs(fromShard, { at: 'soon', views: [] })).toMatchObject({ err: { status: 400 } });
    // A date far ahead is taken as now: the operator's next change still shows.
    expect(await pushAs(fromShard, { at: 9e15, views: [{ ...view, name: 'Ahead' }] })).toEqual({ ok: { kept: 1 } });
    await admin('create-board', GAME, 'after', '--type', 'targeted');
    await meOnce((g) => g.name === 'Renamed Game' && g.boards.some((b: any) => b.scoreboardId === 'after'));
});

test("another developer's session reads none of Ada's games, whatever the path", async () => {
    const bob = await devSignIn('bob');
    const bobPage = await s.request('GET', `/dashboard/games/${GAME}/settings`, {
        headers: { Cookie: bob.headers.Cookie },
    });
    expect(bobPage.status).toBe(404);
    expect(await s.canister.call('dev_game', { sessionHash: hash(bob.token), gameId: GAME })).toEqual({
        err: { status: 404, message: 'Game not found among your games' },
    });
    // Nor can a caller name a developer for the shard: only its directory may.
    expect(await s.at(shard).call('dev_game', { actingDeveloper: 'x', gameId: GAME } as never)).toMatchObject({
        err: { status: 403 },
    });
});

test("what it costs: an operator's change sends one view; a game's page reads it where it lives", async () => {
    const on = (canister: string, since: number) =>
        s.replica
            .executions()
            .slice(since)
            .filter((e) => e.canister === canister && !e.method.includes('global_timer'))
            .map((e) => [e.method, Number(e.instructions)] as const);
    let from = s.replica.executions().length;
    await admin('set-caps', GAME, '--max-streak', '99');
    await meOnce((g) => g.caps.maxStreak === 99);
    const operator = [...on(shard, from), ...on(s.canisterId.toText(), from)];
    from = s.replica.executions().length;
    expect((await page(`/dashboard/games/${GAME}/settings`)).status).toBe(200);
    const reading = [...on(shard, from), ...on(s.canisterId.toText(), from)];
    console.log(`operator's change, then the push: ${JSON.stringify(operator)}\ngame page: ${JSON.stringify(reading)}`);
    // Each message well inside the 40 B instructions of an update: a few million, as any small call.
    for (const [, instructions] of [...operator, ...reading]) expect(instructions).toBeLessThan(20_000_000);
    expect(operator.map(([method]) => method)).toEqual(
        expect.arrayContaining(['canister_update admin_set_caps', 'canister_update game_views_changed']),
    );
    expect(reading.map(([method]) => method)).toEqual(
        expect.arrayContaining(['canister_update dev_forward', 'canister_query dev_game']),
    );
});
