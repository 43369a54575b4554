// Boards' order and operator (issue 24 §1-2): lower-is-better boards, `latest` and `sum`
// boards, in every order x operator combination; retries under `sum`; streaks stay maxima;
// the standard boards and the profile following the game setting; the 409 refusal; rollover,
// archives, merges, moderation and upgrades (snapshot and rebuild) keeping the order.
import { sessionProfile, signIn } from '../../../canister/service/accounts';
import { developerSignIn, registerOwnGame, resetOwnBoard } from '../../../canister/service/developers';
import { createBoard, setCaps, updateBoard, updateGame } from '../../../canister/service/games';
import { migrateAccount } from '../../../canister/service/merge';
import { removeBoardEntry, wipePlayer } from '../../../canister/service/moderation';
import { profile } from '../../../canister/service/players';
import { boardRank, leaderboard, playerRank, readArchive, readBoard } from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { writeSnapshot } from '../../../canister/state/snapshot';
import { loadGames, rebuildSome } from '../../../canister/state/startup';
import type { Operator, SortOrder } from '../../../contract/board-options';
import { failure, harness, hashOf, key, person, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const DAY = 86_400;

function send(h: Harness, playerId: string, score: number, streak = 0, extra: Record<string, unknown> = {}) {
    const [r] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak, ...extra }] });
    return r;
}

/** An accepted submit's message (throws on an error). */
function submit(h: Harness, playerId: string, score: number, streak = 0, extra: Record<string, unknown> = {}): string {
    const r = send(h, playerId, score, streak, extra);
    if (!('ok' in r)) throw new Error(r.err.message);
    return r.ok.message;
}

/** A board's entries as [nickname, score, streak], rank order. */
const rows = (h: Harness, boardId: string) =>
    readBoard(h, { gameId: G, boardId, limit: 100 }).entries.map((e) => [e.nickname, e.score, e.streak]);

/** A game with players A, B (named so) and a targeted board 'level' of the given kind. */
function game(sortOrder: SortOrder, operator: Operator, boardId = 'level'): Harness {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: boardId, type: 'targeted', sortOrder, operator });
    submit(h, 'a', 1, 0, { nickname: 'Ann' });
    submit(h, 'b', 1, 0, { nickname: 'Bob' });
    h.advance(6);
    return h;
}

describe('every order x operator combination on a targeted board', () => {
    // A scores 50 (streak 3), B 30 (streak 1), then A 20 (streak 1).
    // Each case: the board's rows in rank order, as "nickname score streak" separated by " | ".
    const cases: Array<[SortOrder, Operator, string]> = [
        ['desc', 'best', 'Ann 50 3 | Bob 30 1'],
        ['asc', 'best', 'Ann 20 3 | Bob 30 1'],
        ['desc', 'latest', 'Bob 30 1 | Ann 20 1'],
        ['asc', 'latest', 'Ann 20 1 | Bob 30 1'],
        ['desc', 'sum', 'Ann 70 3 | Bob 30 1'],
        ['asc', 'sum', 'Bob 30 1 | Ann 70 3'],
    ];
    test.each(cases)('%s / %s: %s', (sortOrder, operator, table) => {
        const expected = table.split(' | ').map((row): [string, number, number] => {
            const [nickname, score, streak] = row.split(' ');
            return [nickname, Number(score), Number(streak)];
        });
        const h = game(sortOrder, operator);
        submit(h, 'a', 50, 3, { scoreboardId: 'level' });
        submit(h, 'b', 30, 1, { scoreboardId: 'level' });
        h.advance(6);
        const message = submit(h, 'a', 20, 1, { scoreboardId: 'level' });
        expect(rows(h, 'level')).toEqual(expected);
        // The improved message: a new best by the order on `best` boards; plain otherwise.
        expect(message).toBe(
            sortOrder === 'asc' && operator === 'best' ? 'Score submitted: new personal best!' : 'Score submitted.',
        );
        const [first] = expected;
        const rank = boardRank(h, { gameId: G, boardId: 'level', playerId: first[0] === 'Ann' ? 'a' : 'b' });
        expect(rank).toMatchObject({ found: true, rank: 1, score: first[1], totalPlayers: 2 });
        // Plays count as today, and the targeted board leaves the profile's bests alone (S2).
        expect(profile(h, { gameId: G, playerId: 'a' }).gameProfile).toMatchObject({ score: 1, playCount: 3 });
    });
});

