// League boards through the service on in-memory maps: joining by the split rule, zones, ranks
// by the board's order and ties, the close (promotion, demotion, clamps, players who did not
// play), Reset now, a close spread over ticks and a player's own division closed on demand,
// upgrades, the events, refused options that change nothing, and removal of the records.
import {
    deleteOwnGame,
    developerSignIn,
    purgeSome,
    registerOwnGame,
    resetOwnBoard,
} from '../../../canister/service/developers';
import { createBoard, deleteBoard, updateBoard } from '../../../canister/service/games';
import { devLeague, division } from '../../../canister/service/league-reads';
import { closeSome, purgeSomeLeagues } from '../../../canister/service/leagues';
import { rolloverAll } from '../../../canister/service/rollover';
import { readFeed } from '../../../canister/service/event-feed';
import type { League } from '../../../contract/board-options';
import {
    expectSameAfterUpgrades,
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

const G = 'my-game';
const DAY = 86_400;
const LEAGUE: League = { divisionSize: 30, tiers: ['Bronze', 'Silver', 'Gold'], promote: 3, demote: 3 };

/** A submit to 'ladder' ('': a fan-out submit, to the standard boards). */
function send(h: Harness, playerId: string, score: number, board = 'ladder'): void {
    const boardId = board === '' ? undefined : board;
    const [r] = submitBatch(h, {
        submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak: 0, scoreboardId: boardId }],
    });
    expect(r).toEqual({ ok: expect.anything() });
}

/** A game with a targeted weekly-length custom league board 'ladder'. */
function ladder(league: League = LEAGUE, options: Record<string, unknown> = {}): Harness {
    const h = harness('2026-03-02T00:00:00Z');
    withGame(h);
    createBoard(h, {
        gameId: G,
        scoreboardId: 'ladder',
        type: 'targeted',
        period: 'custom',
        days: 7,
        league,
        ...options,
    });
    return h;
}

const read = (h: Harness, playerId: string) => present(division(h, { gameId: G, boardId: 'ladder', playerId }));
const sizes = (h: Harness) => {
    const state = h.games.get(G)!.leagues.get('ladder')!;
    return state.current.divisions.map((d) => d!.members.length);
};
const tierOfPlayer = (h: Harness, playerId: string) => read(h, playerId).tier.index;

/** Ends the period and closes every division (the timer's ticks). */
function closeWeek(h: Harness): void {
    h.advance(7 * DAY);
    rolloverAll(h);
    while (closeSome(h) > 0);
}

test('joining splits the most recently filled division: 300 players make 10 of 30, 250 stay within [15, 30]', () => {
    const h = ladder();
    for (let i = 0; i < 300; i++) send(h, `p${i}`, i);
    expect(sizes(h)).toEqual(new Array(10).fill(30));
    const g = ladder();
    for (let i = 0; i < 250; i++) send(g, `p${i}`, i);
    const s = sizes(g);
    expect(s.reduce((a, b) => a + b, 0)).toBe(250);
    expect(s.every((n) => n >= 15 && n <= 30)).toBe(true);
    expect(s.length).toBe(9);
    // A second submit of the period does not join again.
    g.advance(3);
    send(g, 'p0', 1000);
    expect(sizes(g)).toEqual(s);
});

test('a division reads in the board order with zones; the lowest tier has no demotion zone', () => {
    const h = ladder({ ...LEAGUE, divisionSize: 10 });
    for (let i = 0; i < 10; i++) send(h, `p${i}`, i * 10);
    const d = read(h, 'p5');
    expect(d).toMatchObject({
        scoreboardId: 'ladder',
        tier: { index: 0, name: 'Bronze' },
        tiers: 3,
        division: 1,
        promote: 3,
        demote: 0,
        player: { rank: 5, zone: 'stay' },
    });
    expect(d.entries.map((e) => [e.rank, e.score, e.zone])).toEqual([
        [1, 90, 'promotion'],
        [2, 80, 'promotion'],
        [3, 70, 'promotion'],
        [4, 60, 'stay'],
        [5, 50, 'stay'],
        [6, 40, 'stay'],
        [7, 30, 'stay'],
        [8, 20, 'stay'],
        [9, 10, 'stay'],
        [10, 0, 'stay'],
    ]);
    expect(d.entries.filter((e) => e.you === true).map((e) => e.score)).toEqual([50]);
    expect(d.entries[0]).toEqual({
        rank: 1,
        nickname: expect.any(String),
        score: 90,
        streak: 0,
        authType: 'external',
        submittedAt: expect.any(Number),
        zone: 'promotion',
    });
    // A player of the game who has not played this period: their tier, no division.
    send(h, 'other', 5, '');
    expect(read(h, 'other')).toMatchObject({ division: null, entries: [], player: null, tier: { index: 0 } });
    expect(failure(() => division(h, { gameId: G, boardId: 'ladder', playerId: 'nobody' })).status).toBe(404);
    expect(failure(() => division(h, { gameId: G, boardId: 'weekly', playerId: 'p1' }))).toEqual({
        status: 404,
        message: "Board 'ladder' is not a league board.".replace('ladder', 'weekly'),
    });
});

