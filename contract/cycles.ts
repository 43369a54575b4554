// What operators see of the canisters' cycles (query `cycles_status`): each canister's balance,
// burn and runway as its directory last measured them, the top-ups it made, and an alarm.
import type { Role } from './shards';

/** One canister's cycles when last checked. Times are nanoseconds since 1970 (the IC's clock). */
export interface CanisterCycles {
    canisterId: string;
    role: Role;
    /** Its balance. */
    cycles: number;
    /** Cycles it burns a day: the larger of its measured burn (over up to the last day) and its idle burn. */
    burnPerDay: number;
    /** What its memory alone costs a day (the IC's `idle_cycles_burned_per_day`). */
    idleBurnPerDay: number;
    /** Below this balance it is frozen: its freezing threshold in cycles. */
    freezingThresholdCycles: number;
    /** Days until it freezes at `burnPerDay` (null: it burns nothing measurable). */
    runwayDays: number | null;
    /** Frozen: it refuses every call until cycles arrive. */
    frozen: boolean;
    /** Bytes of memory the IC charges it for (wasm heap, stable memory, code). */
    memoryBytes: number;
    checkedAt: number;
    /** The last top-up its directory made (absent: none yet). */
    lastTopUp?: { at: number; cycles: number };
    /** Its balance once a day, oldest first (up to 30 days). */
    history: Array<{ at: number; cycles: number }>;
}

/** One deposit a directory made into one of its shards. */
export interface TopUp {
    at: number;
    canisterId: string;
    cycles: number;
    /** The shard's balance and runway (days) before the deposit. */
    before: number;
    runwayDaysBefore: number | null;
}

/**
 * `ok`; `low`: the directory cannot keep every canister funded for `alarmBelowDays` more
 * (top it up now); `critical`: a canister is frozen, or will freeze within `criticalBelowDays`
 * and the directory cannot fund it.
 */
export type CyclesAlarm = 'ok' | 'low' | 'critical';

/** When a directory checks and tops up (days are days of each canister's own measured burn). */
export interface FundingPolicy {
    checkEverySeconds: number;
    /** A shard whose runway falls below this gets a deposit... */
    topUpBelowDays: number;
    /** ...that brings its runway back to this. */
    topUpToDays: number;
    /** The directory deposits nothing that would leave itself less runway than this: it freezes last. */
    reserveDays: number;
    alarmBelowDays: number;
    criticalBelowDays: number;
}

export interface CyclesStatus {
    alarm: CyclesAlarm;
    /** For the operator, what is wrong and what to do (empty when `ok`). */
    message: string;
    /** Days the service runs before a canister freezes if nobody adds cycles (null: nothing burns). */
    serviceRunwayDays: number | null;
    /** The directory (or single canister) first, then its shards. */
    canisters: CanisterCycles[];
    /** The latest top-ups, newest first (at most 50). */
    topUps: TopUp[];
    policy: FundingPolicy;
}
