// Nickname rules and suffixes, independent maxima, the rate limit with retries, play dedupe,
// input validation.
import { addCapped, applySubmit, mergeBests } from '../../../canister/domain/bests';
import { defaultNickname, nameKey, suffixed } from '../../../canister/domain/nicknames';
import { PLAY_DEDUPE_US, RATE_WINDOW_US, countsAsPlay, pace } from '../../../canister/domain/throttle';
import { checkCount, checkGameId, checkNickname, checkPlayerId, gameOfApiKey } from '../../../contract/rules';

describe('nicknames', () => {
    test('validation uses the contract wording (N3)', () => {
        expect(checkNickname('ab')).toBe('Nickname must be at least 3 characters');
        expect(checkNickname('a'.repeat(17))).toBe('Nickname must be 16 characters or less');
        expect(checkNickname('bad name')).toBe('Nickname can only contain letters, numbers, and underscores');
        expect(checkNickname('Ünïcode')).toBe('Nickname can only contain letters, numbers, and underscores');
        expect(checkNickname('Good_Name_16char')).toBeUndefined();
        expect(checkNickname(42)).toBeDefined();
    });

    test('uniqueness is case-insensitive and suffixes keep names within 16 characters (N2)', () => {
        expect(nameKey('Alice')).toBe(nameKey('aLiCe'));
        expect(suffixed('Alice', 1)).toBe('Alice_1');
        expect(suffixed('Sixteen_Chars_XY', 1)).toBe('Sixteen_Chars__1');
        expect(suffixed('Sixteen_Chars_XY', 12)).toBe('Sixteen_Chars_12');
        expect(checkNickname(suffixed('Sixteen_Chars_XY', 123))).toBeUndefined();
        expect(defaultNickname(42)).toBe('Player_42');
    });
});