test('a lowest-first board with shared ties ranks its divisions that way', () => {
    const h = ladder({ ...LEAGUE, divisionSize: 10, promote: 2 }, { sortOrder: 'asc', ties: 'shared' });
    for (const [p, score] of [
        ['a', 30],
        ['b', 10],
        ['c', 10],
        ['d', 20],
    ] as const)
        send(h, p, score);
    expect(read(h, 'a').entries.map((e) => [e.rank, e.score, e.zone])).toEqual([
        [1, 10, 'promotion'],
        [1, 10, 'promotion'],
        [3, 20, 'stay'],
        [4, 30, 'stay'],
    ]);
});

test('the close promotes and demotes by zone, clamped at the top and bottom; who did not play keeps their tier', () => {
    const h = ladder({ ...LEAGUE, divisionSize: 10 });
    withReader(h, G);
    for (let i = 0; i < 10; i++) send(h, `p${i}`, i);
    closeWeek(h);
    expect([0, 1, 2, 3, 6, 7, 8, 9].map((i) => tierOfPlayer(h, `p${i}`))).toEqual([0, 0, 0, 0, 0, 1, 1, 1]);
    // Week 2: p7-p9 in Silver (p9 best), the rest in Bronze; p0 does not play.
    for (let i = 1; i < 10; i++) send(h, `p${i}`, i);
    expect(read(h, 'p9')).toMatchObject({ tier: { index: 1, name: 'Silver' }, promote: 3, demote: 3 });
    closeWeek(h);
    // Silver's three: p9 promoted (top 3 of 3 would overlap: promotion comes first), none demoted.
    expect(tierOfPlayer(h, 'p9')).toBe(2);
    expect(tierOfPlayer(h, 'p0')).toBe(0);
    // Week 3: Gold has no promotion zone.
    send(h, 'p9', 1);
    expect(read(h, 'p9')).toMatchObject({ tier: { index: 2, name: 'Gold' }, promote: 0, demote: 3 });
    closeWeek(h);
    expect(tierOfPlayer(h, 'p9')).toBe(1);
    const events = readFeed(h, { gameId: G, serverKeyHash: hashOf(withReader(h, G)), limit: 100 }).events.filter(
        (e) => e.kind === 'division_closed',
    );
    expect(events.length).toBeGreaterThan(0);
});

/** A developer's game 'my-game' with the league board 'ladder'; returns their session hash. */
function ownLadder(h: Harness, league: League = LEAGUE): string {
    const session = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash: session, gameId: G, name: 'My Game' });
    createBoard(h, { gameId: G, scoreboardId: 'ladder', type: 'custom', days: 7, league });
    return session;
}

