// The Boards tab: the game's boards with their kind, period and entries, and creating one.
import type { GameView } from '../../../contract/canister';
import type { BoardList } from '../../../contract/schemas';
import { field, form, html, when, type Html, table } from '../layout';
import { base, doneBox, errorFor, value, type View } from './view';

const PERIOD_LABEL: Record<string, string> = {
    allTime: 'never resets',
    daily: 'daily (UTC)',
    weekly: 'weekly (Monday UTC)',
    monthly: 'monthly (UTC)',
    custom: 'custom',
};

export function boardsTab(game: GameView, list: BoardList, v: View): Html {
    const rows = list.scoreboards.map((b) => {
        const board = game.boards.find((x) => x.scoreboardId === b.scoreboardId);
        const period = b.period === 'custom' ? `every ${(board?.days ?? 0) || '∞'} days` : PERIOD_LABEL[b.period];
        return html`<tr>
            <td><a href="${base(game)}/boards/${b.scoreboardId}">${b.name}</a></td>
            <td class="mono">${b.scoreboardId}</td>
            <td>${b.targeted ? 'targeted' : 'fan-out'}</td>
            <td>${period}</td>
            <td>${b.sortBy}</td>
            <td>${b.entryCount}</td>
            <td>${when(b.lastReset)}</td>
        </tr>`;
    });
    return html`${doneBox(v)}
        <div class="card">${table(['Name', 'ID', 'Kind', 'Period', 'Sort', 'Entries', 'Period start'], rows)}</div>
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
                        <div class="field">
                            <label for="f-type">Type</label>
                            <select id="f-type" name="type">
                                <option value="targeted">Targeted</option>
                                <option value="monthly">Monthly</option>
                                <option value="custom">Custom period</option>
                            </select>
                        </div>
                        <div class="field">
                            <label for="f-period">Period (targeted)</label>
                            <select id="f-period" name="period">
                                <option value="allTime">Never resets</option>
                                <option value="daily">Daily</option>
                                <option value="weekly">Weekly</option>
                                <option value="monthly">Monthly</option>
                                <option value="custom">Every N days</option>
                            </select>
                        </div>
                        ${field('days', 'Days (custom; 0 = never)', { type: 'number', value: value(v, 'boards', 'days', 0) })}
                        <div class="field">
                            <label for="f-sort">Rank by</label>
                            <select id="f-sort" name="sortBy">
                                <option value="score">Score</option>
                                <option value="streak">Streak</option>
                            </select>
                        </div>
                    </div>
                    <button type="submit">Create board</button>`,
            )}
        </div>`;
}
