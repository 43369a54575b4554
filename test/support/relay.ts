// A tiny real HTTP relay for tests, between a client and a server: it forwards every request
// unchanged, unless the test's `decide` answers it itself (a 503, a redirect, a dropped
// connection) or `alter` changes the body on its way back (one flipped byte). A redirect of the
// server to itself comes back as one to the relay, as a reverse proxy rewrites it.
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RelayAction =
    | { kind: 'pass' }
    | { kind: 'answer'; status: number; body: string; headers?: Record<string, string> }
    | { kind: 'drop' };

export interface Relay {
    url: string;
    /** Every request the relay saw: method, path with query, headers. */
    seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
    decide: (req: IncomingMessage, index: number) => RelayAction;
    /** Changes an answer's body on its way back (path and query, body): return it unchanged to pass it. */
    alter: (url: string, body: Buffer) => Buffer;
    close(): Promise<void>;
}

/** Headers that describe one hop, not the message. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

export async function startRelay(target: string): Promise<Relay> {
    const origin = new URL(target).origin;
    const relay: Relay = {
        url: '',
        seen: [],
        decide: () => ({ kind: 'pass' }),
        alter: (_url, body) => body,
        close: () => new Promise((resolve) => server.close(() => resolve())),
    };
    const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
            relay.seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
            const action = relay.decide(req, relay.seen.length - 1);
            if (action.kind === 'drop') return void req.socket.destroy();
            if (action.kind === 'answer') {
                res.writeHead(action.status, { 'Content-Type': 'application/json', ...action.headers });
                return void res.end(action.body);
            }
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && typeof v === 'string') headers[k] = v;
            const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
            fetch(`${target}${req.url}`, { method: req.method, headers, body, redirect: 'manual' }).then(
                async (answer) => {
                    const out: Record<string, string> = {};
                    answer.headers.forEach((v, k) => {
                        if (!HOP.has(k) && k !== 'content-encoding') out[k] = v;
                    });
                    if (out.location?.startsWith(`${origin}/`))
                        out.location = `${relay.url}${out.location.slice(origin.length)}`;
                    const text = relay.alter(req.url ?? '/', Buffer.from(await answer.arrayBuffer()));
                    res.writeHead(answer.status, out);
                    res.end(text);
                },
                () => req.socket.destroy(),
            );
        });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = relay.close;
    relay.close = () => {
        server.closeAllConnections();
        return close();
    };
    return relay;
}
