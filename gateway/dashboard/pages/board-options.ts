// A board's options on the dashboard: the form fields that choose them (each explained in one
// line), reading them back from a submitted form, a one-line summary, and scores as the board's
// format shows them (contract/board-options.ts holds the options themselves).
import {
    MAX_DECIMAL_PLACES,
    REVIEW,
    MAX_FILTERS,
    MAX_FILTER_VALUES,
    formatScore,
    optionsOf,
    type BoardOptions,
    type League,
    type ScoreFormat,
} from '../../../contract/board-options';
import { EVENT_TOP } from '../../../contract/event-log';
import type { Form } from '../context';
import { choice, field, html, type Html } from '../layout';
import { value, type View } from './view';

const ORDERS = { desc: 'Higher first', asc: 'Lower first' };
const OPERATORS = { best: 'Best', latest: 'Latest', sum: 'Sum' };
const TIES = { distinct: 'Earlier first', shared: 'Shared' };
const REVIEWS = { off: 'Off', flag: 'Flag for review', hold: 'Hold for review' };
/** '' = none (the form's way to say absent: on an update it takes the tiebreak off). */
const TIEBREAKS = { '': 'None', asc: 'Lower first', desc: 'Higher first' };
const FORMATS = { number: 'Number (1234)', milliseconds: 'Time (1:02.345)', decimal: 'Decimal (12.34)' };

export const HINT = {
    sortOrder: 'Lower first ranks the smallest score first: times, strokes, moves.',
    operator: 'Best keeps each player’s best; latest their last submit; sum adds every submit up (total coins).',
    ties: 'Equal scores: the earlier one ranks higher, or both share the rank (1, 2, 2, 4).',
    format: 'How pages and CSV exports show scores; the API always sends the integer.',
    places: 'Decimal format only: 12345 with 2 places reads 123.45.',
    tiebreak:
        'Equal scores rank by the submits’ tiebreak (e.g. the time taken: lower first); entries without one come after. Score boards only; changes only while the board has no entries.',
    rules: 'Order and keeping rule can change only while the board has no entries this period.',
    review: `Flag: a score beating the first by more than the factor (on a board of ${REVIEW.minEntries}+ entries) is accepted and waits on the Moderation tab. Hold: it stays off the board (its player still sees it) until you approve it there.`,
    reviewFactor: `Implausible past first × this (lower first: below first ÷ this), ${REVIEW.factor.min}-${REVIEW.factor.max}.`,
    filters: `Metadata keys the board can be read by (country, mode): at most ${MAX_FILTERS}, comma-separated; reads take ?filter=key:value. Each key indexes up to ${MAX_FILTER_VALUES} values a period.`,
    league: 'Timed boards only. Players play in divisions of this size within their tier; at each period’s close the first of each division move up a tier, the last move down (docs/leagues.md). Empty: no league. Size and the number of tiers change only at the start of a period or after Reset now.',
    tiers: 'Comma-separated, lowest first: new players start in the first.',
    eventTop: `Top entries events watch: a new leader, players overtaken, a closed period's top (0: none; at most ${EVENT_TOP.max}).`,
} as const;

/** Scores as the board's format shows them (streaks are counts: never formatted). */
export const scoreText = (board: Partial<BoardOptions>, score: number): string =>
    formatScore(score, optionsOf(board).format);

const FORMAT_TEXT: Record<ScoreFormat['kind'], string> = {
    number: 'plain numbers',
    milliseconds: 'times (m:ss.mmm)',
    decimal: 'decimals',
};

/** "lower first · keeps the best · ties shared · times (m:ss.mmm)": the board's options in a line. */
export function optionsLine(board: Partial<BoardOptions>): string {
    const o = optionsOf(board);
    const format = o.format.kind === 'decimal' ? `${o.format.places} decimal places` : FORMAT_TEXT[o.format.kind];
    return [
        o.sortOrder === 'asc' ? 'lower first' : 'higher first',
        o.operator === 'best' ? 'keeps the best' : o.operator === 'latest' ? 'keeps the latest' : 'adds submits up',
        o.ties === 'shared' ? 'ties share a rank' : 'ties: first to reach ranks higher',
        ...(o.tiebreak === undefined ? [] : [`tiebreak ${o.tiebreak === 'asc' ? 'lower' : 'higher'} first`]),
        format,
        ...(board.review === undefined
            ? []
            : [`${board.review.mode === 'hold' ? 'holds' : 'flags'} scores past ${board.review.factor}× the first`]),
    ].join(' · ');
}

/** The order and keeping-rule fields (boards, and the game's standard boards on Settings). */
export function ruleFields(v: View, action: string, current: Partial<BoardOptions>, idPrefix = 'f'): Html {
    const o = optionsOf(current);
    return html`<div class="row top">
        ${choice('sortOrder', 'Order', ORDERS, {
            selected: value(v, action, 'sortOrder', o.sortOrder),
            hint: HINT.sortOrder,
            id: `${idPrefix}-sortOrder`,
        })}
        ${choice('operator', 'Keeps', OPERATORS, {
            selected: value(v, action, 'operator', o.operator),
            hint: HINT.operator,
            id: `${idPrefix}-operator`,
        })}
    </div>`;
}

/** The tiebreak field (a board's own: the standard boards have none). */
export function tiebreakField(v: View, action: string, current: Partial<BoardOptions>, idPrefix = 'f'): Html {
    return html`<div class="row top">
        ${choice('tiebreak', 'Tiebreak', TIEBREAKS, {
            selected: value(v, action, 'tiebreak', current.tiebreak ?? ''),
            hint: HINT.tiebreak,
            id: `${idPrefix}-tiebreak`,
        })}
    </div>`;
}

