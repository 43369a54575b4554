// Prizes on the Store seam: which rows a close grants (ranks, topPercent, shared ties, lowest-first
// boards, the cap per close, a close run twice), a league division's grants through the hook,
// the player's reads and claims under each `rewardClaims`, the events, the dashboard's list, the
// option's checks, and the grants gone with their game.
import { signIn } from '../../../canister/service/accounts';
import { deleteOwnGame, developerSignIn, purgeSome, registerOwnGame } from '../../../canister/service/developers';
import { readEvents } from '../../../canister/service/events';
import { createBoard, deleteBoard, updateBoard, updateGame } from '../../../canister/service/games';
import { grantDivisionPrizes } from '../../../canister/service/league-prizes';
import { claimReward, devGrants, grantBoardPrizes, playerRewards } from '../../../canister/service/rewards';
import { ban } from '../../../canister/service/moderation';
import { rolloverAll } from '../../../canister/service/rollover';
import { playerKey } from '../../../canister/state/store';
import { PRIZES, type PrizeRow } from '../../../contract/rewards';
import {
    failure,
    harness,
    hashOf,
    key,
    moveGame,
    person,
    present,
    withGame,
    withReader,
    type Harness,
} from './harness';
import { submitBatch } from './submit';

const G = 'prize-game';
const DAY = 86_400;
/** 2026-03-02 is a Monday: a 7-day custom board made then closes on the 9th. */
const START = '2026-03-02T00:00:00Z';

function game(h: Harness) {
    return h.games.get(G)!;
}

function setup(prizes?: PrizeRow[], options: Record<string, unknown> = {}): Harness {
    const h = harness(START);
    withGame(h, G);
    createBoard(h, { gameId: G, scoreboardId: 'cup', type: 'custom', days: 7, prizes, ...options });
    return h;
}

/** Submits (fanned out to every board) of `scores` by players p1, p2, ... in that order (2 s apart). */
function play(h: Harness, scores: number[], prefix = 'p'): void {
    for (let i = 0; i < scores.length; i += 100) {
        h.advance(3);
        const submits = scores.slice(i, i + 100).map((score, k) => ({
            apiKey: key(h, G),
            gameId: G,
            playerId: `${prefix}${i + k + 1}`,
            score,
            streak: 0,
        }));
        for (const r of submitBatch(h, { submits })) expect(r).toEqual({ ok: expect.anything() });
    }
}

function close(h: Harness): void {
    h.advance(8 * DAY);
    rolloverAll(h);
}

