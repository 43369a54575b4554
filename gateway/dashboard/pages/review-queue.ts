// The Moderation tab's "Held and flagged scores" section: the game's review queue (entries of
// boards with review flagged as implausible, and scores held off them), each with its verdicts.
import { REVIEW } from '../../../contract/board-options';
import type { GameView, ReviewEntry } from '../../../contract/canister';
import { form, html, table, when, type Html } from '../layout';
import { scoreText } from './board-options';
import { base, errorFor, type View } from './view';

/** One entry's verdict buttons: a small form each (POST <game>/review). */
function verdicts(game: GameView, e: ReviewEntry, v: View): Html {
    const button = (verdict: string, label: string, kind: string) =>
        form(
            `${base(game)}/review`,
            v.csrf,
            html`<input type="hidden" name="scoreboardId" value="${e.scoreboardId}" />
                <input type="hidden" name="playerId" value="${e.playerId}" />
                <input type="hidden" name="verdict" value="${verdict}" />
                <button type="submit" class="${kind}">${label}</button>`,
        );
    if (e.kind === 'held')
        return html`<div class="actions">
            ${button('approve', 'Approve', '')} ${button('reject', 'Reject', 'danger')}
            ${button('ban', 'Reject and ban', 'danger')}
        </div>`;
    return html`<div class="actions">
        ${button('dismiss', 'Dismiss', 'secondary')} ${button('remove', 'Remove entry', 'danger')}
        ${button('ban', 'Remove and ban', 'danger')}
    </div>`;
}

export function reviewSection(game: GameView, queue: ReviewEntry[], v: View): Html {
    const board = (id: string) => game.boards.find((b) => b.scoreboardId === id);
    // The ranked value (a streak board's streak), as the board shows it.
    const shown = (id: string, e: { score: number; streak: number } | number): string => {
        const b = board(id);
        const value = typeof e === 'number' ? e : b?.sortBy === 'streak' ? e.streak : e.score;
        return b === undefined || b.sortBy === 'streak' ? String(value) : scoreText(b, value);
    };
    return html`<div class="card" id="review">
        <h2>Held and flagged scores</h2>
        <p class="muted">
            Boards with review flag a score that beats their first by more than the board's factor (once they have
            ${REVIEW.minEntries} entries). A flagged score is on its board as any other; dismiss it, remove the entry,
            or remove it and ban the player. A held score (boards set to hold) is off its board, seen only by its
            player, until you approve it (it takes its place as of when it was submitted), reject it, or reject it and
            ban the player.
        </p>
        ${errorFor(v, 'review')}
        ${
            queue.length === 0
                ? html`<p class="muted">Nothing waiting for review.</p>`
                : html`<div class="log">
                      ${table(
                          ['When', 'Board', 'Player', 'Score', 'First then', ''],
                          queue.map(
                              (e) =>
                                  html`<tr>
                                      <td data-label="When">${when(e.at)}</td>
                                      <td data-label="Board">${board(e.scoreboardId)?.name ?? e.scoreboardId}</td>
                                      <td data-label="Player">
                                          ${e.nickname} <span class="mono muted">${e.playerId}</span>
                                      </td>
                                      <td class="num" data-label="Score">
                                          ${shown(e.scoreboardId, e)} <span class="muted">${e.kind}</span>
                                      </td>
                                      <td class="num" data-label="First then">${shown(e.scoreboardId, e.first)}</td>
                                      <td>${verdicts(game, e, v)}</td>
                                  </tr>`,
                          ),
                      )}
                  </div>`
        }
    </div>`;
}
