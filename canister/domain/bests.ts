// A player's bests: score and streak are independent maxima, each with the time it was
// reached; a lower submission never lowers anything.

export interface Best {
    score: number;
    scoreAt: number;
    streak: number;
    streakAt: number;
}

export interface Improvement {
    best: Best;
    scoreImproved: boolean;
    streakImproved: boolean;
}

export function improve(current: Best | undefined, score: number, streak: number, now: number): Improvement {
    if (current === undefined) {
        return { best: { score, scoreAt: now, streak, streakAt: now }, scoreImproved: true, streakImproved: true };
    }
    const scoreImproved = score > current.score;
    const streakImproved = streak > current.streak;
    return {
        best: {
            score: scoreImproved ? score : current.score,
            scoreAt: scoreImproved ? now : current.scoreAt,
            streak: streakImproved ? streak : current.streak,
            streakAt: streakImproved ? now : current.streakAt,
        },
        scoreImproved,
        streakImproved,
    };
}

/** Merging two players' bests (account linking): per-field maximum, earliest time on ties. */
export function mergeBests(a: Best | undefined, b: Best | undefined): Best | undefined {
    if (a === undefined) return b;
    if (b === undefined) return a;
    const pick = (x: number, xAt: number, y: number, yAt: number): [number, number] =>
        x > y ? [x, xAt] : y > x ? [y, yAt] : [x, Math.min(xAt, yAt)];
    const [score, scoreAt] = pick(a.score, a.scoreAt, b.score, b.scoreAt);
    const [streak, streakAt] = pick(a.streak, a.streakAt, b.streak, b.streakAt);
    return { score, scoreAt, streak, streakAt };
}