test('Reset now closes the divisions over ticks; a player back first gets their own closed on demand', () => {
    const h = harness('2026-03-02T00:00:00Z');
    const session = ownLadder(h, { ...LEAGUE, divisionSize: 10, promote: 2, demote: 2 });
    for (let i = 0; i < 40; i++) send(h, `p${i}`, i, '');
    expect(sizes(h)).toEqual([10, 10, 10, 10]);
    h.advance(60);
    resetOwnBoard(h, { sessionHash: session, gameId: G, scoreboardId: 'ladder' });
    const state = h.games.get(G)!.leagues.get('ladder')!;
    expect(state.pending?.left).toBe(4);
    expect(devLeague(h, { sessionHash: session, gameId: G, boardId: 'ladder' }).closing).toBe(4);
    // p39 leads the last division (players 30-39 joined it): back first, their division closes first.
    h.advance(3);
    send(h, 'p39', 1, '');
    expect(state.pending?.left).toBe(3);
    expect(read(h, 'p39')).toMatchObject({ tier: { index: 1, name: 'Silver' }, division: 1 });
    // A tick with room for one division closes one; the rest on the next.
    expect(closeSome(h, 10)).toBe(2);
    expect(closeSome(h)).toBe(0);
    expect(state.pending).toBeUndefined();
    // Two promoted out of each division of ten.
    const tiers = Array.from({ length: 40 }, (_, i) => tierOfPlayer(h, `p${i}`));
    expect(tiers.filter((t) => t === 1).length).toBe(8);
    expect(h.store.leagueArchives.size()).toBe(4);
});

test('upgrades keep tiers, divisions and a close still running', () => {
    const h = ladder({ ...LEAGUE, divisionSize: 10 });
    for (let i = 0; i < 25; i++) send(h, `p${i}`, i);
    closeWeek(h);
    for (let i = 0; i < 25; i++) send(h, `p${i}`, 100 - i);
    const view = () => Array.from({ length: 25 }, (_, i) => read(h, `p${i}`));
    expectSameAfterUpgrades(h, view);
    // The period ends; its close runs after an upgrade, from the players' records.
    h.advance(7 * DAY);
    rolloverAll(h);
    const before = h.games.get(G)!.leagues.get('ladder')!.pending!.left;
    expect(before).toBe(3);
    expectSameAfterUpgrades(h, () => h.games.get(G)!.leagues.get('ladder')!.pending?.left);
    while (closeSome(h) > 0);
    const g = ladder({ ...LEAGUE, divisionSize: 10 });
    for (let i = 0; i < 25; i++) send(g, `p${i}`, i);
    closeWeek(g);
    for (let i = 0; i < 25; i++) send(g, `p${i}`, 100 - i);
    closeWeek(g);
    // The same tiers as a league that closed without an upgrade.
    expect(Array.from({ length: 25 }, (_, i) => tierOfPlayer(h, `p${i}`))).toEqual(
        Array.from({ length: 25 }, (_, i) => tierOfPlayer(g, `p${i}`)),
    );
});

test('bad league options are refused and change nothing', () => {
    const h = ladder();
    const game = h.games.get(G)!;
    const bad: unknown[] = [
        { ...LEAGUE, divisionSize: 9 },
        { ...LEAGUE, divisionSize: 101 },
        { ...LEAGUE, tiers: ['Only'] },
        { ...LEAGUE, tiers: ['A', 'A'] },
        { ...LEAGUE, tiers: ['A', ''] },
        { ...LEAGUE, tiers: ['A', 'x'.repeat(33)] },
        { ...LEAGUE, promote: 16 },
        { ...LEAGUE, demote: -1 },
        { ...LEAGUE, extra: 1 },
        'on',
    ];
    for (const league of bad) {
        expect(failure(() => createBoard(h, { gameId: G, scoreboardId: 'new', type: 'monthly', league })).status).toBe(
            400,
        );
        expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'ladder', name: 'x', league })).status).toBe(
            400,
        );
    }
    expect(game.record.boards.map((b) => b.scoreboardId)).not.toContain('new');
    // Only timed boards.
    for (const req of [
        { type: 'custom', days: 0 },
        { type: 'targeted', period: 'allTime' },
    ])
        expect(
            failure(() => createBoard(h, { gameId: G, scoreboardId: 'new', league: LEAGUE, ...req } as never)).message,
        ).toMatch(/only for timed boards/);
    expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'all-time', league: LEAGUE })).status).toBe(400);
    // With entries this period: on, off, divisionSize and the number of tiers wait for the next period.
    send(h, 'p1', 5);
    send(h, 'p2', 5, '');
    const stored = JSON.stringify(h.store.games.get(G));
    for (const [boardId, league] of [
        ['ladder', null],
        ['ladder', { ...LEAGUE, divisionSize: 20 }],
        ['ladder', { ...LEAGUE, tiers: ['A', 'B'] }],
        ['weekly', LEAGUE],
    ] as const) {
        const refused = failure(() => updateBoard(h, { gameId: G, scoreboardId: boardId, name: 'renamed', league }));
        expect(refused).toEqual({
            status: 409,
            message: expect.stringMatching(/start of a period or after Reset now/),
        });
    }
    expect(JSON.stringify(h.store.games.get(G))).toBe(stored);
    expect(game.record.boards.find((b) => b.scoreboardId === 'ladder')!.name).toBe('ladder');
    // Names, promote and demote change any time.
    const renamed = { ...LEAGUE, tiers: ['Iron', 'Steel', 'Diamond'], promote: 5, demote: 1 };
    expect(updateBoard(h, { gameId: G, scoreboardId: 'ladder', league: renamed }).league).toEqual(renamed);
    expect(read(h, 'p1')).toMatchObject({ tier: { name: 'Iron' }, promote: 5, demote: 0 });
});

