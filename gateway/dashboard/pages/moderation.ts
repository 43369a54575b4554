// The Moderation tab: wiping, banning and unbanning a player, players' reports (./reports.ts),
// the review queue (./review-queue.ts), and the moderation log.
import type { GameView, ModerationEntry, ReviewEntry } from '../../../contract/canister';
import { field, html, when, type Html, table } from '../layout';
import { reportsSection, type ReportsShown } from './reports';
import { reviewSection } from './review-queue';
import { doneBox, formCard, value, type View } from './view';

/** What the tab reads besides the game. */
export interface ModerationData {
    log: ModerationEntry[];
    queue: ReviewEntry[];
    reports: ReportsShown;
}

export function moderationTab(game: GameView, { log, queue, reports }: ModerationData, v: View): Html {
    return html`${doneBox(v)} ${reportsSection(game, reports, v)} ${reviewSection(game, queue, v)}
        <div class="grid">
            ${formCard(
                game,
                v,
                'wipe',
                'Wipe a player',
                html`${field('playerId', 'Player ID', { id: 'f-wipe-player', value: value(v, 'wipe', 'playerId') })}
                    <label class="check"
                        ><input type="checkbox" name="archives" value="true" /> Also from archived periods</label
                    >
                    <button type="submit" class="danger">Wipe player</button>`,
                html`<p class="muted">Removes their entries from every board of this game.</p>`,
            )}
            ${formCard(
                game,
                v,
                'ban',
                'Ban a player',
                html`${field('playerId', 'Player ID', { id: 'f-ban-player', value: value(v, 'ban', 'playerId') })}
                    ${field('reason', 'Reason (optional)', { id: 'f-ban-reason', value: value(v, 'ban', 'reason') })}
                    <button type="submit" class="danger">Ban player</button>`,
                html`<p class="muted">
                    They write nothing more to this game (scores, achievements, nickname, play sessions, merges) until
                    you lift the ban; a signed-in player's ban holds also when they delete the account and sign in
                    again. Signed-in players' IDs start with @.
                </p>`,
            )}
            ${formCard(
                game,
                v,
                'unban',
                'Lift a ban',
                html`${field('playerId', 'Player ID', { id: 'f-unban-player', value: value(v, 'unban', 'playerId') })}
                    <button type="submit" class="secondary">Lift ban</button>`,
            )}
        </div>
        <div class="card">
            <h2>Moderation log</h2>
            ${
                log.length === 0
                    ? html`<p class="muted">Nothing yet.</p>`
                    : table(
                          ['When', 'Action', 'Player', 'Board', 'Detail'],
                          log.map(
                              (e) =>
                                  html`<tr>
                                      <td>${when(e.at)}</td>
                                      <td>${e.action}</td>
                                      <td class="mono">${e.playerId}</td>
                                      <td>${e.scoreboardId ?? ''}</td>
                                      <td>${e.detail}</td>
                                  </tr>`,
                          ),
                      )
            }
        </div>`;
}
