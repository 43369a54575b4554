// The Boards tab: the game's boards with their kind, period and entries, and creating one.
import type { GameView } from '../../../contract/canister';
import type { BoardList } from '../../../contract/schemas';
import { choice, field, form, html, when, type Html, table } from '../layout';
import { optionsOf } from '../../../contract/board-options';
import { displayFields, leagueFields, ruleFields, scoreText, tiebreakField } from './board-options';
import { base, doneBox, errorFor, value, type View } from './view';

const PERIOD_LABEL: Record<string, string> = {
    allTime: 'never resets',
    daily: 'daily (UTC)',
    weekly: 'weekly (Monday UTC)',
    monthly: 'monthly (UTC)',
    custom: 'custom',
};

const TYPES = { targeted: 'Targeted', monthly: 'Monthly', custom: 'Custom period' };
const PERIODS = {
    allTime: 'Never resets',
    daily: 'Daily',
    weekly: 'Weekly',
    monthly: 'Monthly',
    custom: 'Every N days',
};
const SORT_BY = { score: 'Score', streak: 'Streak' };

export function boardsTab(game: GameView, list: BoardList, v: View): Html {
    const rows = list.scoreboards.map((b) => {
        const board = game.boards.find((x) => x.scoreboardId === b.scoreboardId);
        const period = b.period === 'custom' ? `every ${(board?.days ?? 0) || '∞'} days` : PERIOD_LABEL[b.period];
        const o = optionsOf(board ?? {});
        return html`<tr>
            <td><a href="${base(game)}/boards/${b.scoreboardId}">${b.name}</a></td>
            <td class="mono">${b.scoreboardId}</td>
            <td>${b.targeted ? 'targeted' : 'fan-out'}</td>
            <td>${period}</td>
            <td>${b.sortBy}</td>
            <td>${o.sortOrder === 'asc' ? 'lower first' : 'higher first'}</td>
            <td>${o.operator}</td>
            <td class="mono">${scoreText(o, 83_456)}</td>
            <td>${b.entryCount}</td>
            <td>${when(b.lastReset)}</td>
        </tr>`;
    });
    return html`${doneBox(v)}
        <div class="card">
            ${table(
                ['Name', 'ID', 'Kind', 'Period', 'Sort', 'Order', 'Keeps', 'Shown as', 'Entries', 'Period start'],
                rows,
            )}
        </div>
        <div class="card">
            <h2>Create a board</h2>
            <p class="muted">
                Monthly and custom boards get every submit; targeted boards only submits that name them
                (<code>scoreboardId</code>).
            </p>
            ${errorFor(v, 'boards')}
            ${form(
                `${base(game)}/boards`,
                v.csrf,
                html`<div class="row">
                        ${field('scoreboardId', 'Board ID', { value: value(v, 'boards', 'scoreboardId'), required: true })}
                        ${field('name', 'Name', { value: value(v, 'boards', 'name') })}
                    </div>
                    ${field('description', 'Description (optional)', { value: value(v, 'boards', 'description') })}
                    <div class="row">
                        ${choice('type', 'Type', TYPES, { selected: value(v, 'boards', 'type', 'targeted'), id: 'f-type' })}
                        ${choice('period', 'Period (targeted)', PERIODS, {
                            selected: value(v, 'boards', 'period', 'allTime'),
                            id: 'f-period',
                        })}
                        ${field('days', 'Days (custom; 0 = never)', { type: 'number', value: value(v, 'boards', 'days', 0) })}
                        ${choice('sortBy', 'Rank by', SORT_BY, { selected: value(v, 'boards', 'sortBy', 'score'), id: 'f-sort' })}
                    </div>
                    ${ruleFields(v, 'boards', {})} ${tiebreakField(v, 'boards', {})} ${displayFields(v, 'boards', {})}
                    ${leagueFields(v, 'boards', {})}
                    <button type="submit">Create board</button>`,
            )}
        </div>`;
}
