// The score pipeline on the service: S1-S6, N1, the rate limit and retries, play counting,
// time validation and caps with the suspicion log, and that rejected submits change nothing.
import { createBoard, setCaps, setTimeValidation } from '../../../canister/service/games';
import { profile } from '../../../canister/service/players';
import { leaderboard, readBoard } from '../../../canister/service/reads';
import { suspicionLog } from '../../../canister/service/scores';
import { startSession } from '../../../canister/service/play-sessions';
import { gameStats } from '../../../canister/service/reads';
import { harness, withGame, type Harness, key } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';

function submit(h: Harness, s: Record<string, unknown>) {
    const [result] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, ...s }] });
    return result;
}

test('a first submit creates the profile with a Player_<n> name; later submits keep bests as independent maxima (S1)', () => {
    const h = harness();
    withGame(h);
    expect(submit(h, { playerId: 'p1', score: 100, streak: 7 })).toMatchObject({
        ok: { message: expect.stringMatching(/Player_1/) },
    });
    h.advance(6);
    expect(submit(h, { playerId: 'p1', score: 150, streak: 2 })).toMatchObject({ ok: {} });
    h.advance(6);
    expect(submit(h, { playerId: 'p1', score: 50, streak: 1 })).toMatchObject({ ok: {} });
    const p = profile(h, { gameId: G, playerId: 'p1' });
    expect(p.nickname).toBe('Player_1');
    expect(p.gameProfile).toMatchObject({ score: 150, streak: 7, playCount: 3 });
    for (const board of ['all-time', 'weekly', 'daily']) {
        expect(readBoard(h, { gameId: G, boardId: board }).entries).toEqual([
            expect.objectContaining({ rank: 1, score: 150, streak: 7 }),
        ]);
    }
});

test('ranks are 1-based and distinct; ties go to whoever reached the value first', () => {
    const h = harness();
    withGame(h);
    submit(h, { playerId: 'late', score: 10, streak: 0 });
    h.advance(1);
    submit(h, { playerId: 'early', score: 5, streak: 0 });
    h.advance(3);
    submit(h, { playerId: 'early', score: 10, streak: 0 }); // reaches 10 after 'late' did
    submit(h, { playerId: 'top', score: 99, streak: 0 });
    const board = leaderboard(h, { gameId: G, sort: 'score', limit: 10 });
    expect(board.total).toBe(3);
    expect(board.leaderboard.map((e) => [e.rank, e.score])).toEqual([
        [1, 99],
        [2, 10],
        [3, 10],
    ]);
    expect(board.leaderboard[1].nickname).toBe('Player_1');
});

test('a targeted submit writes only that board and counts a play; the profile aggregate stays (S2)', () => {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
    submit(h, { playerId: 'p1', score: 10, streak: 1 });
    h.advance(1);
    expect(submit(h, { playerId: 'p1', score: 500, streak: 9, scoreboardId: 'level-1' })).toMatchObject({ ok: {} });
    expect(readBoard(h, { gameId: G, boardId: 'level-1' }).entries[0]).toMatchObject({ score: 500, streak: 9 });
    expect(readBoard(h, { gameId: G, boardId: 'weekly' }).entries[0]).toMatchObject({ score: 10 });
    expect(profile(h, { gameId: G, playerId: 'p1' }).gameProfile).toMatchObject({ score: 10, streak: 1, playCount: 2 });
    h.advance(10);
    submit(h, { playerId: 'p1', score: 501, streak: 9, scoreboardId: 'level-1' });
    expect(profile(h, { gameId: G, playerId: 'p1' }).gameProfile.playCount).toBe(3);
});

test('standard boards cannot be targeted and missing boards are named in the error (S3, S4); nothing is created', () => {
    const h = harness();
    withGame(h);
    expect(submit(h, { playerId: 'p1', score: 1, streak: 0, scoreboardId: 'weekly' })).toMatchObject({
        err: { status: 400 },
    });
    expect(submit(h, { playerId: 'p1', score: 1, streak: 0, scoreboardId: 'nope' })).toEqual({
        err: { status: 404, message: "Scoreboard 'nope' not found for this game." },
    });
    expect(() => profile(h, { gameId: G, playerId: 'p1' })).toThrow('Player not found');
});

