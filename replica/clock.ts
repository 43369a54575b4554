// The replica's clock: wall time plus a test-controlled offset, strictly increasing and
// never behind the last time it reported (also across restarts).

export interface Clock {
    /** A fresh timestamp in ns, greater than any returned before. */
    next(): bigint;
    /** The current time without consuming a tick. */
    peek(): bigint;
    /** Moves time forward by `ns` (tests). */
    advance(ns: bigint): void;
    /** Jumps to `ns` if it lies ahead (tests). */
    set(ns: bigint): void;
}

const wallNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

export function createClock(options: { start?: bigint; notBefore?: bigint } = {}): Clock {
    let offset = options.start !== undefined ? options.start - wallNs() : 0n;
    let last = options.notBefore ?? 0n;
    if (wallNs() + offset <= last) offset = last + 1n - wallNs();
    const peek = (): bigint => {
        const t = wallNs() + offset;
        return t > last ? t : last;
    };
    return {
        next() {
            const t = wallNs() + offset;
            last = t > last ? t : last + 1n;
            return last;
        },
        peek,
        advance(ns) {
            if (ns > 0n) offset += ns;
        },
        set(ns) {
            const now = peek();
            if (ns > now) offset += ns - now;
        },
    };
}
