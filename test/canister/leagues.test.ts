// A league board on the real canister: divisions read by the `division` query and the direct
// (uncertified) read alike, the dashboard's view, the close run by the canister's timer with its
// division_closed events and promotions, both kinds of upgrade, and a refused change.
import { createHash } from 'node:crypto';

import { initArg, leaderboardWasm, startLeaderboard, type TestCanister } from '../support/canister';

const G = 'league-game';
const DAY_MS = 86_400_000;
const LEAGUE = { divisionSize: 10, tiers: ['Bronze', 'Silver', 'Gold'], promote: 2, demote: 2 };
const hash = (token: string): string => createHash('sha256').update(token).digest('hex');

let c: TestCanister;
let apiKey: string;
let sessionHash: string;
let serverKeyHash: string;

const division = (playerId: string) => c.ok('division', { gameId: G, boardId: 'ladder', playerId });

async function play(players: number, score: (i: number) => number): Promise<void> {
    const submits = Array.from({ length: players }, (_, i) => ({
        apiKey,
        gameId: G,
        playerId: `p${i}`,
        score: score(i),
        streak: 0,
        scoreboardId: 'ladder',
    }));
    const replies = await c.ok('submit_scores', { submits });
    expect(replies.filter((r: { ok?: unknown }) => r.ok === undefined)).toEqual([]);
}

async function upgrade(skipPreUpgrade: boolean): Promise<void> {
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
        skipPreUpgrade,
    });
}

beforeAll(async () => {
    c = await startLeaderboard({ startTime: BigInt(Date.parse('2026-03-02T00:00:00Z')) * 1_000_000n });
    const identity = { issuer: 'https://idp.example', subject: 'lg-dev', email: 'dev@example.com', provider: 'local' };
    sessionHash = hash((await c.ok('dev_sign_in', { identity })).sessionToken);
    ({ apiKey } = await c.ok('dev_register_game', { sessionHash, gameId: G, name: 'Leagues' }));
    serverKeyHash = hash((await c.ok('dev_rotate_server_key', { sessionHash, gameId: G })).serverKey);
    const board = await c.ok('dev_create_board', {
        sessionHash,
        gameId: G,
        scoreboardId: 'ladder',
        type: 'targeted',
        period: 'custom',
        days: 7,
        league: LEAGUE,
    });
    expect(board.league).toEqual(LEAGUE);
    expect(board.leagueSince).toBeUndefined();
});
afterAll(() => c.replica.stop());

test('players join divisions; the query, the direct read and the dashboard read them', async () => {
    await play(25, (i) => i);
    const mine = await division('p24');
    expect(mine).toMatchObject({
        scoreboardId: 'ladder',
        tier: { index: 0, name: 'Bronze' },
        tiers: 3,
        promote: 2,
        demote: 0,
        player: { rank: 1, zone: 'promotion' },
    });
    expect(mine.entries.length).toBeGreaterThanOrEqual(5);
    const res = await fetch(
        `${c.replica.url}/games/${G}/scoreboards/ladder/division?playerId=p24&canisterId=${c.canisterId.toText()}`,
    );
    expect(await res.json()).toEqual({ ok: true, data: mine });
    const bad = await fetch(
        `${c.replica.url}/games/${G}/scoreboards/ladder/division?canisterId=${c.canisterId.toText()}`,
    );
    expect(bad.status).toBe(400);
    const view = await c.ok('dev_league', { sessionHash, gameId: G, boardId: 'ladder' });
    expect(view.tiers[0]).toEqual({ index: 0, name: 'Bronze', players: 25, divisions: 3 });
    // 10 full, split at the 11th (5 + 6), both full at 20, the last filled split at the 21st.
    expect(view.divisions.map((d: { size: number }) => d.size)).toEqual([10, 8, 7]);
    expect(view.divisions[0].entries[0]).toMatchObject({ playerId: expect.stringMatching(/^p/), zone: 'promotion' });
    expect(await c.call('division', { gameId: G, boardId: 'weekly', playerId: 'p1' })).toMatchObject({
        err: { status: 404, message: "Board 'weekly' is not a league board." },
    });
});

test('a refused league change changes nothing', async () => {
    const refused = await c.call('dev_update_board', {
        sessionHash,
        gameId: G,
        scoreboardId: 'ladder',
        league: { ...LEAGUE, divisionSize: 20 },
    });
    expect(refused).toMatchObject({ err: { status: 409 } });
    const boards = await c.ok('dev_game', { sessionHash, gameId: G });
    expect(boards.boards.find((b: { scoreboardId: string }) => b.scoreboardId === 'ladder').league).toEqual(LEAGUE);
});

test('upgrades keep divisions; the timer closes the week: promotions, events, tiers kept across upgrades', async () => {
    const before = await Promise.all([division('p0'), division('p24')]);
    await upgrade(false);
    expect(await Promise.all([division('p0'), division('p24')])).toEqual(before);
    await upgrade(true);
    await c.advance(60_000);
    expect(await Promise.all([division('p0'), division('p24')])).toEqual(before);
    // The week ends: the tick rolls the board over and a later one closes its divisions.
    await c.advance(7 * DAY_MS);
    await c.advance(60_000);
    const closed: any[] = [];
    for (let after = 0, latest = 1; after < latest;) {
        const page = await c.ok('read_events', { gameId: G, serverKeyHash, after, limit: 100 });
        closed.push(...page.events.filter((e: { kind: string }) => e.kind === 'division_closed'));
        ({ next: after, latest } = page);
    }
    expect(closed).toHaveLength(3);
    expect(closed[0]).toMatchObject({ scoreboardId: 'ladder', tier: { index: 0, name: 'Bronze' } });
    const promoted = closed.flatMap((e) =>
        e.entries
            .filter((x: { outcome: string }) => x.outcome === 'promoted')
            .map((x: { playerId: string }) => x.playerId),
    );
    expect(promoted).toHaveLength(6);
    expect(promoted).toContain('p24');
    await upgrade(true);
    const next = await division('p24');
    expect(next).toMatchObject({ tier: { index: 1, name: 'Silver' }, division: null, demote: 2 });
    expect((await division('p0')).tier.index).toBe(0);
});
