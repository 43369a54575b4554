// The Moderation tab's Reports section in headless Chromium, with JavaScript off as a plain
// browser would have it: players' reports (sent over HTTP) listed by distinct reporters, an
// item's detail with the reporters' texts shown as text, dismissing one item and banning from
// another, each logged and off the queue. Screenshots (desktop and phone) of the detail go to
// dashboard-reports*.png in the screenshot folder. On the stack npm start runs by default.
import type { Page } from 'playwright-core';

import { dashboardStack, registerGame, shotsOf, signUp, type Developer } from '../support/dashboard';

const GAME = 'report-dash';
const s = dashboardStack('dashboard-reports');
let ada: Developer;
let apiKey: string;

const text = async (page: Page): Promise<string> => (await page.textContent('main')) ?? '';
const url = (p: string): string => `${s.signIn.publicUrl}/dashboard/games/${GAME}${p}`;

async function play(playerId: string, nickname: string, score: number): Promise<void> {
    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { playerId, nickname, score, streak: 1 },
    });
    expect(res.body).toMatchObject({ ok: true });
}

async function report(by: string, nickname: string, reason: string, text?: string): Promise<void> {
    const res = await s.request('POST', `/games/${GAME}/scoreboards/all-time/reports`, {
        headers: { 'X-API-Key': apiKey },
        body: { playerId: by, nickname, reason, text },
    });
    expect(res.body).toEqual({ ok: true, data: { message: 'Report received. Thank you.' } });
}

test('reports wait in the queue by distinct reporters; the developer dismisses one and bans from another', async () => {
    ada = await signUp(s, 'mo@moderate.example');
    apiKey = await registerGame(ada.page, GAME, 'Report Dash');
    await play('cheater', 'Cheater', 9_999_999);
    await play('rude', 'Rude_Name', 50);
    await play('r1', 'Reporter1', 10);
    await play('r2', 'Reporter2', 20);
    await report('r1', 'Rude_Name', 'offensive_name');
    await report('r1', 'Cheater', 'cheating', '<b>teleports</b> & wins');
    await report('r2', 'Cheater', 'impossible_score');

    // A browser without JavaScript: the section's links and forms are plain HTML.
    const context = await s.browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(await ada.context.cookies());
    const page = await context.newPage();
    await page.goto(url('/moderation'));
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

    await page.goto(url(`/moderation?report=${encodeURIComponent('all-time/cheater')}`));
    await clickAndLoadIn(page.locator('#report-detail'), page, 'Ban');
    expect(await text(page)).toContain('No open reports.');
    const log = await page.locator('table').last().textContent();
    expect(log).toMatch(/ban\s*cheater.*banned: reported \(2 reporters\)/s);
    expect(log).toMatch(/dismiss-report\s*rude/s);
    // Banned: the cheater's next submit is refused.
    const refused = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { playerId: 'cheater', score: 1, streak: 1 },
    });
    expect(refused.status).toBe(403);
    // An item already handled is a clear message in its place, not a broken page.
    await page.goto(url(`/moderation?report=${encodeURIComponent('all-time/cheater')}`));
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
