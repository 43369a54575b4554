// Boards over time: a new period starts empty on its boundary (also with no submits), the
// previous one is archived with its top entries and kept per retention; reads, ranks and
// the window around a player; custom and monthly boards; limits.
import { createBoard } from '../../../canister/service/games';
import {
    around,
    boardRank,
    listArchives,
    listBoards,
    playerRank,
    readArchive,
    readBoard,
} from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { failure, harness, present, withGame, type Harness, key } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const DAY = 86_400;

function submit(h: Harness, playerId: string, score: number, extra: Record<string, unknown> = {}) {
    const [r] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak: 0, ...extra }] });
    if (!('ok' in r)) throw new Error(r.err.message);
}

test('at midnight UTC the daily board reads empty even before anyone submits; all-time keeps its entries', () => {
    const h = harness('2026-03-04T23:59:00Z');
    withGame(h);
    submit(h, 'p1', 10);
    h.advance(120);
    expect(readBoard(h, { gameId: G, boardId: 'daily' })).toMatchObject({ entries: [], totalEntries: 0 });
    expect(present(readBoard(h, { gameId: G, boardId: 'daily' })).config.lastReset).toBe(
        Date.parse('2026-03-05T00:00:00Z') * 1e6,
    );
    expect(readBoard(h, { gameId: G, boardId: 'weekly' }).totalEntries).toBe(1);
    expect(readBoard(h, { gameId: G, boardId: 'all-time' }).totalEntries).toBe(1);
});

test('rollover archives the finished period with its top entries; the archive reads back by id and as latest', () => {
    const h = harness('2026-03-04T12:00:00Z');
    withGame(h);
    for (let i = 0; i < 5; i++) submit(h, `p${i}`, 100 * i);
    h.advance(DAY);
    expect(rolloverAll(h)).toBe(1);
    const list = present(listArchives(h, { gameId: G, boardId: 'daily' }));
    const start = Date.parse('2026-03-04T00:00:00Z') * 1e6;
    expect(list.archives).toEqual([
        {
            archiveId: `${G}:daily:${start}`,
            periodStart: start,
            periodEnd: start + DAY * 1e9,
            entryCount: 5,
            topPlayer: 'Player_5',
            topScore: 400,
        },
    ]);
    const latest = readArchive(h, { gameId: G, boardId: 'daily', limit: 2 });
    expect(latest.entries.map((e) => [e.rank, e.score])).toEqual([
        [1, 400],
        [2, 300],
    ]);
    expect(latest.totalEntries).toBe(5);
    expect(readArchive(h, { gameId: G, archiveId: `${G}:daily:${start}` }).entries).toHaveLength(5);
    expect(failure(() => readArchive(h, { gameId: G, archiveId: `${G}:daily:1` })).status).toBe(404);
    expect(failure(() => readArchive(h, { gameId: G, boardId: 'weekly' })).status).toBe(404);
    // The new period starts empty and fills again.
    submit(h, 'p1', 7);
    expect(readBoard(h, { gameId: G, boardId: 'daily' }).entries).toEqual([
        expect.objectContaining({ rank: 1, score: 7 }),
    ]);
    expect(readBoard(h, { gameId: G, boardId: 'all-time' }).totalEntries).toBe(5);
});

test('a submit rolls over the boards it touches; weekly boards turn on Monday', () => {
    const h = harness('2026-03-08T23:00:00Z'); // a Sunday
    withGame(h);
    submit(h, 'p1', 50);
    h.advance(2 * 3600); // Monday 01:00
    submit(h, 'p1', 10);
    expect(readBoard(h, { gameId: G, boardId: 'weekly' }).entries).toEqual([expect.objectContaining({ score: 10 })]);
    expect(listArchives(h, { gameId: G, boardId: 'weekly' }).archives[0]).toMatchObject({
        topScore: 50,
        entryCount: 1,
    });
    expect(readBoard(h, { gameId: G, boardId: 'all-time' }).entries[0].score).toBe(50);
});

