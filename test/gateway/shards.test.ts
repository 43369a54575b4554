// Gateways in front of a directory with two shards (the real wasm on the local replica): games
// placed on both shards are played and read through the gateway, each call going straight to
// the game's canister (no directory call per request once a game is known), /stats summing every
// canister, a second gateway sharing nothing but the canisters, developers' dashboard calls on a
// shard's game forwarded by the directory, and what a stranger's session cannot do there.
import { connectCanister } from '../../gateway/ic/canister';
import { loadIdentity } from '../../gateway/ic/identity';
import { moveGame } from '../../gateway/ops/move-game';
import { serveGateway, type RunningGateway } from '../../gateway/server/serve';
import { startService, type TestService } from '../support/gateway';
import { developer, ownGame } from '../support/webhooks';

let s: Awaited<ReturnType<typeof startService>>;
let directory: string;
/** Two games, one on each shard: [gameId, apiKey, canister]. */
const games: Array<{ gameId: string; apiKey: string; canister: string }> = [];

const submit = (t: TestService, apiKey: string, gameId: string, playerId: string, score: number) =>
    t.request('POST', '/scores', { headers: { 'X-API-Key': apiKey }, body: { gameId, playerId, score, streak: 1 } });

/** Calls of clients (ingress updates and queries) each canister ran since `from` (an index of replica.executions()). */
function callsSince(from: number): Map<string, number> {
    const byCanister = new Map<string, number>();
    for (const e of s.replica.executions().slice(from))
        if (e.method.startsWith('canister_update ') || e.method.startsWith('canister_query '))
            byCanister.set(e.canister, (byCanister.get(e.canister) ?? 0) + 1);
    return byCanister;
}

beforeAll(async () => {
    s = await startService({ shards: 2 });
    directory = s.canisterId.toText();
    // The directory places games on the shard with most room, then the one with fewest games:
    // register until each shard holds one of ours.
    for (let i = 0; games.length < 2 && i < 6; i++) {
        const gameId = `sharded-${i}`;
        const apiKey = await s.game(gameId);
        const canister = (await s.canisterOf(gameId)).toText();
        if (!games.some((g) => g.canister === canister)) games.push({ gameId, apiKey, canister });
    }
}, 600_000);
afterAll(() => s?.stop());

test('new games live on the shards, one on each, never on the directory', () => {
    expect(s.shards).toHaveLength(2);
    expect(games.map((g) => g.canister).sort()).toEqual([...s.shards].sort());
    expect(games.map((g) => g.canister)).not.toContain(directory);
    // What a gateway pays once per game: one locate_game query on the directory.
    const locates = s.replica.executions().filter((e) => e.method === 'canister_query locate_game');
    expect(locates.length).toBeGreaterThan(0);
    const most = locates.reduce((max, e) => (e.instructions > max ? e.instructions : max), 0n);
    console.log(`locate_game: at most ${most} instructions`);
});

test('a game on shard 2 is played and read through the gateway while shard 1 serves another', async () => {
    const [one, two] = games;
    const writes = await Promise.all([
        submit(s, one.apiKey, one.gameId, 'p1', 100),
        submit(s, two.apiKey, two.gameId, 'p2', 200),
        submit(s, two.apiKey, two.gameId, 'p3', 300),
    ]);
    expect(writes.map((w) => w.status)).toEqual([200, 200, 200]);
    const boardOf = async (g: (typeof games)[number]) =>
        (await s.request('GET', '/leaderboard?limit=10', { headers: { 'X-API-Key': g.apiKey } })).body.data;
    expect((await boardOf(one)).leaderboard.map((e: any) => e.score)).toEqual([100]);
    expect((await boardOf(two)).leaderboard.map((e: any) => e.score)).toEqual([300, 200]);
    // Each game's data is on its own canister only.
    for (const g of games) {
        const info = (canisterId: string) => s.at(canisterId).call('leaderboard', { gameId: g.gameId, limit: 10 });
        expect('ok' in (await info(g.canister))).toBe(true);
        const other = games.find((o) => o !== g)!.canister;
        expect(await info(other)).toMatchObject({ err: { status: 404 } });
    }
    // A signed-in player on a shard's game: device code there, found and approved through the directory.
    const { token } = await s.signInPlayer(two.gameId, 'shard-player', 'ShardPlayer');
    const profile = await s.request('GET', '/auth/profile', {
        headers: { 'X-Session-Token': token, 'X-Game-ID': two.gameId },
    });
    expect(profile.status).toBe(200);
    expect(profile.body.data.nickname).toBe('ShardPlayer');
});

test('steady state: 1,000 submits of known games make no directory call', async () => {
    const [one, two] = games;
    // Both games known to the gateway (their location asked once).
    await submit(s, one.apiKey, one.gameId, 'warm', 1);
    await submit(s, two.apiKey, two.gameId, 'warm', 1);
    const from = s.replica.executions().length;
    for (let round = 0; round < 10; round++) {
        const replies = await Promise.all(
            Array.from({ length: 100 }, (_, i) => {
                const g = games[i % 2];
                return submit(s, g.apiKey, g.gameId, `steady-${round}-${i}`, round * 100 + i);
            }),
        );
        expect(replies.filter((r) => r.status !== 200)).toEqual([]);
    }
    const calls = callsSince(from);
    console.log(`1,000 submits: calls per canister ${JSON.stringify(Object.fromEntries(calls))}`);
    expect(calls.get(directory) ?? 0).toBe(0);
    // Batched per shard: far fewer calls than submits, each shard its own.
    for (const g of games) {
        expect(calls.get(g.canister)).toBeGreaterThan(0);
        expect(calls.get(g.canister)).toBeLessThan(500);
    }
});