test('rule N1: a free name renames, a taken one is ignored (first submit falls back to a default), no name leaves it alone', () => {
    const h = harness();
    withGame(h);
    submit(h, { playerId: 'alice', score: 1, streak: 0, nickname: 'Alice' });
    submit(h, { playerId: 'bob', score: 1, streak: 0, nickname: 'alice' });
    expect(profile(h, { gameId: G, playerId: 'bob' }).nickname).toMatch(/^Player_\d+$/);
    h.advance(3);
    expect(submit(h, { playerId: 'bob', score: 2, streak: 0, nickname: 'ALICE' })).toMatchObject({ ok: {} });
    expect(profile(h, { gameId: G, playerId: 'bob' }).nickname).toMatch(/^Player_\d+$/);
    h.advance(3);
    submit(h, { playerId: 'bob', score: 3, streak: 0, nickname: 'Bobby' });
    expect(profile(h, { gameId: G, playerId: 'bob' }).nickname).toBe('Bobby');
    h.advance(3);
    submit(h, { playerId: 'bob', score: 4, streak: 0 });
    expect(profile(h, { gameId: G, playerId: 'bob' }).nickname).toBe('Bobby');
    // Renaming freed 'Player_<n>'-style and old names for others: Alice's old default is not involved.
    expect(
        readBoard(h, { gameId: G, boardId: 'all-time' })
            .entries.map((e) => e.nickname)
            .sort(),
    ).toEqual(['Alice', 'Bobby']);
});

test('an invalid nickname on a submit is a 400 and changes nothing (N3)', () => {
    const h = harness();
    withGame(h);
    expect(submit(h, { playerId: 'p1', score: 1, streak: 0, nickname: 'x' })).toEqual({
        err: { status: 400, message: 'Nickname must be at least 3 characters' },
    });
    expect(() => profile(h, { gameId: G, playerId: 'p1' })).toThrow('Player not found');
});

test('2 s rate limit per player per board; an exact repeat is a retry that changes nothing; other boards are not limited', () => {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
    const first = submit(h, { playerId: 'p1', score: 10, streak: 1 });
    h.advance(1);
    expect(submit(h, { playerId: 'p1', score: 10, streak: 1 })).toEqual(first);
    expect(submit(h, { playerId: 'p1', score: 11, streak: 1 })).toEqual({
        err: { status: 400, message: 'Please wait 2 seconds between submissions.' },
    });
    expect(submit(h, { playerId: 'p1', score: 11, streak: 1, scoreboardId: 'level-1' })).toMatchObject({ ok: {} });
    // The retry and the limited submit counted no play; the targeted one did.
    expect(profile(h, { gameId: G, playerId: 'p1' }).gameProfile).toMatchObject({ score: 10, playCount: 2 });
    h.advance(1);
    expect(submit(h, { playerId: 'p1', score: 11, streak: 1 })).toMatchObject({ ok: {} });
});

test('every accepted submit is a play, except an exact repeat within a few seconds (S5)', () => {
    const h = harness();
    withGame(h);
    const plays = (): number => profile(h, { gameId: G, playerId: 'p1' }).gameProfile.playCount;
    submit(h, { playerId: 'p1', score: 10, streak: 1 });
    h.advance(3);
    submit(h, { playerId: 'p1', score: 10, streak: 1 }); // the same submit 3 s later: a repeat
    expect(plays()).toBe(1);
    h.advance(12);
    submit(h, { playerId: 'p1', score: 10, streak: 1 }); // the same submit 12 s later: a new play
    expect(plays()).toBe(2);
    h.advance(2.1);
    submit(h, { playerId: 'p1', score: 7, streak: 1 }); // a different submit 2.1 s later: a play
    expect(plays()).toBe(3);
    h.advance(2.1);
    submit(h, { playerId: 'p1', score: 7, streak: 2 });
    expect(plays()).toBe(4);
    expect(gameStats(h, { gameId: G })).toMatchObject({
        totalPlayers: 1,
        totalPlays: 4,
        submissions: { total: 5, today: 5 },
    });
});

test('caps reject with the generic message, log the reason for the developer, and change nothing (S6)', () => {
    const h = harness();
    withGame(h);
    setCaps(h, { gameId: G, maxScore: 1000, maxStreak: 10 });
    expect(submit(h, { playerId: 'p1', score: 1001, streak: 0 })).toEqual({
        err: { status: 400, message: 'Score rejected by game validation rules' },
    });
    expect(submit(h, { playerId: 'p2', score: 1, streak: 11 })).toEqual({
        err: { status: 400, message: 'Streak rejected by game validation rules' },
    });
    expect(() => profile(h, { gameId: G, playerId: 'p1' })).toThrow('Player not found');
    const log = suspicionLog(h, { gameId: G });
    expect(log.map((e) => [e.playerId, e.reason, e.count])).toEqual([
        ['p2', 'streak 11 is above the cap of 10', 1],
        ['p1', 'score 1001 is above the cap of 1000', 1],
    ]);
    expect(submit(h, { playerId: 'p1', score: 1000, streak: 10 })).toMatchObject({ ok: {} });
});

