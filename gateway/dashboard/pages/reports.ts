// The Moderation tab's Reports section: the queue of entries players reported (most distinct
// reporters first) with dismiss, remove and ban on each (plain forms, no script needed), and one
// item in full when the page asks for it (`?report=<boardId>/<playerId>`).
import type { GameView } from '../../../contract/canister';
import type { ReportDetail, ReportItemView, ReportQueuePage, ReportedEntry } from '../../../contract/reports';
import { form, html, table, when, type Html } from '../layout';
import { base, errorFor, type View } from './view';

/** What the section shows: the queue's first page, and the item asked for (or why it could not be read). */
export interface ReportsShown {
    queue: ReportQueuePage;
    detail?: ReportDetail | { error: string };
}

/** The query value that opens an item: `<boardId>/<playerId>` (board ids hold no `/`). */
export const reportParam = (item: { scoreboardId: string; playerId: string }): string =>
    `${item.scoreboardId}/${item.playerId}`;

const reasonsText = (item: ReportItemView): string =>
    Object.entries(item.reasons)
        .map(([reason, n]) => `${reason.replace('_', ' ')} × ${n}`)
        .join(', ');

function actions(game: GameView, v: View, item: ReportItemView): Html {
    return form(
        `${base(game)}/report`,
        v.csrf,
        html`<input type="hidden" name="playerId" value="${item.playerId}" />
            <input type="hidden" name="scoreboardId" value="${item.scoreboardId}" />
            <span class="row">
                <button type="submit" name="action" value="dismiss" class="secondary">Dismiss</button>
                <button type="submit" name="action" value="remove" class="danger">Remove</button>
                <button type="submit" name="action" value="ban" class="danger">Ban</button>
            </span>`,
    );
}

function queueTable(game: GameView, v: View, queue: ReportQueuePage): Html {
    if (queue.items.length === 0) return html`<p class="muted">No open reports.</p>`;
    const rows = queue.items.map(
        (item) =>
            html`<tr>
                <td data-label="Entry">
                    <strong>${item.nickname}</strong> on ${item.scoreboardId}<br /><span class="mono"
                        >${item.playerId}</span
                    >
                </td>
                <td class="num" data-label="Reporters">${item.reporters}</td>
                <td data-label="Reasons">${reasonsText(item)}</td>
                <td class="num" data-label="Latest">${when(item.lastAt)}</td>
                <td>
                    <a href="${base(game)}/moderation?report=${encodeURIComponent(reportParam(item))}#report-detail"
                        >Details</a
                    >
                    ${actions(game, v, item)}
                </td>
            </tr>`,
    );
    const more =
        queue.total > queue.items.length
            ? html`<p class="muted">
                  Showing the first ${queue.items.length} of ${queue.total}: act on these to see the rest.
              </p>`
            : html``;
    return html`<div class="log">${table(['Entry', 'Reporters', 'Reasons', 'Latest report', ''], rows)}</div>
        ${more}`;
}

const entryText = (e: ReportedEntry): string =>
    `rank ${e.rank} · score ${e.score} · streak ${e.streak}` +
    (e.metadata === undefined ? '' : ` · ${JSON.stringify(e.metadata)}`);

function detailCard(game: GameView, v: View, detail: ReportDetail): Html {
    const { item } = detail;
    const list = (lines: Html[], none: string): Html =>
        lines.length === 0
            ? html`<p class="muted">${none}</p>`
            : html`<ul>
                  ${lines}
              </ul>`;
    return html`<div class="card" id="report-detail">
        <h2>Reports of ${item.nickname} on ${item.scoreboardId}</h2>
        <p>
            <span class="mono">${item.playerId}</span>
            ${detail.banned ? html`<span class="badge off">banned</span>` : ''} · ${item.reporters}
            ${item.reporters === 1 ? 'reporter' : 'reporters'} since ${when(item.firstAt)}
        </p>
        <p>This entry now: ${detail.entry === null ? 'no longer on the board' : entryText(detail.entry)}</p>
        ${actions(game, v, item)}
        <h3>Reports</h3>
        <div class="log">
            ${table(
                ['When', 'Reporter', 'Reason', 'Text'],
                detail.reports.map(
                    (r) =>
                        html`<tr>
                            <td class="num" data-label="When">${when(r.at)}</td>
                            <td class="mono" data-label="Reporter">${r.playerId}</td>
                            <td data-label="Reason">${r.reason.replace('_', ' ')}</td>
                            <td ${r.text === undefined ? '' : html`data-label="Text"`}>${r.text ?? ''}</td>
                        </tr>`,
                ),
            )}
        </div>
        <h3>Their entries</h3>
        ${list(
            detail.entries.map((e) => html`<li>${e.scoreboardId}: ${entryText(e)}</li>`),
            'No entries this period.',
        )}
        <h3>Rejected submits</h3>
        ${list(
            detail.suspicion.map(
                (s) =>
                    html`<li>
                        ${when(s.at)} · ${s.scoreboardId ?? 'all boards'} · score ${s.score} · ${s.reason}
                        ${s.count > 1 ? html`(× ${s.count})` : ''}
                    </li>`,
            ),
            'None.',
        )}
        <h3>Moderation</h3>
        ${list(
            detail.moderation.map((m) => html`<li>${when(m.at)} · ${m.action} · ${m.detail}</li>`),
            'Nothing yet.',
        )}
    </div>`;
}

/** The Reports section: the queue card, then the item asked for. */
export function reportsSection(game: GameView, shown: ReportsShown, v: View): Html {
    const { queue, detail } = shown;
    return html`<div class="card" id="reports">
            <h2>Reports</h2>
            <p class="muted">
                Entries players reported, most distinct reporters first. Dismiss changes nothing for the player; remove
                takes the entry off its board; ban stops the player writing to the game. Each is logged below and clears
                the item.
            </p>
            ${errorFor(v, 'report')} ${queueTable(game, v, queue)}
        </div>
        ${
            detail === undefined
                ? ''
                : 'error' in detail
                  ? html`<div class="card" id="report-detail"><p class="error" role="alert">${detail.error}</p></div>`
                  : detailCard(game, v, detail)
        }`;
}
