// A gateway of this release sends two methods in a newer form, and falls back for a canister of
// the previous release (a rolling upgrade, gateways first), said once in its log:
// - rank reads packed (contract/packed-ranks.ts), answering the same as the JSON methods. A
//   canister without them is asked the JSON method the packed one carries; one without that
//   either (the release fixture predates the own-player reads) fails clearly: a 503, and a log
//   line naming the method. A canister found without them is asked the JSON ones for 5 minutes.
// - submit_scores as submit_scores_compact (contract/compact-submits.ts), smaller by what its
//   submits share; the previous release gets submit_scores itself, with the same answers.
import { ApiFailure } from '../../gateway/http/errors';
import { connectAs, connectLogged, startLeaderboard, type TestCanister } from '../support/canister';
import { releaseWasm } from '../support/release';

const G = 'packed-game';
const C = 'compact-game';
let current: TestCanister;
let previous: TestCanister;
const keys = new Map<TestCanister, string>();

beforeAll(async () => {
    [current, previous] = await Promise.all([startLeaderboard(), startLeaderboard({ wasm: releaseWasm() })]);
    const { apiKey } = await current.ok('admin_register_game', { developerId: 'dev-packed', gameId: G, name: 'P' });
    await current.ok('submit_scores', {
        submits: ['p1', 'p2', 'p3'].map((playerId, i) => ({ apiKey, gameId: G, playerId, score: 100 * i, streak: i })),
    });
    for (const c of [current, previous])
        keys.set(c, (await c.ok('admin_register_game', { developerId: 'dev-compact', gameId: C, name: 'C' })).apiKey);
}, 120_000);

afterAll(async () => {
    await current?.replica.stop();
    await previous?.replica.stop();
});

test.each([
    ['a rank', 'own_player_rank_packed', { gameId: G, playerId: 'p2', sort: 'streak', percentile: true }],
    ['a board rank', 'own_board_rank_packed', { gameId: G, boardId: 'weekly', playerId: 'p1' }],
    ['no board entry', 'own_board_rank_packed', { gameId: G, boardId: 'weekly', playerId: 'nobody' }],
    ['an unknown board', 'own_board_rank_packed', { gameId: G, boardId: 'nope', playerId: 'p1' }],
    ['an unknown game', 'own_player_rank_packed', { gameId: 'no-game', playerId: 'p1' }],
] as const)('%s reads the same packed as JSON', async (_what, method, req) => {
    const json = method === 'own_player_rank_packed' ? 'own_player_rank' : 'own_board_rank';
    const client = await connectAs(current, current.gateway);
    expect(JSON.stringify(await client.call(method, req))).toBe(JSON.stringify(await client.call(json, req)));
});

test('a canister without the packed reads is asked the JSON one, and fails clearly without it', async () => {
    const { client, log } = await connectLogged(previous, previous.gateway);
    const failure = await client.call('own_player_rank_packed', { gameId: G, playerId: 'p1' }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ status: 503 });
    expect(log.join('\n')).toContain("has no query method 'own_player_rank'");
    // Remembered: the next read asks the JSON method at once, and says so once.
    await client.call('own_board_rank_packed', { gameId: G, boardId: 'weekly', playerId: 'p1' }).catch(() => undefined);
    expect(log.filter((line) => line.includes('(an earlier release): asking'))).toEqual([
        expect.stringContaining(
            'has no own_player_rank_packed (an earlier release): asking own_player_rank for 5 minutes',
        ),
    ]);
    expect(log.filter((line) => line.includes('has no own_board_rank_packed'))).toEqual([]);
    expect(log.at(-1)).toContain("has no query method 'own_board_rank'");
});

/** The gateway's client of `c`, its log, and the methods of the updates the replica ran for it since. */
async function gatewayOf(c: TestCanister) {
    const { client, log } = await connectLogged(c, c.gateway);
    const from = c.replica.executions().length;
    const sent = (): string[] =>
        c.replica
            .executions()
            .slice(from)
            .filter((e) => e.kind === 'U')
            .map((e) => e.method.split(' ').at(-1)!);
    return { client, log, sent };
}

const submits = (c: TestCanister, from: number) =>
    ['a', 'b', 'c'].map((p, i) => ({
        apiKey: keys.get(c)!,
        gameId: C,
        playerId: `${p}${from}`,
        score: from + i,
        streak: i,
    }));

test('submits go compact to a canister of this release, and plain to one of the previous release, with the same answers', async () => {
    const now = await gatewayOf(current);
    const before = await gatewayOf(previous);
    for (const from of [100, 200]) {
        const answers = await Promise.all([
            now.client.call('submit_scores', { submits: submits(current, from) }),
            before.client.call('submit_scores', { submits: submits(previous, from) }),
        ]);
        expect(answers[0]).toEqual(answers[1]);
        expect(answers[0]).toMatchObject({ ok: [{ ok: {} }, { ok: {} }, { ok: {} }] });
    }
    expect(now.sent()).toEqual(['submit_scores_compact', 'submit_scores_compact']);
    expect(now.log).toEqual([]);
    // The previous release was asked the compact method once, then submit_scores from then on.
    expect(before.sent()).toEqual(['submit_scores', 'submit_scores']);
    expect(before.log).toEqual([
        expect.stringContaining(
            'has no submit_scores_compact (an earlier release): asking submit_scores for 5 minutes',
        ),
    ]);
});
