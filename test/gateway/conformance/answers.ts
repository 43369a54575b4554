// What conformance cases expect: matchers, the JSON envelope, the contract's answers and the reference's operation ids.
import type { Expectation } from './harness';

/** A jest asymmetric matcher from a predicate (for values jest has no matcher for). */
export function matcher(name: string, test: (value: unknown) => boolean): any {
    return {
        $$typeof: Symbol.for('jest.asymmetricMatcher'),
        asymmetricMatch: test,
        toString: () => name,
        toAsymmetricMatcher: () => name,
        getExpectedType: () => 'number',
    };
}

/** A timestamp: an integer in nanoseconds since the epoch (rule E1). */
export const NS = matcher(
    'IntegerNanosecondsSinceEpoch',
    (v) => typeof v === 'number' && Number.isInteger(v) && v > 1e18 && v < 1e19,
);
/** A count. */
export const INT = matcher('NonNegativeInteger', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);

export const TEXT = expect.any(String);
export const DEFAULT_NAME = expect.stringMatching(/^Player_[0-9]+$/);
export const TOKEN = expect.stringMatching(/^\S+$/);
export const mentions = (word: string) => expect.stringMatching(new RegExp(word));

export const ok = (data: unknown): Expectation => ({ status: 200, body: { ok: true, data } });
export const err = (status: number, error: unknown = TEXT): Expectation => ({ status, body: { ok: false, error } });

export const SUBMITTED = ok({ message: TEXT });
export const RULES = err(400, 'Score rejected by game validation rules');
export const NOT_FOUND_PLAYER = err(404, 'Player not found');
export const TOO_SHORT = err(400, 'Nickname must be at least 3 characters');
export const TOO_LONG = err(400, 'Nickname must be 16 characters or less');
export const BAD_CHARS = err(400, 'Nickname can only contain letters, numbers, and underscores');
export const boardNotFound = (id: string) => err(404, `Scoreboard '${id}' not found for this game.`);

export const entry = (rank: number, nickname: string, s: number, streak: number) => ({
    rank,
    nickname,
    score: s,
    streak,
    authType: 'external',
});
export const boardEntry = (rank: number, nickname: unknown, s: number, streak: number) => ({
    rank,
    nickname,
    score: s,
    streak,
    authType: 'external',
    submittedAt: NS,
});

export const profile = (
    nickname: unknown,
    s: unknown,
    streak: unknown,
    playCount: unknown,
    achievements: unknown = [],
): Expectation =>
    ok({ nickname, created: NS, gameProfile: { score: s, streak, achievements, playCount, lastPlayed: NS } });

export const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
};
/** Checked on every gateway answer (rule E1: CORS on every API response; X-API-Version). */
export const EVERY_RESPONSE_HEADERS: Record<string, string> = { ...CORS, 'x-api-version': '1.8.0' };
