// Scores held for review through the HTTP API (gateway, replica, a real webhook receiver): a
// held submit answers as an unheld one; the held player's around-me shows it, nobody else's, no
// board read and no direct canister read; the receiver gets score_held and nothing else about
// it; the dashboard API approves it onto the board.
import { REVIEW } from '../../contract/board-options';
import type { RunningGateway } from '../../gateway/server/serve';
import { parseAllow } from '../../gateway/webhooks/address-policy';
import { startService } from '../support/gateway';
import { startDns, startReceiver, type Receiver, type TestDns } from '../support/webhook-receiver';
import { addWebhook, developer, eventually, ownGame, webhookGateway, type Developer } from '../support/webhooks';

let s: Awaited<ReturnType<typeof startService>>;
let dns: TestDns;
let gateway: RunningGateway;
let receiver: Receiver;
let dev: Developer;
let apiKey: string;
const G = 'hold-http';

const key = () => ({ 'X-API-Key': apiKey });
async function submit(playerId: string, score: number, scoreboardId: string): Promise<unknown> {
    await s.replica.advanceTime(3000); // past the per-player pace
    return (
        await s.request('POST', '/scores', {
            headers: key(),
            body: { gameId: G, playerId, score, streak: 0, scoreboardId },
        })
    ).body;
}
const read = async (path: string) =>
    (await s.request('GET', `/games/${G}/scoreboards/${path}`, { headers: key() })).body;
const around = (playerId: string) => read(`held/around?playerId=${playerId}&before=1&after=1`);
const nonHeld = (kinds: string[]) => receiver.received.filter((d) => kinds.includes(d.event.kind));

beforeAll(async () => {
    dns = await startDns();
    s = await startService();
    gateway = await webhookGateway(s, {
        deliver: true,
        delivery: {
            policy: parseAllow('loopback'),
            dnsServers: [dns.server],
            timeoutMs: 5_000,
            connectTimeoutMs: 5_000,
        },
        pollMs: 20,
    });
    receiver = await startReceiver();
    dev = await developer(s, 'holder');
    apiKey = await ownGame(s, dev, G);
    const ref = { sessionHash: dev.sessionHash, gameId: G };
    await s.canister.ok('dev_create_board', {
        ...ref,
        scoreboardId: 'held',
        type: 'targeted',
        review: { mode: 'hold' },
    });
    await s.canister.ok('dev_create_board', { ...ref, scoreboardId: 'plain', type: 'targeted' });
    for (const scoreboardId of ['held', 'plain']) {
        const entries = await s.canister.ok('submit_scores', {
            submits: Array.from({ length: REVIEW.minEntries }, (_, i) => ({
                apiKey,
                gameId: G,
                playerId: `p${i}`,
                score: 100 + i,
                streak: 0,
                scoreboardId,
            })),
        });
        expect(entries.every((r) => 'ok' in r)).toBe(true);
    }
    await addWebhook(s, dev, G, receiver.url, ['score_held', 'new_leader', 'overtaken', 'score_reviewed']);
});
afterAll(async () => {
    await gateway.close();
    await s.stop();
    await dns.close();
    await receiver.close();
});

test('a held score: the answer of an unheld one, seen in its own around-me only, score_held to the webhook', async () => {
    const boardBefore = await read('held?limit=5');
    expect(await submit('p0', 5000, 'held')).toEqual(await submit('p0', 5000, 'plain'));
    expect(await read('held?limit=5')).toEqual(boardBefore);
    // Its player: at rank 1, the board's first below it one rank down.
    const mine = (await around('p0')).data;
    expect(mine.rank).toBe(1);
    expect(mine.entries.map((e: { rank: number; score: number }) => [e.rank, e.score])).toEqual([
        [1, 5000],
        [2, 119],
    ]);
    // Another player's around-me, and the canister's anonymous read of the player's own: the board as it is.
    const theirs = (await around('p19')).data;
    expect(theirs.entries.map((e: { score: number }) => e.score)).toEqual([119, 118]);
    expect(theirs.rank).toBe(1);
    const direct = await s.canister.ok('around', { gameId: G, boardId: 'held', playerId: 'p0', before: 1, after: 1 });
    expect(direct.rank).toBe(20);
    expect(direct.entries.map((e: { score: number }) => e.score)).not.toContain(5000);
    const held = await eventually(() => {
        const got = nonHeld(['score_held']);
        expect(got).toHaveLength(1);
        return got[0]!.event;
    });
    expect(held).toMatchObject({ kind: 'score_held', scoreboardId: 'held', playerId: 'p0', score: 5000, first: 119 });
    // The plain board's new leader arrives; nothing about the held board but score_held.
    await eventually(() => expect(nonHeld(['new_leader'])).toHaveLength(1));
    expect(receiver.received.filter((d) => d.event.scoreboardId === 'held').map((d) => d.event.kind)).toEqual([
        'score_held',
    ]);
});

test('the dashboard API approves it: on the board, with new_leader and score_reviewed', async () => {
    const api = (method: string, path: string, body?: unknown) =>
        s.request(method, `/dashboard/api/games/${G}${path}`, { headers: dev.headers, body });
    const queue = (await api('GET', '/review')).body.data;
    expect(queue).toEqual([expect.objectContaining({ kind: 'held', playerId: 'p0', score: 5000 })]);
    expect((await api('POST', '/review/held/p0', { action: 'dismiss' })).status).toBe(400);
    const approved = await api('POST', '/review/held/p0', { action: 'approve' });
    expect(approved.body).toEqual({ ok: true, data: { message: "Approved Player_1's held score on held." } });
    expect((await read('held?limit=1')).data.entries[0]).toMatchObject({ rank: 1, score: 5000 });
    expect((await s.canister.ok('around', { gameId: G, boardId: 'held', playerId: 'p0', after: 0 })).rank).toBe(1);
    await eventually(() =>
        expect(receiver.received.filter((d) => d.event.scoreboardId === 'held').map((d) => d.event.kind)).toEqual(
            expect.arrayContaining(['score_held', 'new_leader', 'score_reviewed']),
        ),
    );
    expect((await api('GET', '/review')).body.data).toEqual([]);
});
