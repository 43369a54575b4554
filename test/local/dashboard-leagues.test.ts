// The dashboard's leagues in headless Chromium: a targeted board of 7-day periods created with its league
// settings from the board form (a bad one refused by its form, nothing created), settings
// changed on the board page (a size change refused once the period has entries), and the League
// view after a Reset now: tiers with their players and divisions, the tier picker, each
// division's table with its zones; without JavaScript too. Screenshots (desktop and a 390 px
// phone) of the board page's league settings and of the League view go to dashboard-league*.png
// in the screenshot folder.
import type { Page } from 'playwright-core';

import { clickAndLoad } from '../support/browser';
import { dashboardStack, openDashboard, registerGame, shotsOf, signUp, type Developer } from '../support/dashboard';

const GAME = 'league-town';
const BOARD = 'ladder';

const s = dashboardStack('dashboard-leagues');
let ada: Developer;
let apiKey: string;

const click = clickAndLoad;
const text = async (page: Page): Promise<string> => (await page.textContent('main')) ?? '';
const url = (p: string): string => `${s.signIn.publicUrl}/dashboard/games/${GAME}${p}`;
const player = (i: number): string => `dev_1700000000_${(0x2000 + i).toString(16).padStart(8, '0')}`;

/** Players 0..n-1 each submit once to the board (past the 2-second pace first). */
async function play(n: number, score: (i: number) => number): Promise<void> {
    await s.replica.advanceTime(3_000);
    const answers = await Promise.all(
        Array.from({ length: n }, (_, i) =>
            s.request('POST', '/scores', {
                headers: { 'X-API-Key': apiKey },
                body: { playerId: player(i), nickname: `Racer_${i}`, score: score(i), streak: 1, scoreboardId: BOARD },
            }),
        ),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => a.text)).toEqual([]);
}

const boardOf = async () =>
    (await s.canister.ok('admin_list_games', {}))
        .find((g) => g.gameId === GAME)!
        .boards.find((b) => b.scoreboardId === BOARD);

test('the board form creates a league board; a bad league is refused by the form, nothing created', async () => {
    ada = await signUp(s, 'lea@leagues.example');
    const { page } = ada;
    apiKey = await registerGame(page, GAME, 'League Town');
    await page.goto(url('/boards'));
    expect(await text(page)).toContain('Comma-separated, lowest first: new players start in the first.');
    await page.getByLabel('Board ID').fill(BOARD);
    await page.getByLabel('Name', { exact: true }).fill('Ladder');
    await page.getByLabel('Type').selectOption('targeted');
    await page.getByLabel('Period (targeted)').selectOption('custom');
    await page.getByLabel('Days (custom; 0 = never)').fill('7');
    await page.getByLabel('Division size (10-100)').fill('10');
    await page.getByLabel('Tier names').fill('Bronze, Silver, Gold');
    await page.getByLabel('Promote per division').fill('6'); // more than half of 10
    await page.getByLabel('Demote per division').fill('3');
    await click(page, 'Create board');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/^Invalid league: promote must be/);
    expect(await boardOf()).toBeUndefined();
    // The form kept what was typed next to the message.
    expect(await page.getByLabel('Tier names').inputValue()).toBe('Bronze, Silver, Gold');
    await page.getByLabel('Promote per division').fill('3');
    await click(page, 'Create board');
    expect(await page.locator('[role=status]').textContent()).toBe('Board created.');
    expect((await boardOf())?.league).toEqual({
        divisionSize: 10,
        tiers: ['Bronze', 'Silver', 'Gold'],
        promote: 3,
        demote: 3,
    });
});

test('the board page edits the league: names and zones any time, the size only at the start of a period', async () => {
    const { page } = ada;
    await play(25, (i) => 1000 + i * 10);
    await page.goto(url(`/boards/${BOARD}`));
    expect(await text(page)).toContain('Divisions of 10 in 3 tiers (Bronze, Silver, Gold, lowest first)');
    await page.locator('#f-board-divisionSize').fill('12');
    await click(page, 'Save');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/start of a period or after Reset now/);
    expect((await boardOf())?.league?.divisionSize).toBe(10);
    await page.goto(url(`/boards/${BOARD}`));
    await page.locator('#f-board-tierNames').fill('Bronze, Silver, Diamond');
    await page.locator('#f-board-promote').fill('2');
    await click(page, 'Save');
    expect(await page.locator('[role=status]').textContent()).toBe('Board saved.');
    expect((await boardOf())?.league).toEqual({
        divisionSize: 10,
        tiers: ['Bronze', 'Silver', 'Diamond'],
        promote: 2,
        demote: 3,
    });
    await shotsOf(s, ada, 'league-settings');
});

test('the League view: tiers with players and divisions, a tier picker, each division with its zones', async () => {
    const { page } = ada;
    await page.goto(url(`/boards/${BOARD}`));
    await click(page, 'Reset board'); // closes the period: the top 2 of each Bronze division move up
    await play(25, (i) => 5000 - i * 7);
    await page.goto(url(`/boards/${BOARD}`));
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'League view' }).click()]);
    expect(page.url()).toBe(url(`/boards/${BOARD}/league`));
    const tiers = await page.locator('main .card').first().locator('tbody tr').allTextContents();
    const rows = tiers.map((r) => r.replace(/\s+/g, ' ').trim());
    expect(rows[0]).toMatch(/^Diamond 0 0$/);
    const silver = rows.find((r) => r.startsWith('Silver'))!;
    const bronze = rows.find((r) => r.startsWith('Bronze'))!;
    const [silverPlayers, bronzePlayers] = [silver, bronze].map((r) => Number(r.split(' ')[1]));
    expect(silverPlayers + bronzePlayers).toBe(25);
    expect(silverPlayers).toBeGreaterThan(0);
    // Bronze (tier 0) first: its divisions' top 2 move up, nobody moves down out of the lowest tier.
    const zonesOf = async (): Promise<string[][]> =>
        Promise.all(
            (await page.locator('main h3').all()).map(async (h) =>
                (await h.locator('xpath=..').locator('tbody tr td:last-child').allTextContents()).map((z) => z.trim()),
            ),
        );
    for (const zones of await zonesOf()) {
        expect(zones.slice(0, 2)).toEqual(['moves up', 'moves up']);
        expect(zones).not.toContain('moves down');
    }
    // The picker shows Silver: its division moves 2 up and 3 down.
    await page.locator('#f-tier').selectOption('1');
    await click(page, 'Show');
    expect(page.url()).toContain('tier=1');
    const silverZones = await zonesOf();
    expect(silverZones.length).toBeGreaterThan(0);
    for (const zones of silverZones) {
        expect(zones.slice(0, 2)).toEqual(['moves up', 'moves up']);
        expect(zones.slice(-3)).toEqual(['moves down', 'moves down', 'moves down']);
    }
    expect(await text(page)).toMatch(/This period: \d{4}-\d\d-\d\d \d\d:\d\d UTC – \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await shotsOf(s, ada, 'league');
});

test('the League view works without JavaScript', async () => {
    const plain = await openDashboard(s, { javaScript: false });
    await plain.context.addCookies(await ada.context.cookies());
    await plain.page.goto(url(`/boards/${BOARD}/league`));
    await plain.page.locator('#f-tier').selectOption('1');
    await click(plain.page, 'Show');
    expect(plain.page.url()).toContain('tier=1');
    expect(await text(plain.page)).toContain('moves down');
    await plain.context.close();
});
