// Ties on the service: a board with `ties: 'shared'` shows equal values with one rank (1, 2, 2, 4)
// in every read that shows a rank (board pages and offsets, the global leaderboard, around-me,
// the rank reads, archives, the developer's page, direct canister reads), in the same order as
// before; a default board reads exactly as it always did. And the percentile rank reads carry
// when asked, at the ends of a board.
import { createBoard, updateBoard } from '../../../canister/service/games';
import {
    around,
    boardPage,
    boardRank,
    leaderboard,
    playerRank,
    readArchive,
    readBoard,
} from '../../../canister/service/reads';
import { liveAnswer } from '../../../canister/service/direct-reads/live';
import { rolloverAll } from '../../../canister/service/rollover';
import { failure, harness, withGame, type Harness, key } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const DAY = 86_400;

function submit(h: Harness, playerId: string, score: number, streak = 0, scoreboardId?: string) {
    const [r] = submitBatch(h, {
        submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak, ...(scoreboardId ? { scoreboardId } : {}) }],
    });
    if (!('ok' in r)) throw new Error(r.err.message);
}

/** p0..p6 with 500, 300, 300, 300, 100, 100, 50 (reached in that order), and the given ties on every board. */
function sevenPlayers(ties: 'shared' | 'distinct'): Harness {
    const h = harness('2026-03-04T12:00:00Z');
    withGame(h);
    for (const scoreboardId of ['all-time', 'weekly', 'daily']) updateBoard(h, { gameId: G, scoreboardId, ties });
    [500, 300, 300, 300, 100, 100, 50].forEach((score, i) => {
        submit(h, `p${i}`, score, [1, 4, 4, 2, 2, 0, 2][i]);
        h.advance(1);
    });
    return h;
}

/** The seven players' [rank, score] on a shared board: 500; 300 x3 share 2; 100 x2 share 5; 50. */
const SHARED_SEVEN = [
    [1, 500],
    [2, 300],
    [2, 300],
    [2, 300],
    [5, 100],
    [5, 100],
    [7, 50],
];

const ranksAndScores = (entries: Array<{ rank: number; score: number }>) => entries.map((e) => [e.rank, e.score]);

test('a shared board page: equal values share the rank of the first of them; the order stays', () => {
    const h = sevenPlayers('shared');
    const board = readBoard(h, { gameId: G, boardId: 'weekly' });
    expect(ranksAndScores(board.entries)).toEqual(SHARED_SEVEN);
    // Who reached 300 first is still listed first.
    expect(board.entries.map((e) => e.nickname)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `Player_${n}`));
    expect(board.totalEntries).toBe(7);
});

test('a default (distinct) board reads as always: 1, 2, 3, ... in the same order', () => {
    const h = sevenPlayers('distinct');
    expect(ranksAndScores(readBoard(h, { gameId: G, boardId: 'weekly' }).entries)).toEqual([
        [1, 500],
        [2, 300],
        [3, 300],
        [4, 300],
        [5, 100],
        [6, 100],
        [7, 50],
    ]);
    expect(playerRank(h, { gameId: G, playerId: 'p3' })).toEqual({ rank: 4, score: 300, streak: 2, totalPlayers: 7 });
    expect(around(h, { gameId: G, boardId: 'daily', playerId: 'p5', before: 1, after: 0 })).toEqual({
        rank: 6,
        entries: [expect.objectContaining({ rank: 5 }), expect.objectContaining({ rank: 6 })],
    });
});

test('pages by offset start mid-tie with the shared rank, and so does a limit cut', () => {
    const h = sevenPlayers('shared');
    const page = (offset: number, limit: number) =>
        ranksAndScores(readBoard(h, { gameId: G, boardId: 'daily', offset, limit }).entries);
    expect(page(2, 2)).toEqual([
        [2, 300],
        [2, 300],
    ]);
    expect(page(3, 3)).toEqual([
        [2, 300],
        [5, 100],
        [5, 100],
    ]);
    expect(page(5, 10)).toEqual([
        [5, 100],
        [7, 50],
    ]);
    expect(page(7, 10)).toEqual([]);
    expect(page(0, 2)).toEqual([
        [1, 500],
        [2, 300],
    ]);
    // The developer's page (dashboard) shows the same ranks.
    expect(boardPage(h, h.games.get(G)!, 'daily', 3, 3).map((e) => e.rank)).toEqual([2, 5, 5]);
});