test('lower-is-better: a lower score moves the player up, a slower time never replaces a faster one', () => {
    const h = game('asc', 'best', 'time-trial');
    const at = (playerId: string) => boardRank(h, { gameId: G, boardId: 'time-trial', playerId });
    submit(h, 'a', 50_000, 0, { scoreboardId: 'time-trial' });
    submit(h, 'b', 40_000, 0, { scoreboardId: 'time-trial' });
    expect(at('a')).toMatchObject({ rank: 2, score: 50_000 });
    h.advance(6);
    expect(submit(h, 'a', 30_000, 0, { scoreboardId: 'time-trial' })).toBe('Score submitted: new personal best!');
    expect(at('a')).toMatchObject({ rank: 1, score: 30_000 });
    expect(at('b')).toMatchObject({ rank: 2, score: 40_000 });
    h.advance(6);
    expect(submit(h, 'a', 90_000, 0, { scoreboardId: 'time-trial' })).toBe('Score submitted.');
    expect(at('a')).toMatchObject({ rank: 1, score: 30_000 });
    // A tie goes to whoever reached the time first.
    h.advance(6);
    submit(h, 'b', 30_000, 0, { scoreboardId: 'time-trial' });
    expect(rows(h, 'time-trial').map(([n]) => n)).toEqual(['Ann', 'Bob']);
});

test('latest: the last submit replaces a better value, score and streak alike; ties go to who reached the value first', () => {
    const h = game('desc', 'latest');
    submit(h, 'a', 100, 9, { scoreboardId: 'level' });
    submit(h, 'b', 50, 1, { scoreboardId: 'level' });
    h.advance(6);
    submit(h, 'a', 10, 2, { scoreboardId: 'level' });
    expect(rows(h, 'level')).toEqual([
        ['Bob', 50, 1],
        ['Ann', 10, 2],
    ]);
    // A and B at 50: B has been there longer. A submitting 50 again does not make it newer.
    h.advance(6);
    submit(h, 'a', 50, 2, { scoreboardId: 'level' });
    h.advance(6);
    submit(h, 'b', 50, 1, { scoreboardId: 'level' });
    expect(rows(h, 'level').map(([n]) => n)).toEqual(['Bob', 'Ann']);
});

test('sum: each accepted submit adds; an exact retry inside the window adds nothing and is no extra play (S5)', () => {
    const h = game('desc', 'sum', 'coins');
    const total = () => readBoard(h, { gameId: G, boardId: 'coins' }).entries[0]?.score;
    const plays = () => profile(h, { gameId: G, playerId: 'a' }).gameProfile.playCount;
    const first = submit(h, 'a', 10, 1, { scoreboardId: 'coins' });
    expect([total(), plays()]).toEqual([10, 2]);
    // The client did not get the answer and sends the same submit again, 1 s later: the same answer, nothing added.
    h.advance(1);
    expect(submit(h, 'a', 10, 1, { scoreboardId: 'coins' })).toBe(first);
    // Again 3 s later (past the 2 s rate window, inside the play window): the same play, nothing added.
    h.advance(2);
    expect(submit(h, 'a', 10, 1, { scoreboardId: 'coins' })).toBe('Score submitted.');
    expect([total(), plays()]).toEqual([10, 2]);
    // Another submit inside 2 s is refused and adds nothing.
    h.advance(1);
    expect(send(h, 'a', 5, 1, { scoreboardId: 'coins' })).toEqual({
        err: { status: 400, message: 'Please wait 2 seconds between submissions.' },
    });
    expect(total()).toBe(10);
    // A well-spaced duplicate is a new play and adds.
    h.advance(6);
    submit(h, 'a', 10, 1, { scoreboardId: 'coins' });
    expect([total(), plays()]).toEqual([20, 3]);
    h.advance(3);
    submit(h, 'a', 7, 0, { scoreboardId: 'coins' });
    expect(rows(h, 'coins')).toEqual([['Ann', 27, 1]]);
});

