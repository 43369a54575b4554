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

/** JSON text of a reply, with every `ns(...)` written as an integer of nanoseconds. */
export function stringify(value: unknown): string {
    const json = JSON.stringify(value);
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