test('/stats sums the submissions of every canister', async () => {
    const stats = (await s.request('GET', '/stats')).body.data;
    const each = await Promise.all([directory, ...s.shards].map(async (id) => s.at(id).ok('platform_stats', {})));
    expect(each.filter((e) => e.total > 0).length).toBe(2); // both shards, not the directory
    expect(stats).toEqual({
        total: each.reduce((n, e) => n + e.total, 0),
        today: each.reduce((n, e) => n + e.today, 0),
        date: each[0].date,
    });
});

test('a second gateway in front of the same directory routes the same games', async () => {
    const second: RunningGateway = await serveGateway({
        canister: await connectCanister({
            host: s.replica.url,
            canisterId: s.canisterId,
            identity: loadIdentity(s.gatewayIdentityFile),
            fetchRootKey: true,
            log: () => undefined,
        }),
        port: 0,
        host: '127.0.0.1',
        readCacheTtlSeconds: 0,
        signIn: s.signIn,
    });
    try {
        const [, two] = games;
        const written = await fetch(`${second.url}/scores`, {
            method: 'POST',
            headers: { 'X-API-Key': two.apiKey, 'Content-Type': 'application/json' },
            body: JSON.stringify({ gameId: two.gameId, playerId: 'via-second', score: 99_999, streak: 1 }),
        });
        expect(written.status).toBe(200);
        const top = await s.request('GET', '/leaderboard?limit=1', { headers: { 'X-API-Key': two.apiKey } });
        expect(top.body.data.leaderboard[0]).toMatchObject({ score: 99_999 });
        // An unknown game is the same answer as ever, from either gateway (and not remembered).
        const unknown = await fetch(`${second.url}/leaderboard`, {
            headers: { 'X-API-Key': 'key_no-such-game_1234567890123456' },
        });
        expect(unknown.status).toBe(401);
    } finally {
        await second.close();
    }
});

test("developers' dashboard calls on a shard's game go through the directory; a stranger's do not reach it", async () => {
    const owner = await developer(s, 'shard-owner');
    const gameId = 'dash-sharded';
    await ownGame(s, owner, gameId);
    const home = (await s.canisterOf(gameId)).toText();
    expect(s.shards).toContain(home);
    const created = await s.request('POST', `/dashboard/api/games/${gameId}/boards`, {
        headers: owner.headers,
        body: { scoreboardId: 'speedrun', type: 'custom', days: 0, sortOrder: 'asc', name: 'Speedrun' },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ scoreboardId: 'speedrun', sortOrder: 'asc' });
    // The board is on the game's shard.
    const boards = await s.at(home).ok('list_boards', { gameId });
    expect(JSON.stringify(boards)).toContain('speedrun');
    // The dashboard's own view lists the game.
    const me = await s.request('GET', '/dashboard/api/me', { headers: owner.headers });
    expect(me.body.data.games.map((g: any) => g.gameId)).toContain(gameId);
    // Another developer's session: as if the game were not there.
    const stranger = await developer(s, 'shard-stranger');
    const refused = await s.request('POST', `/dashboard/api/games/${gameId}/boards`, {
        headers: stranger.headers,
        body: { scoreboardId: 'mine-now', type: 'custom', days: 0 },
    });
    expect(refused.status).toBe(404);
    // A gateway naming a developer on the shard directly: refused (only the directory may).
    const direct = await s.at(home).call('dev_create_board', {
        gameId,
        scoreboardId: 'sneaky',
        type: 'custom',
        days: 0,
        actingDeveloper: 'dev-shard-owner',
    } as never);
    expect('err' in direct).toBe(true);
});

test('a game that moved: the old shard answers moved, the gateway asks the directory again and the call goes through', async () => {
    const [one, two] = games;
    const gameId = 'moving-sharded';
    const apiKey = await s.game(gameId);
    const from = (await s.canisterOf(gameId)).toText();
    const to = s.shards.find((id) => id !== from)!;
    expect(s.shards).toContain(from);
    // The gateway knows where the game is.
    expect((await submit(s, apiKey, gameId, 'before-move', 10)).status).toBe(200);
    const report = await moveGame(gameId, s.at(from), s.at(to), () => undefined, s.at(directory));
    expect(report).toMatchObject({ from, to, located: true });
    expect((await s.canisterOf(gameId)).toText()).toBe(to);
    // Its next calls (a write, a read) still work through the same gateway: asked once more, then there.
    const from2 = s.replica.executions().length;
    expect((await submit(s, apiKey, gameId, 'after-move', 20)).status).toBe(200);
    const board = await s.request('GET', '/leaderboard?limit=10', { headers: { 'X-API-Key': apiKey } });
    expect(board.body.data.leaderboard.map((e: any) => e.score)).toEqual([20, 10]);
    const calls = callsSince(from2);
    expect(calls.get(to)).toBeGreaterThan(0);
    expect(calls.get(directory)).toBe(1); // one locate_game, once
    // The other games are not disturbed.
    expect((await submit(s, one.apiKey, one.gameId, 'still-here', 5)).status).toBe(200);
    expect((await submit(s, two.apiKey, two.gameId, 'still-here', 5)).status).toBe(200);
});
