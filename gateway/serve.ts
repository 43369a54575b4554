// Starts the HTTP API on a port in front of a canister client; closes by draining the requests
// in progress.
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createApp, type GatewayOptions } from './app';

export interface RunningGateway {
    url: string;
    port: number;
    /**
     * Stops taking connections and lets the requests in progress finish (their submits are
     * in a batch the canister may already have applied: their answers must reach the client);
     * after `graceMs` (default 10 s) whatever is left is cut.
     */
    close(graceMs?: number): Promise<void>;
}

export async function serveGateway(o: GatewayOptions & { port: number; host?: string }): Promise<RunningGateway> {
    const app = createApp(o);
    const server: Server = await new Promise((resolve, reject) => {
        const s = app.listen(o.port, o.host ?? '0.0.0.0', () => resolve(s));
        s.once('error', reject);
    });
    server.keepAliveTimeout = 65_000;
    // Requests Node rejects before Express sees them (oversized headers, garbage) still get JSON.
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
        if (!socket.writable) return;
        const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
        const body = JSON.stringify({ ok: false, error: tooLarge ? 'Request headers are too large' : 'Bad request' });
        socket.end(
            `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
    });
    // While closing, a connection whose last response went out is closed at once (not kept alive).
    let closing = false;
    server.on('request', (_req, res: ServerResponse) =>
        res.on('close', () => {
            if (closing) setImmediate(() => server.closeIdleConnections());
        }),
    );
    const port = (server.address() as AddressInfo).port;
    return {
        url: `http://127.0.0.1:${port}`,
        port,
        close: (graceMs = 10_000) =>
            new Promise((resolve) => {
                closing = true;
                server.close(() => {
                    clearTimeout(cut);
                    resolve();
                });
                server.closeIdleConnections();
                const cut = setTimeout(() => server.closeAllConnections(), graceMs);
                cut.unref();
            }),
    };
}