test('sum: a repeat that straddles midnight is still the same play: the new day gets nothing', () => {
    const h = harness('2026-03-04T23:59:58Z');
    withGame(h);
    updateGame(h, { gameId: G, standardBoards: { operator: 'sum' } });
    submit(h, 'a', 10);
    h.advance(3);
    submit(h, 'a', 10);
    expect(rows(h, 'daily')).toEqual([]);
    expect(rows(h, 'all-time').map(([, s]) => s)).toEqual([10]);
    h.advance(6);
    submit(h, 'a', 10);
    expect(rows(h, 'daily').map(([, s]) => s)).toEqual([10]);
    expect(rows(h, 'all-time').map(([, s]) => s)).toEqual([20]);
});

test('sum: exact integers, saturating at Number.MAX_SAFE_INTEGER; maxScore caps each submit, not the total', () => {
    const h = game('desc', 'sum', 'coins');
    setCaps(h, { gameId: G, maxScore: 100 });
    expect(send(h, 'a', 101, 0, { scoreboardId: 'coins' })).toEqual({
        err: { status: 400, message: 'Score rejected by game validation rules' },
    });
    for (let i = 0; i < 3; i++) {
        submit(h, 'a', 100, i, { scoreboardId: 'coins' });
        h.advance(6);
    }
    expect(rows(h, 'coins')).toEqual([['Ann', 300, 2]]);
    setCaps(h, { gameId: G, maxScore: null });
    submit(h, 'b', Number.MAX_SAFE_INTEGER - 1, 0, { scoreboardId: 'coins' });
    h.advance(6);
    submit(h, 'b', 5, 0, { scoreboardId: 'coins' });
    h.advance(6);
    submit(h, 'b', 5, 1, { scoreboardId: 'coins' });
    expect(rows(h, 'coins')[0]).toEqual(['Bob', Number.MAX_SAFE_INTEGER, 1]);
});

test('sum: ties go to whoever reached the total first; adding 0 does not make it newer', () => {
    const h = game('desc', 'sum', 'coins');
    submit(h, 'a', 10, 0, { scoreboardId: 'coins' });
    h.advance(1);
    submit(h, 'b', 10, 0, { scoreboardId: 'coins' });
    h.advance(6);
    submit(h, 'a', 0, 1, { scoreboardId: 'coins' });
    expect(rows(h, 'coins').map(([n]) => n)).toEqual(['Ann', 'Bob']);
    h.advance(6);
    submit(h, 'b', 5, 0, { scoreboardId: 'coins' });
    h.advance(1);
    submit(h, 'a', 5, 1, { scoreboardId: 'coins' });
    expect(rows(h, 'coins')).toEqual([
        ['Bob', 15, 0],
        ['Ann', 15, 1],
    ]);
});

test('streak stays a maximum ranked highest-first, also on lower-is-better boards', () => {
    const h = harness();
    withGame(h);
    updateGame(h, { gameId: G, standardBoards: { sortOrder: 'asc' } });
    createBoard(h, { gameId: G, scoreboardId: 'streaks', type: 'targeted', sortBy: 'streak', sortOrder: 'asc' });
    submit(h, 'a', 100, 5);
    submit(h, 'b', 200, 9);
    submit(h, 'a', 100, 5, { scoreboardId: 'streaks' });
    submit(h, 'b', 200, 9, { scoreboardId: 'streaks' });
    h.advance(6);
    submit(h, 'a', 50, 2);
    submit(h, 'a', 50, 2, { scoreboardId: 'streaks' });
    expect(profile(h, { gameId: G, playerId: 'a' }).gameProfile).toMatchObject({ score: 50, streak: 5 });
    expect(leaderboard(h, { gameId: G, sort: 'streak' }).leaderboard.map((e) => [e.score, e.streak])).toEqual([
        [200, 9],
        [50, 5],
    ]);
    expect(rows(h, 'streaks').map(([, , streak]) => streak)).toEqual([9, 5]);
});

