// Starts the HTTP API on a port in front of a canister client; closes cleanly.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createApp, type GatewayOptions } from './app';

export interface RunningGateway {
    url: string;
    port: number;
    close(): Promise<void>;
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
    const port = (server.address() as AddressInfo).port;
    return {
        url: `http://127.0.0.1:${port}`,
        port,
        close: () =>
            new Promise((resolve) => {
                server.close(() => resolve());
                server.closeAllConnections();
            }),
    };
}