test('a deleted league board or game leaves no league records', () => {
    const h = ladder({ ...LEAGUE, divisionSize: 10 });
    for (let i = 0; i < 25; i++) send(h, `p${i}`, i);
    closeWeek(h);
    for (let i = 0; i < 5; i++) send(h, `p${i}`, i);
    const records = () => h.store.leagueTiers.size() + h.store.leagueDivisions.size() + h.store.leagueArchives.size();
    expect(records()).toBeGreaterThan(5);
    deleteBoard(h, { gameId: G, scoreboardId: 'ladder' });
    while (purgeSomeLeagues(h, 2));
    expect(records()).toBe(0);
    // A game with a league board, deleted by its developer.
    const g = harness('2026-03-02T00:00:00Z');
    const session = ownLadder(g);
    for (let i = 0; i < 5; i++) send(g, `p${i}`, i, '');
    expect(g.store.leagueDivisions.size()).toBe(2);
    deleteOwnGame(g, { sessionHash: session, gameId: G, confirm: G });
    while (purgeSome(g, 1000));
    while (purgeSomeLeagues(g, 1000));
    expect(g.store.leagueDivisions.size() + g.store.leagueTiers.size()).toBe(0);
});

test('a moved game keeps its league option; its tiers start anew there and leave nothing behind', () => {
    const src = ladder({ ...LEAGUE, divisionSize: 10 });
    for (let i = 0; i < 12; i++) send(src, `p${i}`, i);
    closeWeek(src);
    expect(tierOfPlayer(src, 'p11')).toBe(1);
    const dst = harness('2026-03-09T00:00:00Z');
    dst.time = src.time;
    moveGame(src, dst, G, 'aaaaa-aa');
    expect(dst.games.get(G)!.record.boards.find((b) => b.scoreboardId === 'ladder')!.league).toEqual({
        ...LEAGUE,
        divisionSize: 10,
    });
    expect(read(dst, 'p11')).toMatchObject({ tier: { index: 0 }, division: null });
    dst.advance(3);
    send(dst, 'p11', 5);
    expect(read(dst, 'p11')).toMatchObject({ division: 1, player: { rank: 1 } });
    while (purgeSome(src, 1000));
    while (purgeSomeLeagues(src, 1000));
    expect(src.store.leagueTiers.size() + src.store.leagueDivisions.size() + src.store.leagueArchives.size()).toBe(0);
});

test("another developer's session, a bad tier or a bad player id reads nothing", () => {
    const h = harness('2026-03-02T00:00:00Z');
    const session = ownLadder(h);
    send(h, 'p1', 5, '');
    const eve = hashOf(developerSignIn(h, { identity: person('eve', 'local') }).sessionToken);
    expect(failure(() => devLeague(h, { sessionHash: eve, gameId: G, boardId: 'ladder' })).status).toBe(404);
    for (const tier of [-1, 3, 1.5, '0'])
        expect(failure(() => devLeague(h, { sessionHash: session, gameId: G, boardId: 'ladder', tier })).status).toBe(
            400,
        );
    expect(devLeague(h, { sessionHash: session, gameId: G, boardId: 'ladder', limit: 1000 }).divisions).toHaveLength(1);
    for (const playerId of [undefined, '', 7, 'x'.repeat(500)])
        expect(failure(() => division(h, { gameId: G, boardId: 'ladder', playerId })).status).toBe(400);
    expect(failure(() => division(h, { gameId: 'other-game', boardId: 'ladder', playerId: 'p1' })).status).toBe(404);
});