test('a minScore cap refuses a 0 on a lowest-first board like a cap from above: logged, nothing stored', () => {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'lap-1', type: 'targeted', sortOrder: 'asc' });
    setCaps(h, { gameId: G, minScore: 1500 });
    const lap = (playerId: string, score: number) => submit(h, { playerId, score, streak: 0, scoreboardId: 'lap-1' });
    expect(lap('cheat', 0)).toEqual({ err: { status: 400, message: 'Score rejected by game validation rules' } });
    expect(submit(h, { playerId: 'cheat2', score: 1499, streak: 0 })).toEqual({
        err: { status: 400, message: 'Score rejected by game validation rules' },
    });
    expect(() => profile(h, { gameId: G, playerId: 'cheat' })).toThrow('Player not found');
    expect(readBoard(h, { gameId: G, boardId: 'lap-1' }).entries).toEqual([]);
    expect(suspicionLog(h, { gameId: G }).map((e) => [e.playerId, e.scoreboardId, e.reason])).toEqual([
        ['cheat2', undefined, 'score 1499 is below the cap of 1500'],
        ['cheat', 'lap-1', 'score 0 is below the cap of 1500'],
    ]);
    expect(lap('human', 1500)).toMatchObject({ ok: {} });
    h.advance(6);
    expect(lap('human2', 83_456)).toMatchObject({ ok: {} });
    expect(readBoard(h, { gameId: G, boardId: 'lap-1' }).entries.map((e) => [e.rank, e.score])).toEqual([
        [1, 1500],
        [2, 83_456],
    ]);
});

test('time validation: token required, single-use, bound to the player, with minimum play time', () => {
    const h = harness();
    withGame(h);
    setTimeValidation(h, { gameId: G, enabled: true, minPlaySeconds: 30, maxScorePerSecond: 10 });
    expect(submit(h, { playerId: 'p1', score: 100, streak: 0 })).toMatchObject({
        err: { status: 400, message: expect.stringMatching(/requires starting a session/) },
    });
    const { ok: token } = startSession(h, { apiKey: key(h, G), gameId: G, playerId: 'p1' });
    h.advance(5);
    expect(submit(h, { playerId: 'p1', score: 10, streak: 0, playSessionToken: token })).toEqual({
        err: { status: 400, message: 'Score rejected by game validation rules' },
    });
    expect(submit(h, { playerId: 'p2', score: 10, streak: 0, playSessionToken: token })).toMatchObject({
        err: { message: expect.stringMatching(/play session/) },
    });
    h.advance(60);
    expect(submit(h, { playerId: 'p1', score: 900, streak: 0, playSessionToken: token })).toEqual({
        err: { status: 400, message: 'Score rejected by game validation rules' },
    });
    expect(submit(h, { playerId: 'p1', score: 100, streak: 0, playSessionToken: token })).toMatchObject({ ok: {} });
    h.advance(3);
    expect(submit(h, { playerId: 'p1', score: 101, streak: 0, playSessionToken: token })).toMatchObject({
        err: { message: expect.stringMatching(/play session/) },
    });
    // One player, one board key: one entry with the latest reason and a count.
    expect(suspicionLog(h, { gameId: G })).toEqual([
        expect.objectContaining({ playerId: 'p1', count: 2, score: 900, reason: expect.stringMatching(/per second/) }),
    ]);
});

test('a batch is a list of independent submits: one failure does not stop the others', () => {
    const h = harness();
    withGame(h);
    const results = submitBatch(h, {
        submits: [
            { apiKey: key(h, G), gameId: G, playerId: 'a', score: 1, streak: 0 },
            { apiKey: key(h, G), gameId: G, playerId: 'b', score: -1, streak: 0 },
            { apiKey: key(h, 'no-such-game'), gameId: 'no-such-game', playerId: 'c', score: 1, streak: 0 },
            { apiKey: key(h, G), gameId: G, playerId: 'd', score: 2, streak: 0 },
        ],
    });
    expect(results.map((r) => ('ok' in r ? 'ok' : r.err.status))).toEqual(['ok', 400, 401, 'ok']);
    expect(leaderboard(h, { gameId: G }).total).toBe(2);
});
