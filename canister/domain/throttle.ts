// Submit pacing: at most one accepted submit per player per board every 2 seconds (an exact
// repeat inside the window is a retry and gets the same answer), and repeat plays within a
// few seconds count once.

/** Windows in µs, like every time in the canister. */
export const RATE_WINDOW_US = 2_000_000;
export const PLAY_DEDUPE_US = 5_000_000;
export const RATE_LIMIT_MESSAGE = 'Please wait 2 seconds between submissions.';

/** The last accepted submit to one board, kept for the rate limit and retries. */
export interface LastSubmit {
    at: number;
    score: number;
    streak: number;
    nickname?: string;
    message: string;
}

export type Pace = { kind: 'fresh' } | { kind: 'retry'; message: string } | { kind: 'limited' };

export function pace(last: LastSubmit | undefined, submit: { score: number; streak: number; nickname?: string }, now: number): Pace {
    if (last === undefined || now - last.at >= RATE_WINDOW_US) return { kind: 'fresh' };
    if (last.score === submit.score && last.streak === submit.streak && last.nickname === submit.nickname) {
        return { kind: 'retry', message: last.message };
    }
    return { kind: 'limited' };
}

/** Whether a submit counts as a new play, given when the last counted play happened. */
export function countsAsPlay(lastPlayAt: number | undefined, now: number): boolean {
    return lastPlayAt === undefined || now - lastPlayAt >= PLAY_DEDUPE_US;
}
