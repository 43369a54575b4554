// The friends read on the service: a set of player ids on a board, ranked among themselves in
// board order with their board ranks and percentiles; unknown ids, duplicates, limits, bad
// input, shared ties, an empty period, and that it writes nothing.
import { MAX_PLAYER_SET } from '../../../contract/board-options';
import { resolveSession, signIn } from '../../../canister/service/accounts';
import { createBoard, updateBoard } from '../../../canister/service/games';
import { migrateAccount } from '../../../canister/service/merge';
import { boardPlayers } from '../../../canister/service/player-sets';
import { readBoard } from '../../../canister/service/reads';
import { failure, harness, hashOf, person, present, withGame, type Harness, key } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';

function submit(h: Harness, playerId: string, score: number, scoreboardId?: string) {
    const [r] = submitBatch(h, {
        submits: [
            { apiKey: key(h, G), gameId: G, playerId, score, streak: 0, ...(scoreboardId ? { scoreboardId } : {}) },
        ],
    });
    if (!('ok' in r)) throw new Error(r.err.message);
}

/** p0..p9 with scores 900, 800, ... 0 (p0 is first). */
function tenPlayers(): Harness {
    const h = harness();
    withGame(h);
    for (let i = 0; i < 10; i++) submit(h, `p${i}`, 900 - 100 * i);
    return h;
}

const read = (h: Harness, playerIds: unknown, boardId = 'weekly') => boardPlayers(h, { gameId: G, boardId, playerIds });

test('the players asked for, ranked among themselves in board order, with their board rank and percentile', () => {
    const h = tenPlayers();
    const set = present(read(h, ['p7', 'p2', 'p9']));
    expect(set).toEqual({
        scoreboardId: 'weekly',
        entries: [
            {
                playerId: 'p2',
                rank: 1,
                globalRank: 3,
                percentile: 30,
                nickname: 'Player_3',
                score: 700,
                streak: 0,
                authType: 'external',
                submittedAt: expect.any(Number),
            },
            expect.objectContaining({ playerId: 'p7', rank: 2, globalRank: 8, percentile: 80, score: 200 }),
            expect.objectContaining({ playerId: 'p9', rank: 3, globalRank: 10, percentile: 100, score: 0 }),
        ],
        missing: [],
        totalEntries: 10,
    });
    // Each entry reads as the board's own page shows that player.
    const page = present(readBoard(h, { gameId: G, boardId: 'weekly' })).entries;
    const { playerId: _id, rank: _rank, globalRank, percentile: _p, ...entry } = set.entries[1];
    expect({ ...entry, rank: globalRank }).toEqual(page[7]);
});

test('unknown ids and players without an entry this period are listed in missing, in the order given', () => {
    const h = tenPlayers();
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
    h.advance(3);
    submit(h, 'p4', 5, 'level-1');
    expect(read(h, ['ghost', 'p1', 'p4', 'nobody'], 'level-1')).toEqual({
        scoreboardId: 'level-1',
        entries: [expect.objectContaining({ playerId: 'p4', rank: 1, globalRank: 1, percentile: 100 })],
        missing: ['ghost', 'p1', 'nobody'],
        totalEntries: 1,
    });
    expect(read(h, ['ghost', '@0123456789abcdef0123456789abcdef'])).toMatchObject({
        entries: [],
        missing: ['ghost', '@0123456789abcdef0123456789abcdef'],
    });
    expect(read(h, [])).toEqual({ scoreboardId: 'weekly', entries: [], missing: [], totalEntries: 10 });
});

test('duplicates count once: 100 different ids sent twice each are accepted; 101 different are not', () => {
    const h = tenPlayers();
    expect(read(h, ['p3', 'p3', 'ghost', 'p3', 'ghost'])).toMatchObject({
        entries: [expect.objectContaining({ playerId: 'p3', rank: 1, globalRank: 4 })],
        missing: ['ghost'],
    });
    const hundred = Array.from({ length: MAX_PLAYER_SET }, (_, i) => `p${i}`);
    const set = read(h, [...hundred, ...hundred]);
    expect(set.entries.map((e) => e.playerId)).toEqual(hundred.slice(0, 10));
    expect(set.missing).toHaveLength(MAX_PLAYER_SET - 10);
    expect(failure(() => read(h, [...hundred, 'one-more']))).toEqual({
        status: 400,
        message: `Invalid playerIds: may hold at most ${MAX_PLAYER_SET} different player ids`,
    });
    // A list past 1,000 is refused before anything is looked at, duplicates or not.
    expect(failure(() => read(h, new Array(1001).fill('p1'))).status).toBe(400);
});

