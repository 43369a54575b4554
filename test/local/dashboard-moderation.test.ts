// The Moderation tab in headless Chromium. Players' reports (sent over HTTP, JavaScript off as a
// plain browser would have it) listed by distinct reporters, an item's detail with the reporters'
// texts shown as text, dismissing one item and banning from another, each logged and off the queue
// (dashboard-reports*.png). Review of implausible scores: a board created with review 'flag' from
// the boards form, its implausible score in the "Held and flagged scores" section
// (dashboard-review*.png), removed from there; a board on review 'hold': its held score there
// (dashboard-hold*.png), off its board until approved from there. One stack for both.
import type { Locator, Page } from 'playwright-core';

import { REVIEW } from '../../contract/board-options';
import { clickAndLoad } from '../support/browser';
import { dashboardStack, registerGame, shotsOf, signUp, type Developer } from '../support/dashboard';

const GAME = 'review-ui';
const HOLD = 'hold-ui';
const REPORTS = 'report-dash';
const s = dashboardStack('dashboard-moderation');
/** The reports test's developer and game key. */
let moderator: Developer;
let reportsKey: string;
const text = async (page: Page): Promise<string> => (await page.textContent('main')) ?? '';
const url = (p: string, game = GAME): string => `${s.signIn.publicUrl}/dashboard/games/${game}${p}`;
const reportsUrl = (p: string): string => url(p, REPORTS);
const player = (n: number): string => `dev_1700000000_${n.toString(16).padStart(8, '0')}`;

/** The board 'level' created from the boards form (name Level 1, targeted) with review `mode`. */
async function createLevel(page: Page, mode: 'flag' | 'hold'): Promise<void> {
    await page.getByLabel('Board ID').fill('level');
    await page.getByLabel('Name', { exact: true }).fill('Level 1');
    await page.getByLabel('Type').selectOption('targeted');
    await page.getByLabel('Review of implausible scores').selectOption(mode);
}

/** A submit of the game's client to board 'level'. */
async function submitTo(apiKey: string, playerId: string, score: number): Promise<void> {
    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { playerId, score, streak: 0, scoreboardId: 'level' },
    });
    expect(res.body).toMatchObject({ ok: true });
}

/** The review section's one row (of player(100)'s 90000 on Level 1) and its text. */
async function onlyRow(page: Page): Promise<{ rows: Locator; row: string }> {
    const rows = page.locator('#review tbody tr');
    expect(await rows.count()).toBe(1);
    const row = (await rows.first().textContent())!;
    for (const part of ['Level 1', player(100), '90000']) expect(row).toContain(part);
    return { rows, row };
}

test('a flagged score waits in the Moderation tab and is removed from there', async () => {
    const ada = await signUp(s, 'mod@review.example');
    const { page } = ada;
    const apiKey = await registerGame(page, GAME, 'Review UI');
    await page.goto(url('/boards'));
    expect(await text(page)).toContain('Flag: a score beating the first by more than the factor');
    await createLevel(page, 'flag');
    await page.getByLabel('Review factor').fill('3');
    await clickAndLoad(page, 'Create board');

    const submit = (playerId: string, score: number) => submitTo(apiKey, playerId, score);
    for (let i = 0; i < REVIEW.minEntries; i++) await submit(player(i), 1000 + i);
    await submit(player(99), 2500); // under 3 x 1019: plausible
    await submit(player(100), 90_000);

    await page.goto(url('/moderation'));
    expect(await page.locator('#review').textContent()).toContain('Held and flagged scores');
    const { rows, row } = await onlyRow(page);
    expect(row).toContain('2500');
    await shotsOf(s, ada, 'review');

    await rows.first().getByRole('button', { name: 'Remove entry' }).click();
    await page.waitForURL(/done=review-settled/);
    expect(await page.locator('[role=status]').textContent()).toBe('Review done.');
    expect(await page.locator('#review').textContent()).toContain('Nothing waiting for review.');
    expect(await text(page)).toContain('review-remove');
    const board = await s.request('GET', `/games/${GAME}/scoreboards/level?limit=1`, {
        headers: { 'X-API-Key': apiKey },
    });
    expect(board.body.data.entries[0]).toMatchObject({ rank: 1, score: 2500 });
});

