// The games list (/dashboard): the developer's games, registering one, asking for more slots.
import type { DeveloperView, GameView } from '../../../contract/canister';
import { field, form, html, when, type Html, table } from '../layout';
import { doneBox, errorFor, value, type View } from './view';

export function gamesPage(me: { developer: DeveloperView; games: GameView[] }, v: View): Html {
    const { developer, games } = me;
    const rows = games.map(
        (g) =>
            html`<tr>
                <td><a href="/dashboard/games/${g.gameId}">${g.name}</a></td>
                <td class="mono">${g.gameId}</td>
                <td><span class="badge ${g.isActive ? 'on' : 'off'}">${g.isActive ? 'active' : 'inactive'}</span></td>
                <td>${g.boards.length}</td>
            </tr>`,
    );
    const full = games.length >= developer.allowance;
    return html`<h1>Your games</h1>
        <p class="muted">${games.length} of ${developer.allowance} game slots used.</p>
        ${doneBox(v)}
        <div class="card">
            ${
                games.length === 0
                    ? html`<p>No games yet: register your first one below.</p>`
                    : table(['Name', 'Game ID', 'Status', 'Boards'], rows)
            }
        </div>
        <div class="grid">
            <div class="card">
                <h2>Register a game</h2>
                ${errorFor(v, 'register')}
                ${full ? html`<p class="muted">All your slots are used: ask for more on the right.</p>` : ''}
                ${form(
                    '/dashboard/games',
                    v.csrf,
                    html`${field('gameId', 'Game ID', {
                            value: value(v, 'register', 'gameId'),
                            hint: '3-50 characters: lowercase letters, digits and dashes. It is part of your API key and cannot change.',
                            required: true,
                        })}
                        ${field('name', 'Name', { value: value(v, 'register', 'name'), required: true })}
                        ${field('description', 'Description (optional)', { value: value(v, 'register', 'description') })}
                        <button type="submit">Register game</button>`,
                )}
            </div>
            <div class="card">
                <h2>More game slots</h2>
                ${
                    developer.request === undefined
                        ? html`<p class="muted">Ask the operators for more slots; they see your request at once.</p>`
                        : html`<p class="done">
                              You asked for ${developer.request.games} more on ${when(developer.request.at)}; waiting
                              for an operator.
                          </p>`
                }
                ${errorFor(v, 'request')}
                ${form(
                    '/dashboard/request',
                    v.csrf,
                    html`${field('games', 'How many more games', { type: 'number', value: value(v, 'request', 'games', 1) })}
                        ${field('message', 'What for (optional)', { value: value(v, 'request', 'message') })}
                        <button type="submit" class="secondary">Request more slots</button>`,
                )}
            </div>
        </div>`;
}