test('the global leaderboard follows the all-time board, by score and by streak', () => {
    const h = sevenPlayers('shared');
    expect(ranksAndScores(leaderboard(h, { gameId: G, sort: 'score', limit: 10 }).leaderboard)).toEqual(SHARED_SEVEN);
    // Streaks 1, 4, 4, 2, 2, 0, 2: 4, 4 share 1; 2, 2, 2 share 3.
    expect(leaderboard(h, { gameId: G, sort: 'streak', limit: 10 }).leaderboard.map((e) => [e.rank, e.streak])).toEqual(
        [
            [1, 4],
            [1, 4],
            [3, 2],
            [3, 2],
            [3, 2],
            [6, 1],
            [7, 0],
        ],
    );
    expect(playerRank(h, { gameId: G, playerId: 'p3' })).toEqual({ rank: 2, score: 300, streak: 2, totalPlayers: 7 });
    expect(playerRank(h, { gameId: G, playerId: 'p6', sort: 'streak' })).toMatchObject({ rank: 3, streak: 2 });
    // Another board's ties do not leak into the global one.
    updateBoard(h, { gameId: G, scoreboardId: 'all-time', ties: 'distinct' });
    expect(playerRank(h, { gameId: G, playerId: 'p3' }).rank).toBe(4);
    expect(readBoard(h, { gameId: G, boardId: 'weekly' }).entries[3].rank).toBe(2);
});

test('around-me shows the shared rank for the player and every entry of the window', () => {
    const h = sevenPlayers('shared');
    expect(around(h, { gameId: G, boardId: 'weekly', playerId: 'p3', before: 1, after: 1 })).toEqual({
        rank: 2,
        entries: [
            expect.objectContaining({ rank: 2, score: 300, nickname: 'Player_3' }),
            expect.objectContaining({ rank: 2, score: 300, nickname: 'Player_4' }),
            expect.objectContaining({ rank: 5, score: 100, nickname: 'Player_5' }),
        ],
    });
    expect(around(h, { gameId: G, boardId: 'weekly', playerId: 'p6', before: 2, after: 5 })).toEqual({
        rank: 7,
        entries: [
            expect.objectContaining({ rank: 5 }),
            expect.objectContaining({ rank: 5 }),
            expect.objectContaining({ rank: 7 }),
        ],
    });
    expect(
        around(h, { gameId: G, boardId: 'weekly', playerId: 'p0', before: 5, after: 1 }).entries.map((e) => e.rank),
    ).toEqual([1, 2]);
});

test('the rank reads: board rank and player rank show the shared rank', () => {
    const h = sevenPlayers('shared');
    expect(boardRank(h, { gameId: G, boardId: 'weekly', playerId: 'p5' })).toEqual({
        found: true,
        rank: 5,
        score: 100,
        streak: 0,
        totalPlayers: 7,
    });
    expect(boardRank(h, { gameId: G, boardId: 'weekly', playerId: 'nobody' })).toMatchObject({
        found: false,
        totalPlayers: 7,
    });
    expect(playerRank(h, { gameId: G, playerId: 'p2' })).toMatchObject({ rank: 2 });
});

test('a targeted board with its own ties; a rank moves when a player leaves the tie', () => {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted', ties: 'shared' });
    for (const p of ['a', 'b', 'c']) submit(h, p, 70, 0, 'level-1');
    const ranks = () => readBoard(h, { gameId: G, boardId: 'level-1' }).entries.map((e) => e.rank);
    expect(ranks()).toEqual([1, 1, 1]);
    h.advance(3);
    submit(h, 'c', 80, 0, 'level-1');
    expect(ranks()).toEqual([1, 2, 2]);
    expect(boardRank(h, { gameId: G, boardId: 'level-1', playerId: 'b' })).toMatchObject({ rank: 2 });
    // The global board keeps its own (default) ties: targeted submits do not reach it.
    expect(readBoard(h, { gameId: G, boardId: 'all-time' }).entries).toEqual([]);
});

test('archives show shared ranks (the board setting), by latest and by id', () => {
    const h = sevenPlayers('shared');
    h.advance(DAY);
    rolloverAll(h);
    const latest = readArchive(h, { gameId: G, boardId: 'daily', limit: 10 });
    expect(ranksAndScores(latest.entries)).toEqual(SHARED_SEVEN);
    expect(readArchive(h, { gameId: G, archiveId: latest.archiveId, limit: 5 }).entries.map((e) => e.rank)).toEqual([
        1, 2, 2, 2, 5,
    ]);
    // Ties are how the board shows values: switching it back shows its archives distinct.
    updateBoard(h, { gameId: G, scoreboardId: 'daily', ties: 'distinct' });
    expect(readArchive(h, { gameId: G, boardId: 'daily', limit: 10 }).entries.map((e) => e.rank)).toEqual([
        1, 2, 3, 4, 5, 6, 7,
    ]);
});

