// Lowest-first and cumulative boards through the public HTTP API (gateway and replica): POST
// /scores then GET the board, for an 'asc' targeted board, a 'sum' board, and a game whose
// standard boards rank times (the leaderboard, a player's rank and the profile follow it).
import { startService, type TestService } from '../support/gateway';

let s: TestService;
beforeAll(async () => {
    s = await startService();
});
afterAll(() => s.stop());

const player = (n: number): string => `dev_1700000000_${n.toString(16).padStart(8, '0')}`;

/** Moves the replica's clock past the rate and play windows (the gateway's agent follows). */
async function later(): Promise<void> {
    await s.replica.advanceTime(6000);
    await s.canister.agent.syncTime();
}

function client(gameId: string, apiKey: string) {
    const headers = { 'X-API-Key': apiKey };
    return {
        async submit(playerId: string, score: number, extra: Record<string, unknown> = {}): Promise<string> {
            const res = await s.request('POST', '/scores', {
                headers,
                body: { gameId, playerId, score, streak: 1, ...extra },
            });
            expect({ status: res.status, ok: res.body?.ok }).toEqual({ status: 200, ok: true });
            return res.body.data.message;
        },
        async get(path: string): Promise<any> {
            const res = await s.request('GET', path, { headers });
            expect(res.status).toBe(200);
            return res.body.data;
        },
        async scores(boardId: string): Promise<number[]> {
            const board = await this.get(`/games/${gameId}/scoreboards/${boardId}?limit=10`);
            return board.entries.map((e: { score: number }) => e.score);
        },
    };
}

test('an asc targeted board ranks the lowest time first; a sum board adds each submit', async () => {
    const gameId = 'kinds-http';
    const apiKey = await s.game(gameId, async (canister) => {
        await canister.ok('admin_create_board', { gameId, scoreboardId: 'laps', type: 'targeted', sortOrder: 'asc' });
        await canister.ok('admin_create_board', { gameId, scoreboardId: 'coins', type: 'targeted', operator: 'sum' });
    });
    const c = client(gameId, apiKey);
    await c.submit(player(1), 61_250, { scoreboardId: 'laps' });
    await c.submit(player(2), 59_900, { scoreboardId: 'laps' });
    await c.submit(player(1), 40, { scoreboardId: 'coins' });
    await c.submit(player(2), 25, { scoreboardId: 'coins' });
    expect(await c.scores('laps')).toEqual([59_900, 61_250]);
    expect(await c.scores('coins')).toEqual([40, 25]);
    await later();
    expect(await c.submit(player(1), 58_000, { scoreboardId: 'laps' })).toBe('Score submitted: new personal best!');
    await c.submit(player(2), 30, { scoreboardId: 'coins' });
    const laps = await c.get(`/games/${gameId}/scoreboards/laps`);
    expect(laps.entries.map((e: { rank: number; score: number }) => [e.rank, e.score])).toEqual([
        [1, 58_000],
        [2, 59_900],
    ]);
    expect(laps.totalEntries).toBe(2);
    expect(await c.scores('coins')).toEqual([55, 40]);
    // A slower lap changes nothing.
    await later();
    expect(await c.submit(player(1), 70_000, { scoreboardId: 'laps' })).toBe('Score submitted.');
    expect(await c.scores('laps')).toEqual([58_000, 59_900]);
});

test("a game's standard boards rank times: leaderboard, rank and profile follow the setting", async () => {
    const gameId = 'times-http';
    const apiKey = await s.game(gameId, async (canister) => {
        await canister.ok('admin_update_game', { gameId, standardBoards: { sortOrder: 'asc' } });
    });
    const c = client(gameId, apiKey);
    await c.submit(player(1), 90_000);
    await c.submit(player(2), 80_000);
    await later();
    await c.submit(player(1), 75_000);
    for (const board of ['all-time', 'weekly', 'daily']) expect(await c.scores(board)).toEqual([75_000, 80_000]);
    const top = await c.get('/leaderboard');
    expect(top.leaderboard.map((e: { score: number }) => e.score)).toEqual([75_000, 80_000]);
    expect(await c.get(`/players/${player(2)}/rank`)).toMatchObject({ rank: 2, score: 80_000, totalPlayers: 2 });
    expect((await c.get(`/players/${player(1)}/profile`)).gameProfile).toMatchObject({ score: 75_000, playCount: 2 });
});
