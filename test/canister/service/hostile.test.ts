// What a holder of the public API key can try against the rules: board ids that are
// JavaScript built-in names, boards deleted and created again, retries under time validation,
// revoked keys and deactivated games, and flooding the suspicion log.
import {
    createBoard,
    deleteBoard,
    rotateKey,
    setCaps,
    setTimeValidation,
    updateGame,
} from '../../../canister/service/games';
import { profile, setNickname, unlockAchievements } from '../../../canister/service/players';
import { boardRank, readBoard } from '../../../canister/service/reads';
import { SUSPICION_KEEP, suspicionLog } from '../../../canister/service/scores';
import { endSession, startSession } from '../../../canister/service/play-sessions';
import { loadGames } from '../../../canister/state/startup';
import { expectSameAfterUpgrades, failure, harness, key, present, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';

function submit(h: Harness, s: Record<string, unknown>) {
    const [result] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, ...s }] });
    return result;
}

const BUILT_IN_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

test('board ids that are JavaScript built-in names are ordinary boards, also after an upgrade or a rebuild', () => {
    const h = harness();
    withGame(h);
    for (const id of BUILT_IN_NAMES) createBoard(h, { gameId: G, scoreboardId: id, type: 'targeted' });
    for (const id of BUILT_IN_NAMES) {
        expect(submit(h, { playerId: 'p1', score: 10, streak: 1, scoreboardId: id })).toMatchObject({ ok: {} });
        expect(submit(h, { playerId: 'p2', score: 20, streak: 2, scoreboardId: id })).toMatchObject({ ok: {} });
    }
    h.advance(3);
    // Not rate-limited forever: a new best 3 s later is accepted and stored as an entry.
    for (const id of BUILT_IN_NAMES)
        expect(submit(h, { playerId: 'p1', score: 30, streak: 1, scoreboardId: id })).toMatchObject({ ok: {} });
    const boards = () =>
        BUILT_IN_NAMES.map((id) =>
            readBoard(h, { gameId: G, boardId: id, limit: 10 }).entries.map((e) => [e.nickname, e.score]),
        );
    const expected = BUILT_IN_NAMES.map(() => [
        ['Player_1', 30],
        ['Player_2', 20],
    ]);
    expect(boards()).toEqual(expected);
    expect(boardRank(h, { gameId: G, boardId: '__proto__', playerId: 'p1' })).toMatchObject({
        found: true,
        rank: 1,
        score: 30,
    });
    expect(profile(h, { gameId: G, playerId: 'p1' }).gameProfile.playCount).toBe(10);
    expectSameAfterUpgrades(h, boards);
});

test('a deleted board stays deleted: a new board with its id starts empty, also after a rebuild', () => {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
    submit(h, { playerId: 'p1', score: 500, streak: 5, scoreboardId: 'level-1' });
    deleteBoard(h, { gameId: G, scoreboardId: 'level-1' });
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
    expect(readBoard(h, { gameId: G, boardId: 'level-1' }).totalEntries).toBe(0);
    expect(loadGames(h)).toBe('records');
    expect(readBoard(h, { gameId: G, boardId: 'level-1' }).totalEntries).toBe(0);
    // A returning player's new, lower submit is their entry: the old best does not hide it.
    h.advance(3);
    expect(submit(h, { playerId: 'p1', score: 40, streak: 1, scoreboardId: 'level-1' })).toMatchObject({ ok: {} });
    expect(readBoard(h, { gameId: G, boardId: 'level-1' }).entries).toEqual([
        expect.objectContaining({ score: 40, streak: 1 }),
    ]);
    expect(loadGames(h)).toBe('records');
    expect(readBoard(h, { gameId: G, boardId: 'level-1' }).entries).toEqual([
        expect.objectContaining({ score: 40, streak: 1 }),
    ]);
});

test('with time validation on, the exact retry of an accepted submit gets the same 200 answer (rule S5)', () => {
    const h = harness();
    withGame(h);
    setTimeValidation(h, { gameId: G, enabled: true });
    const { ok: token } = startSession(h, { apiKey: key(h, G), gameId: G, playerId: 'p1' });
    h.advance(10);
    const first = submit(h, { playerId: 'p1', score: 77, streak: 3, playSessionToken: token });
    expect(first).toMatchObject({ ok: {} });
    h.advance(1);
    expect(submit(h, { playerId: 'p1', score: 77, streak: 3, playSessionToken: token })).toEqual(first);
    expect(profile(h, { gameId: G, playerId: 'p1' }).gameProfile.playCount).toBe(1);
    h.advance(2);
    // Outside the window the token is used up, as before.
    expect(submit(h, { playerId: 'p1', score: 77, streak: 3, playSessionToken: token })).toMatchObject({
        err: { message: expect.stringMatching(/play session/) },
    });
});

