// The dashboard's pages, server-rendered from canister replies: the games list, and per game
// the tabs Settings, API key, Boards (with a board's entries and archives), Security,
// Moderation and Analytics. Plain functions from data to HTML; the router fetches the data.
import type {
    Analytics,
    DeveloperEntry,
    DeveloperView,
    GameView,
    ModerationEntry,
    ReplyOf,
    SuspicionEntry,
} from '../../contract/canister';
import type { Archive, ArchiveList, BoardList } from '../../contract/schemas';
import { Html } from '../pages/layout';
import { errorBox, field, form, html, when } from './layout';

export const TABS = ['settings', 'key', 'boards', 'security', 'moderation', 'analytics'] as const;
export type Tab = (typeof TABS)[number];
const TAB_LABEL: Record<Tab, string> = {
    settings: 'Settings',
    key: 'API key',
    boards: 'Boards',
    security: 'Security',
    moderation: 'Moderation',
    analytics: 'Analytics',
};

/** What every page of a signed-in developer gets: the CSRF token, a message, a form's error. */
export interface View {
    csrf: string;
    done?: string;
    /** The failed form's action name and the canister's message. */
    error?: { action: string; message: string };
    /** What the failed form held, to show it again. */
    values?: Record<string, string>;
}

const errorFor = (v: View, action: string): Html => errorBox(v.error?.action === action ? v.error.message : undefined);
const doneBox = (v: View): Html => (v.done === undefined ? html`` : html`<p class="done" role="status">${v.done}</p>`);
const value = (v: View, action: string, name: string, fallback: string | number = ''): string | number =>
    v.error?.action === action ? (v.values?.[name] ?? fallback) : fallback;

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
                    : html`<table>
                          <thead>
                              <tr>
                                  <th>Name</th>
                                  <th>Game ID</th>
                                  <th>Status</th>
                                  <th>Boards</th>
                              </tr>
                          </thead>
                          <tbody>
                              ${rows}
                          </tbody>
                      </table>`
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

export function gameFrame(game: GameView, tab: Tab, body: Html): Html {
    const tabs = TABS.map(
        (t) =>
            html`<a href="/dashboard/games/${game.gameId}/${t}" ${t === tab ? html`aria-current="page"` : ''}
                >${TAB_LABEL[t]}</a
            >`,
    );
    return html`<p class="muted"><a href="/dashboard">← All games</a></p>
        <h1>
            ${game.name}
            <span class="badge ${game.isActive ? 'on' : 'off'}">${game.isActive ? 'active' : 'inactive'}</span>
        </h1>
        <p class="muted mono">${game.gameId}</p>
        <nav class="tabs" aria-label="Game sections">${tabs}</nav>
        ${body}`;
}

const base = (game: GameView): string => `/dashboard/games/${game.gameId}`;

export function settingsTab(game: GameView, v: View): Html {
    return html`${doneBox(v)}
        <div class="grid">
            <div class="card">
                <h2>Name and description</h2>
                ${errorFor(v, 'update')}
                ${form(
                    `${base(game)}/update`,
                    v.csrf,
                    html`${field('name', 'Name', { value: value(v, 'update', 'name', game.name), required: true })}
                        ${field('description', 'Description', { value: value(v, 'update', 'description', game.description) })}
                        <button type="submit">Save</button>`,
                )}
            </div>
            <div class="card">
                <h2>${game.isActive ? 'Deactivate' : 'Activate'}</h2>
                <p class="muted">
                    ${
                        game.isActive
                            ? 'A deactivated game refuses every submit and read with its key until you activate it again.'
                            : 'The game refuses every request with its key until you activate it.'
                    }
                </p>
                ${errorFor(v, 'active')}
                ${form(
                    `${base(game)}/active`,
                    v.csrf,
                    html`<input type="hidden" name="isActive" value="${game.isActive ? 'false' : 'true'}" />
                        <button type="submit" class="${game.isActive ? 'danger' : ''}">
                            ${game.isActive ? 'Deactivate game' : 'Activate game'}
                        </button>`,
                )}
            </div>
            <div class="card">
                <h2>Delete</h2>
                <p class="muted">Deletes the game, its boards, players, archives and logs. This cannot be undone.</p>
                ${errorFor(v, 'delete')}
                ${form(
                    `${base(game)}/delete`,
                    v.csrf,
                    html`${field('confirm', `Type ${game.gameId} to confirm`, { id: 'f-confirm-delete' })}
                        <button type="submit" class="danger">Delete game</button>`,
                )}
            </div>
        </div>`;
}