/** What each player got: playerId -> [rank, reward, amount] per grant, in the read's order. */
function got(h: Harness, players: string[]): Record<string, Array<[number, string, number]>> {
    const out: Record<string, Array<[number, string, number]>> = {};
    for (const p of players) {
        const rewards = playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: p }).rewards;
        if (rewards.length > 0) out[p] = rewards.map((g) => [g.rank, g.reward, g.amount]);
    }
    return out;
}
const ids = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('which rows a close grants', () => {
    test('rank rows: every row a player matches, nobody else', () => {
        const h = setup([
            { from: 1, to: 1, reward: 'gold', amount: 100 },
            { from: 1, to: 3, reward: 'chest', amount: 1 },
            { from: 4, to: 5, reward: 'silver', amount: 10 },
        ]);
        play(h, [50, 90, 70, 10, 30, 20]);
        close(h);
        expect(got(h, ids(6))).toEqual({
            p2: [
                [1, 'chest', 1],
                [1, 'gold', 100],
            ],
            p3: [[2, 'chest', 1]],
            p1: [[3, 'chest', 1]],
            p5: [[4, 'silver', 10]],
            p6: [[5, 'silver', 10]],
        });
    });

    test('topPercent: ranks within p % of the entries (rank x 100 <= p x entries)', () => {
        const h = setup([
            { topPercent: 10, reward: 'top10', amount: 5 },
            { topPercent: 25, reward: 'top25', amount: 1 },
        ]);
        play(h, [20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
        close(h);
        const all = got(h, ids(20));
        expect(Object.keys(all)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
        expect(all.p1).toEqual([
            [1, 'top25', 1],
            [1, 'top10', 5],
        ]);
        expect(all.p3).toEqual([[3, 'top25', 1]]);
    });

    test('shared ties: equal scores share a rank and its prize, past the row end', () => {
        const h = setup([{ from: 1, to: 2, reward: 'medal', amount: 1 }], { ties: 'shared' });
        play(h, [90, 80, 80, 80, 70]);
        close(h);
        expect(got(h, ids(5))).toEqual({
            p1: [[1, 'medal', 1]],
            p2: [[2, 'medal', 1]],
            p3: [[2, 'medal', 1]],
            p4: [[2, 'medal', 1]],
        });
    });

    test('distinct ties: the first to reach a score ranks higher, rows end where they say', () => {
        const h = setup([{ from: 1, to: 2, reward: 'medal', amount: 1 }]);
        play(h, [90, 80, 80, 80]);
        close(h);
        expect(Object.keys(got(h, ids(4)))).toEqual(['p1', 'p2']);
    });

    test('lowest-first boards pay the lowest scores', () => {
        const h = setup([{ from: 1, to: 2, reward: 'fastest', amount: 3 }], { sortOrder: 'asc' });
        play(h, [3100, 2900, 3500, 2800]);
        close(h);
        expect(got(h, ids(4))).toEqual({ p4: [[1, 'fastest', 3]], p2: [[2, 'fastest', 3]] });
    });

    test(`at most ${PRIZES.perClose} grants a close (in rank order); the cap`, () => {
        const h = setup([
            { from: 1, to: 600, reward: 'a', amount: 1 },
            { from: 1, to: 600, reward: 'b', amount: 1 },
        ]);
        play(
            h,
            ids(600).map((_, i) => 1000 - i),
        );
        close(h);
        const all = got(h, ids(600));
        expect(Object.values(all).flat()).toHaveLength(PRIZES.perClose);
        expect(all.p500).toHaveLength(2);
        expect(all.p501).toBeUndefined();
    });

    test('a row far down pays its ranks only; a tier row on a board that is not a league pays as any row', () => {
        const h = setup([
            { from: 1, to: 1, reward: 'first', amount: 1, tier: 3 },
            { from: 1198, to: 1199, reward: 'spoon', amount: 1 },
        ]);
        play(
            h,
            ids(1200).map((_, i) => 5000 - i),
        );
        close(h);
        expect(got(h, ids(1200))).toEqual({
            p1: [[1, 'first', 1]],
            p1198: [[1198, 'spoon', 1]],
            p1199: [[1199, 'spoon', 1]],
        });
    });

    test('a close granted twice (as a retried close would) grants once', () => {
        const h = setup([{ from: 1, to: 3, reward: 'a', amount: 1 }]);
        play(h, [3, 2, 1]);
        const board = game(h).record.boards.find((b) => b.scoreboardId === 'cup')!;
        const end = h.time + DAY;
        expect(grantBoardPrizes(h, game(h), board, end)).toBe(3);
        expect(grantBoardPrizes(h, game(h), board, end)).toBe(0);
        close(h);
        expect(Object.values(got(h, ids(3))).flat()).toHaveLength(3);
    });

    test('a board without prizes, or whose rows match nobody, writes nothing', () => {
        const h = setup();
        play(h, [5, 4, 3]);
        close(h);
        updateBoard(h, { gameId: G, scoreboardId: 'cup', prizes: [{ from: 5, to: 9, reward: 'x', amount: 1 }] });
        play(h, [5, 4, 3]);
        close(h);
        expect(h.store.grants.size()).toBe(0);
        expect(h.store.grantIndex.size()).toBe(0);
    });
});

describe('a league division through the hook', () => {
    test('rows by rank inside the division, tier rows only in their tier, topPercent of the division', () => {
        const h = setup([
            { from: 1, to: 1, reward: 'gold', amount: 50 },
            { from: 1, to: 2, reward: 'gem', amount: 5, tier: 2 },
            { topPercent: 50, reward: 'coin', amount: 1 },
        ]);
        play(h, [10, 20, 30, 40]);
        const board = game(h).record.boards.find((b) => b.scoreboardId === 'cup')!;
        Object.assign(board, {
            league: { divisionSize: 10, tiers: ['bronze', 'silver', 'gold'], promote: 1, demote: 1 },
        });
        // No grants from the board's own close on a league board: the divisions pay.
        close(h);
        expect(h.store.grants.size()).toBe(0);
        const slot = (p: string) => h.store.players.slot(playerKey(G, p))!;
        const division = (tier: number, n: number, players: string[]) =>
            grantDivisionPrizes(h, game(h), board, {
                periodStart: 1_772_409_600_000_000, // 2026-03-02
                periodEnd: 1_773_014_400_000_000,
                tier,
                division: n,
                ranked: players.map((p, i) => ({ slot: slot(p), rank: i + 1, score: 100 - i })),
            });
        expect(division(2, 1, ['p4', 'p3', 'p2'])).toBe(4);
        expect(division(0, 2, ['p1'])).toBe(1);
        expect(division(2, 1, ['p4', 'p3', 'p2'])).toBe(0);
        const p4 = present(playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: 'p4' }).rewards);
        expect(p4.map((g) => [g.reward, g.rank, g.tier, g.division])).toEqual([
            ['coin', 1, { index: 2, name: 'gold' }, 1],
            ['gem', 1, { index: 2, name: 'gold' }, 1],
            ['gold', 1, { index: 2, name: 'gold' }, 1],
        ]);
        expect(got(h, ['p3', 'p2', 'p1'])).toEqual({
            p3: [[2, 'gem', 5]],
            p1: [[1, 'gold', 50]],
        });
        expect(p4[0]!.grantId).toBe(`cup.1772409600000000.2.${slot('p4')}`);
        expect(p4[0]!.periodStart).toBe(1_772_409_600_000_000_000);
    });
});

test(`each league division has its own cap of ${PRIZES.perClose}: the 11th division of 100 grants each is paid too`, () => {
    const rows: PrizeRow[] = ['a', 'b', 'c', 'd', 'e'].map((reward) => ({ topPercent: 100, reward, amount: 1 }));
    const h = setup(rows);
    play(
        h,
        Array.from({ length: 220 }, (_, i) => i + 1),
    );
    const board = game(h).record.boards.find((b) => b.scoreboardId === 'cup')!;
    Object.assign(board, { league: { divisionSize: 20, tiers: ['low', 'high'], promote: 1, demote: 1 } });
    const slot = (p: string) => h.store.players.slot(playerKey(G, p))!;
    const made = Array.from({ length: 11 }, (_, d) =>
        grantDivisionPrizes(h, game(h), board, {
            periodStart: 1_772_409_600_000_000,
            periodEnd: 1_773_014_400_000_000,
            tier: 0,
            division: d + 1,
            ranked: Array.from({ length: 20 }, (_, i) => ({
                slot: slot(`p${d * 20 + i + 1}`),
                rank: i + 1,
                score: 9,
            })),
        }),
    );
    expect(made).toEqual(Array(11).fill(100));
    const page = devGrants(h, game(h), { gameId: G, boardId: 'cup', offset: 1050, limit: 100 });
    expect(page.periods[0]!.count).toBe(1100);
    expect(page.grants).toHaveLength(50);
});

describe('reads and claims', () => {
    function granted(): { h: Harness; grantId: string } {
        const h = setup([{ from: 1, to: 1, reward: 'gold', amount: 100 }]);
        play(h, [9, 5]);
        close(h);
        const grantId = playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: 'p1' }).rewards[0]!.grantId;
        return { h, grantId };
    }

    test('a claim marks the grant once: the second changes nothing and says so; claimed ones list last', () => {
        const { h, grantId } = granted();
        play(h, [9, 5]);
        close(h);
        const first = claimReward(h, { gameId: G, apiKey: key(h, G), playerId: 'p1', grantId });
        expect(first).toMatchObject({ claimed: true, alreadyClaimed: false, grant: { grantId, reward: 'gold' } });
        h.advance(60);
        const again = claimReward(h, { gameId: G, apiKey: key(h, G), playerId: 'p1', grantId });
        expect(present(again)).toEqual({ ...present(first), alreadyClaimed: true });
        const list = playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: 'p1' }).rewards;
        expect(list.map((g) => [g.grantId === grantId, g.claimedAt === undefined])).toEqual([
            [false, true],
            [true, false],
        ]);
    });

    test("another player's grant, an unknown one, another game's key: refused, nothing changes", () => {
        const { h, grantId } = granted();
        expect(failure(() => claimReward(h, { gameId: G, apiKey: key(h, G), playerId: 'p2', grantId }))).toEqual({
            status: 404,
            message: expect.stringContaining('Reward not found'),
        });
        withGame(h, 'other-game');
        expect(
            failure(() => claimReward(h, { gameId: G, apiKey: key(h, 'other-game'), playerId: 'p1', grantId })).status,
        ).toBe(401);
        expect(failure(() => claimReward(h, { gameId: G, apiKey: key(h, G), playerId: 'p1', grantId: 7 })).status).toBe(
            404,
        );
        expect(
            playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: 'p1' }).rewards[0]!.claimedAt,
        ).toBeUndefined();
    });

    test("a banned player's grant stays listed but is not paid: 403, nothing changes", () => {
        const { h, grantId } = granted();
        ban(h, game(h), { gameId: G, playerId: 'p1' });
        expect(failure(() => claimReward(h, { gameId: G, apiKey: key(h, G), playerId: 'p1', grantId }))).toEqual({
            status: 403,
            message: expect.stringContaining('banned'),
        });
        const listed = playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: 'p1' }).rewards;
        expect(listed.map((g) => [g.grantId, g.claimedAt])).toEqual([[grantId, undefined]]);
    });

    test('rewardClaims: session refuses the API key, server refuses sessions; the server key always may', () => {
        const h = harness(START);
        withGame(h, G);
        const server = withReader(h, G);
        createBoard(h, {
            gameId: G,
            scoreboardId: 'cup',
            type: 'custom',
            days: 7,
            prizes: [{ from: 1, to: 2, reward: 'g', amount: 1 }],
        });
        const session = hashOf(signIn(h, G, person('ann'), undefined).sessionId);
        const me = playerRewards(h, { gameId: G, sessionHash: session });
        expect(me.rewards).toEqual([]);
        h.advance(3);
        const [r] = submitBatch(h, {
            submits: [{ gameId: G, sessionHash: session, score: 50, streak: 0 }],
        });
        expect(r).toEqual({ ok: expect.anything() });
        play(h, [40]);
        close(h);
        const annId = playerRewards(h, { gameId: G, sessionHash: session }).rewards[0]!.grantId;
        const p1Id = playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: 'p1' }).rewards[0]!.grantId;
        expect(() => updateGame(h, { gameId: G, rewardClaims: 'everyone' })).toThrow('Invalid rewardClaims');
        updateGame(h, { gameId: G, rewardClaims: 'session' });
        expect(
            failure(() => claimReward(h, { gameId: G, apiKey: key(h, G), playerId: 'p1', grantId: p1Id })).status,
        ).toBe(403);
        expect(claimReward(h, { gameId: G, sessionHash: session, grantId: annId }).alreadyClaimed).toBe(false);
        updateGame(h, { gameId: G, rewardClaims: 'server' });
        expect(failure(() => claimReward(h, { gameId: G, sessionHash: session, grantId: annId })).status).toBe(403);
        const serverKeyHash = hashOf(server);
        expect(claimReward(h, { gameId: G, serverKeyHash, playerId: 'p1', grantId: p1Id }).alreadyClaimed).toBe(false);
        expect(playerRewards(h, { gameId: G, serverKeyHash, playerId: 'p1' }).rewards[0]!.claimedAt).toBeDefined();
    });
});

