// Games: registration with the standard boards and an unguessable key, key lookup and
// rotation, the per-developer allowance, settings, extra boards.
import {
    createBoard,
    deleteBoard,
    listGames,
    registerGame,
    resolveKey,
    rotateKey,
    setAllowance,
    setCaps,
    setTimeValidation,
    updateGame,
} from '../../../canister/service/games';
import { gameInfo, listBoards } from '../../../canister/service/reads';
import { failure, harness, withGame } from './harness';

test('registration creates all-time, weekly and daily boards and a key_<gameId>_<digits> API key', () => {
    const h = harness();
    const apiKey = withGame(h, 'space-race');
    expect(apiKey).toMatch(/^key_space-race_\d{32}$/);
    expect(resolveKey(h, apiKey)).toEqual({ gameId: 'space-race', isActive: true });
    expect(
        listBoards(h, { gameId: 'space-race' }).scoreboards.map((b) => [
            b.scoreboardId,
            b.period,
            b.sortBy,
            b.targeted,
        ]),
    ).toEqual([
        ['all-time', 'allTime', 'score', false],
        ['weekly', 'weekly', 'score', false],
        ['daily', 'daily', 'score', false],
    ]);
    expect(gameInfo(h, { gameId: 'space-race' })).toMatchObject({
        timeValidationEnabled: false,
        totalPlayers: 0,
        isActive: true,
    });
});

test('names reject control characters and broken Unicode', () => {
    const h = harness();
    expect(failure(() => registerGame(h, { developerId: 'd', gameId: 'ctl-game', name: 'bad\u0001name' }))).toEqual({
        status: 400,
        message: 'Invalid name: must not contain control characters',
    });
    expect(failure(() => registerGame(h, { developerId: 'd', gameId: 'ctl-game', name: 'half \ud800' })).status).toBe(
        400,
    );
    expect(registerGame(h, { developerId: 'd', gameId: 'ctl-game', name: 'Ünïcödé 🎮' }).game.name).toBe('Ünïcödé 🎮');
});

test('game ids follow the 3-50 [a-z0-9-] rule and are unique', () => {
    const h = harness();
    for (const bad of ['ab', 'Upper', 'has_underscore', 'x'.repeat(51)]) {
        expect(failure(() => registerGame(h, { developerId: 'd', gameId: bad, name: 'N' })).status).toBe(400);
    }
    withGame(h, 'taken');
    expect(failure(() => registerGame(h, { developerId: 'other', gameId: 'taken', name: 'N' }))).toEqual({
        status: 409,
        message: "Game ID 'taken' is already taken.",
    });
});

test('three games per developer by default, more with a larger allowance', () => {
    const h = harness();
    for (const id of ['g-1', 'g-2', 'g-3']) registerGame(h, { developerId: 'dev', gameId: id, name: id });
    expect(failure(() => registerGame(h, { developerId: 'dev', gameId: 'g-4', name: 'x' })).status).toBe(403);
    setAllowance(h, { developerId: 'dev', allowance: 4 });
    registerGame(h, { developerId: 'dev', gameId: 'g-4', name: 'x' });
    expect(listGames(h, { developerId: 'dev' }).map((g) => g.gameId)).toEqual(['g-1', 'g-2', 'g-3', 'g-4']);
});

test('rotating the key stops the old one; unknown and malformed keys are 401', () => {
    const h = harness();
    const old = withGame(h);
    const fresh = rotateKey(h, { gameId: 'my-game' });
    expect(fresh).not.toBe(old);
    expect(failure(() => resolveKey(h, old))).toEqual({ status: 401, message: 'Invalid API key' });
    expect(resolveKey(h, fresh).gameId).toBe('my-game');
    expect(failure(() => resolveKey(h, 'key_my-game_123')).status).toBe(401);
    expect(failure(() => resolveKey(h, 42)).status).toBe(401);
});

test('deactivating a game shows in key lookups (the gateway answers 403)', () => {
    const h = harness();
    const key = withGame(h);
    updateGame(h, { gameId: 'my-game', isActive: false });
    expect(resolveKey(h, key)).toEqual({ gameId: 'my-game', isActive: false });
});