export function keyTab(game: GameView, publicUrl: string, v: View): Html {
    const k = game.apiKey;
    const curl = `curl -X POST ${publicUrl}/scores \\
  -H 'Content-Type: application/json' -H 'X-API-Key: ${k}' -H 'X-Game-ID: ${game.gameId}' \\
  -d '{"playerId":"dev_1700000000_a1b2c3d4","gameId":"${game.gameId}","score":1200,"streak":4}'`;
    const godot = `var http := HTTPRequest.new()
add_child(http)
var body := JSON.stringify({"playerId": player_id, "gameId": "${game.gameId}", "score": score, "streak": streak})
http.request("${publicUrl}/scores",
    ["Content-Type: application/json", "X-API-Key: ${k}", "X-Game-ID: ${game.gameId}"],
    HTTPClient.METHOD_POST, body)`;
    const unity = `var body = JsonUtility.ToJson(new Submit { playerId = playerId, gameId = "${game.gameId}", score = score, streak = streak });
using var req = new UnityWebRequest("${publicUrl}/scores", "POST");
req.uploadHandler = new UploadHandlerRaw(System.Text.Encoding.UTF8.GetBytes(body));
req.downloadHandler = new DownloadHandlerBuffer();
req.SetRequestHeader("Content-Type", "application/json");
req.SetRequestHeader("X-API-Key", "${k}");
req.SetRequestHeader("X-Game-ID", "${game.gameId}");
yield return req.SendWebRequest();`;
    const js = `await fetch('${publicUrl}/scores', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-API-Key': '${k}', 'X-Game-ID': '${game.gameId}' },
  body: JSON.stringify({ playerId, gameId: '${game.gameId}', score, streak }),
});`;
    return html`${doneBox(v)}
        <div class="card">
            <h2>API key</h2>
            <p class="muted">
                Ship it inside your game: it identifies the game, and the canister checks it on every write.
            </p>
            <div class="field">
                <label for="api-key">Current key</label>
                <div class="key">
                    <input id="api-key" type="text" readonly value="${k}" />
                    <button type="button" class="secondary" data-copy="api-key">Copy</button>
                </div>
            </div>
            ${errorFor(v, 'rotate')}
            ${form(
                `${base(game)}/rotate`,
                v.csrf,
                html`<label class="check"
                        ><input type="checkbox" name="confirm" value="yes" required /> I understand the current key
                        stops working at once</label
                    >
                    <button type="submit" class="danger">Rotate key</button>`,
            )}
        </div>
        <div class="card">
            <h2>Submit a score</h2>
            <p><strong>curl</strong></p>
            <pre id="snippet-curl">${curl}</pre>
            <p><strong>Godot (GDScript)</strong></p>
            <pre>${godot}</pre>
            <p><strong>Unity (C#)</strong></p>
            <pre>${unity}</pre>
            <p><strong>JavaScript (fetch)</strong></p>
            <pre>${js}</pre>
        </div>`;
}

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
        <div class="card">
            <table>
                <thead>
                    <tr>
                        <th>Name</th>
                        <th>ID</th>
                        <th>Kind</th>
                        <th>Period</th>
                        <th>Sort</th>
                        <th>Entries</th>
                        <th>Period start</th>
                    </tr>
                </thead>
                <tbody>
                    ${rows}
                </tbody>
            </table>
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

