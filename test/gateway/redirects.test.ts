// One {canister_url} for games on shards, through a real gateway: GET /game tells a shard's game
// its own canister's direct-read URL, and a client reading the directory's URL follows its 302
// to the same JSON the gateway serves for that board.
import * as http from 'node:http';

import { startService } from '../support/gateway';
import { BROWSER_HEADERS } from '../support/http-gateway';

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
}, 600_000);
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

/** A GET to the replica's HTTP gateway with exactly these headers and this Host (no redirect followed). */
function get(path: string, host: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    const { port } = new URL(s.replica.url);
    return new Promise((resolve, reject) => {
        const req = http.request(
            { host: '127.0.0.1', port, path, headers: { ...BROWSER_HEADERS, Host: host } },
            (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (chunk: string) => (body += chunk));
                res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
            },
        );
        req.on('error', reject);
        req.end();
    });
}

describe("a browser's read (a dozen headers) is read by its Host", () => {
    test('at the directory: redirected to the shard at the same local address, never to the IC', async () => {
        const { port } = new URL(s.replica.url);
        const shard = (await s.canisterOf(G)).toText();
        const read = await get(
            `/games/${G}/scoreboards/all-time?canisterId=${s.canisterId.toText()}`,
            `127.0.0.1:${port}`,
        );
        expect(read.status).toBe(302);
        expect(read.headers.location).toBe(
            `http://127.0.0.1:${port}/games/${G}/scoreboards/all-time?canisterId=${shard}`,
        );
        const viaLocalhost = await get(
            `/games/${G}/scoreboards?canisterId=${s.canisterId.toText()}`,
            `localhost:${port}`,
        );
        expect(viaLocalhost.headers.location).toBe(
            `http://localhost:${port}/games/${G}/scoreboards?canisterId=${shard}`,
        );
    });

    test('on the raw domain: answered live, uncertified (nothing rendered or billed for it)', async () => {
        const { port } = new URL(s.replica.url);
        const shard = (await s.canisterOf(G)).toText();
        const path = `/games/${G}/scoreboards/weekly?limit=3`;
        const before = s.replica.executions().filter((e) => e.method.endsWith('http_request_update')).length;
        const raw = await get(path, `${shard}.raw.localhost:${port}`);
        expect(raw.status).toBe(200);
        expect(raw.headers['ic-certificate']).toBeUndefined();
        expect(JSON.parse(raw.body).data.entries.map((e: { score: number }) => e.score)).toEqual([300, 200, 100]);
        expect(s.replica.executions().filter((e) => e.method.endsWith('http_request_update')).length).toBe(before);
        // The same request on the certifying domain is rendered once (an update), then served certified.
        expect((await get(path, `${shard}.localhost:${port}`)).status).toBe(200);
        expect(s.replica.executions().filter((e) => e.method.endsWith('http_request_update')).length).toBe(before + 1);
        const certified = await get(path, `${shard}.localhost:${port}`);
        expect(certified.status).toBe(200);
        expect(certified.headers['ic-certificate']).toBeDefined();
    });
});
