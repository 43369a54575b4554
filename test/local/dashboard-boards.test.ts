// The dashboard's board options and CSV export in headless Chromium: a lower-first time-trial
// board created with its options from the form, its times shown as m:ss.mmm on every page, the
// CSV downloaded (current period and an archive), opened and compared with the board; the
// canister's refusals of order/operator changes shown by their forms; the standard boards'
// setting on Settings. Screenshots (desktop and phone) of the board form, a milliseconds board
// and the settings tab go to dashboard-*.png in the screenshot folder. Prizes: the table edited
// on the board page, paid at Reset now and listed, and who may claim them on Settings. On the
// stack npm start runs by default: a directory, and a shard that holds the games.
import * as fs from 'node:fs';

import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';

import { clickAndLoad } from '../support/browser';
import { dashboardStack, registerGame, shotsOf, signUp, type Developer } from '../support/dashboard';

const GAME = 'time-trial';

const s = dashboardStack('dashboard-boards');
let ada: Developer;
let apiKey: string;

const click = clickAndLoad;

/** A full-page screenshot of `url` as Ada sees it on the desktop (the page as it is, with `here`) and on a phone. */
async function shots(url: string, name: string, o: { here?: boolean } = {}): Promise<void> {
    if (o.here !== true) await ada.page.goto(url);
    await shotsOf(s, ada, name, url);
}

const text = async (page: Page): Promise<string> => (await page.textContent('main')) ?? '';
const url = (p: string): string => `${s.signIn.publicUrl}/dashboard/games/${GAME}${p}`;

async function lap(playerId: string, score: number): Promise<void> {
    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { playerId, score, streak: 1, scoreboardId: 'laps' },
    });
    expect(res.body).toMatchObject({ ok: true });
}