export function boardPage(
    game: GameView,
    page: ReplyOf<'dev_read_board'>,
    archives: ArchiveList,
    archive: Archive | undefined,
    v: View,
): Html {
    const board = game.boards.find((b) => b.scoreboardId === page.scoreboardId)!;
    const b = `${base(game)}/boards/${board.scoreboardId}`;
    const rows = page.entries.map(
        (e: DeveloperEntry) =>
            html`<tr>
                <td>${e.rank}</td>
                <td>${e.nickname}${e.banned ? html` <span class="badge off">banned</span>` : ''}</td>
                <td class="mono">${e.playerId}</td>
                <td>${e.score}</td>
                <td>${e.streak}</td>
                <td>${e.authType}</td>
                <td>${when(e.submittedAt)}</td>
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
    const fanout = ['all-time', 'weekly', 'daily'].includes(board.scoreboardId);
    return html`<p class="muted"><a href="${base(game)}/boards">← Boards</a></p>
        ${doneBox(v)} ${errorFor(v, 'remove-entry')}
        <div class="card">
            <h2>${board.name} <span class="muted mono">${board.scoreboardId}</span></h2>
            <p class="muted">${page.totalEntries} entries this period, ranked by ${board.sortBy}.</p>
            ${
                page.entries.length === 0
                    ? html`<p>No entries in this period yet.</p>`
                    : html`<table>
                          <thead>
                              <tr>
                                  <th>#</th>
                                  <th>Nickname</th>
                                  <th>Player ID</th>
                                  <th>Score</th>
                                  <th>Streak</th>
                                  <th>Sign-in</th>
                                  <th>Submitted</th>
                                  <th></th>
                              </tr>
                          </thead>
                          <tbody>
                              ${rows}
                          </tbody>
                      </table>`
            }
            <p class="row">
                ${prev === undefined ? '' : html`<a class="button secondary" href="${b}?offset=${prev}">Previous 50</a>`}
                ${next === undefined ? '' : html`<a class="button secondary" href="${b}?offset=${next}">Next 50</a>`}
            </p>
        </div>
        <div class="grid">
            <div class="card">
                <h2>Edit</h2>
                ${errorFor(v, 'update-board')}
                ${form(
                    `${b}/update`,
                    v.csrf,
                    html`${field('name', 'Name', { value: board.name, id: 'f-board-name' })}
                        ${field('description', 'Description', { value: board.description, id: 'f-board-description' })}
                        <button type="submit">Save</button>`,
                )}
            </div>
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
                    : html`<table>
                          <thead>
                              <tr>
                                  <th>Period</th>
                                  <th>Entries</th>
                                  <th>Top player</th>
                                  <th>Top</th>
                              </tr>
                          </thead>
                          <tbody>
                              ${archives.archives.map(
                                  (a) =>
                                      html`<tr>
                                          <td>
                                              <a href="${b}?archive=${a.archiveId}"
                                                  >${when(a.periodStart)} – ${when(a.periodEnd)}</a
                                              >
                                          </td>
                                          <td>${a.entryCount}</td>
                                          <td>${a.topPlayer ?? '—'}</td>
                                          <td>${a.topScore ?? '—'}</td>
                                      </tr>`,
                              )}
                          </tbody>
                      </table>`
            }
            ${
                archive === undefined
                    ? ''
                    : html`<h2>Archived ${when(archive.config.periodStart)} – ${when(archive.config.periodEnd)}</h2>
                          <table>
                              <thead>
                                  <tr>
                                      <th>#</th>
                                      <th>Nickname</th>
                                      <th>Score</th>
                                      <th>Streak</th>
                                  </tr>
                              </thead>
                              <tbody>
                                  ${archive.entries.map(
                                      (e) =>
                                          html`<tr>
                                              <td>${e.rank}</td>
                                              <td>${e.nickname}</td>
                                              <td>${e.score}</td>
                                              <td>${e.streak}</td>
                                          </tr>`,
                                  )}
                              </tbody>
                          </table>`
            }
        </div>`;
}

export function securityTab(game: GameView, log: SuspicionEntry[], playerFilter: string, v: View): Html {
    const tv = game.timeValidation;
    return html`${doneBox(v)}
        <div class="grid">
            <div class="card">
                <h2>Caps per submit</h2>
                <p class="muted">A submit above a cap is rejected and logged below. Leave empty for no cap.</p>
                ${errorFor(v, 'caps')}
                ${form(
                    `${base(game)}/caps`,
                    v.csrf,
                    html`${field('maxScore', 'Max score', { type: 'number', value: value(v, 'caps', 'maxScore', game.caps.maxScore ?? '') })}
                        ${field('maxStreak', 'Max streak', { type: 'number', value: value(v, 'caps', 'maxStreak', game.caps.maxStreak ?? '') })}
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
                    : html`<table>
                          <thead>
                              <tr>
                                  <th>Last</th>
                                  <th>Player</th>
                                  <th>Board</th>
                                  <th>Reason</th>
                                  <th>Score</th>
                                  <th>Streak</th>
                                  <th>Times</th>
                              </tr>
                          </thead>
                          <tbody>
                              ${log.map(
                                  (e) =>
                                      html`<tr>
                                          <td>${when(e.at)}</td>
                                          <td class="mono">${e.playerId}</td>
                                          <td>${e.scoreboardId ?? 'standard boards'}</td>
                                          <td>${e.reason}</td>
                                          <td>${e.score}</td>
                                          <td>${e.streak}</td>
                                          <td>${e.count}</td>
                                      </tr>`,
                              )}
                          </tbody>
                      </table>`
            }
        </div>`;
}

export function moderationTab(game: GameView, log: ModerationEntry[], v: View): Html {
    return html`${doneBox(v)}
        <div class="grid">
            <div class="card">
                <h2>Wipe a player</h2>
                <p class="muted">Removes their entries from every board of this game.</p>
                ${errorFor(v, 'wipe')}
                ${form(
                    `${base(game)}/wipe`,
                    v.csrf,
                    html`${field('playerId', 'Player ID', { id: 'f-wipe-player', value: value(v, 'wipe', 'playerId') })}
                        <label class="check"
                            ><input type="checkbox" name="archives" value="true" /> Also from archived periods</label
                        >
                        <button type="submit" class="danger">Wipe player</button>`,
                )}
            </div>
            <div class="card">
                <h2>Ban a player</h2>
                <p class="muted">
                    They write nothing more to this game (scores, achievements, nickname, play sessions, merges) until
                    you lift the ban; a signed-in player's ban holds also when they delete the account and sign in
                    again. Signed-in players' IDs start with @.
                </p>
                ${errorFor(v, 'ban')}
                ${form(
                    `${base(game)}/ban`,
                    v.csrf,
                    html`${field('playerId', 'Player ID', { id: 'f-ban-player', value: value(v, 'ban', 'playerId') })}
                        ${field('reason', 'Reason (optional)', { id: 'f-ban-reason', value: value(v, 'ban', 'reason') })}
                        <button type="submit" class="danger">Ban player</button>`,
                )}
            </div>
            <div class="card">
                <h2>Lift a ban</h2>
                ${errorFor(v, 'unban')}
                ${form(
                    `${base(game)}/unban`,
                    v.csrf,
                    html`${field('playerId', 'Player ID', { id: 'f-unban-player', value: value(v, 'unban', 'playerId') })}
                        <button type="submit" class="secondary">Lift ban</button>`,
                )}
            </div>
        </div>
        <div class="card">
            <h2>Moderation log</h2>
            ${
                log.length === 0
                    ? html`<p class="muted">Nothing yet.</p>`
                    : html`<table>
                          <thead>
                              <tr>
                                  <th>When</th>
                                  <th>Action</th>
                                  <th>Player</th>
                                  <th>Board</th>
                                  <th>Detail</th>
                              </tr>
                          </thead>
                          <tbody>
                              ${log.map(
                                  (e) =>
                                      html`<tr>
                                          <td>${when(e.at)}</td>
                                          <td>${e.action}</td>
                                          <td class="mono">${e.playerId}</td>
                                          <td>${e.scoreboardId ?? ''}</td>
                                          <td>${e.detail}</td>
                                      </tr>`,
                              )}
                          </tbody>
                      </table>`
            }
        </div>`;
}

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
            <table>
                <thead>
                    <tr>
                        <th>Day</th>
                        <th>Active</th>
                        <th>New</th>
                        <th>Returning</th>
                        <th>Plays</th>
                        <th>Submissions</th>
                    </tr>
                </thead>
                <tbody>
                    ${[...a.days].reverse().map(
                        (d) =>
                            html`<tr>
                                <td>${d.day}</td>
                                <td>${d.activePlayers}</td>
                                <td>${d.newPlayers}</td>
                                <td>${d.returningPlayers}</td>
                                <td>${d.plays}</td>
                                <td>${d.submissions}</td>
                            </tr>`,
                    )}
                </tbody>
            </table>
        </div>
        <script type="application/json" id="analytics-data">
            ${new Html(data)}
        </script>`;
}
