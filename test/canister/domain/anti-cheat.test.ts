// Time validation and caps: tokens required when on (single-use, bound to player and game,
// expiring), minimum play time, score per second, caps; generic messages with reasons.
import { MESSAGES } from '../../../contract/messages';
import { checkSubmit, type PlaySession } from '../../../canister/domain/anti-cheat';

const RULES_MESSAGE = MESSAGES.scoreRules;
const STREAK_RULES_MESSAGE = MESSAGES.streakRules;

const S = 1e6; // µs
const on = {
    timeValidation: { enabled: true, minPlaySeconds: 10, maxScorePerSecond: 100, sessionLifetimeSeconds: 1800 },
    caps: {},
};
const off = { timeValidation: { ...on.timeValidation, enabled: false }, caps: { maxScore: 5000, maxStreak: 50 } };
const session: PlaySession = {
    token: 'ps_1',
    gameId: 'g',
    playerId: 'p',
    startedAt: 0,
    expiresAt: 1800 * S,
    used: false,
};
const submit = { gameId: 'g', playerId: 'p', score: 500, streak: 3, playSessionToken: 'ps_1' };

test('with time validation on, a submit without a token is rejected before any score check', () => {
    const v = checkSubmit(on, { ...submit, score: 10 ** 12, playSessionToken: undefined }, undefined, 60 * S);
    expect(v).toMatchObject({ ok: false, kind: 'session' });
    expect(v.ok === false && v.message).toMatch(/requires starting a session/);
    expect(v.ok === false && v.message).toMatch(/time validation/);
});

test('token problems mention the play session', () => {
    const cases: Array<[PlaySession | undefined, number]> = [
        [undefined, 60 * S],
        [{ ...session, playerId: 'other' }, 60 * S],
        [{ ...session, gameId: 'other' }, 60 * S],
        [{ ...session, used: true }, 60 * S],
        [session, 1800 * S],
    ];
    for (const [s, now] of cases) {
        const v = checkSubmit(on, submit, s, now);
        expect(v).toMatchObject({ ok: false, kind: 'session' });
        expect(v.ok === false && v.message).toMatch(/play session/);
    }
});

test('too short a play and too many points per second are rule failures with a reason', () => {
    const short = checkSubmit(on, submit, session, 5 * S);
    expect(short).toMatchObject({ ok: false, kind: 'rules', message: RULES_MESSAGE });
    expect(short.ok === false && short.kind === 'rules' && short.reason).toMatch(/minimum is 10 s/);
    const fast = checkSubmit(on, { ...submit, score: 3000 }, session, 20 * S);
    expect(fast.ok === false && fast.kind === 'rules' && fast.reason).toMatch(/per second/);
    expect(checkSubmit(on, { ...submit, score: 2000 }, session, 20 * S)).toEqual({ ok: true });
});

test('with time validation off, tokens are ignored; caps still apply', () => {
    expect(checkSubmit(off, { ...submit, playSessionToken: 'garbage' }, undefined, 0)).toEqual({ ok: true });
    expect(checkSubmit(off, { ...submit, score: 5001 }, undefined, 0)).toMatchObject({
        ok: false,
        kind: 'rules',
        message: RULES_MESSAGE,
    });
    expect(checkSubmit(off, { ...submit, streak: 51 }, undefined, 0)).toMatchObject({
        ok: false,
        kind: 'rules',
        message: STREAK_RULES_MESSAGE,
    });
    expect(checkSubmit(off, { ...submit, score: 5000, streak: 50 }, undefined, 0)).toEqual({ ok: true });
});

test('a minScore cap rejects a score below it (lowest-first boards), with the generic message and a reason', () => {
    const floor = { ...off, caps: { minScore: 1500 } };
    const zero = checkSubmit(floor, { ...submit, score: 0 }, undefined, 0);
    expect(zero).toEqual({
        ok: false,
        kind: 'rules',
        message: RULES_MESSAGE,
        reason: 'score 0 is below the cap of 1500',
    });
    expect(checkSubmit(floor, { ...submit, score: 1499 }, undefined, 0)).toMatchObject({ ok: false, kind: 'rules' });
    expect(checkSubmit(floor, { ...submit, score: 1500 }, undefined, 0)).toEqual({ ok: true });
    expect(checkSubmit(floor, { ...submit, score: 10 ** 9 }, undefined, 0)).toEqual({ ok: true });
    const both = { ...off, caps: { minScore: 10, maxScore: 20 } };
    expect(checkSubmit(both, { ...submit, score: 15 }, undefined, 0)).toEqual({ ok: true });
    expect(checkSubmit(both, { ...submit, score: 21 }, undefined, 0)).toMatchObject({ ok: false, kind: 'rules' });
    expect(checkSubmit(both, { ...submit, score: 9 }, undefined, 0)).toMatchObject({ ok: false, kind: 'rules' });
});
