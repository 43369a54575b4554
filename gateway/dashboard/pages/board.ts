// A board's page: a page of its entries (removing one), editing, resetting or deleting it, its archives.
import type { DeveloperEntry, GameView, GrantsPage, ReplyOf } from '../../../contract/canister';
import type { Archive, ArchiveList } from '../../../contract/schemas';
import { field, form, html, when, type Html, table } from '../layout';
import { displayFields, HINT, leagueFields, optionsLine, ruleFields, scoreText, tiebreakField } from './board-options';
import { leagueCard } from './league';
import { filterPicker, filterQuery, shownLine } from './board-filter';
import { grantsCard, prizesField } from './board-prizes';
import { base, doneBox, errorFor, type View } from './view';

/** Metadata shown in this many characters at most; the whole JSON is the cell's tooltip. */
const METADATA_SHOWN = 40;

/** An entry's metadata as shortened JSON (player-controlled text: `html` escapes it). */
function metadataCell(metadata: DeveloperEntry['metadata']): Html | string {
    if (metadata === undefined) return '';
    const json = JSON.stringify(metadata);
    const shown = json.length <= METADATA_SHOWN ? json : `${json.slice(0, METADATA_SHOWN - 1)}…`;
    return html`<span title="${json}">${shown}</span>`;
}

