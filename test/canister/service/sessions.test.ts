// Play sessions: the cap of 3 active per player, ending (idempotent, 404 for unknown or
// ended), expiry, and the sweep that keeps the state bounded.
import { endSession, startSession, sweepSessions } from '../../../canister/service/play-sessions';
import { setTimeValidation } from '../../../canister/service/games';
import { failure, harness, withGame, key } from './harness';

test('at most 3 active sessions per player and game; ending one frees a place', () => {
    const h = harness();
    withGame(h);
    const tokens = [1, 2, 3].map(
        () => startSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p1' }).ok,
    );
    expect(new Set(tokens).size).toBe(3);
    expect(tokens[0]).toMatch(/^ps_[0-9a-f]{32}$/);
    expect(failure(() => startSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p1' }))).toEqual({
        status: 400,
        message: 'Too many active play sessions. End or wait for current play sessions to expire.',
    });
    expect(startSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p2' }).ok).toBeDefined();
    expect(endSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playSessionToken: tokens[0] })).toEqual({
        message: 'Play session ended.',
    });
    expect(
        failure(() => endSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playSessionToken: tokens[0] }))
            .status,
    ).toBe(404);
    expect(
        failure(() => endSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playSessionToken: 'ps_unknown' }))
            .status,
    ).toBe(404);
    expect(startSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p1' }).ok).toBeDefined();
});

test('sessions expire after the game lifetime and the sweep removes them', () => {
    const h = harness();
    withGame(h);
    setTimeValidation(h, { gameId: 'my-game', sessionLifetimeSeconds: 60 });
    for (let i = 0; i < 3; i++) startSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p1' });
    h.advance(61);
    expect(startSession(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p1' }).ok).toBeDefined();
    expect(sweepSessions(h)).toBe(3);
    expect(h.store.sessions.size()).toBe(1);
    expect(h.store.sessionExpiry.size()).toBe(1);
    expect(sweepSessions(h)).toBe(0);
});
