// The Webhooks tab: a game's endpoints with their state, pending events and delivery log; adding
// one (its secret shown once), pausing, resuming, deleting (confirmed) and sending a test event.
import type { GameView } from '../../../contract/canister';
import { CLIENT_OVERTAKEN, EVENT_KINDS, HELD_KEEP, type EventKind } from '../../../contract/event-log';
import { WEBHOOKS_MAX, type DeliveryAttempt, type WebhookView } from '../../../contract/webhooks';
import { field, form, html, table, type Html } from '../layout';
import { base, doneBox, errorFor, value, type View, type WebhookShown } from './view';

/** What each event kind means, one line each (the add form's checkboxes). */
export const KIND_HINTS: Record<EventKind, string> = {
    new_leader: 'Someone took rank 1 of a board (or made its first entry).',
    overtaken: 'A submit passed a player inside a board’s top N (the board’s event top, 10 by default).',
    period_closed: 'A weekly, daily, monthly or custom period ended and was archived, with its top N.',
    submit_rejected: 'A submit refused by your caps or time validation (as in the suspicion log).',
    player_banned: 'A player was banned from this game.',
    player_wiped: 'A player was wiped from the boards, or one entry removed.',
    score_submitted: 'Every accepted submit: one event per submit, so many of them.',
    entry_reported: 'A player reported an entry (once per reporter and entry; see the Moderation tab’s reports).',
    score_flagged: 'A board with review flagged an implausible score: its entry waits in the review queue.',
    score_reviewed: 'You settled a flagged entry or a held score (dismissed, removed, approved, rejected, banned).',
    score_held: 'A board with review hold kept an implausible score off the board: it waits for your verdict.',
    division_closed: 'A league division’s period closed: its final table, who was promoted, stayed or was demoted.',
    reward_granted: 'A board’s close granted a prize to a player: give it from your server, then claim it.',
};

/** What a form action shows once, on the page it answers with: a new endpoint's secret, a test's answer. */
/** A contract time (ns) to the second, UTC. */
const at = (ns: number | undefined): string =>
    ns === undefined || ns === 0
        ? '—'
        : new Date(Math.floor(ns / 1e6)).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

/** An attempt in words: `200 in 12 ms`, or the error. */
export const outcome = (a: DeliveryAttempt): string =>
    a.status !== undefined && a.status >= 200 && a.status < 300
        ? `${a.status} in ${a.latencyMs} ms`
        : `${a.status === undefined ? 'no answer' : a.status}${a.error === undefined ? '' : `: ${a.error}`} (${a.latencyMs} ms)`;

function stateLine(w: WebhookView): Html {
    if (w.state === 'paused') return html`<p><span class="badge off">paused</span> ${w.pausedReason ?? ''}</p>`;
    if (w.state === 'failing')
        return html`<p>
            <span class="badge warn">failing</span> since ${at(w.failingSince)} (${w.failures}
            ${w.failures === 1 ? 'failure' : 'failures'} in a row); next retry at ${at(w.nextAttemptAt)}
        </p>`;
    return html`<p><span class="badge on">active</span></p>`;
}

/** What the endpoint will never get, as an error: events it lost, overtaken events the game did not record. */
function lossLines(w: WebhookView): Html {
    const lost = w.lost;
    const seqs = lost === undefined ? '' : lost.from === lost.to ? `#${lost.from}` : `#${lost.from} to #${lost.to}`;
    return html`${
        lost === undefined
            ? ''
            : html`<p class="error" role="status">
                  Lost:
                  ${
                      lost.count === undefined
                          ? html`the events of its kinds among ${seqs} left the log while it was paused`
                          : html`${lost.count} ${lost.count === 1 ? 'event' : 'events'} of its kinds (${seqs}): it fell
                            further behind than the log and the ${HELD_KEEP.toLocaleString('en-US')} events held for
                            this game’s endpoints`
                  }
                  (the last at ${at(lost.at)}). They will not be sent.
              </p>`
    }
    ${
        w.overtakenSkipped === undefined
            ? ''
            : html`<p class="muted">
                  ${w.overtakenSkipped} overtaken events were not recorded: players’ submits passed others faster than
                  ${CLIENT_OVERTAKEN.perMinute} a minute.
              </p>`
    }`;
}

function attemptsTable(w: WebhookView): Html {
    if (w.attempts.length === 0) return html`<p class="muted">No deliveries yet.</p>`;
    const rows = table(
        ['When', 'Event', 'Status', 'Latency', 'Error'],
        w.attempts.map(
            (a, i) =>
                html`<tr>
                    <td class="num" data-label="When">${at(a.at)}</td>
                    <td data-label="Event">
                        <span class="mono">${a.eventId}</span> <span class="muted">${a.kind}</span>
                    </td>
                    <td class="num" data-label="Status">${a.status ?? '—'}</td>
                    <td class="num" data-label="Latency">${a.latencyMs} ms</td>
                    <td ${a.error === undefined ? '' : html`data-label="Error"`}>
                        ${a.error ?? ''}
                        ${
                            i === 0 && w.state === 'failing'
                                ? html`<br /><span class="muted">next retry ${at(w.nextAttemptAt)}</span>`
                                : ''
                        }
                    </td>
                </tr>`,
        ),
    );
    return html`<div class="log">${rows}</div>`;
}

