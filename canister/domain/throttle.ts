// Submit pacing: at most one accepted submit per player per board every 2 seconds (an exact
// repeat inside the window is a retry and gets the same answer), and every accepted submit is
// a play except an exact repeat of the last one within a few seconds.

/** Windows in µs, like every time in the canister. */
export const RATE_WINDOW_US = 2_000_000;
export const PLAY_DEDUPE_US = 5_000_000;

/** The last accepted submit to one board, kept for the rate limit and retries. */
export interface LastSubmit {
    at: number;
    score: number;
    streak: number;
    nickname?: string;
    message: string;
}

export type Pace = { kind: 'fresh' } | { kind: 'retry'; message: string } | { kind: 'limited' };

export function pace(
    last: LastSubmit | undefined,
    submit: { score: number; streak: number; nickname?: string },
    now: number,
): Pace {
    if (last === undefined || now - last.at >= RATE_WINDOW_US) return { kind: 'fresh' };
    if (last.score === submit.score && last.streak === submit.streak && last.nickname === submit.nickname) {
        return { kind: 'retry', message: last.message };
    }
    return { kind: 'limited' };
}

/**
 * Whether an accepted submit counts as a new play: all do, except an exact repeat (same score
 * and streak on the same board key) of the last accepted submit within PLAY_DEDUPE_US (S5).
 */
export function countsAsPlay(
    last: LastSubmit | undefined,
    submit: { score: number; streak: number },
    now: number,
): boolean {
    return (
        last === undefined ||
        now - last.at >= PLAY_DEDUPE_US ||
        last.score !== submit.score ||
        last.streak !== submit.streak
    );
}

/** Whether a kept LastSubmit still matters (for the rate limit, retries or repeat plays). */
export function stillPacing(last: LastSubmit, now: number): boolean {
    return now - last.at < PLAY_DEDUPE_US;
}

/** The message of an accepted submit: a welcome for a new player, else whether it set a personal best. */
export function submitMessage(submit: { created: boolean; improved: boolean; nickname?: string }): string {
    if (submit.created) return `Score submitted. Welcome, ${submit.nickname}!`;
    return submit.improved ? 'Score submitted: new personal best!' : 'Score submitted.';
}
