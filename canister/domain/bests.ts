// A player's entry on a board and the board's rule for keeping it: score and streak, each with
// the time it reached its value. `best` keeps the best score by the board's order (the highest,
// or the lowest on a lower-is-better board), `latest` the last accepted submit, `sum` the total.
import type { Operator, SortOrder, Tiebreak } from '../../contract/board-options';

export interface Best {
    score: number;
    scoreAt: number;
    streak: number;
    streakAt: number;
    /** The score's tiebreak, on a board with the option, when the submit that gave the score had one. */
    tiebreak?: number;
}

/**
 * How a board keeps entries: its order (of scores; streaks always rank highest-first) and
 * operator; absent fields are today's behaviour (a board record or the game setting serves as is).
 */
export interface KeepRule {
    sortOrder?: SortOrder;
    operator?: Operator;
    /** Absent: submits' tiebreaks are not kept (nor ever looked at). */
    tiebreak?: Tiebreak;
}

/**
 * Whether tiebreak `a` ranks before `b` by the order (an absent one after any present one):
 * among equal scores it decides, on a board with the option.
 */
export function tiebreakBefore(a: number | undefined, b: number | undefined, order: Tiebreak): boolean {
    if (a === undefined) return false;
    if (b === undefined) return true;
    return order === 'asc' ? a < b : a > b;
}

/** What a submit does to an entry: the entry after it, whether to write it, whether it is a new best. */
export interface Applied {
    best: Best;
    /** Whether the entry (or its last-submit time) is written. */
    changed: boolean;
    /** `best` boards only: a score or streak better than before (or a first entry). */
    improved: boolean;
}

/**
 * Applies an accepted submit by the board's rule.
 * - `best`: the score is the best by the order (a lower one is better on 'asc'), the streak a
 *   maximum; equal is not better (the earlier time stays); written only when one improved.
 * - `latest`: the submit replaces the score and the streak (the streak is the latest too: the
 *   entry is the last play as it was); each value keeps the time it was first reached while unchanged.
 * - `sum`: the score is added; the total saturates at Number.MAX_SAFE_INTEGER (it stays there,
 *   exact, and further submits are accepted but add nothing). The streak stays the best streak
 *   (a maximum: adding up streaks would mean nothing), which is the least surprising reading.
 * `repeat`: an exact repeat of the last accepted submit within the play window (the same play,
 *   S5): `latest` and `sum` change nothing, so a retried submit never adds twice.
 * Times: every value's time is when the entry reached that value (the rank index's tie-break).
 * `tiebreak` (kept only on a board whose rule has one; ignored elsewhere): with `best` an equal
 * score with a better tiebreak is a new best, and a new best score takes its submit's tiebreak
 * (or none); `latest` and `sum` keep the last accepted submit's (or none).
 */
export function applySubmit(
    current: Best | undefined,
    score: number,
    streak: number,
    now: number,
    rule: KeepRule,
    repeat = false,
    tiebreak?: number,
): Applied {
    // The default path first and cheapest (each read and call costs in QuickJS).
    const operator = rule.operator;
    const best = operator === undefined || operator === 'best';
    // The same play again (also across a period's start, or after its entry was removed): nothing.
    if (repeat && !best)
        return { best: current ?? { score, scoreAt: now, streak, streakAt: now }, changed: false, improved: false };
    // The submit's tiebreak when the board keeps one (a submit without one never reads the rule).
    const kept = tiebreak === undefined || rule.tiebreak === undefined ? undefined : tiebreak;
    if (current === undefined) {
        const first: Best = { score, scoreAt: now, streak, streakAt: now };
        if (kept !== undefined) first.tiebreak = kept;
        return { best: first, changed: true, improved: best };
    }
    if (best) {
        let scoreImproved = rule.sortOrder === 'asc' ? score < current.score : score > current.score;
        // An equal score wins by a better tiebreak (one without never does).
        if (!scoreImproved && kept !== undefined && score === current.score)
            scoreImproved = tiebreakBefore(kept, current.tiebreak, rule.tiebreak!);
        const streakImproved = streak > current.streak;
        if (!scoreImproved && !streakImproved) return { best: current, changed: false, improved: false };
        const next: Best = {
            score: scoreImproved ? score : current.score,
            scoreAt: scoreImproved ? now : current.scoreAt,
            streak: streakImproved ? streak : current.streak,
            streakAt: streakImproved ? now : current.streakAt,
        };
        // The score's tiebreak goes with it (an entry whose score had one keeps it on a better streak).
        const carried = scoreImproved ? kept : current.tiebreak;
        if (carried !== undefined) next.tiebreak = carried;
        return { best: next, changed: true, improved: true };
    }
    const last = kept;
    // A score ranks by (score, tiebreak): an entry that changed either reached its key now.
    const sameTiebreak = last === current.tiebreak;
    if (operator === 'latest') {
        const latest: Best = {
            score,
            scoreAt: sameTiebreak && score === current.score ? current.scoreAt : now,
            streak,
            streakAt: streak === current.streak ? current.streakAt : now,
        };
        if (last !== undefined) latest.tiebreak = last;
        return { best: latest, changed: true, improved: false };
    }
    const total = addCapped(current.score, score);
    const streakImproved = streak > current.streak;
    const sum: Best = {
        score: total,
        scoreAt: sameTiebreak && total === current.score ? current.scoreAt : now,
        streak: streakImproved ? streak : current.streak,
        streakAt: streakImproved ? now : current.streakAt,
    };
    if (last !== undefined) sum.tiebreak = last;
    return { best: sum, changed: true, improved: false };
}