test('the standard boards follow the game setting: all-time, weekly, daily, the leaderboard and the profile', () => {
    const h = harness();
    withGame(h);
    const view = updateGame(h, { gameId: G, standardBoards: { sortOrder: 'asc' } });
    expect(view.standardBoards).toEqual({ sortOrder: 'asc', operator: 'best' });
    expect(view.boards.filter((b) => b.sortOrder === 'asc').map((b) => b.scoreboardId)).toEqual([
        'all-time',
        'weekly',
        'daily',
    ]);
    submit(h, 'a', 61_000);
    submit(h, 'b', 59_500);
    h.advance(6);
    expect(submit(h, 'a', 58_000)).toBe('Score submitted: new personal best!');
    h.advance(6);
    expect(submit(h, 'a', 70_000)).toBe('Score submitted.');
    for (const board of ['all-time', 'weekly', 'daily'])
        expect(rows(h, board).map(([, score]) => score)).toEqual([58_000, 59_500]);
    expect(leaderboard(h, { gameId: G }).leaderboard.map((e) => e.score)).toEqual([58_000, 59_500]);
    expect(playerRank(h, { gameId: G, playerId: 'b' })).toMatchObject({ rank: 2, score: 59_500 });
    expect(profile(h, { gameId: G, playerId: 'a' }).gameProfile).toMatchObject({ score: 58_000, playCount: 3 });

    // A cumulative game: the profile's score is the total.
    const c = harness();
    withGame(c);
    updateGame(c, { gameId: G, standardBoards: { operator: 'sum' } });
    submit(c, 'a', 5, 1);
    c.advance(6);
    expect(submit(c, 'a', 7, 0)).toBe('Score submitted.');
    expect(profile(c, { gameId: G, playerId: 'a' }).gameProfile).toMatchObject({ score: 12, streak: 1 });
    expect(rows(c, 'weekly')).toEqual([[expect.stringMatching(/^Player_/), 12, 1]]);
});

test('order and operator cannot change while a board has entries (409); once it is empty they can', () => {
    const h = game('desc', 'best');
    submit(h, 'a', 10, 0, { scoreboardId: 'level' });
    submit(h, 'b', 20, 0, { scoreboardId: 'level' });
    for (const change of [{ sortOrder: 'asc' }, { operator: 'sum' }]) {
        expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'level', ...change }))).toEqual({
            status: 409,
            message: expect.stringMatching(/^Board 'level' has entries: its order and operator cannot change/),
        });
    }
    expect(failure(() => updateGame(h, { gameId: G, standardBoards: { sortOrder: 'asc' } })).status).toBe(409);
    expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'weekly', sortOrder: 'asc' })).status).toBe(400);
    // Ties and format change any time; the same order again is no change.
    expect(updateBoard(h, { gameId: G, scoreboardId: 'level', sortOrder: 'desc', ties: 'shared' }).ties).toBe('shared');
    expect(rows(h, 'level').map(([, s]) => s)).toEqual([20, 10]);

    // Emptied by moderation, the board takes the new order, and ranks by it.
    for (const playerId of ['a', 'b']) removeBoardEntry(h, h.games.get(G)!, { scoreboardId: 'level', playerId });
    expect(updateBoard(h, { gameId: G, scoreboardId: 'level', sortOrder: 'asc' }).sortOrder).toBe('asc');
    h.advance(6);
    submit(h, 'a', 10, 0, { scoreboardId: 'level' });
    submit(h, 'b', 20, 0, { scoreboardId: 'level' });
    expect(rows(h, 'level').map(([, s]) => s)).toEqual([10, 20]);

    // The standard boards: once every player is wiped, the game setting changes, and all three rank lowest-first.
    for (const playerId of ['a', 'b']) wipePlayer(h, h.games.get(G)!, { playerId });
    updateGame(h, { gameId: G, standardBoards: { sortOrder: 'asc' } });
    h.advance(6);
    submit(h, 'a', 10);
    submit(h, 'b', 20);
    for (const board of ['all-time', 'weekly', 'daily']) expect(rows(h, board).map(([, s]) => s)).toEqual([10, 20]);
});