function endpointCard(game: GameView, w: WebhookView, v: View, shown: WebhookShown): Html {
    const path = `${base(game)}/webhooks/${encodeURIComponent(w.webhookId)}`;
    const test = shown.test?.webhookId === w.webhookId ? shown.test.attempt : undefined;
    const action = (name: string): string => `webhook-${name}-${w.webhookId}`;
    return html`<div class="card" id="webhook-${w.webhookId}">
        <h2 class="mono url">${w.url}</h2>
        ${stateLine(w)} ${lossLines(w)}
        <p class="muted">
            Kinds: ${w.kinds.join(', ')} · ${w.pending} ${w.pending === 1 ? 'event' : 'events'} pending · delivered up
            to #${w.delivered} · added ${at(w.createdAt)}
        </p>
        ${
            test === undefined
                ? ''
                : html`<p
                      class="${test.status !== undefined && test.status < 300 && test.status >= 200 ? 'done' : 'error'}"
                      role="status"
                  >
                      Test event ${test.eventId}: ${outcome(test)}
                  </p>`
        }
        ${errorFor(v, action('test'))} ${errorFor(v, action('pause'))} ${errorFor(v, action('resume'))}
        ${errorFor(v, action('delete'))}
        <div class="row actions">
            ${form(`${path}/test`, v.csrf, html`<button type="submit" class="secondary">Send a test event</button>`)}
            ${
                w.state === 'paused'
                    ? form(`${path}/resume`, v.csrf, html`<button type="submit">Resume</button>`)
                    : form(`${path}/pause`, v.csrf, html`<button type="submit" class="secondary">Pause</button>`)
            }
            <details>
                <summary class="button secondary">Delete…</summary>
                ${form(
                    `${path}/delete`,
                    v.csrf,
                    html`<label class="check"
                            ><input type="checkbox" name="confirm" value="yes" required /> Delete this endpoint: it gets
                            nothing more</label
                        >
                        <button type="submit" class="danger">Delete endpoint</button>`,
                )}
            </details>
        </div>
        <h3>Delivery log</h3>
        ${attemptsTable(w)}
    </div>`;
}

export function webhooksTab(game: GameView, webhooks: WebhookView[], v: View, shown: WebhookShown = {}): Html {
    const chosen = v.error?.action === 'webhook-add' ? (v.values?.kinds ?? '').split(',') : [];
    const secret = shown.secret;
    return html`${doneBox(v)}
        ${
            secret === undefined
                ? ''
                : html`<div class="card secret" id="new-secret">
                      <h2>Endpoint added</h2>
                      <p>
                          The signing secret of <span class="mono">${secret.url}</span>. Copy it now:
                          <strong>you will not see it again.</strong> Check each delivery’s X-Signature with it
                          (docs/webhooks.md shows how, in Node and Python).
                      </p>
                      <div class="key">
                          <input id="webhook-secret" type="text" readonly value="${secret.secret}" />
                          <button type="button" class="secondary" data-copy="webhook-secret">Copy</button>
                      </div>
                  </div>`
        }
        <p class="muted">
            Your server gets this game’s events as signed HTTPS POSTs: at least once, in order per endpoint, each with
            its event id (drop repeats). A failing endpoint is retried with growing delays for 24 hours, then paused.
            ${webhooks.length} of ${WEBHOOKS_MAX} endpoints used.
        </p>
        ${
            webhooks.length === 0
                ? html`<div class="card"><p class="muted">No endpoints yet.</p></div>`
                : webhooks.map((w) => endpointCard(game, w, v, shown))
        }
        <div class="card">
            <h2>Add an endpoint</h2>
            ${errorFor(v, 'webhook-add')}
            ${form(
                `${base(game)}/webhooks/add`,
                v.csrf,
                html`${field('url', 'URL', {
                        id: 'f-webhook-url',
                        value: value(v, 'webhook-add', 'url'),
                        required: true,
                        hint: 'https:// on a public address (the operator may allow others, e.g. loopback while developing).',
                    })}
                    <fieldset class="kinds">
                        <legend>Events to send</legend>
                        ${EVENT_KINDS.map(
                            (k) =>
                                html`<label class="check kind"
                                    ><input
                                        type="checkbox"
                                        name="kinds"
                                        value="${k}"
                                        ${chosen.includes(k) ? html`checked` : ''}
                                    />
                                    <span
                                        ><span class="mono">${k}</span><br /><span class="hint"
                                            >${KIND_HINTS[k]}</span
                                        ></span
                                    ></label
                                >`,
                        )}
                    </fieldset>
                    <button type="submit">Add endpoint</button>`,
            )}
        </div>`;
}