/** Clicks a download link and parses the file it saves (columns by the header row). */
async function downloadCsv(page: Page, link: string): Promise<Array<Record<string, string>>> {
    const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: link, exact: true }).first().click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${GAME}_laps_.*\\.csv$`));
    const file = fs.readFileSync((await download.path())!);
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 byte order mark
    return parse(file, { bom: true, columns: true }) as Array<Record<string, string>>;
}

test('a developer creates a lower-first milliseconds board from the form, each option explained', async () => {
    ada = await signUp(s, 'rita@racing.example');
    const { page } = ada;
    apiKey = await registerGame(page, GAME, 'Time Trial');
    expect(apiKey).toMatch(/^key_time-trial_/);

    await page.goto(url('/boards'));
    const form = await text(page);
    for (const hint of [
        'Lower first ranks the smallest score first',
        'Best keeps each player’s best; latest their last submit; sum adds every submit up',
        'Equal scores: the earlier one ranks higher, or both share the rank',
        'How pages and CSV exports show scores; the API always sends the integer.',
    ])
        expect(form).toContain(hint);
    await page.getByLabel('Board ID').fill('laps');
    await page.getByLabel('Name', { exact: true }).fill('Laps');
    await page.getByLabel('Type').selectOption('targeted');
    await page.getByLabel('Period (targeted)').selectOption('custom');
    await page.getByLabel('Order').selectOption('asc');
    await page.getByLabel('Keeps').selectOption('best');
    await page.getByLabel('Ties').selectOption('shared');
    await page.getByLabel('Show scores as').selectOption('milliseconds');
    // A bad decimal count is refused by the canister: the message stands by the form, nothing created.
    await page.getByLabel('Show scores as').selectOption('decimal');
    await page.getByLabel(/^Decimal places/).fill('9');
    await click(page, 'Create board');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/^Invalid format: must be/);
    expect((await s.canister.ok('list_boards', { gameId: GAME })).scoreboards).toHaveLength(3);
    await page.getByLabel('Show scores as').selectOption('milliseconds');
    await click(page, 'Create board');
    expect(await page.locator('[role=status]').textContent()).toBe('Board created.');
    const [me] = (await s.canister.ok('admin_list_games', {})).filter((g) => g.gameId === GAME);
    expect(me!.boards.find((b) => b.scoreboardId === 'laps')).toMatchObject({
        sortOrder: 'asc',
        operator: 'best',
        ties: 'shared',
        format: { kind: 'milliseconds' },
        targeted: true,
        period: 'custom',
    });
    // The list says how each board ranks and shows its scores.
    const row = await page.locator('tr', { hasText: 'laps' }).textContent();
    expect(row).toMatch(/lower first\s*best\s*1:23\.456/);
    await shots(url('/boards'), 'board-form');
});

test('the board page shows times as m:ss.mmm; its CSV download parses back to the board', async () => {
    await lap('rita', 62_345);
    await lap('sam', 3_723_004);
    await lap('-1-2', 59_010); // a player id a spreadsheet would compute
    const { page } = ada;
    await page.goto(url('/boards/laps'));
    const body = await text(page);
    for (const time of ['1:02.345', '1:02:03.004', '0:59.010']) expect(body).toContain(time);
    expect(body).not.toContain('62345');
    await shots(url('/boards/laps'), 'board-milliseconds');

    const rows = await downloadCsv(page, 'Download CSV (this period)');
    const board = (await s.request('GET', `/games/${GAME}/scoreboards/laps`, { headers: { 'X-API-Key': apiKey } })).body
        .data;
    const ids = new Map([
        [62_345, 'rita'],
        [3_723_004, 'sam'],
        [59_010, "'-1-2"],
    ]);
    expect(rows.map((r) => [r.rank, r.playerId, r.nickname, r.score, r.scoreFormatted, r.streak, r.metadata])).toEqual(
        board.entries.map((e: { rank: number; nickname: string; score: number; streak: number }) => [
            String(e.rank),
            ids.get(e.score),
            e.nickname,
            String(e.score),
            { 62_345: '1:02.345', 3_723_004: '1:02:03.004', 59_010: '0:59.010' }[e.score],
            String(e.streak),
            '',
        ]),
    );
    for (const r of rows) expect(r.submittedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('edits: order and operator refused while the board has entries (the message shown); format changes', async () => {
    const { page } = ada;
    await page.goto(url('/boards/laps'));
    expect(await text(page)).toContain(
        'Order and keeping rule can change only while the board has no entries this period.',
    );
    await page.locator('#f-board-operator').selectOption('sum');
    await click(page, 'Save');
    expect(await page.locator('[role=alert]').textContent()).toMatch(
        /^Board 'laps' has entries: its order and operator cannot change until it is reset/,
    );
    expect(
        (await s.canister.ok('admin_list_games', {}))[0]!.boards.find((b) => b.scoreboardId === 'laps'),
    ).toMatchObject({ operator: 'best' });
    await page.goto(url('/boards/laps'));
    await page.locator('#f-board-format').selectOption('decimal');
    await page.locator('#f-board-places').fill('3');
    await click(page, 'Save');
    expect(await page.locator('[role=status]').textContent()).toBe('Board saved.');
    expect(await text(page)).toContain('62.345');
    await page.locator('#f-board-format').selectOption('milliseconds');
    await click(page, 'Save');
    expect(await text(page)).toContain('1:02.345');
    // How many top entries its events watch: shown, changed, refused out of range.
    expect(await page.locator('#f-board-eventTop').inputValue()).toBe('10');
    await page.locator('#f-board-eventTop').fill('3');
    await click(page, 'Save');
    expect(await page.locator('[role=status]').textContent()).toBe('Board saved.');
    expect(await page.locator('#f-board-eventTop').inputValue()).toBe('3');
    await page.locator('#f-board-eventTop').fill('40');
    await click(page, 'Save');
    expect(await page.locator('[role=alert]').textContent()).toBe(
        'Invalid eventTop: must be a whole number from 0 to 25',
    );
    expect(
        (await s.canister.ok('admin_list_games', {}))[0]!.boards.find((b) => b.scoreboardId === 'laps'),
    ).toMatchObject({ eventTop: 3 });
});

test('an archived period is downloaded from its row and shows its times formatted', async () => {
    const { page } = ada;
    await page.goto(url('/boards/laps'));
    await click(page, 'Reset board');
    expect(await page.locator('[role=status]').textContent()).toBe('Board reset: the period was archived.');
    expect(await text(page)).toContain('No entries in this period yet.');
    const archives = await s.canister.ok('list_archives', { gameId: GAME, boardId: 'laps' });
    const archive = await s.canister.ok('read_archive', { gameId: GAME, archiveId: archives.archives[0]!.archiveId });
    const rows = await downloadCsv(page, 'Download CSV');
    expect(rows.map((r) => [r.rank, r.nickname, r.score, r.scoreFormatted])).toEqual(
        archive.entries.map((e) => [
            String(e.rank),
            e.nickname,
            String(e.score),
            { 62_345: '1:02.345', 3_723_004: '1:02:03.004', 59_010: '0:59.010' }[e.score],
        ]),
    );
    await Promise.all([page.waitForNavigation(), page.locator('a[href*="?archive="]').first().click()]);
    expect(await text(page)).toContain('1:02:03.004');
});

test("settings: the standard boards' order and operator; refused with the canister's message once they have entries", async () => {
    const { page } = ada;
    await page.goto(url('/settings'));
    expect(await text(page)).toContain('How the all-time, weekly and daily boards rank and keep scores.');
    await page.locator('#f-standard-sortOrder').selectOption('asc');
    await click(page, 'Save standard boards');
    expect(await page.locator('[role=status]').textContent()).toBe('Standard boards saved.');
    expect(await page.locator('#f-standard-sortOrder').inputValue()).toBe('asc');
    const [game] = (await s.canister.ok('admin_list_games', {})).filter((g) => g.gameId === GAME);
    expect(game!.standardBoards).toEqual({ sortOrder: 'asc', operator: 'best' });
    expect(game!.boards.find((b) => b.scoreboardId === 'daily')).toMatchObject({ sortOrder: 'asc' });

    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { playerId: 'rita', score: 61_000, streak: 1 },
    });
    expect(res.status).toBe(200);
    await page.locator('#f-standard-operator').selectOption('latest');
    await click(page, 'Save standard boards');
    expect(await page.locator('[role=alert]').textContent()).toMatch(
        /^The standard boards' order and operator cannot change while 'all-time' has entries/,
    );
    // The form keeps what was chosen, next to the message.
    expect(await page.locator('#f-standard-operator').inputValue()).toBe('latest');
    await shots(url('/settings'), 'settings-standard-boards', { here: true });
    // A standard board's own page leaves order and operator to Settings.
    await page.goto(url('/boards/all-time'));
    expect(await text(page)).toContain('Order and keeping rule: the game’s standard boards setting (Settings).');
    expect(await page.locator('#f-board-sortOrder').count()).toBe(0);
});

test('the suspicion log shows a rejected time as the board shows times', async () => {
    const { page } = ada;
    await page.goto(url('/security'));
    await page.getByLabel('Max score', { exact: true }).fill('600000');
    await click(page, 'Save caps');
    await s.replica.advanceTime(3_000);
    const refused = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { playerId: 'rita', score: 754_321, streak: 1, scoreboardId: 'laps' },
    });
    expect(refused.status).toBe(400);
    await page.reload();
    const row = await page.locator('tr', { hasText: 'rita' }).first().textContent();
    expect(row).toContain('12:34.321');
});

test('filters: declared in the board form; the board page picks a value from a select with counts', async () => {
    const { page } = ada;
    await s.replica.advanceTime(3_000);
    for (const [playerId, score, country] of [
        ['de-1', 61_000, 'DE'],
        ['fr-1', 60_500, 'FR'],
        ['de-2', 63_250, 'DE'],
        ['de-3', 58_125, 'DE'],
    ] as const) {
        const res = await s.request('POST', '/scores', {
            headers: { 'X-API-Key': apiKey },
            body: { playerId, score, streak: 1, scoreboardId: 'laps', metadata: { country } },
        });
        expect(res.body).toMatchObject({ ok: true });
    }
    await page.goto(url('/boards/laps'));
    expect(await page.locator('#f-filter').count()).toBe(0); // no filters yet: no picker
    await page.locator('#f-board-filters').fill('country, mode:x');
    await click(page, 'Save');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/^Invalid filters: must be a list of at most 3/);
    await page.locator('#f-board-filters').fill('country');
    await click(page, 'Save');
    expect(await page.locator('[role=status]').textContent()).toBe('Board saved.');
    expect(await page.locator('#f-board-filters').inputValue()).toBe('country');
    const options = await page.locator('#f-filter option').allTextContents();
    expect(options.map((o) => o.trim())).toEqual(['All entries', 'country = DE (3)', 'country = FR (1)']);
    await page.locator('#f-filter').selectOption('country:DE');
    await click(page, 'Show');
    expect(page.url()).toContain('filter=country%3ADE');
    expect(await text(page)).toContain('3 entries this period with country = DE');
    const ranks = await page.locator('main table').first().locator('tbody tr').allTextContents();
    // Ranked among themselves, lowest time first: [rank, player id, time].
    expect(ranks.map((r) => r.replace(/\s+/g, ' ').trim().split(' ')).map((c) => [c[0], c[2], c[3]])).toEqual([
        ['1', 'de-3', '0:58.125'],
        ['2', 'de-1', '1:01.000'],
        ['3', 'de-2', '1:03.250'],
    ]);
    expect(await page.locator('#f-filter').inputValue()).toBe('country:DE');
    await shots(url('/boards/laps?filter=country%3ADE'), 'board-filter', { here: true });
});

test('prizes: the table edited on the board page, paid at Reset now and listed; who may claim on Settings', async () => {
    const { page } = ada;
    // A weekly cup (a custom board of 7 days: prizes need a period that closes), four players on it.
    await page.goto(url('/boards'));
    await page.getByLabel('Board ID').fill('cup');
    await page.getByLabel('Name', { exact: true }).fill('Cup');
    await page.getByLabel('Type').selectOption('custom');
    await page.getByLabel(/^Days/).fill('7');
    await click(page, 'Create board');
    expect(await page.locator('[role=status]').textContent()).toBe('Board created.');
    await s.replica.advanceTime(3_000);
    for (const [playerId, score] of [
        ['cup-a', 40],
        ['cup-b', 30],
        ['cup-c', 20],
        ['cup-d', 10],
    ] as const) {
        const res = await s.request('POST', '/scores', {
            headers: { 'X-API-Key': apiKey },
            body: { playerId, score, streak: 1 },
        });
        expect(res.body).toMatchObject({ ok: true });
    }
    await page.goto(url('/boards/cup'));
    expect(await page.locator('#rewards').count()).toBe(0); // no table, no grants: no card
    await page.locator('#f-board-prizes').fill('1 gold 100\nfirst silver');
    await click(page, 'Save');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/^Invalid prizes: must be a list of at most 20/);
    const table = '1 gold 100\n2-3 silver 10\ntop 50% chest 1';
    await page.locator('#f-board-prizes').fill(table);
    await click(page, 'Save');
    expect(await page.locator('[role=status]').textContent()).toBe('Board saved.');
    expect(await page.locator('#f-board-prizes').inputValue()).toBe(table);
    expect(await text(page)).toContain('No close has granted prizes yet');
    // The close (Reset now) pays the table: every row a rank matches.
    await click(page, 'Reset board');
    const rows = await page.locator('#rewards tbody tr').allTextContents();
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
        'cup-a 1 gold × 100 no',
        'cup-a 1 chest × 1 no',
        'cup-b 2 silver × 10 no',
        'cup-b 2 chest × 1 no',
        'cup-c 3 silver × 10 no',
    ]);
    await shots(url('/boards/cup'), 'board-prizes', { here: true });
    // A claim shows on the list; who may claim is set on Settings.
    const grantId = (await s.request('GET', '/players/cup-a/rewards', { headers: { 'X-API-Key': apiKey } })).body.data
        .rewards[0].grantId;
    await s.request('POST', `/players/cup-a/rewards/${grantId}/claim`, { headers: { 'X-API-Key': apiKey } });
    await page.goto(url('/boards/cup'));
    const claimed = await page.locator('#rewards tbody tr').allTextContents();
    expect(claimed.filter((r) => /\d{4}-\d\d-\d\d/.test(r))).toHaveLength(1);
    await page.goto(url('/settings'));
    await page.getByLabel('Who may claim rewards').selectOption('server');
    await click(page, 'Save reward claims');
    expect(await page.locator('[role=status]').textContent()).toBe('Reward claims saved.');
    expect(await page.getByLabel('Who may claim rewards').inputValue()).toBe('server');
    const [me] = (await s.canister.ok('admin_list_games', {})).filter((g) => g.gameId === GAME);
    expect(me!.rewardClaims).toBe('server');
});