export function boardPage(
    game: GameView,
    page: ReplyOf<'dev_read_board'>,
    archives: ArchiveList,
    archive: Archive | undefined,
    v: View,
    filter?: string,
    grants?: GrantsPage,
): Html {
    const board = game.boards.find((b) => b.scoreboardId === page.scoreboardId)!;
    const b = `${base(game)}/boards/${board.scoreboardId}`;
    const fanout = ['all-time', 'weekly', 'daily'].includes(board.scoreboardId);
    const timed = board.period !== 'allTime' && !(board.period === 'custom' && (board.days ?? 0) === 0);
    const exportUrl = `/dashboard/api/games/${game.gameId}/boards/${board.scoreboardId}/export`;
    const rows = page.entries.map(
        (e: DeveloperEntry) =>
            html`<tr>
                <td>${e.rank}</td>
                <td>${e.nickname}${e.banned ? html` <span class="badge off">banned</span>` : ''}</td>
                <td class="mono">${e.playerId}</td>
                <td class="num">${scoreText(board, e.score)}</td>
                <td>${e.streak}</td>
                <td>${e.authType}</td>
                <td>${when(e.submittedAt)}</td>
                <td class="mono">${metadataCell(e.metadata)}</td>
                <td>
                    ${form(
                        `${base(game)}/remove-entry`,
                        v.csrf,
                        html`<input type="hidden" name="scoreboardId" value="${board.scoreboardId}" /><input
                                type="hidden"
                                name="playerId"
                                value="${e.playerId}"
                            /><button type="submit" class="secondary" aria-label="Remove ${e.nickname}'s entry">
                                Remove
                            </button>`,
                    )}
                </td>
            </tr>`,
    );
    const prev = page.offset > 0 ? Math.max(0, page.offset - 50) : undefined;
    const next = page.offset + page.entries.length < page.totalEntries ? page.offset + 50 : undefined;
    return html`<p class="muted"><a href="${base(game)}/boards">← Boards</a></p>
        ${doneBox(v)} ${errorFor(v, 'remove-entry')}
        <div class="card">
            <h2>${board.name} <span class="muted mono">${board.scoreboardId}</span></h2>
            <p class="muted">${shownLine(page, filter)}, ranked by ${board.sortBy}: ${optionsLine(board)}.</p>
            ${filterPicker(b, page, filter)}
            <p><a class="button secondary" href="${exportUrl}" download>Download CSV (this period)</a></p>
            ${
                page.entries.length === 0
                    ? html`<p>No entries in this period yet.</p>`
                    : table(
                          ['#', 'Nickname', 'Player ID', 'Score', 'Streak', 'Sign-in', 'Submitted', 'Metadata', ''],
                          rows,
                      )
            }
            <p class="row">
                ${
                    prev === undefined
                        ? ''
                        : html`<a class="button secondary" href="${b}?offset=${prev}${filterQuery(filter)}"
                              >Previous 50</a
                          >`
                }
                ${
                    next === undefined
                        ? ''
                        : html`<a class="button secondary" href="${b}?offset=${next}${filterQuery(filter)}">Next 50</a>`
                }
            </p>
        </div>
        <div class="card">
            <h2>Edit</h2>
            ${errorFor(v, 'update-board')}
            ${form(
                `${b}/update`,
                v.csrf,
                html`<div class="row">
                        ${field('name', 'Name', { value: board.name, id: 'f-board-name' })}
                        ${field('description', 'Description', { value: board.description, id: 'f-board-description' })}
                    </div>
                    ${
                        fanout
                            ? html`<p class="hint">
                                  Order and keeping rule: the game’s standard boards setting (Settings).
                              </p>`
                            : html`${ruleFields(v, 'update-board', board, 'f-board')}
                                  ${board.sortBy === 'score' ? tiebreakField(v, 'update-board', board, 'f-board') : ''}
                                  <p class="muted">${HINT.rules}</p>`
                    }
                    ${displayFields(v, 'update-board', board, 'f-board')}
                    ${timed ? leagueFields(v, 'update-board', board, 'f-board') : ''}
                    ${prizesField(v, 'update-board', board, 'f-board')}
                    <button type="submit">Save</button>`,
            )}
        </div>
        ${leagueCard(game, board)} ${grantsCard(board, grants, b)}
        <div class="grid">
            ${
                board.period === 'custom'
                    ? html`<div class="card">
                          <h2>Reset now</h2>
                          <p class="muted">Archives this period and starts a new one now.</p>
                          ${errorFor(v, 'reset-board')}
                          ${form(`${b}/reset`, v.csrf, html`<button type="submit" class="secondary">Reset board</button>`)}
                      </div>`
                    : ''
            }
            ${
                fanout
                    ? ''
                    : html`<div class="card">
                          <h2>Delete</h2>
                          <p class="muted">The board and all of its entries and archives go.</p>
                          ${errorFor(v, 'delete-board')}
                          ${form(
                              `${b}/delete`,
                              v.csrf,
                              html`${field('confirm', `Type ${board.scoreboardId} to confirm`, { id: 'f-confirm-board' })}
                                  <button type="submit" class="danger">Delete board</button>`,
                          )}
                      </div>`
            }
        </div>
        <div class="card">
            <h2>Archives</h2>
            ${
                archives.archives.length === 0
                    ? html`<p class="muted">No archived periods yet.</p>`
                    : table(
                          ['Period', 'Entries', 'Top player', 'Top', ''],
                          archives.archives.map(
                              (a) =>
                                  html`<tr>
                                      <td>
                                          <a href="${b}?archive=${a.archiveId}"
                                              >${when(a.periodStart)} – ${when(a.periodEnd)}</a
                                          >
                                      </td>
                                      <td>${a.entryCount}</td>
                                      <td>${a.topPlayer ?? '—'}</td>
                                      <td class="num">
                                          ${
                                              a.topScore === null
                                                  ? '—'
                                                  : board.sortBy === 'score'
                                                    ? scoreText(board, a.topScore)
                                                    : a.topScore
                                          }
                                      </td>
                                      <td>
                                          <a href="${exportUrl}?archiveId=${a.archiveId}" download>Download CSV</a>
                                      </td>
                                  </tr>`,
                          ),
                      )
            }
            ${
                archive === undefined
                    ? ''
                    : html`<h2>Archived ${when(archive.config.periodStart)} – ${when(archive.config.periodEnd)}</h2>
                          ${table(
                              ['#', 'Nickname', 'Score', 'Streak'],
                              archive.entries.map(
                                  (e) =>
                                      html`<tr>
                                          <td>${e.rank}</td>
                                          <td>${e.nickname}</td>
                                          <td class="num">${scoreText(board, e.score)}</td>
                                          <td>${e.streak}</td>
                                      </tr>`,
                              ),
                          )}`
            }
        </div>`;
}