/** The ties, format and event-top fields (a board's; they may change any time). */
export function displayFields(
    v: View,
    action: string,
    current: Partial<BoardOptions> & { eventTop?: number },
    idPrefix = 'f',
): Html {
    const o = optionsOf(current);
    const places = o.format.kind === 'decimal' ? o.format.places : 2;
    return html`<div class="row top">
            ${choice('ties', 'Ties', TIES, {
                selected: value(v, action, 'ties', o.ties),
                hint: HINT.ties,
                id: `${idPrefix}-ties`,
            })}
            ${choice('format', 'Show scores as', FORMATS, {
                selected: value(v, action, 'format', o.format.kind),
                hint: HINT.format,
                id: `${idPrefix}-format`,
            })}
            ${field('places', `Decimal places (1-${MAX_DECIMAL_PLACES})`, {
                type: 'number',
                value: value(v, action, 'places', places),
                hint: HINT.places,
                id: `${idPrefix}-places`,
            })}
            ${field('eventTop', `Event top (0-${EVENT_TOP.max})`, {
                type: 'number',
                value: value(v, action, 'eventTop', current.eventTop ?? EVENT_TOP.default),
                hint: HINT.eventTop,
                id: `${idPrefix}-eventTop`,
            })}
        </div>
        <div class="row top">
            ${choice('review', 'Review of implausible scores', REVIEWS, {
                selected: value(v, action, 'review', current.review?.mode ?? 'off'),
                hint: HINT.review,
                id: `${idPrefix}-review`,
            })}
            ${field('reviewFactor', 'Review factor', {
                type: 'text', // decimals (1.5): a number input allows whole numbers only
                value: value(v, action, 'reviewFactor', current.review?.factor ?? REVIEW.factor.default),
                hint: HINT.reviewFactor,
                id: `${idPrefix}-reviewFactor`,
            })}
            ${field('filters', 'Filters', {
                value: value(v, action, 'filters', (current.filters ?? []).join(', ')),
                hint: HINT.filters,
                id: `${idPrefix}-filters`,
            })}
        </div>`;
}

/** The league fields (timed boards): empty division size = no league (on an update: the league off). */
export function leagueFields(v: View, action: string, current: { league?: League }, idPrefix = 'f'): Html {
    const l = current.league;
    return html`<fieldset>
        <legend>League</legend>
        <p class="hint">${HINT.league}</p>
        ${l === undefined ? '' : html`<input type="hidden" name="hadLeague" value="1" />`}
        <div class="row top">
            ${field('divisionSize', 'Division size (10-100)', {
                type: 'number',
                value: value(v, action, 'divisionSize', l?.divisionSize ?? ''),
                id: `${idPrefix}-divisionSize`,
            })}
            ${field('tierNames', 'Tier names', {
                value: value(v, action, 'tierNames', (l?.tiers ?? []).join(', ')),
                hint: HINT.tiers,
                id: `${idPrefix}-tierNames`,
            })}
            ${field('promote', 'Promote per division', {
                type: 'number',
                value: value(v, action, 'promote', l?.promote ?? ''),
                id: `${idPrefix}-promote`,
            })}
            ${field('demote', 'Demote per division', {
                type: 'number',
                value: value(v, action, 'demote', l?.demote ?? ''),
                id: `${idPrefix}-demote`,
            })}
        </div>
    </fieldset>`;
}

/**
 * The league a submitted form names, as sent (the canister checks it): absent when the form had
 * no league fields or left them empty on a board without one; null takes a board's league off.
 */
function formLeague(b: Form, number: (text: string | undefined) => number | undefined): unknown {
    if (b.divisionSize === undefined) return undefined;
    if (b.divisionSize.trim() === '') return b.hadLeague === '1' ? null : undefined;
    return {
        divisionSize: number(b.divisionSize),
        tiers: (b.tierNames ?? '')
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== ''),
        promote: number(b.promote) ?? 0,
        demote: number(b.demote) ?? 0,
    };
}

/**
 * The options a submitted form names, passed on as sent (the canister checks them): a field
 * the form did not have stays undefined, so the board keeps its value.
 */
export function formOptions(b: Form): Partial<Record<keyof BoardOptions | 'eventTop' | 'league', unknown>> {
    const number = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : Number(text));
    const places = number(b.places);
    const eventTop = number(b.eventTop);
    // '' (None) is null: an update takes the tiebreak off (a create reads null as absent).
    const tiebreak = b.tiebreak === undefined ? undefined : b.tiebreak === '' ? null : b.tiebreak;
    return {
        eventTop,
        league: formLeague(b, number),
        review:
            b.review === undefined
                ? undefined
                : b.review === 'off'
                  ? { mode: 'off' }
                  : { mode: b.review, factor: number(b.reviewFactor) },
        // Keys as typed, comma-separated (empty: none); the canister checks them.
        filters:
            b.filters === undefined
                ? undefined
                : b.filters
                      .split(',')
                      .map((k) => k.trim())
                      .filter((k) => k !== ''),
        sortOrder: b.sortOrder,
        operator: b.operator,
        ties: b.ties,
        tiebreak,
        format:
            b.format === undefined
                ? undefined
                : b.format === 'decimal'
                  ? { kind: 'decimal', places }
                  : { kind: b.format },
    };
}