describe('bests', () => {
    const best = {};
    test('score and streak are independent maxima, each with the time it was reached', () => {
        const first = applySubmit(undefined, 100, 5, 1, best);
        expect(first).toEqual({
            best: { score: 100, scoreAt: 1, streak: 5, streakAt: 1 },
            changed: true,
            improved: true,
        });
        const higherScoreLowerStreak = applySubmit(first.best, 150, 2, 2, best);
        expect(higherScoreLowerStreak).toEqual({
            best: { score: 150, scoreAt: 2, streak: 5, streakAt: 1 },
            changed: true,
            improved: true,
        });
        const lower = applySubmit(higherScoreLowerStreak.best, 10, 1, 3, best);
        expect(lower).toEqual({ best: higherScoreLowerStreak.best, changed: false, improved: false });
        // Equal is not better: the earlier time stays.
        expect(applySubmit(lower.best, 150, 6, 4, best).best.scoreAt).toBe(2);
    });

    test('lower-is-better keeps the minimum score, and still the maximum streak', () => {
        const asc = { sortOrder: 'asc' as const };
        const first = applySubmit(undefined, 100, 5, 1, asc).best;
        expect(applySubmit(first, 90, 1, 2, asc).best).toEqual({ score: 90, scoreAt: 2, streak: 5, streakAt: 1 });
        expect(applySubmit(first, 110, 9, 2, asc).best).toEqual({ score: 100, scoreAt: 1, streak: 9, streakAt: 2 });
    });

    test('latest replaces both values (times move only when a value does); sum adds, saturating; repeats change nothing', () => {
        const first = { score: 100, scoreAt: 1, streak: 5, streakAt: 1 };
        expect(applySubmit(first, 100, 2, 3, { operator: 'latest' }).best).toEqual({
            score: 100,
            scoreAt: 1,
            streak: 2,
            streakAt: 3,
        });
        expect(applySubmit(first, 7, 2, 3, { operator: 'sum' }).best).toEqual({
            score: 107,
            scoreAt: 3,
            streak: 5,
            streakAt: 1,
        });
        expect(applySubmit(first, 0, 2, 3, { operator: 'sum' }).best.scoreAt).toBe(1);
        const huge = { ...first, score: Number.MAX_SAFE_INTEGER - 1 };
        expect(applySubmit(huge, 9, 0, 3, { operator: 'sum' }).best.score).toBe(Number.MAX_SAFE_INTEGER);
        expect(addCapped(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
        for (const operator of ['latest', 'sum'] as const) {
            expect(applySubmit(first, 7, 2, 3, { operator }, true)).toEqual({
                best: first,
                changed: false,
                improved: false,
            });
            // Also where the entry is new (a period started between the play and its repeat).
            expect(applySubmit(undefined, 7, 2, 3, { operator }, true).changed).toBe(false);
        }
    });

    test('merging takes per-field maxima and the earlier time on ties', () => {
        const a = { score: 100, scoreAt: 5, streak: 1, streakAt: 5 };
        const b = { score: 100, scoreAt: 3, streak: 9, streakAt: 7 };
        expect(mergeBests(a, b)).toEqual({ score: 100, scoreAt: 3, streak: 9, streakAt: 7 });
        expect(mergeBests(undefined, b)).toBe(b);
        const c = { score: 40, scoreAt: 9, streak: 2, streakAt: 9 };
        expect(mergeBests(a, c, { sortOrder: 'asc' })).toEqual({ score: 40, scoreAt: 9, streak: 2, streakAt: 9 });
        expect(mergeBests(a, c, { operator: 'latest' }, 5, 9)).toBe(c);
        expect(mergeBests(a, c, { operator: 'latest' }, 9, 9)).toBe(a);
        expect(mergeBests(a, c, { operator: 'sum' })).toEqual({ score: 140, scoreAt: 9, streak: 2, streakAt: 9 });
    });
});

describe('pacing', () => {
    const last = { at: 1_000, score: 10, streak: 1, nickname: undefined, message: 'Score submitted.' };

    test('a different submit inside 2 s is limited; after 2 s it is fresh', () => {
        expect(pace(last, { score: 11, streak: 1 }, 1_000 + RATE_WINDOW_US - 1)).toEqual({ kind: 'limited' });
        expect(pace(last, { score: 11, streak: 1 }, 1_000 + RATE_WINDOW_US)).toEqual({ kind: 'fresh' });
        expect(pace(undefined, { score: 11, streak: 1 }, 0)).toEqual({ kind: 'fresh' });
    });

    test('an exact repeat inside the window is a retry with the same answer', () => {
        expect(pace(last, { score: 10, streak: 1 }, 2_000)).toEqual({ kind: 'retry', message: 'Score submitted.' });
        expect(pace(last, { score: 10, streak: 1, nickname: 'Bob' }, 2_000)).toEqual({ kind: 'limited' });
    });

    test('every accepted submit is a play, except an exact repeat within a few seconds (S5)', () => {
        const first = { at: 1_000, score: 10, streak: 1, message: 'Score submitted.' };
        expect(countsAsPlay(undefined, { score: 10, streak: 1 }, 5)).toBe(true);
        expect(countsAsPlay(first, { score: 10, streak: 1 }, 1_000 + PLAY_DEDUPE_US - 1)).toBe(false);
        expect(countsAsPlay(first, { score: 10, streak: 1 }, 1_000 + PLAY_DEDUPE_US)).toBe(true);
        expect(countsAsPlay(first, { score: 11, streak: 1 }, 1_000 + RATE_WINDOW_US + 100_000)).toBe(true);
        expect(countsAsPlay(first, { score: 10, streak: 2 }, 1_000 + RATE_WINDOW_US)).toBe(true);
    });
});

describe('validation', () => {
    test('game ids, player ids and API keys', () => {
        expect(checkGameId('my-game')).toBeUndefined();
        expect(checkGameId('My-Game')).toBeDefined();
        expect(checkGameId('ab')).toBeDefined();
        expect(checkPlayerId('dev_17000000000001_abcdef12')).toBeUndefined();
        expect(checkPlayerId('has space')).toBeDefined();
        expect(checkPlayerId('x'.repeat(101))).toBeDefined();
        expect(gameOfApiKey('key_my-game_12345678901234567890')).toBe('my-game');
        expect(gameOfApiKey('key_my-game_12')).toBeUndefined();
    });

    test('scores are non-negative integers up to 2^53 - 1', () => {
        expect(checkCount('score', 0)).toBeUndefined();
        expect(checkCount('score', Number.MAX_SAFE_INTEGER)).toBeUndefined();
        expect(checkCount('score', Number.MAX_SAFE_INTEGER + 1)).toMatch(/score/);
        expect(checkCount('score', -1)).toMatch(/score/);
        expect(checkCount('score', 1.5)).toMatch(/score/);
        expect(checkCount('streak', '5')).toMatch(/streak/);
    });
});
