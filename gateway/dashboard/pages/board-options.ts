// A board's options on the dashboard: the form fields that choose them (each explained in one
// line), reading them back from a submitted form, a one-line summary, and scores as the board's
// format shows them (contract/board-options.ts holds the options themselves).
import {
    MAX_DECIMAL_PLACES,
    formatScore,
    optionsOf,
    type BoardOptions,
    type ScoreFormat,
} from '../../../contract/board-options';
import { EVENT_TOP } from '../../../contract/event-log';
import type { Form } from '../context';
import { choice, field, html, type Html } from '../layout';
import { value, type View } from './view';

const ORDERS = { desc: 'Higher first', asc: 'Lower first' };
const OPERATORS = { best: 'Best', latest: 'Latest', sum: 'Sum' };
const TIES = { distinct: 'Earlier first', shared: 'Shared' };
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
    </div>`;
}

/**
 * The options a submitted form names, passed on as sent (the canister checks them): a field
 * the form did not have stays undefined, so the board keeps its value.
 */
export function formOptions(b: Form): Partial<Record<keyof BoardOptions | 'eventTop', unknown>> {
    // '' (None) is null: an update takes the tiebreak off (a create reads null as absent).
    const tiebreak = b.tiebreak === undefined ? undefined : b.tiebreak === '' ? null : b.tiebreak;
    const places = b.places === undefined || b.places.trim() === '' ? undefined : Number(b.places);
    const eventTop = b.eventTop === undefined || b.eventTop.trim() === '' ? undefined : Number(b.eventTop);
    return {
        eventTop,
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
