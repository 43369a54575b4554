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
