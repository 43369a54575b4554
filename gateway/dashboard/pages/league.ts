// A league board's League view: its tiers with their players and divisions, a tier picker, and
// that tier's divisions (a page of them) each as its table with the zones of the close, and when
// the period ends. Plain links and a GET form: it works without JavaScript.
import type { BoardView, GameView, ReplyOf } from '../../../contract/canister';
import { choice, form, html, table, when, type Html } from '../layout';
import { scoreText } from './board-options';
import { base } from './view';

export type LeagueData = ReplyOf<'dev_league'>;

/** Divisions shown per page (dev_league's most). */
export const LEAGUE_PAGE = 20;

const ZONE_TEXT = { promotion: 'moves up', stay: 'stays', demotion: 'moves down' } as const;
const ZONE_BADGE = { promotion: 'badge on', stay: 'badge', demotion: 'badge off' } as const;

/** A division's table: its players in rank order, each with the zone the close puts them in. */
function divisionTable(board: BoardView, d: LeagueData['divisions'][number]): Html {
    const rows = d.entries.map(
        (e) =>
            html`<tr>
                <td class="num">${e.rank}</td>
                <td>${e.nickname}</td>
                <td class="mono wide">${e.playerId}</td>
                <td class="num">${scoreText(board, e.score)}</td>
                <td><span class="${ZONE_BADGE[e.zone]}">${ZONE_TEXT[e.zone]}</span></td>
            </tr>`,
    );
    // Four short columns fit a phone: the player id only shows on wider screens.
    return html`<div class="card">
        <h3>Division ${d.division} <span class="muted">· ${d.size} players</span></h3>
        <table>
            <thead>
                <tr>
                    <th>#</th>
                    <th>Nickname</th>
                    <th class="wide">Player ID</th>
                    <th>Score</th>
                    <th>Zone</th>
                </tr>
            </thead>
            <tbody>
                ${rows}
            </tbody>
        </table>
    </div>`;
}

export function leaguePage(game: GameView, board: BoardView, data: LeagueData, tier: number, offset: number): Html {
    const b = `${base(game)}/boards/${board.scoreboardId}`;
    const league = `${b}/league`;
    const shown = data.tiers.find((t) => t.index === tier);
    const tierRows = [...data.tiers].reverse().map(
        (t) =>
            html`<tr>
                <td>
                    ${t.index === tier ? html`<strong>${t.name}</strong>` : html`<a href="${league}?tier=${t.index}">${t.name}</a>`}
                </td>
                <td class="num">${t.players}</td>
                <td class="num">${t.divisions}</td>
            </tr>`,
    );
    const tierNames = Object.fromEntries(
        data.tiers.map((t) => [t.index, `${t.name} (${t.divisions} ${t.divisions === 1 ? 'division' : 'divisions'})`]),
    );
    const picker = form(
        league,
        '',
        html`<div class="row">
            ${choice('tier', 'Tier', tierNames, { selected: tier, id: 'f-tier' })}
            <button type="submit" class="secondary">Show</button>
        </div>`,
        { get: true },
    );
    const total = shown?.divisions ?? 0;
    const prev = offset > 0 ? Math.max(0, offset - LEAGUE_PAGE) : undefined;
    const next = offset + data.divisions.length < total ? offset + LEAGUE_PAGE : undefined;
    const pageLink = (at: number, text: string): Html =>
        html`<a class="button secondary" href="${league}?tier=${tier}&offset=${at}">${text}</a>`;
    return html`<p class="muted"><a href="${b}">← ${board.name}</a></p>
        <div class="card">
            <h2>League <span class="muted mono">${board.scoreboardId}</span></h2>
            <p class="muted">
                This period: ${when(data.periodStart)} – ${when(data.periodEnd)}. At its end the first of each division
                move up a tier, the last move down.
            </p>
            ${
                data.closing > 0
                    ? html`<p class="warnbox">
                          Closing the last period: ${data.closing} divisions still to close (a batch at a time).
                      </p>`
                    : ''
            }
            ${table(['Tier', 'Players', 'Divisions'], tierRows)} ${picker}
        </div>
        <h2>${shown?.name ?? `Tier ${tier}`}</h2>
        ${
            data.divisions.length === 0
                ? html`<p class="muted">No divisions in this tier this period yet.</p>`
                : data.divisions.map((d) => divisionTable(board, d))
        }
        <p class="row">
            ${prev === undefined ? '' : pageLink(prev, `Previous ${LEAGUE_PAGE}`)}
            ${next === undefined ? '' : pageLink(next, `Next ${LEAGUE_PAGE}`)}
        </p>`;
}

/** The board page's League card: what the league is, and the way to its view. */
export function leagueCard(game: GameView, board: BoardView): Html | string {
    const l = board.league;
    if (l === undefined) return '';
    return html`<div class="card">
        <h2>League</h2>
        <p class="muted">
            Divisions of ${l.divisionSize} in ${l.tiers.length} tiers (${l.tiers.join(', ')}, lowest first):
            ${l.promote} move up and ${l.demote} move down per division at each close.
        </p>
        <p><a class="button" href="${base(game)}/boards/${board.scoreboardId}/league">League view</a></p>
    </div>`;
}
