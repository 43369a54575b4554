// The shipped submit linger (SUBMIT_BATCHING) changes when answers come, never what they say: the
// submits the official clients send get, through a gateway that lingers, exactly the answers a
// gateway that sends at once (SUBMIT_LINGER_MS=0) gives on the same canister.
import { SUBMIT_BATCHING } from '../../gateway/ic/submits';
import type { RunningGateway } from '../../gateway/server/serve';
import { anotherGateway, startService, TEST_BATCHING } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let atOnce: RunningGateway;

beforeAll(async () => {
    s = await startService({ batch: SUBMIT_BATCHING });
    atOnce = await anotherGateway(s, { batch: TEST_BATCHING });
});
afterAll(async () => {
    await atOnce.close();
    await s.stop();
});

/** A POST /scores to `url` for `gameId`; its status and body with the game's id as `<game>`. */
async function submit(url: string, gameId: string, apiKey: string, body: Record<string, unknown>) {
    const res = await fetch(`${url}/scores`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey, 'X-Game-ID': gameId },
        body: JSON.stringify({ gameId, ...body }),
    });
    return { status: res.status, body: (await res.text()).replaceAll(gameId, '<game>') };
}

test('official-client submits get the same answers whether the gateway lingers or sends at once', async () => {
    const games = { lingering: 'linger-on', atOnce: 'linger-off' };
    const keys = { lingering: await s.game(games.lingering), atOnce: await s.game(games.atOnce) };
    const both = async (body: Record<string, unknown>) => {
        const [a, b] = await Promise.all([
            submit(s.gateway.url, games.lingering, keys.lingering, body),
            submit(atOnce.url, games.atOnce, keys.atOnce, body),
        ]);
        expect(a).toEqual(b);
        return a;
    };
    const first = { playerId: 'dev_1700000000_0000000a', score: 120, streak: 3 };
    expect((await both(first)).status).toBe(200);
    // A retry of the same submit, a new score inside the 2 s window, a bad score.
    expect((await both(first)).status).toBe(200);
    expect((await both({ ...first, score: 130 })).status).toBe(400);
    expect((await both({ playerId: 'dev_1700000000_0000000b', score: -1, streak: 0 })).status).toBe(400);
    // The Godot 3 backport sends a nickname on every submit.
    expect((await both({ playerId: 'dev_1700000000_0000000c', score: 90, streak: 1, nickname: 'Ada' })).status).toBe(
        200,
    );
    // Players submitting together, each answered alone.
    const together = await Promise.all(
        Array.from({ length: 5 }, (_, i) => both({ playerId: `dev_1700000000_1000000${i}`, score: 10 * i, streak: 1 })),
    );
    expect(together.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
});