test('bad input is a 400 naming the problem; an unknown board or game is a 404', () => {
    const h = tenPlayers();
    for (const [playerIds, message] of [
        [undefined, 'Invalid playerIds: must be a list of player ids'],
        ['p1,p2', 'Invalid playerIds: must be a list of player ids'],
        [{ 0: 'p1' }, 'Invalid playerIds: must be a list of player ids'],
        [['p1', 7], 'Invalid playerIds[1]: must be 1-100 characters: letters, digits, underscores and hyphens'],
        [['p1', 'a b'], 'Invalid playerIds[1]: must be 1-100 characters: letters, digits, underscores and hyphens'],
        [['x'.repeat(101)], 'Invalid playerIds[0]: must be 1-100 characters: letters, digits, underscores and hyphens'],
        [[''], 'Invalid playerIds[0]: must be 1-100 characters: letters, digits, underscores and hyphens'],
        [
            ['__proto__', null],
            'Invalid playerIds[1]: must be 1-100 characters: letters, digits, underscores and hyphens',
        ],
    ] as const) {
        expect(failure(() => read(h, playerIds))).toEqual({ status: 400, message });
    }
    expect(failure(() => read(h, ['p1'], 'no-such-board')).status).toBe(404);
    expect(failure(() => read(h, ['p1'], 'bad board')).status).toBe(400);
    expect(failure(() => boardPlayers(h, { gameId: 'other-game', boardId: 'weekly', playerIds: ['p1'] })).status).toBe(
        404,
    );
});

test("on a board with ties 'shared' equal values share a rank among the set and on the board", () => {
    const h = harness();
    withGame(h);
    updateBoard(h, { gameId: G, scoreboardId: 'daily', ties: 'shared' });
    [50, 40, 40, 40, 30].forEach((score, i) => submit(h, `q${i}`, score));
    expect(
        read(h, ['q4', 'q3', 'q2'], 'daily').entries.map((e) => [e.playerId, e.rank, e.globalRank, e.percentile]),
    ).toEqual([
        ['q2', 1, 2, 40],
        ['q3', 1, 2, 40],
        ['q4', 3, 5, 100],
    ]);
    // The same players on a distinct board (weekly): 1, 2, 3 among them.
    expect(read(h, ['q4', 'q3', 'q2']).entries.map((e) => [e.playerId, e.rank, e.globalRank])).toEqual([
        ['q2', 1, 3],
        ['q3', 2, 4],
        ['q4', 3, 5],
    ]);
});

test('a period with no entries yet answers everyone as missing; the read writes nothing', () => {
    const h = tenPlayers();
    h.advance(86_400);
    expect(read(h, ['p1', 'p2'], 'daily')).toEqual({
        scoreboardId: 'daily',
        entries: [],
        missing: ['p1', 'p2'],
        totalEntries: 0,
    });
    const before = JSON.stringify([...h.store.players.first(100)]);
    read(h, ['p1', 'p2', 'new-player']);
    expect(JSON.stringify([...h.store.players.first(100)])).toBe(before);
    expect(h.store.players.get(`${G}/new-player`)).toBeUndefined();
});

test("a player merged into a signed-in account reads as missing by its old id, and as the account's player by its id", () => {
    const h = tenPlayers();
    const session = signIn(h, G, person('friend-1'), 'Friendly');
    const sessionHash = hashOf(session.sessionId);
    migrateAccount(h, { sessionHash, gameId: G, deviceId: 'p5' });
    const account = resolveSession(h, { sessionHash, gameId: G }).playerId;
    expect(account).toMatch(/^@[0-9a-f]{32}$/);
    const set = read(h, ['p5', account, 'p4']);
    expect(set.missing).toEqual(['p5']);
    expect(set.entries.map((e) => [e.playerId, e.rank, e.globalRank, e.score, e.nickname])).toEqual([
        ['p4', 1, 5, 500, 'Player_5'],
        [account, 2, 6, 400, 'Friendly'],
    ]);
});
