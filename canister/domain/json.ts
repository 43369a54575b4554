// Replies as JSON text, with times as exact nanoseconds. Inside the canister times are
// microseconds (a double holds them exactly); QuickJS prints a double above 2^53 ~8x slower
// than a safe integer (~42 K instructions per timestamp), and µs x 1000 is not exact in a
// double anyway. So a reply marks each time with `ns(us)` and `stringify` writes it as the
// decimal µs followed by "000".

import type { Nanoseconds } from '../../contract/schemas';

const MARK = '\u0001';
const MARKED = '"\\u0001';

/**
 * A time (µs) that the reply shows as integer nanoseconds. Until `stringify` writes it, the
 * value is a marked string: nothing in the canister reads it, so it carries the wire type.
 */
export function ns(us: number): Nanoseconds {
    // Periods that never end have no end time.
    if (!Number.isFinite(us)) return null as unknown as Nanoseconds;
    // 0 stays 0 (the all-time board's period start): "0000" would not be JSON.
    if (us === 0) return 0 as Nanoseconds;
    return `${MARK}${us}` as unknown as Nanoseconds;
}

/** A time (µs) as the JSON text `stringify` writes for `ns(us)`: for readers that render their own text. */
export function nsJson(us: number): string {
    if (!Number.isFinite(us)) return 'null';
    return us === 0 ? '0' : `${us}000`;
}

const RAW = '\u0002';
const RAW_MARKED = '"\\u0002"';
/** RAW_MARKED as it stands inside a Candid text literal (escaped as JSON.stringify escapes it). */
const RAW_QUOTED = '\\"\\\\u0002\\"';
/**
 * How a payload's text is written: as JSON, or as JSON inside a Candid text literal (`candid`:
 * every `"` and `\` escaped with a backslash, as JSON.stringify of the text writes it between
 * its quotes), which a reply's bytes need: a read rendered that way skips the pass that quotes
 * the whole reply (~90 instructions a character).
 */
export type Quoting = 'json' | 'candid';

/** A text as `quoting` writes it (a short one: the escaping is a pass over it). */
export function quoted(text: string, quoting: Quoting): string {
    return quoting === 'json' ? text : JSON.stringify(text).slice(1, -1);
}

/** The text of the latest rawJson, until the next `stringify` or `candidLiteral` writes it, and its quoting. */
let rawText: string | undefined;
let rawQuoting: Quoting = 'json';

/**
 * A payload given as its final JSON text (times already written: made with `stringify` or
 * `nsJson`), written as `quoting` says, which the next `stringify` or `candidLiteral` writes
 * as is where this value stands: a read that renders its entries itself skips an object per
 * entry and the walk of JSON.stringify over them (most of a top-100 read's cost). It must be
 * the whole payload of the reply (nothing else in it may be text the caller chose) and the use
 * case's last step.
 */
export function rawJson<T>(text: string, quoting: Quoting = 'json'): T {
    rawText = text;
    rawQuoting = quoting;
    return RAW as unknown as T;
}

/** The latest rawJson's text and quoting, taken (the next reply has none until it sets one). */
function takeRaw(): { text: string; quoting: Quoting } | undefined {
    const text = rawText;
    rawText = undefined;
    return text === undefined ? undefined : { text, quoting: rawQuoting };
}

/** JSON text of a reply, with every `ns(...)` written as an integer of nanoseconds. */
export function stringify(value: unknown): string {
    const raw = takeRaw();
    if (raw === undefined) return timesWritten(JSON.stringify(value));
    // The payload's text is final (rawJson): not scanned again, which costs ~30 instructions a character.
    const text = raw.quoting === 'json' ? raw.text : (JSON.parse(`"${raw.text}"`) as string);
    // A reply whose whole payload is rawJson (`{ok: rawJson(...)}`): its text alone, no walk.
    if ((value as { ok?: unknown }).ok === RAW) return `{"ok":${text}}`;
    return timesWritten(JSON.stringify(value)).replace(RAW_MARKED, () => text);
}

/**
 * A reply's JSON text (as `stringify` writes it) as a Candid text literal, quotes included:
 * `JSON.stringify(stringify(value))`, with a payload rendered with `candid` quoting put in as is.
 */
export function candidLiteral(value: unknown): string {
    // The latest rawJson taken here without takeRaw's object (every reply passes here).
    const raw = rawText;
    rawText = undefined;
    if (raw === undefined) return JSON.stringify(timesWritten(JSON.stringify(value)));
    const text = rawQuoting === 'candid' ? raw : quoted(raw, 'candid');
    // A reply whose whole payload is rawJson (`{ok: rawJson(...)}`): its text alone, no walk.
    if ((value as { ok?: unknown }).ok === RAW) return `"{\\"ok\\":${text}}"`;
    return JSON.stringify(timesWritten(JSON.stringify(value))).replace(RAW_QUOTED, () => text);
}

function timesWritten(json: string): string {
    if (!json.includes(MARKED)) return json;
    const parts = json.split(MARKED);
    for (let i = 1; i < parts.length; i++) {
        const part = parts[i];
        const end = part.indexOf('"');
        parts[i] = `${part.slice(0, end)}000${part.slice(end + 1)}`;
    }
    return parts.join('');
}

/**
 * A reply parsed from another canister's JSON, with its times marked again: every integer
 * past 2^53 in our replies is a time in ns (counts and scores are safe integers), which the
 * parse rounded to a double; its µs are exact (the rounding error is under 500 ns), so
 * `stringify` writes the same digits the other canister sent.
 */
export function remarkTimes<T>(value: T): T {
    if (typeof value === 'number') {
        const us = Math.round(value / 1000);
        return (
            value > Number.MAX_SAFE_INTEGER && Number.isInteger(value) && Number.isSafeInteger(us) ? ns(us) : value
        ) as T;
    }
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) value[i] = remarkTimes(value[i]);
        return value;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = remarkTimes(record[key]);
    return value;
}