/** Sets a kept entry's tiebreak (absent stays absent: entries without one keep their shape). */
function keepTiebreak(best: Best, tiebreak: number | undefined): void {
    if (tiebreak !== undefined) best.tiebreak = tiebreak;
}

/** a + b for non-negative integers, saturating at Number.MAX_SAFE_INTEGER (sums stay exact). */
export function addCapped(a: number, b: number): number {
    return b > Number.MAX_SAFE_INTEGER - a ? Number.MAX_SAFE_INTEGER : a + b;
}

/**
 * Merging two players' entries of one board (account linking), by the board's rule:
 * - `best`: per field the best by the order (streak: the maximum), the earlier time on ties;
 * - `latest`: the entry submitted later (`lastA`, `lastB`: each one's last submit; `a` on ties);
 * - `sum`: the total (saturating), reached when the later of the two reached theirs; the best streak.
 * On a board with a tiebreak, the score's tiebreak goes with it: `best` also compares tiebreaks
 * among equal scores; `sum` keeps the later submit's (as a submit would).
 */
export function mergeBests(
    a: Best | undefined,
    b: Best | undefined,
    rule: KeepRule = {},
    lastA = 0,
    lastB = 0,
): Best | undefined {
    if (a === undefined) return b;
    if (b === undefined) return a;
    const pick = (x: number, xAt: number, y: number, yAt: number, lowerFirst: boolean): [number, number] =>
        x === y ? [x, Math.min(xAt, yAt)] : x > y !== lowerFirst ? [x, xAt] : [y, yAt];
    const [streak, streakAt] = pick(a.streak, a.streakAt, b.streak, b.streakAt, false);
    switch (rule.operator) {
        case 'latest':
            return lastB > lastA ? b : a;
        case 'sum': {
            const score = addCapped(a.score, b.score);
            const scoreAt = b.score === 0 ? a.scoreAt : a.score === 0 ? b.scoreAt : Math.max(a.scoreAt, b.scoreAt);
            const merged: Best = { score, scoreAt, streak, streakAt };
            if (rule.tiebreak !== undefined) keepTiebreak(merged, (lastB > lastA ? b : a).tiebreak);
            return merged;
        }
        default: {
            const order = rule.tiebreak;
            if (order !== undefined && a.score === b.score && a.tiebreak !== b.tiebreak) {
                const won = tiebreakBefore(a.tiebreak, b.tiebreak, order) ? a : b;
                const merged: Best = { score: won.score, scoreAt: won.scoreAt, streak, streakAt };
                keepTiebreak(merged, won.tiebreak);
                return merged;
            }
            const [score, scoreAt] = pick(a.score, a.scoreAt, b.score, b.scoreAt, rule.sortOrder === 'asc');
            const merged: Best = { score, scoreAt, streak, streakAt };
            if (order !== undefined) keepTiebreak(merged, score === a.score ? a.tiebreak : b.tiebreak);
            return merged;
        }
    }
}
