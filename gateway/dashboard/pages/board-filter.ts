// A board page's filter picker: one select of every filter key's values with their entry
// counts (`key = value (n)`), read again with `?filter=<key>:<value>`; and the line that says
// which entries the page shows.
import type { ReplyOf } from '../../../contract/canister';
import { form, html, type Html } from '../layout';

type Page = ReplyOf<'dev_read_board'>;

/** `?filter=` as the board page passes it on (absent: the whole board). */
export const filterQuery = (filter: string | undefined): string =>
    filter === undefined ? '' : `&filter=${encodeURIComponent(filter)}`;

/** The picker, on a board that declares filters (nothing otherwise). */
export function filterPicker(action: string, page: Page, filter: string | undefined): Html | string {
    if (page.filters === undefined) return '';
    const option = (value: string, text: string): Html =>
        html`<option value="${value}" ${value === (filter ?? '') ? html`selected` : ''}>${text}</option>`;
    const groups = page.filters.map(
        ({ key, values }) =>
            html`<optgroup label="${key}">
                ${values.map((v) => option(`${key}:${v.value}`, `${key} = ${v.value} (${v.entries})`))}
            </optgroup>`,
    );
    return form(
        action,
        '',
        html`<div class="row">
            <div class="field">
                <label for="f-filter">Show</label>
                <select id="f-filter" name="filter">
                    ${option('', 'All entries')} ${groups}
                </select>
            </div>
            <button type="submit" class="secondary">Show</button>
        </div>`,
        { get: true },
    );
}

/** "4 entries with country = DE" under a filter, else the board's own count line. */
export function shownLine(page: Page, filter: string | undefined): string {
    if (filter === undefined) return `${page.totalEntries} entries this period`;
    const at = filter.indexOf(':');
    return `${page.totalEntries} entries this period with ${filter.slice(0, at)} = ${filter.slice(at + 1)}`;
}
