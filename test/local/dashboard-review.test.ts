// The dashboard's review of implausible scores in headless Chromium: a board created with review
// 'flag' from the boards form, an implausible score shown in the Moderation tab's "Held and
// flagged scores" section (screenshots dashboard-review.png and dashboard-review-phone.png), the
// entry removed from there: gone from the board and the queue, in the moderation log; and a board
// on review 'hold': its held score there (dashboard-hold.png, dashboard-hold-phone.png), off its
// board until approved from there.
import type { Locator, Page } from 'playwright-core';

import { REVIEW } from '../../contract/board-options';
import { clickAndLoad } from '../support/browser';
import { dashboardStack, registerGame, shotsOf, signUp } from '../support/dashboard';

const GAME = 'review-ui';
const HOLD = 'hold-ui';
const s = dashboardStack('dashboard-review');
const text = async (page: Page): Promise<string> => (await page.textContent('main')) ?? '';
const url = (p: string, game = GAME): string => `${s.signIn.publicUrl}/dashboard/games/${game}${p}`;
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
