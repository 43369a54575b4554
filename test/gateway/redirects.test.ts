// One {canister_url} for games on shards, through a real gateway: GET /game tells a shard's game
// its own canister's direct-read URL, and a client reading the directory's URL follows its 302
// to the same JSON the gateway serves for that board.
import { startService } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
const G = 'redirected-game';
let apiKey: string;

beforeAll(async () => {
    s = await startService({ shards: 1, canisterUrl: true });
    apiKey = await s.game(G);
    for (const [playerId, score] of [
        ['p1', 100],
        ['p2', 300],
        ['p3', 200],
    ] as const)
        expect(
            (
                await s.request('POST', '/scores', {
                    headers: { 'X-API-Key': apiKey },
                    body: { gameId: G, playerId, score, streak: 1 },
                })
            ).status,
        ).toBe(200);
}, 300_000);
afterAll(() => s?.stop());

test("GET /game tells a shard's game its canister URL, in the gateway's {canister_url} form", async () => {
    const shard = (await s.canisterOf(G)).toText();
    expect(s.shards).toEqual([shard]);
    const game = await s.request('GET', '/game', { headers: { 'X-API-Key': apiKey } });
    expect(game.status).toBe(200);
    expect(game.body.data).toMatchObject({ gameId: G, canisterUrl: `${s.replica.url}/?canisterId=${shard}` });
});

test('a read at the directory follows its 302 to the shard: the same JSON as the gateway', async () => {
    const path = `/games/${G}/scoreboards/all-time?limit=10`;
    const viaGateway = await s.request('GET', path, { headers: { 'X-API-Key': apiKey } });
    expect(viaGateway.status).toBe(200);
    const url = `${s.replica.url}${path}&canisterId=${s.canisterId.toText()}`;
    const redirect = await fetch(url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const shard = (await s.canisterOf(G)).toText();
    expect(redirect.headers.get('location')).toBe(
        `${s.replica.url}/games/${G}/scoreboards/all-time?canisterId=${shard}&limit=10`,
    );
    const followed = await fetch(url);
    expect(followed.status).toBe(200);
    expect(await followed.json()).toEqual(viaGateway.body);
});