test('a rotated key and a deactivated game fail at once on every write', () => {
    const h = harness();
    const old = withGame(h);
    submit(h, { playerId: 'p1', score: 1, streak: 0 });
    const token = startSession(h, { apiKey: old, gameId: G, playerId: 'p1' }).ok;
    rotateKey(h, { gameId: G });
    const writes = (apiKey: string) => [
        () => {
            const [r] = submitBatch(h, { submits: [{ apiKey, gameId: G, playerId: 'p1', score: 5, streak: 0 }] });
            if ('err' in r) throw Object.assign(new Error(r.err.message), r.err);
        },
        () => setNickname(h, { apiKey, gameId: G, playerId: 'p1', nickname: 'Renamed' }),
        () => unlockAchievements(h, { apiKey, gameId: G, playerId: 'p1', achievementIds: ['a'] }),
        () => startSession(h, { apiKey, gameId: G, playerId: 'p2' }),
        () => endSession(h, { apiKey, gameId: G, playSessionToken: token }),
    ];
    const statusOf = (fn: () => unknown): number => {
        try {
            fn();
            return 200;
        } catch (e) {
            return (e as { status: number }).status;
        }
    };
    expect(writes(old).map(statusOf)).toEqual([401, 401, 401, 401, 401]);
    expect(writes('key_other-game_12345678901234567890').map(statusOf)).toEqual([401, 401, 401, 401, 401]);
    updateGame(h, { gameId: G, isActive: false });
    expect(writes(key(h, G)).map(statusOf)).toEqual([403, 403, 403, 403, 403]);
    expect(profile(h, { gameId: G, playerId: 'p1' })).toMatchObject({
        nickname: 'Player_1',
        gameProfile: { score: 1, achievements: [] },
    });
    expect(
        failure(() => setNickname(h, { apiKey: undefined, gameId: G, playerId: 'p1', nickname: 'Renamed' })).status,
    ).toBe(401);
});

test('the suspicion log: rejections are paced per player and board, one entry per player with a count', () => {
    const h = harness();
    withGame(h);
    setCaps(h, { gameId: G, maxScore: 100 });
    submit(h, { playerId: 'honest', score: 1000, streak: 0 });
    // One key holder floods from one player id: one entry, every further try within 2 s refused.
    for (let i = 0; i < 2000; i++) {
        const reply = submit(h, { playerId: 'flood', score: 1000 + i, streak: 0 });
        expect(reply).toEqual({
            err: {
                status: 400,
                message:
                    i === 0 ? 'Score rejected by game validation rules' : 'Please wait 2 seconds between submissions.',
            },
        });
    }
    // ... and over a long time still only one entry, with the count.
    for (let i = 0; i < 50; i++) {
        h.advance(2);
        submit(h, { playerId: 'flood', score: 5000 + i, streak: 0 });
    }
    const log = present(suspicionLog(h, { gameId: G, limit: SUSPICION_KEEP }));
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ playerId: 'flood', count: 51, score: 5049 });
    expect(log[0].firstAt).toBeLessThan(log[0].at);
    expect(log[1]).toMatchObject({ playerId: 'honest', count: 1, score: 1000 });
});

test('the suspicion log stays bounded when players come and go', () => {
    const h = harness();
    withGame(h);
    setCaps(h, { gameId: G, maxScore: 1 });
    for (let i = 0; i < SUSPICION_KEEP + 300; i++) submit(h, { playerId: `p${i}`, score: 5, streak: 0 });
    expect(suspicionLog(h, { gameId: G, limit: SUSPICION_KEEP })).toHaveLength(SUSPICION_KEEP);
    // Pointers of players pushed out of the log are dropped with their entries.
    expect(h.store.suspects.size()).toBe(SUSPICION_KEEP);
    h.advance(3);
    submit(h, { playerId: 'p0', score: 5, streak: 0 });
    expect(suspicionLog(h, { gameId: G, limit: 1 })[0]).toMatchObject({ playerId: 'p0', count: 1 });
});
