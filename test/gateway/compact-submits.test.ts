// A gateway of this release sends submit_scores as submit_scores_compact (contract/compact-submits.ts),
// smaller by the key and game its submits share; a canister of the previous release, which has
// no such method (a rolling upgrade, gateways first), gets submit_scores itself, said once in
// the log, and answers the same.
import { connectLogged, startLeaderboard, type TestCanister } from '../support/canister';
import { releaseWasm } from '../support/release';

const G = 'compact-game';
let current: TestCanister;
let previous: TestCanister;
const keys = new Map<TestCanister, string>();

beforeAll(async () => {
    [current, previous] = await Promise.all([startLeaderboard(), startLeaderboard({ wasm: releaseWasm() })]);
    for (const c of [current, previous])
        keys.set(c, (await c.ok('admin_register_game', { developerId: 'dev-compact', gameId: G, name: 'C' })).apiKey);
}, 120_000);

afterAll(async () => {
    await current?.replica.stop();
    await previous?.replica.stop();
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
        gameId: G,
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
