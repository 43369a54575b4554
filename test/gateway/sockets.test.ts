// Connections a client leaves hanging are closed: one that sends part of a request and then
// neither reads nor ends is cut once the header (or request) timeout passes, so such clients
// cannot hold the gateway's file descriptors. The timeouts here are small; the test waits for
// the server's socket to close, never for a time.
import { connect, type Socket } from 'node:net';

import type { CanisterClient } from '../../gateway/ic/canister';
import { serveGateway, type RunningGateway } from '../../gateway/server/serve';

let gateway: RunningGateway;
beforeAll(async () => {
    gateway = await serveGateway({
        canister: {} as CanisterClient,
        port: 0,
        host: '127.0.0.1',
        readCacheTtlSeconds: 0,
        signIn: { publicUrl: 'http://localhost', secret: new Uint8Array(32), providers: [] },
        timeouts: { headersMs: 200, requestMs: 400, checkIntervalMs: 50 },
    });
});
afterAll(() => gateway.close(0));

/** Connects, sends `text`, never reads nor ends; resolves with the server's side of the connection. */
async function hangingClient(text: string): Promise<{ client: Socket; server: Socket }> {
    const server = new Promise<Socket>((resolve) => gateway.server.once('connection', resolve));
    const client = connect(gateway.port, '127.0.0.1');
    client.pause(); // never reads
    client.on('error', () => undefined);
    await new Promise((resolve) => client.once('connect', resolve));
    client.write(text);
    return { client, server: await server };
}

const closed = (socket: Socket): Promise<void> =>
    socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));

test('connected, then silence: the connection is closed after the header timeout', async () => {
    const { client, server } = await hangingClient('');
    await closed(server);
    client.destroy();
});

test('part of the headers, then silence: the connection is closed after the header timeout', async () => {
    const { client, server } = await hangingClient('GET /health HTTP/1.1\r\nHost: x\r\n');
    await closed(server);
    client.destroy();
});

test('headers and part of a body, then silence: the connection is closed after the request timeout', async () => {
    const { client, server } = await hangingClient(
        'POST /scores HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sc',
    );
    await closed(server);
    client.destroy();
});

test('a client that does read is told why: 408 JSON', async () => {
    const client = connect(gateway.port, '127.0.0.1');
    let answer = '';
    client.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    await new Promise((resolve) => client.once('connect', resolve));
    client.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => client.once('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        ok: false,
        error: 'The request did not arrive in time',
    });
});
