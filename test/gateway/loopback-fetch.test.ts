// The agent's fetch for a replica on loopback: which hosts get it, the responses it gives the
// agent (status, headers, bytes, texts of errors, failures to connect), and that the gateway's
// calls to the local replica go through it rather than the global fetch.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { isLoopbackHost, loopbackFetch } from '../../gateway/ic/loopback-fetch';
import { startService } from '../support/gateway';

test('only plain HTTP to a loopback address is served by it', () => {
    for (const host of ['http://127.0.0.1:4943', 'http://localhost:8000', 'http://[::1]:4943', 'http://127.0.0.2'])
        expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    for (const host of [
        'https://127.0.0.1:4943',
        'https://icp-api.io',
        'http://example.com',
        'http://10.0.0.1',
        'nonsense',
    ])
        expect([host, isLoopbackHost(host)]).toEqual([host, false]);
});

test('answers as fetch does: status, headers, bytes read more than once, error texts, refused connections', async () => {
    const seen: Array<{ method?: string; type?: string; body: string }> = [];
    const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
            seen.push({
                method: req.method,
                type: req.headers['content-type'],
                body: Buffer.concat(chunks).toString('hex'),
            });
            if (req.url === '/bad') {
                res.writeHead(400, { 'content-type': 'text/plain' }).end('Invalid request expiry: too late');
                return;
            }
            res.writeHead(200, { 'content-type': 'application/cbor', 'x-two': 'b' }).end(Buffer.from([1, 2, 3]));
        });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new http.Agent({ keepAlive: true });
    const f = loopbackFetch(agent);
    try {
        const ok = await f(`${base}/api/v2/status`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/cbor' },
            body: new Uint8Array([0xa0, 0xff]),
        });
        expect([ok.ok, ok.status, ok.url, ok.headers.get('x-two')]).toEqual([true, 200, `${base}/api/v2/status`, 'b']);
        expect([...new Uint8Array(await ok.clone().arrayBuffer())]).toEqual([1, 2, 3]);
        expect([...new Uint8Array(await ok.arrayBuffer())]).toEqual([1, 2, 3]);
        expect(seen[0]).toEqual({ method: 'POST', type: 'application/cbor', body: 'a0ff' });
        const bad = await f(`${base}/bad`);
        expect([bad.ok, bad.status, await bad.text()]).toEqual([false, 400, 'Invalid request expiry: too late']);
        expect(seen[1]).toEqual({ method: 'GET', type: undefined, body: '' });
    } finally {
        agent.destroy();
        await new Promise((done) => server.close(done));
    }
    await expect(loopbackFetch()(`${base}/api/v2/status`)).rejects.toThrow(/ECONNREFUSED/);
});

test("the gateway's calls to the local replica do not use the global fetch", async () => {
    const original = globalThis.fetch;
    const toReplica: string[] = [];
    globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.includes('/api/v')) toReplica.push(url);
        return original(input, init);
    }) as typeof fetch;
    try {
        const s = await startService();
        try {
            const key = await s.game('loopback-game');
            const headers = { 'X-API-Key': key };
            const submitted = await s.request('POST', '/scores', {
                headers,
                body: { playerId: 'p1', gameId: 'loopback-game', score: 10, streak: 1 },
            });
            expect(submitted.status).toBe(200);
            const rank = await s.request('GET', '/players/p1/rank', { headers });
            expect([rank.status, rank.body.data.rank]).toEqual([200, 1]);
            expect(toReplica).toEqual([]);
        } finally {
            await s.stop();
        }
    } finally {
        globalThis.fetch = original;
    }
});
