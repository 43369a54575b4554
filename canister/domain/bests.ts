// A player's entry on a board and the board's rule for keeping it: score and streak, each with
// the time it reached its value. `best` keeps the best score by the board's order (the highest,
// or the lowest on a lower-is-better board), `latest` the last accepted submit, `sum` the total.
import type { Operator, SortOrder } from '../../contract/board-options';

export interface Best {
    score: number;
    scoreAt: number;
    streak: number;
    streakAt: number;
}

/**
 * How a board keeps entries: its order (of scores; streaks always rank highest-first) and
 * operator; absent fields are today's behaviour (a board record or the game setting serves as is).
 */
export interface KeepRule {
    sortOrder?: SortOrder;
    operator?: Operator;
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
 */
export function applySubmit(
    current: Best | undefined,
    score: number,
    streak: number,
    now: number,
    rule: KeepRule,
    repeat = false,
): Applied {
    // The default path first and cheapest (each read and call costs in QuickJS).
    const operator = rule.operator;
    const best = operator === undefined || operator === 'best';
    // The same play again (also across a period's start, or after its entry was removed): nothing.
    if (repeat && !best)
        return { best: current ?? { score, scoreAt: now, streak, streakAt: now }, changed: false, improved: false };
    if (current === undefined)
        return { best: { score, scoreAt: now, streak, streakAt: now }, changed: true, improved: best };
    if (best) {
        const scoreImproved = rule.sortOrder === 'asc' ? score < current.score : score > current.score;
        const streakImproved = streak > current.streak;
        if (!scoreImproved && !streakImproved) return { best: current, changed: false, improved: false };
        return {
            best: {
                score: scoreImproved ? score : current.score,
                scoreAt: scoreImproved ? now : current.scoreAt,
                streak: streakImproved ? streak : current.streak,
                streakAt: streakImproved ? now : current.streakAt,
            },
            changed: true,
            improved: true,
        };
    }
    if (operator === 'latest') {
        return {
            best: {
                score,
                scoreAt: score === current.score ? current.scoreAt : now,
                streak,
                streakAt: streak === current.streak ? current.streakAt : now,
            },
            changed: true,
            improved: false,
        };
    }
    const total = addCapped(current.score, score);
    const streakImproved = streak > current.streak;
    return {
        best: {
            score: total,
            scoreAt: total === current.score ? current.scoreAt : now,
            streak: streakImproved ? streak : current.streak,
            streakAt: streakImproved ? now : current.streakAt,
        },
        changed: true,
        improved: false,
    };
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
            return { score, scoreAt, streak, streakAt };
        }
        default: {
            const [score, scoreAt] = pick(a.score, a.scoreAt, b.score, b.scoreAt, rule.sortOrder === 'asc');
            return { score, scoreAt, streak, streakAt };
        }
    }
}