test('daily archives are kept for 90 periods, oldest dropped first', () => {
    const h = harness('2026-01-01T12:00:00Z');
    withGame(h);
    for (let day = 0; day < 95; day++) {
        submit(h, 'p1', day + 1);
        h.advance(DAY);
        rolloverAll(h);
    }
    const archives = listArchives(h, { gameId: G, boardId: 'daily' }).archives;
    expect(archives).toHaveLength(90);
    expect(archives[0].topScore).toBe(95);
    expect(archives[89].topScore).toBe(6);
});

test('custom boards reset every N days from creation; monthly boards fan out too', () => {
    const h = harness('2026-03-04T12:00:00Z');
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'three-day', type: 'custom', days: 3 });
    createBoard(h, { gameId: G, scoreboardId: 'month', type: 'monthly' });
    submit(h, 'p1', 10);
    expect(readBoard(h, { gameId: G, boardId: 'month' }).totalEntries).toBe(1);
    h.advance(2 * DAY);
    expect(readBoard(h, { gameId: G, boardId: 'three-day' }).totalEntries).toBe(1);
    h.advance(DAY);
    expect(readBoard(h, { gameId: G, boardId: 'three-day' }).totalEntries).toBe(0);
    expect(
        present(listBoards(h, { gameId: G })).scoreboards.find((b) => b.scoreboardId === 'three-day')!.lastReset,
    ).toBe(Date.parse('2026-03-07T12:00:00Z') * 1e6);
});

test('ranks and the window around a player', () => {
    const h = harness();
    withGame(h);
    for (let i = 1; i <= 20; i++) submit(h, `p${i}`, i * 10);
    expect(playerRank(h, { gameId: G, playerId: 'p20' })).toEqual({ rank: 1, score: 200, streak: 0, totalPlayers: 20 });
    expect(playerRank(h, { gameId: G, playerId: 'p1', sort: 'streak' }).rank).toBeGreaterThan(0);
    expect(failure(() => playerRank(h, { gameId: G, playerId: 'nobody' }))).toEqual({
        status: 404,
        message: 'Player not found',
    });
    expect(boardRank(h, { gameId: G, boardId: 'weekly', playerId: 'p15' })).toEqual({
        found: true,
        rank: 6,
        score: 150,
        streak: 0,
        totalPlayers: 20,
    });
    expect(boardRank(h, { gameId: G, boardId: 'weekly', playerId: 'nobody' })).toEqual({
        found: false,
        message: expect.any(String),
        totalPlayers: 20,
    });
    const w = around(h, { gameId: G, boardId: 'daily', playerId: 'p10', before: 2, after: 2 });
    expect(w.rank).toBe(11);
    expect(w.entries.map((e) => e.rank)).toEqual([9, 10, 11, 12, 13]);
    expect(
        around(h, { gameId: G, boardId: 'daily', playerId: 'p20', before: 3, after: 1 }).entries.map((e) => e.rank),
    ).toEqual([1, 2]);
});

test('board reads: limit defaults to 100 and clamps to 1..1000; unknown boards are 404, bad ids 400', () => {
    const h = harness();
    withGame(h);
    for (let i = 0; i < 120; i++)
        submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, playerId: `p${i}`, score: i, streak: 0 }] });
    expect(readBoard(h, { gameId: G, boardId: 'all-time' }).entries).toHaveLength(100);
    expect(readBoard(h, { gameId: G, boardId: 'all-time', limit: 0 }).entries).toHaveLength(1);
    expect(readBoard(h, { gameId: G, boardId: 'all-time', limit: 5000 }).entries).toHaveLength(120);
    expect(failure(() => readBoard(h, { gameId: G, boardId: 'nope' }))).toEqual({
        status: 404,
        message: "Scoreboard 'nope' not found for this game.",
    });
    expect(failure(() => readBoard(h, { gameId: G, boardId: 'bad id' })).status).toBe(400);
    expect(failure(() => readBoard(h, { gameId: 'nope-game', boardId: 'weekly' })).status).toBe(404);
});
