// A timed board's prizes on the dashboard (docs/rewards.md): the prize table as lines of text in
// the board's form (`1-3 gold 100`, `top 10% chest 1`, `1 gem 5 tier 2`), read back into rows,
// and the grants of its closes (players, ranks, claimed or not).
import type { BoardView, GrantsPage } from '../../../contract/canister';
import { PRIZES, type PrizeRow } from '../../../contract/rewards';
import type { Form } from '../context';
import { html, table, when, type Html } from '../layout';
import { value, type View } from './view';

const HINT = `One row a line: ranks and what they win, e.g. “1 gold 100”, “2-10 silver 10”, “top 5% chest 1” (add “tier 2” on a league board). A player gets every row they match; at most ${PRIZES.rows} rows. Paid at each close of the period; empty: no prizes.`;

/** A row as its line. */
function lineOf(row: PrizeRow): string {
    const ranks =
        'topPercent' in row ? `top ${row.topPercent}%` : row.from === row.to ? `${row.from}` : `${row.from}-${row.to}`;
    return `${ranks} ${row.reward} ${row.amount}${row.tier === undefined ? '' : ` tier ${row.tier}`}`;
}

const LINE = /^(?:(\d+)(?:\s*-\s*(\d+))?|top\s+(\d+(?:\.\d+)?)\s*%)\s+(\S+)\s+(\d+)(?:\s+tier\s+(\d+))?$/i;

/**
 * The rows a form's text names (empty: none, which removes them), or the text as typed when a
 * line is not a row: the canister then refuses it with the contract's message.
 */
export function formPrizes(b: Form): PrizeRow[] | string | undefined {
    if (b.prizes === undefined) return undefined;
    const rows: PrizeRow[] = [];
    for (const line of b.prizes.split(/\r?\n/).map((l) => l.trim())) {
        if (line === '') continue;
        const m = LINE.exec(line);
        if (m === null) return b.prizes;
        const [, from, to, percent, reward, amount, tier] = m;
        const tail = { reward: reward!, amount: Number(amount), ...(tier === undefined ? {} : { tier: Number(tier) }) };
        rows.push(
            percent !== undefined
                ? { topPercent: Number(percent), ...tail }
                : { from: Number(from), to: Number(to ?? from), ...tail },
        );
    }
    return rows;
}

/** The prize table's field, on a board whose periods close. */
export function prizesField(v: View, action: string, board: BoardView, idPrefix = 'f'): Html {
    if (board.period === 'allTime' || (board.period === 'custom' && (board.days ?? 0) === 0)) return html``;
    const id = `${idPrefix}-prizes`;
    const text = value(v, action, 'prizes', (board.prizes ?? []).map(lineOf).join('\n'));
    return html`<div class="field">
        <label for="${id}">Prizes</label>
        <textarea id="${id}" name="prizes" rows="4" spellcheck="false">${text}</textarea>
        <p class="hint">${HINT}</p>
    </div>`;
}

/** The board's closes that granted, and the grants of the one shown (`link`: the board page's URL). */
export function grantsCard(board: BoardView, page: GrantsPage | undefined, link: string): Html {
    if (page === undefined || (page.periods.length === 0 && board.prizes === undefined)) return html``;
    const closes = page.periods.map(
        (p) =>
            html`<a class="button secondary" href="${link}?grants=${p.periodStart}"
                >${when(p.periodStart)} – ${when(p.periodEnd)} (${p.count})</a
            >`,
    );
    return html`<div class="card" id="rewards">
        <h2>Rewards</h2>
        ${
            page.periods.length === 0
                ? html`<p class="muted">No close has granted prizes yet: the first is paid when this period ends.</p>`
                : html`<p class="row">${closes}</p>
                      ${table(
                          ['Player ID', 'Rank', 'Prize', 'Claimed'],
                          page.grants.map(
                              (g) =>
                                  html`<tr>
                                      <td class="mono ids">${g.playerId}</td>
                                      <td>${g.rank}${g.division === undefined ? '' : ` (division ${g.division})`}</td>
                                      <td>${g.reward} × ${g.amount}</td>
                                      <td>
                                          ${g.claimedAt === undefined ? html`<span class="badge off">no</span>` : when(g.claimedAt)}
                                      </td>
                                  </tr>`,
                          ),
                      )}`
        }
    </div>`;
}
