// Server-side checks of a submit against the game's anti-cheat settings: play-session
// tokens when time validation is on (single-use, bound to player and game, expiring), the
// minimum play time, the maximum score per second, and the caps (from above, and from below
// for lowest-first boards). Rule failures carry a reason for the developer's suspicion log;
// players only see the generic message.
import type { Caps, TimeValidation } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';

const RULES_MESSAGE = MESSAGES.scoreRules;
const STREAK_RULES_MESSAGE = MESSAGES.streakRules;

export interface PlaySession {
    token: string;
    gameId: string;
    playerId: string;
    startedAt: number;
    expiresAt: number;
    used: boolean;
}

export type Verdict =
    | { ok: true }
    | { ok: false; kind: 'session'; message: string }
    | { ok: false; kind: 'rules'; message: string; reason: string };

export interface CheckedSubmit {
    gameId: string;
    playerId: string;
    score: number;
    streak: number;
    playSessionToken?: string;
}

const sessionProblem = (message: string): Verdict => ({ ok: false, kind: 'session', message });
const rulesProblem = (reason: string, message: string = RULES_MESSAGE): Verdict => ({
    ok: false,
    kind: 'rules',
    message,
    reason,
});

export function checkSubmit(
    settings: { timeValidation: TimeValidation; caps: Caps },
    submit: CheckedSubmit,
    session: PlaySession | undefined,
    now: number,
): Verdict {
    const tv = settings.timeValidation;
    if (tv.enabled) {
        if (submit.playSessionToken === undefined || submit.playSessionToken === '') {
            return sessionProblem(MESSAGES.sessionRequired);
        }
        if (session === undefined) return sessionProblem('Invalid play session token: start a play session first.');
        if (session.gameId !== submit.gameId || session.playerId !== submit.playerId) {
            return sessionProblem('This play session token belongs to another player or game.');
        }
        if (session.used) return sessionProblem('This play session token was already used: start a new play session.');
        if (now >= session.expiresAt) return sessionProblem('This play session has expired: start a new play session.');
        const seconds = (now - session.startedAt) / 1e6;
        if (seconds < tv.minPlaySeconds) {
            return rulesProblem(`play lasted ${seconds.toFixed(1)} s, the minimum is ${tv.minPlaySeconds} s`);
        }
        if (tv.maxScorePerSecond > 0 && submit.score > Math.max(seconds, 1) * tv.maxScorePerSecond) {
            return rulesProblem(
                `score ${submit.score} in ${seconds.toFixed(1)} s is more than ${tv.maxScorePerSecond} per second`,
            );
        }
    }
    const caps = settings.caps;
    if (caps.maxScore !== undefined && submit.score > caps.maxScore) {
        return rulesProblem(`score ${submit.score} is above the cap of ${caps.maxScore}`);
    }
    if (caps.minScore !== undefined && submit.score < caps.minScore) {
        return rulesProblem(`score ${submit.score} is below the cap of ${caps.minScore}`);
    }
    if (caps.maxStreak !== undefined && submit.streak > caps.maxStreak) {
        return rulesProblem(`streak ${submit.streak} is above the cap of ${caps.maxStreak}`, STREAK_RULES_MESSAGE);
    }
    return { ok: true };
}
