// Period rollover on the real canister under advanced replica time: at midnight UTC the daily
// board starts empty and the previous day is archived by the canister's timer, without any
// submit; archives read back over http_request too.
import { startLeaderboard, type TestCanister } from '../support/canister';
import { advance } from '../support/replica';

let c: TestCanister;
let apiKey: string;

beforeAll(async () => {
    c = await startLeaderboard({ startTime: BigInt(Date.parse('2026-03-04T23:50:00Z')) * 1_000_000n });
    ({ apiKey } = await c.ok('admin_register_game', { developerId: 'dev-1', gameId: 'daily-game', name: 'Daily' }));
});
afterAll(() => c.replica.stop());

test('the timer archives yesterday at midnight; today starts empty; the week goes on', async () => {
    await c.ok('submit_scores', {
        submits: [
            { apiKey, gameId: 'daily-game', playerId: 'p1', score: 500, streak: 5 },
            { apiKey, gameId: 'daily-game', playerId: 'p2', score: 700, streak: 2 },
        ],
    });
    expect((await c.ok('read_board', { gameId: 'daily-game', boardId: 'daily' })).totalEntries).toBe(2);
    await advance(c.replica, 15 * 60 * 1000, [c.agent]); // 00:05, no submits since
    const today = await c.ok('read_board', { gameId: 'daily-game', boardId: 'daily' });
    expect(today).toMatchObject({
        entries: [],
        totalEntries: 0,
        config: { lastReset: Date.parse('2026-03-05T00:00:00Z') * 1e6 },
    });
    expect((await c.ok('read_board', { gameId: 'daily-game', boardId: 'weekly' })).totalEntries).toBe(2);
    const archives = await c.ok('list_archives', { gameId: 'daily-game', boardId: 'daily' });
    const start = Date.parse('2026-03-04T00:00:00Z') * 1e6;
    expect(archives.archives).toEqual([
        {
            archiveId: `daily-game:daily:${start}`,
            periodStart: start,
            periodEnd: start + 86_400e9,
            entryCount: 2,
            topPlayer: expect.any(String),
            topScore: 700,
        },
    ]);
    const res = await fetch(
        `${c.replica.url}/games/daily-game/scoreboards/daily/archives/latest?limit=1&canisterId=${c.canisterId.toText()}`,
    );
    const body = await res.json();
    expect(body).toMatchObject({
        ok: true,
        data: { archiveId: `daily-game:daily:${start}`, totalEntries: 2, entries: [{ rank: 1, score: 700 }] },
    });
    expect(body.data.entries).toHaveLength(1);
});
