// The heap tables after an upgrade: restored from the pre-upgrade snapshot, or rebuilt from
// the player records when there is none; both give the same boards as before.
import { flushAll } from '../../../canister/service/flush';
import { createBoard } from '../../../canister/service/games';
import { leaderboard, playerRank, readBoard } from '../../../canister/service/reads';
import { writeSnapshot } from '../../../canister/state/snapshot';
import { loadGames, rebuildSome } from '../../../canister/state/startup';
import { removeEntry } from '../../../canister/state/tables';
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

/**
 * Rewrites the snapshot's board tables into the previous release's layout (version 2): each slot
 * map as two arrays, a cell's slot + 1 (0 empty, -1 deleted) and its entry id, where this
 * release keeps the entry id + 1 alone. Every array here fits one chunk (tables under 1 MiB).
 */
function asVersion2(h: ReturnType<typeof harness>): void {
    const manifest = h.store.meta.get('snapshot')!;
    const moved: Array<[string, Uint8Array]> = [];
    let n = 0;
    for (const game of manifest.games)
        for (const part of game.parts) {
            const chunks = Array.from({ length: part.chunks }, (_, i) => h.store.snapshot.get(`${n}/${i}`)!);
            if (part.name !== 'players') {
                const meta = part.meta as { lengths: number[] };
                const i32 = (b: Uint8Array) => new Int32Array(b.slice().buffer);
                const [cells, slots] = [i32(chunks[0]!), i32(chunks[1]!)];
                const keys = cells.map((c) => (c > 0 ? slots[c - 1]! + 1 : c));
                const values = cells.map((c) => (c > 0 ? c - 1 : 0));
                chunks.splice(0, 1, new Uint8Array(keys.buffer), new Uint8Array(values.buffer));
                meta.lengths = [keys.byteLength, ...meta.lengths];
                part.chunks = chunks.length;
            }
            chunks.forEach((chunk, i) => moved.push([`${n}/${i}`, chunk]));
            n++;
        }
    for (const [key, chunk] of moved) h.store.snapshot.set(key, chunk);
    h.store.meta.set('snapshot', { ...manifest, version: 2 });
}

test("the previous release's snapshot (its slot maps as keys and values) restores the same boards", () => {
    const h = populated();
    // Some players leave the all-time board: their cells are deleted ones in the snapshot.
    for (const slot of [3, 10, 11, 250]) removeEntry(h.games.get('game-a')!.global, slot);
    const before = view(h);
    flushAll(h); // as pre_upgrade does
    writeSnapshot(h);
    asVersion2(h);
    h.games.clear();
    expect(loadGames(h)).toBe('snapshot');
    expect(view(h)).toEqual(before);
    // A restored map takes new players and finds the old ones.
    h.advance(10);
    submitBatch(h, {
        submits: [
            { apiKey: key(h, 'game-a'), gameId: 'game-a', playerId: 'p5', score: 5_000, streak: 1 },
            { apiKey: key(h, 'game-a'), gameId: 'game-a', playerId: 'new', score: 4_000, streak: 1 },
        ],
    });
    expect(playerRank(h, { gameId: 'game-a', playerId: 'p5' })).toMatchObject({ rank: 1, score: 5_000 });
    expect(playerRank(h, { gameId: 'game-a', playerId: 'new' })).toMatchObject({ rank: 2, score: 4_000 });
    expect(playerRank(h, { gameId: 'game-a', playerId: 'p200' })).toMatchObject({ score: (200 * 37) % 101 });
    expect(leaderboard(h, { gameId: 'game-a', limit: 1000 }).total).toBe(before.a.total + 1);
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