test('a reset empties a custom board: its archive ranks by the old rule, then order and operator may change', () => {
    const h = harness();
    const dev = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash: dev, gameId: G, name: 'Reset' });
    createBoard(h, { gameId: G, scoreboardId: 'season', type: 'custom', days: 0, sortOrder: 'asc' });
    submit(h, 'a', 50);
    submit(h, 'b', 40);
    expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'season', operator: 'sum' })).status).toBe(409);
    h.advance(60);
    resetOwnBoard(h, { sessionHash: dev, gameId: G, scoreboardId: 'season' });
    expect(readArchive(h, { gameId: G, boardId: 'season' }).entries.map((e) => e.score)).toEqual([40, 50]);
    // The new period is lowest-first too; emptied, it may become a highest-first sum board.
    submit(h, 'a', 9);
    submit(h, 'b', 3);
    expect(rows(h, 'season').map(([, s]) => s)).toEqual([3, 9]);
    h.advance(60);
    resetOwnBoard(h, { sessionHash: dev, gameId: G, scoreboardId: 'season' });
    updateBoard(h, { gameId: G, scoreboardId: 'season', sortOrder: 'desc', operator: 'sum' });
    submit(h, 'a', 9);
    submit(h, 'b', 3);
    h.advance(6);
    submit(h, 'b', 7);
    expect(rows(h, 'season').map(([, s]) => s)).toEqual([10, 9]);
});

test('after rollover the new period keeps the order, and the archive ranks by it', () => {
    const h = harness('2026-03-04T12:00:00Z');
    withGame(h);
    updateGame(h, { gameId: G, standardBoards: { sortOrder: 'asc', operator: 'sum' } });
    submit(h, 'a', 30);
    submit(h, 'b', 20);
    h.advance(6);
    submit(h, 'b', 20);
    h.advance(DAY);
    rolloverAll(h);
    const archive = readArchive(h, { gameId: G, boardId: 'daily' });
    expect(archive.entries.map((e) => [e.rank, e.score])).toEqual([
        [1, 30],
        [2, 40],
    ]);
    submit(h, 'a', 9);
    submit(h, 'b', 3);
    expect(rows(h, 'daily').map(([, s]) => s)).toEqual([3, 9]);
    expect(rows(h, 'all-time').map(([, s]) => s)).toEqual([39, 43]);
});

test('an upgrade keeps each board order, from the snapshot or rebuilt from the records', () => {
    const h = harness();
    withGame(h);
    updateGame(h, { gameId: G, standardBoards: { sortOrder: 'asc' } });
    createBoard(h, { gameId: G, scoreboardId: 'coins', type: 'targeted', operator: 'sum' });
    createBoard(h, { gameId: G, scoreboardId: 'laps', type: 'monthly', sortOrder: 'asc', operator: 'latest' });
    for (const [p, s] of [
        ['a', 5],
        ['b', 7],
        ['c', 6],
    ] as const) {
        submit(h, p, s);
        submit(h, p, s, 0, { scoreboardId: 'coins' });
    }
    const expected = () => ({
        all: rows(h, 'all-time').map(([, s]) => s),
        laps: rows(h, 'laps').map(([, s]) => s),
        coins: rows(h, 'coins').map(([, s]) => s),
        top: leaderboard(h, { gameId: G, limit: 1 }).leaderboard[0]?.score,
    });
    const before = expected();
    expect(before).toEqual({ all: [5, 6, 7], laps: [5, 6, 7], coins: [7, 6, 5], top: 5 });
    writeSnapshot(h);
    expect(loadGames(h)).toBe('snapshot');
    expect(expected()).toEqual(before);
    // No snapshot: rebuilt from the records, in steps; order and operator wait until it is done.
    expect(loadGames(h, 1)).toBe('records');
    expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'coins', operator: 'best' }))).toEqual({
        status: 409,
        message: expect.stringMatching(/still loading/),
    });
    rebuildSome(h, Infinity);
    expect(expected()).toEqual(before);
    h.advance(6);
    submit(h, 'c', 1);
    submit(h, 'c', 1, 0, { scoreboardId: 'coins' });
    expect(expected()).toEqual({ all: [1, 5, 7], laps: [1, 5, 7], coins: [7, 7, 5], top: 1 });
});

