// The Analytics tab: 30 or 90 days of players, plays and submissions, as charts and a table.
import type { Analytics, GameView } from '../../../contract/canister';
import { Html } from '../../pages/layout';
import { form, html, table } from '../layout';
import { base } from './view';

export function analyticsTab(game: GameView, a: Analytics, days: number): Html {
    const data = JSON.stringify(a).replace(/</g, '\\u003c');
    return html`<div class="card">
            ${form(
                `${base(game)}/analytics`,
                '',
                html`<div class="row">
                    <div class="field">
                        <label for="f-days">Period</label>
                        <select id="f-days" name="days">
                            <option value="30" ${days === 30 ? html`selected` : ''}>Last 30 days</option>
                            <option value="90" ${days === 90 ? html`selected` : ''}>Last 90 days</option>
                        </select>
                    </div>
                    <div class="field"><button type="submit" class="secondary">Show</button></div>
                </div>`,
                { get: true },
            )}
        </div>
        <div class="grid">
            <div class="card">
                <h2>Players per day</h2>
                <canvas id="chart-players" aria-label="Active, new and returning players per day" role="img"></canvas>
            </div>
            <div class="card">
                <h2>Plays and submissions per day</h2>
                <canvas id="chart-activity" aria-label="Plays and submissions per day" role="img"></canvas>
            </div>
            <div class="card">
                <h2>Sign-in share</h2>
                <canvas id="chart-providers" aria-label="Active players by sign-in provider" role="img"></canvas>
            </div>
            <div class="card">
                <h2>Most active boards</h2>
                <canvas id="chart-boards" aria-label="Submissions per board" role="img"></canvas>
            </div>
        </div>
        <div class="card">
            <h2>By day</h2>
            ${table(
                ['Day', 'Active', 'New', 'Returning', 'Plays', 'Submissions'],
                [...a.days].reverse().map(
                    (d) =>
                        html`<tr>
                            <td>${d.day}</td>
                            <td>${d.activePlayers}</td>
                            <td>${d.newPlayers}</td>
                            <td>${d.returningPlayers}</td>
                            <td>${d.plays}</td>
                            <td>${d.submissions}</td>
                        </tr>`,
                ),
            )}
        </div>
        <script type="application/json" id="analytics-data">
            ${new Html(data)}
        </script>`;
}