test('direct canister reads show the same shared ranks (board path and around-me)', () => {
    const h = sevenPlayers('shared');
    const body = (url: string) => JSON.parse(liveAnswer(h, 'GET', url).text);
    expect(
        body(`/games/${G}/scoreboards/weekly?limit=3&offset=3`).data.entries.map((e: { rank: number }) => e.rank),
    ).toEqual([2, 5, 5]);
    const direct = body(`/games/${G}/scoreboards/weekly/around?playerId=p4&before=0&after=0&percentile=true`);
    expect(direct).toEqual({
        ok: true,
        data: { rank: 5, percentile: 71.5, entries: [expect.objectContaining({ rank: 5 })] },
    });
    expect(body(`/games/${G}/scoreboards/weekly/around?playerId=p4&before=0&after=0`).data).not.toHaveProperty(
        'percentile',
    );
    expect(liveAnswer(h, 'GET', `/games/${G}/scoreboards/weekly/around?playerId=p4&percentile=yes`)).toEqual({
        status: 400,
        text: expect.stringContaining('Invalid percentile: must be true or false'),
    });
});

describe('percentile', () => {
    test('only when asked: the replies stay as they were otherwise', () => {
        const h = sevenPlayers('distinct');
        expect(playerRank(h, { gameId: G, playerId: 'p0' })).not.toHaveProperty('percentile');
        expect(boardRank(h, { gameId: G, boardId: 'weekly', playerId: 'p0' })).not.toHaveProperty('percentile');
        expect(around(h, { gameId: G, boardId: 'weekly', playerId: 'p0' })).not.toHaveProperty('percentile');
        expect(playerRank(h, { gameId: G, playerId: 'p0', percentile: false })).not.toHaveProperty('percentile');
        for (const bad of ['true', 1, 'yes', {}]) {
            expect(failure(() => playerRank(h, { gameId: G, playerId: 'p0', percentile: bad }))).toEqual({
                status: 400,
                message: 'Invalid percentile: must be true or false',
            });
        }
    });

    test('at the ends of a board: rank 1 of N, last of N', () => {
        const h = sevenPlayers('distinct');
        const p = (playerId: string) => playerRank(h, { gameId: G, playerId, percentile: true });
        expect(p('p0')).toEqual({ rank: 1, score: 500, streak: 1, totalPlayers: 7, percentile: 14.3 });
        expect(p('p6')).toEqual({ rank: 7, score: 50, streak: 2, totalPlayers: 7, percentile: 100 });
        expect(boardRank(h, { gameId: G, boardId: 'weekly', playerId: 'p6', percentile: true })).toMatchObject({
            rank: 7,
            percentile: 100,
        });
        expect(around(h, { gameId: G, boardId: 'daily', playerId: 'p0', after: 0, percentile: true })).toEqual({
            rank: 1,
            percentile: 14.3,
            entries: [expect.objectContaining({ rank: 1 })],
        });
    });

    test('a board of one: the only player is rank 1, 100 %', () => {
        const h = harness();
        withGame(h);
        submit(h, 'solo', 3);
        expect(playerRank(h, { gameId: G, playerId: 'solo', percentile: true })).toMatchObject({
            rank: 1,
            totalPlayers: 1,
            percentile: 100,
        });
        expect(boardRank(h, { gameId: G, boardId: 'daily', playerId: 'solo', percentile: true })).toMatchObject({
            rank: 1,
            percentile: 100,
        });
        // Not on the board: no rank, so no percentile.
        expect(boardRank(h, { gameId: G, boardId: 'daily', playerId: 'other', percentile: true })).toEqual({
            found: false,
            message: expect.any(String),
            totalPlayers: 1,
        });
    });

    test('with shared ties the percentile uses the shared rank', () => {
        const h = sevenPlayers('shared');
        // p3 shares rank 2 of 7: 2/7 = 28.57.. rounds up to 28.6; distinct it would be 4/7 = 57.2.
        expect(playerRank(h, { gameId: G, playerId: 'p3', percentile: true })).toMatchObject({
            rank: 2,
            percentile: 28.6,
        });
        expect(
            around(h, { gameId: G, boardId: 'weekly', playerId: 'p5', before: 0, after: 0, percentile: true }),
        ).toMatchObject({
            rank: 5,
            percentile: 71.5,
        });
    });
});