describe('account merges follow each board order and operator', () => {
    const alice = person('alice-1', 'google', 'alice@example.com');
    // The account has 80 (streak 7); the anonymous player 30 (streak 5), submitted later.
    const cases: Array<[SortOrder, Operator, number, number]> = [
        ['desc', 'best', 80, 7], // the higher, and the best streak
        ['asc', 'best', 30, 7], // the lower, and the best streak
        ['desc', 'latest', 30, 5], // the later entry, whole
        ['asc', 'latest', 30, 5],
        ['desc', 'sum', 110, 7], // the total, and the best streak
        ['asc', 'sum', 110, 7],
    ];
    test.each(cases)('%s / %s', (sortOrder, operator, score, streak) => {
        const h = harness();
        withGame(h);
        updateGame(h, { gameId: G, standardBoards: { sortOrder, operator } });
        createBoard(h, { gameId: G, scoreboardId: 'level', type: 'targeted', sortOrder, operator });
        const s = signIn(h, G, alice, undefined);
        const sessionHash = hashOf(s.sessionId);
        const mine = (extra: Record<string, unknown>) =>
            submitBatch(h, {
                submits: [{ gameId: G, sessionHash, playerId: 'ignored_id', score: 80, streak: 7, ...extra }],
            });
        expect([...mine({}), ...mine({ scoreboardId: 'level' })]).toEqual([
            { ok: expect.anything() },
            { ok: expect.anything() },
        ]);
        h.advance(6);
        submit(h, 'anon', 30, 5);
        submit(h, 'anon', 30, 5, { scoreboardId: 'level' });
        migrateAccount(h, { sessionHash, gameId: G, deviceId: 'anon' });
        for (const board of ['level', 'all-time', 'weekly', 'daily'])
            expect(rows(h, board)).toEqual([[expect.any(String), score, streak]]);
        expect(sessionProfile(h, { sessionHash, gameId: G }).gameProfile).toMatchObject({ score, streak });
    });

    test('archives name the account once, combined by the board rule then, in its order', () => {
        const h = harness('2026-03-04T12:00:00Z');
        withGame(h);
        updateGame(h, { gameId: G, standardBoards: { sortOrder: 'asc', operator: 'sum' } });
        const first = signIn(h, G, alice, undefined);
        submitBatch(h, {
            submits: [{ gameId: G, sessionHash: hashOf(first.sessionId), playerId: 'x', score: 40, streak: 0 }],
        });
        submit(h, 'anon', 30);
        submit(h, 'other', 50);
        h.advance(DAY);
        rolloverAll(h);
        const archived = () =>
            readArchive(h, { gameId: G, boardId: 'daily' }).entries.map((e) => [e.rank, e.score, e.nickname]);
        expect(archived().map(([, s]) => s)).toEqual([30, 40, 50]);
        const s = signIn(h, G, alice, undefined);
        migrateAccount(h, { sessionHash: hashOf(s.sessionId), gameId: G, deviceId: 'anon' });
        const name = sessionProfile(h, { sessionHash: hashOf(s.sessionId), gameId: G }).nickname;
        expect(archived()).toEqual([
            [1, 50, expect.stringMatching(/^Player_/)],
            [2, 70, name],
        ]);
    });

    test("latest: the account's entry wins when it was submitted later", () => {
        const h = harness();
        withGame(h);
        createBoard(h, { gameId: G, scoreboardId: 'level', type: 'targeted', operator: 'latest' });
        submit(h, 'anon', 30, 5, { scoreboardId: 'level' });
        h.advance(6);
        const s = signIn(h, G, alice, undefined);
        const sessionHash = hashOf(s.sessionId);
        submitBatch(h, {
            submits: [{ gameId: G, sessionHash, playerId: 'x', score: 10, streak: 1, scoreboardId: 'level' }],
        });
        migrateAccount(h, { sessionHash, gameId: G, deviceId: 'anon' });
        expect(rows(h, 'level')).toEqual([[expect.any(String), 10, 1]]);
    });
});