test('settings validate their values; caps can be cleared', () => {
    const h = harness();
    withGame(h);
    expect(setTimeValidation(h, { gameId: 'my-game', enabled: true, minPlaySeconds: 20 })).toMatchObject({
        enabled: true,
        minPlaySeconds: 20,
        sessionLifetimeSeconds: 1800,
    });
    expect(failure(() => setTimeValidation(h, { gameId: 'my-game', sessionLifetimeSeconds: 5 })).status).toBe(400);
    expect(setCaps(h, { gameId: 'my-game', maxScore: 10 })).toEqual({ maxScore: 10 });
    expect(setCaps(h, { gameId: 'my-game', maxScore: null, maxStreak: 3 })).toEqual({ maxStreak: 3 });
    expect(failure(() => setCaps(h, { gameId: 'my-game', maxScore: -1 })).status).toBe(400);
    expect(gameInfo(h, { gameId: 'my-game' }).timeValidationEnabled).toBe(true);
});

test('a minScore cap is set, kept, cleared by null, and refused above maxScore', () => {
    const h = harness();
    withGame(h);
    expect(setCaps(h, { gameId: 'my-game', minScore: 1500 })).toEqual({ minScore: 1500 });
    expect(setCaps(h, { gameId: 'my-game', maxScore: 90_000 })).toEqual({ minScore: 1500, maxScore: 90_000 });
    expect(failure(() => setCaps(h, { gameId: 'my-game', minScore: -1 })).message).toMatch(/Invalid minScore/);
    expect(failure(() => setCaps(h, { gameId: 'my-game', minScore: 1.5 })).status).toBe(400);
    for (const bad of ['1500', true, {}, Number.NaN, Infinity, 2 ** 53])
        expect(failure(() => setCaps(h, { gameId: 'my-game', minScore: bad as never })).message).toMatch(
            /^Invalid minScore/,
        );
    const above = failure(() => setCaps(h, { gameId: 'my-game', minScore: 90_001 }));
    expect(above.status).toBe(400);
    expect(above.message).toBe('Invalid minScore: must not be above maxScore (90000)');
    const below = failure(() => setCaps(h, { gameId: 'my-game', maxScore: 1499 }));
    expect(below.message).toBe('Invalid minScore: must not be above maxScore (1499)');
    expect(setCaps(h, { gameId: 'my-game' })).toEqual({ minScore: 1500, maxScore: 90_000 });
    expect(setCaps(h, { gameId: 'my-game', minScore: 90_000 })).toEqual({ minScore: 90_000, maxScore: 90_000 });
    expect(setCaps(h, { gameId: 'my-game', minScore: null })).toEqual({ maxScore: 90_000 });
    expect(setCaps(h, { gameId: 'my-game', minScore: 0, maxScore: null })).toEqual({ minScore: 0 });
});

test('extra boards: targeted, monthly and custom; standard ids are reserved; deletion removes them', () => {
    const h = harness();
    withGame(h);
    expect(
        createBoard(h, { gameId: 'my-game', scoreboardId: 'level-1', type: 'targeted', sortBy: 'streak' }),
    ).toMatchObject({ targeted: true, period: 'allTime', sortBy: 'streak' });
    expect(createBoard(h, { gameId: 'my-game', scoreboardId: 'month', type: 'monthly' })).toMatchObject({
        targeted: false,
        period: 'monthly',
    });
    expect(createBoard(h, { gameId: 'my-game', scoreboardId: 'fortnight', type: 'custom', days: 14 })).toMatchObject({
        period: 'custom',
        days: 14,
    });
    expect(failure(() => createBoard(h, { gameId: 'my-game', scoreboardId: 'weekly', type: 'targeted' })).status).toBe(
        400,
    );
    expect(failure(() => createBoard(h, { gameId: 'my-game', scoreboardId: 'level-1', type: 'targeted' })).status).toBe(
        409,
    );
    expect(failure(() => createBoard(h, { gameId: 'my-game', scoreboardId: 'bad id', type: 'targeted' })).status).toBe(
        400,
    );
    expect(failure(() => createBoard(h, { gameId: 'my-game', scoreboardId: 'x', type: 'weird' })).status).toBe(400);
    deleteBoard(h, { gameId: 'my-game', scoreboardId: 'level-1' });
    expect(listBoards(h, { gameId: 'my-game' }).scoreboards.map((b) => b.scoreboardId)).toEqual([
        'all-time',
        'weekly',
        'daily',
        'month',
        'fortnight',
    ]);
    expect(failure(() => deleteBoard(h, { gameId: 'my-game', scoreboardId: 'daily' })).status).toBe(400);
});
