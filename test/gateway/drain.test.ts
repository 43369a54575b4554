// Stopping a gateway (SIGTERM in production) lets a submit in progress finish and answer: its
// batch may already be applied by the canister, so the client must hear so. New connections
// are refused from the moment it stops.
import type { CanisterClient } from '../../gateway/ic/canister';
import { serveTestGateway, startService } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
beforeAll(async () => {
    s = await startService();
});
afterAll(() => s.stop());

/** The real canister client, with submit_scores held until `open` is called. */
function gated(client: CanisterClient) {
    let open!: () => void;
    let entered!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const reached = new Promise<void>((resolve) => (entered = resolve));
    const hold = async (method: string): Promise<void> => {
        if (method !== 'submit_scores') return;
        entered();
        await gate;
    };
    const wrapped: CanisterClient = {
        canisterId: client.canisterId,
        agent: client.agent,
        call: async (method, request) => (await hold(method), client.call(method, request)),
        relay: async (method, request) => (await hold(method), client.relay(method, request)),
        ok: async (method, request) => (await hold(method), client.ok(method, request)),
    };
    return { client: wrapped, open, reached };
}

test('a submit in progress when the gateway stops is applied and answered; new connections are refused', async () => {
    const key = await s.game('drain-game');
    const g = gated(s.canister);
    const gateway = await serveTestGateway(g.client);
    const submit = fetch(`${gateway.url}/scores`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
        body: JSON.stringify({ gameId: 'drain-game', playerId: 'dev_1700000000_d0d0d0d0', score: 77, streak: 1 }),
    });
    await g.reached; // the submit is in its batch, on its way to the canister
    const closed = gateway.close();
    await expect(fetch(`${gateway.url}/health`)).rejects.toThrow();
    g.open();
    const res = await submit;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, data: { message: expect.stringMatching(/^Score submitted/) } });
    await closed;
    const board = await s.request('GET', '/leaderboard', { headers: { 'X-API-Key': key } });
    expect(board.body.data.leaderboard[0]).toMatchObject({ score: 77, streak: 1 });
});