test('a held score waits in the Moderation tab, off its board, and is approved from there', async () => {
    const ada = await signUp(s, 'mod@hold.example');
    const { page } = ada;
    const apiKey = await registerGame(page, HOLD, 'Hold UI');
    await page.goto(url('/boards', HOLD));
    expect(await text(page)).toContain('Hold: it stays off the board');
    await createLevel(page, 'hold');
    await clickAndLoad(page, 'Create board');

    const submit = (playerId: string, score: number) => submitTo(apiKey, playerId, score);
    const first = async () =>
        (await s.request('GET', `/games/${HOLD}/scoreboards/level?limit=1`, { headers: { 'X-API-Key': apiKey } })).body
            .data.entries[0];
    for (let i = 0; i < REVIEW.minEntries; i++) await submit(player(i), 1000 + i);
    await submit(player(100), 90_000);
    expect(await first()).toMatchObject({ score: 1019 });

    await page.goto(url('/moderation', HOLD));
    const { rows, row } = await onlyRow(page);
    expect(row).toContain('held');
    expect(await rows.first().getByRole('button').allTextContents()).toEqual(['Approve', 'Reject', 'Reject and ban']);
    await shotsOf(s, ada, 'hold');

    await rows.first().getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/done=review-settled/);
    expect(await page.locator('#review').textContent()).toContain('Nothing waiting for review.');
    expect(await text(page)).toContain('review-approve');
    expect(await first()).toMatchObject({ rank: 1, score: 90_000 });
});

async function play(playerId: string, nickname: string, score: number): Promise<void> {
    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': reportsKey },
        body: { playerId, nickname, score, streak: 1 },
    });
    expect(res.body).toMatchObject({ ok: true });
}

async function report(by: string, nickname: string, reason: string, text?: string): Promise<void> {
    const res = await s.request('POST', `/games/${REPORTS}/scoreboards/all-time/reports`, {
        headers: { 'X-API-Key': reportsKey },
        body: { playerId: by, nickname, reason, text },
    });
    expect(res.body).toEqual({ ok: true, data: { message: 'Report received. Thank you.' } });
}

test('reports wait in the queue by distinct reporters; the developer dismisses one and bans from another', async () => {
    moderator = await signUp(s, 'mo@moderate.example');
    reportsKey = await registerGame(moderator.page, REPORTS, 'Report Dash');
    await play('cheater', 'Cheater', 9_999_999);
    await play('rude', 'Rude_Name', 50);
    await play('r1', 'Reporter1', 10);
    await play('r2', 'Reporter2', 20);
    await report('r1', 'Rude_Name', 'offensive_name');
    await report('r1', 'Cheater', 'cheating', '<b>teleports</b> & wins');
    await report('r2', 'Cheater', 'impossible_score');

    // A browser without JavaScript: the section's links and forms are plain HTML.
    const context = await s.browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(await moderator.context.cookies());
    const page = await context.newPage();
    await page.goto(reportsUrl('/moderation'));
    const rows = page.locator('#reports tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/Cheater on all-time.*2.*cheating × 1, impossible score × 1/s);
    expect(await rows.nth(1).textContent()).toMatch(/Rude_Name on all-time.*1.*offensive name × 1/s);

    await Promise.all([page.waitForNavigation(), rows.nth(0).getByRole('link', { name: 'Details' }).click()]);
    const detail = page.locator('#report-detail');
    const shown = (await detail.textContent()) ?? '';
    expect(shown).toContain('This entry now: rank 1 · score 9999999 · streak 1');
    expect(shown).toContain('<b>teleports</b> & wins'); // the reporter's words as text, not markup
    expect(await detail.locator('b').count()).toBe(0);
    expect(shown).toMatch(/Their entries.*all-time: rank 1/s);
    await shotsOf(s, { context, page }, 'reports');

    await clickAndLoadIn(page.locator('#reports tbody tr', { hasText: 'Rude_Name' }), page, 'Dismiss');
    expect(await text(page)).toContain('Done: the report is off the queue and in the moderation log.');
    expect(await page.locator('#reports tbody tr').count()).toBe(1);

    await page.goto(reportsUrl(`/moderation?report=${encodeURIComponent('all-time/cheater')}`));
    await clickAndLoadIn(page.locator('#report-detail'), page, 'Ban');
    expect(await text(page)).toContain('No open reports.');
    const log = await page.locator('table').last().textContent();
    expect(log).toMatch(/ban\s*cheater.*banned: reported \(2 reporters\)/s);
    expect(log).toMatch(/dismiss-report\s*rude/s);
    // Banned: the cheater's next submit is refused.
    const refused = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': reportsKey },
        body: { playerId: 'cheater', score: 1, streak: 1 },
    });
    expect(refused.status).toBe(403);
    // An item already handled is a clear message in its place, not a broken page.
    await page.goto(reportsUrl(`/moderation?report=${encodeURIComponent('all-time/cheater')}`));
    expect(await page.locator('#report-detail [role=alert]').textContent()).toBe(
        "No open reports of 'cheater' on all-time",
    );
    await context.close();
});

/** Clicks the button named `name` inside `scope` and waits for the page the form loads. */
async function clickAndLoadIn(scope: ReturnType<Page['locator']>, page: Page, name: string): Promise<void> {
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        scope.getByRole('button', { name }).first().click(),
    ]);
}
