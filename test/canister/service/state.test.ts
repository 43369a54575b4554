// The heap tables after an upgrade: restored from the pre-upgrade snapshot, or rebuilt from
// the player records when there is none; both give the same boards as before.
import { createBoard } from '../../../canister/service/games';
import { leaderboard, readBoard } from '../../../canister/service/reads';
import { writeSnapshot } from '../../../canister/state/snapshot';
import { loadGames, rebuildSome } from '../../../canister/state/startup';
import { expectSameFromRecords, harness, withGame, key } from './harness';
import { submitBatch } from './submit';

function populated() {
    const h = harness();
    withGame(h, 'game-a');
    withGame(h, 'game-b');
    createBoard(h, { gameId: 'game-a', scoreboardId: 'level-1', type: 'targeted', sortBy: 'streak' });
    for (let i = 0; i < 300; i++) {
        submitBatch(h, {
            submits: [
                {
                    apiKey: key(h, 'game-a'),
                    gameId: 'game-a',
                    playerId: `p${i}`,
                    score: (i * 37) % 101,
                    streak: i % 7,
                    nickname: i % 3 === 0 ? `Name_${i}` : undefined,
                },
                {
                    apiKey: key(h, 'game-a'),
                    gameId: 'game-a',
                    playerId: `p${i}`,
                    score: i,
                    streak: (i * 13) % 17,
                    scoreboardId: 'level-1',
                },
                { apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: `q${i}`, score: i * 2, streak: 1 },
            ],
        });
    }
    return h;
}

function view(h: ReturnType<typeof harness>) {
    return {
        a: leaderboard(h, { gameId: 'game-a', limit: 1000 }),
        aStreak: leaderboard(h, { gameId: 'game-a', sort: 'streak', limit: 1000 }),
        level: readBoard(h, { gameId: 'game-a', boardId: 'level-1', limit: 1000 }),
        daily: readBoard(h, { gameId: 'game-a', boardId: 'daily', limit: 1000 }),
        b: readBoard(h, { gameId: 'game-b', boardId: 'weekly', limit: 1000 }),
    };
}

test('an upgrade restores every table from the snapshot and drops the snapshot', () => {
    const h = populated();
    const before = view(h);
    expect(writeSnapshot(h)).toBeGreaterThan(0);
    h.games.clear();
    expect(loadGames(h)).toBe('snapshot');
    expect(view(h)).toEqual(before);
    expect(h.store.snapshot.size()).toBe(0);
    expect(h.store.meta.get('snapshot')).toBeUndefined();
});

test('without a snapshot (pre_upgrade skipped) the tables are rebuilt from the records', () => {
    const h = populated();
    expectSameFromRecords(h, () => view(h));
    // And the service carries on from there.
    h.advance(10);
    submitBatch(h, {
        submits: [{ apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'q0', score: 10_000, streak: 1 }],
    });
    expect(leaderboard(h, { gameId: 'game-b', limit: 1 }).leaderboard[0].score).toBe(10_000);
});

test('a large rebuild goes in steps: the service answers meanwhile and ends with the same boards', () => {
    const h = populated();
    const before = view(h);
    h.games.clear();
    expect(loadGames(h, 100)).toBe('records');
    expect(h.rebuilding.size).toBeGreaterThan(0);
    expect(leaderboard(h, { gameId: 'game-a', limit: 1000 }).total).toBeLessThan(before.a.total);
    // A submit during the rebuild is indexed at once; the rebuild indexes that player again, harmlessly.
    h.advance(10);
    submitBatch(h, {
        submits: [{ apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'q299', score: 1_000_000, streak: 1 }],
    });
    let steps = 0;
    while (!rebuildSome(h, 100)) steps++;
    expect(steps).toBeGreaterThan(3);
    const after = view(h);
    expect(after.a).toEqual(before.a);
    expect(after.level).toEqual(before.level);
    expect(after.b.entries[0]).toMatchObject({ score: 1_000_000 });
    expect(after.b.totalEntries).toBe(before.b.totalEntries);
});

test('a snapshot that does not match the games (a game was added after it) is not used', () => {
    const h = populated();
    writeSnapshot(h);
    withGame(h, 'game-c');
    expectSameFromRecords(h, () => view(h));
});
