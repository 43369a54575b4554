// The replica's clocks. Two readings:
//
// - EXECUTION time: what canisters observe (`ic0.time`, timers becoming due, the time of a
//   round). Strictly increasing per round and never behind the last time it reported (also
//   across restarts: `notBefore`).
// - PROTOCOL time: the time of the IC HTTP interface (ingress-expiry checks, the `time` of the
//   certified state, query-signature timestamps, how long ingress statuses are kept). Agents
//   compare it with their own wall clock, so it has to follow wall time.
//
// Normally (`manual: false`, `npm start`) both are one clock: wall time plus an offset.
//
// In test mode (`manual: true`) the execution clock is manual: it moves only when a test moves
// it (`advance`/`set`), plus 1 ns per round to stay strictly increasing, so a test's outcome
// never depends on how fast the machine runs it. The protocol clock stays wall time plus an
// offset that moves by exactly the amounts the test moves the execution clock, and never lies
// behind the execution time; so agents keep working however long a test runs. The deviation
// from the IC: certificate (and query-signature) time may be ahead of the time the canisters
// see by the real time that elapsed since the replica started.

export interface Clock {
    /** Whether the execution clock moves only when told to (test mode). */
    readonly manual: boolean;
    /** The execution time of a new round (ns): greater than any returned before. */
    next(): bigint;
    /** The current execution time, without consuming a tick. */
    peek(): bigint;
    /** The execution time the next round will get, were it to start now. */
    upcoming(): bigint;
    /** The current protocol time (ns): never behind the execution time, never going back. */
    protocol(): bigint;
    /** Moves both clocks forward by `ns` (tests). */
    advance(ns: bigint): void;
    /** Moves the execution clock to `ns` if it lies ahead, and the protocol clock by as much (tests). */
    set(ns: bigint): void;
}

export interface ClockOptions {
    /** Where the execution clock starts on a fresh data directory (test mode). */
    start?: bigint;
    /** The last execution time reported before a restart: the clock continues after it. */
    notBefore?: bigint;
    /** Test mode: the execution clock moves only by `advance`/`set` (and 1 ns per round). */
    manual?: boolean;
    /** The wall-time source in ns (tests inject their own). */
    wall?: () => bigint;
}

const wallNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

export function createClock(options: ClockOptions = {}): Clock {
    const wall = options.wall ?? wallNs;
    return options.manual ? manualClock(wall, options) : wallClock(wall, options);
}

/** One clock for execution and protocol: wall time plus an offset (as on a real subnet). */
function wallClock(wall: () => bigint, options: ClockOptions): Clock {
    let offset = options.start !== undefined ? options.start - wall() : 0n;
    let last = options.notBefore ?? 0n;
    if (wall() + offset <= last) offset = last + 1n - wall();
    const peek = (): bigint => {
        const t = wall() + offset;
        return t > last ? t : last;
    };
    return {
        manual: false,
        next() {
            const t = wall() + offset;
            last = t > last ? t : last + 1n;
            return last;
        },
        peek,
        upcoming() {
            const t = wall() + offset;
            return t > last ? t : last + 1n;
        },
        protocol: peek,
        advance(ns) {
            if (ns > 0n) offset += ns;
        },
        set(ns) {
            const now = peek();
            if (ns > now) offset += ns - now;
        },
    };
}

/** Test mode: a manual execution clock, and a protocol clock that follows wall time. */
function manualClock(wall: () => bigint, options: ClockOptions): Clock {
    const notBefore = options.notBefore;
    let base = options.start ?? (notBefore !== undefined ? notBefore + 1n : wall());
    if (notBefore !== undefined && base <= notBefore) base = notBefore + 1n;
    /** The last execution time handed out by `next` (none yet: one below the start). */
    let last = base - 1n;
    // The protocol clock starts where the execution clock does.
    let offset = base - wall();
    let lastProtocol = 0n;
    const peek = (): bigint => (base > last ? base : last);
    return {
        manual: true,
        next() {
            last = base > last ? base : last + 1n;
            return last;
        },
        peek,
        upcoming: () => (base > last ? base : last + 1n),
        protocol() {
            let t = wall() + offset;
            const execution = peek();
            if (t < execution) t = execution;
            if (t < lastProtocol) t = lastProtocol;
            lastProtocol = t;
            return t;
        },
        advance(ns) {
            if (ns <= 0n) return;
            base = peek() + ns;
            offset += ns;
        },
        set(ns) {
            const now = peek();
            if (ns <= now) return;
            base = ns;
            offset += ns - now;
        },
    };
}