describe('events, the dashboard list, the option, deletion', () => {
    test('one reward_granted per grant, only for a game with a reader', () => {
        const h = setup([{ from: 1, to: 2, reward: 'gold', amount: 7 }]);
        play(h, [9, 5]);
        close(h);
        expect(h.store.events.size()).toBe(0);
        withReader(h, G);
        play(h, [4, 8]);
        close(h);
        const events = readEvents(h, G, 0).events.filter((e) => e.kind === 'reward_granted');
        expect(
            present(events).map(({ id: _i, seq: _s, at: _a, gameId: _g, periodStart: _p, periodEnd: _e, ...e }) => e),
        ).toEqual([
            {
                kind: 'reward_granted',
                grantId: expect.stringMatching(/^cup\.\d+\.0\.\d+$/),
                playerId: 'p2',
                scoreboardId: 'cup',
                rank: 1,
                reward: 'gold',
                amount: 7,
            },
            {
                kind: 'reward_granted',
                grantId: expect.stringMatching(/^cup\.\d+\.0\.\d+$/),
                playerId: 'p1',
                scoreboardId: 'cup',
                rank: 2,
                reward: 'gold',
                amount: 7,
            },
        ]);
    });

    test("the dashboard's list: a close's grants with players and claims, pages, closes newest first", () => {
        const h = harness(START);
        const s = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
        registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Prizes' });
        createBoard(h, {
            gameId: G,
            scoreboardId: 'cup',
            type: 'custom',
            days: 7,
            prizes: [{ from: 1, to: 3, reward: 'gold', amount: 1 }],
        });
        play(h, [3, 2, 1]);
        close(h);
        play(h, [1, 2]);
        close(h);
        const g = game(h);
        const newest = present(devGrants(h, g, { boardId: 'cup' }));
        expect(newest.periods.map((p) => p.count)).toEqual([2, 3]);
        expect(newest.grants.map((x) => [x.playerId, x.rank])).toEqual([
            ['p2', 1],
            ['p1', 2],
        ]);
        const older = present(
            devGrants(h, g, { boardId: 'cup', periodStart: newest.periods[1]!.periodStart, offset: 1, limit: 1 }),
        );
        expect(older.grants.map((x) => [x.playerId, x.rank])).toEqual([['p2', 2]]);
        expect(failure(() => devGrants(h, g, { boardId: 'cup', limit: 1000 })).status).toBe(400);
        expect(failure(() => devGrants(h, g, { boardId: 'nope' })).status).toBe(404);
        expect(failure(() => devGrants(h, g, { boardId: 'cup', periodStart: 5 })).status).toBe(404);
        // The game deleted: its players' grants and its lists go with it.
        const again = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
        deleteOwnGame(h, { sessionHash: again, gameId: G, confirm: G });
        while (purgeSome(h, 1000));
        expect(h.store.grants.size()).toBe(0);
        expect(h.store.grantIndex.size()).toBe(0);
    });

    test('the option: timed boards only, checked whole, null or [] removes it, deleting the board drops its lists', () => {
        const h = setup([{ from: 1, to: 1, reward: 'gold', amount: 1 }]);
        const row = { from: 1, to: 1, reward: 'gold', amount: 1 };
        expect(
            failure(() => createBoard(h, { gameId: G, scoreboardId: 'ever', type: 'targeted', prizes: [row] })).message,
        ).toContain('only for boards with periods');
        expect(
            failure(() => createBoard(h, { gameId: G, scoreboardId: 'c0', type: 'custom', days: 0, prizes: [row] }))
                .status,
        ).toBe(400);
        for (const bad of [
            [{ ...row, from: 2, to: 1 }],
            [{ ...row, reward: 'no spaces' }],
            [{ ...row, amount: 0 }],
            [{ ...row, amount: 2 ** 31 }],
            [{ topPercent: 0, reward: 'x', amount: 1 }],
            [{ topPercent: 101, reward: 'x', amount: 1 }],
            [{ ...row, topPercent: 5 }],
            [{ ...row, extra: 1 }],
            Array.from({ length: PRIZES.rows + 1 }, () => row),
            'gold',
        ])
            expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'cup', prizes: bad })).message).toContain(
                'Invalid prizes',
            );
        const board = () => game(h).record.boards.find((b) => b.scoreboardId === 'cup');
        expect(board()!.prizes).toEqual([row]);
        updateBoard(h, { gameId: G, scoreboardId: 'cup', prizes: [] });
        expect(board()!.prizes).toBeUndefined();
        updateBoard(h, { gameId: G, scoreboardId: 'cup', prizes: [row] });
        updateBoard(h, { gameId: G, scoreboardId: 'cup', prizes: null });
        expect(board()!.prizes).toBeUndefined();
        updateBoard(h, { gameId: G, scoreboardId: 'cup', prizes: [row] });
        play(h, [1]);
        close(h);
        expect(h.store.grantIndex.size()).toBe(2);
        deleteBoard(h, { gameId: G, scoreboardId: 'cup' });
        expect(h.store.grantIndex.size()).toBe(0);
        expect(h.store.grants.size()).toBe(1);
    });
});

test("a moved game takes its players' grants and its lists of closes along; the source drops them", () => {
    const src = setup([{ from: 1, to: 2, reward: 'gold', amount: 1 }]);
    play(src, [5, 9, 1]);
    close(src);
    const dst = harness(START);
    dst.time = src.time;
    const read = (h: Harness) => ({
        p2: present(playerRewards(h, { gameId: G, apiKey: key(h, G), playerId: 'p2' })),
        list: present(devGrants(h, h.games.get(G)!, { boardId: 'cup' })),
    });
    const before = read(src);
    expect(before.list.grants).toHaveLength(2);
    moveGame(src, dst, G, 'aaaaa-aa');
    expect(read(dst)).toEqual(before);
    expect(
        claimReward(dst, { gameId: G, apiKey: key(dst, G), playerId: 'p2', grantId: before.p2.rewards[0]!.grantId })
            .alreadyClaimed,
    ).toBe(false);
    while (purgeSome(src, 1000));
    expect([src.store.grants.size(), src.store.grantIndex.size()]).toEqual([0, 0]);
});
