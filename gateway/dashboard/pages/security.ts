// The Security tab: the server key and server-only submits, caps per submit, time validation,
// and the suspicion log (filtered by player).
import type { GameView, SuspicionEntry } from '../../../contract/canister';
import { field, form, html, when, type Html, table } from '../layout';
import { serverKeyCard } from './server-key';
import { scoreText } from './board-options';
import { base, doneBox, errorFor, value, type View } from './view';

export function securityTab(game: GameView, log: SuspicionEntry[], playerFilter: string, v: View): Html {
    const tv = game.timeValidation;
    return html`${doneBox(v)} ${serverKeyCard(game, v)}
        <div class="grid">
            <div class="card">
                <h2>Caps per submit</h2>
                <p class="muted">
                    A submit above a cap (or below the min score) is rejected and logged below. Leave empty for no cap.
                </p>
                ${errorFor(v, 'caps')}
                ${form(
                    `${base(game)}/caps`,
                    v.csrf,
                    html`${field('maxScore', 'Max score', { type: 'number', value: value(v, 'caps', 'maxScore', game.caps.maxScore ?? '') })}
                        ${field('maxStreak', 'Max streak', { type: 'number', value: value(v, 'caps', 'maxStreak', game.caps.maxStreak ?? '') })}
                        ${field('minScore', 'Min score', { type: 'number', value: value(v, 'caps', 'minScore', game.caps.minScore ?? ''), hint: 'lowest-first boards: the best time a human can reach' })}
                        <button type="submit">Save caps</button>`,
                )}
            </div>
            <div class="card">
                <h2>Time validation</h2>
                <p class="muted">Submits need a play-session token from <code>POST /play-sessions/start</code>.</p>
                ${errorFor(v, 'time-validation')}
                ${form(
                    `${base(game)}/time-validation`,
                    v.csrf,
                    html`<label class="check"
                            ><input type="checkbox" name="enabled" value="true" ${tv.enabled ? html`checked` : ''} />
                            On</label
                        >
                        ${field('minPlaySeconds', 'Minimum play seconds', { type: 'number', value: tv.minPlaySeconds })}
                        ${field('maxScorePerSecond', 'Max score per second (0 = no limit)', { type: 'number', value: tv.maxScorePerSecond })}
                        ${field('sessionLifetimeSeconds', 'Play-session lifetime (seconds)', { type: 'number', value: tv.sessionLifetimeSeconds })}
                        <button type="submit">Save time validation</button>`,
                )}
            </div>
        </div>
        <div class="card">
            <h2>Suspicion log</h2>
            ${form(
                `${base(game)}/security`,
                v.csrf,
                html`<div class="row">
                    ${field('player', 'Filter by player ID', { type: 'search', value: playerFilter })}
                    <div class="field"><button type="submit" class="secondary">Filter</button></div>
                </div>`,
                { get: true },
            )}
            ${
                log.length === 0
                    ? html`<p class="muted">No rejected submits${playerFilter === '' ? '' : ' for this player'}.</p>`
                    : table(
                          ['Last', 'Player', 'Board', 'Reason', 'Score', 'Streak', 'Times'],
                          log.map(
                              (e) =>
                                  html`<tr>
                                      <td>${when(e.at)}</td>
                                      <td class="mono">${e.playerId}</td>
                                      <td>${e.scoreboardId ?? 'standard boards'}</td>
                                      <td>${e.reason}</td>
                                      <td class="num">
                                          ${scoreText(
                                              game.boards.find(
                                                  (b) => b.scoreboardId === (e.scoreboardId ?? 'all-time'),
                                              ) ?? {},
                                              e.score,
                                          )}
                                      </td>
                                      <td>${e.streak}</td>
                                      <td>${e.count}</td>
                                  </tr>`,
                          ),
                      )
            }
        </div>`;
}
