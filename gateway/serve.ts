// Starts the HTTP API on a port in front of a canister client; closes cleanly.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createApp } from './app';
import type { CanisterClient } from './canister';

export interface RunningGateway {
    url: string;
    port: number;
    close(): Promise<void>;
}

export async function serveGateway(o: { canister: CanisterClient; port: number; host?: string; readCacheTtlSeconds: number }): Promise<RunningGateway> {
    const app = createApp({ canister: o.canister, readCacheTtlSeconds: o.readCacheTtlSeconds });
    const server: Server = await new Promise((resolve, reject) => {
        const s = app.listen(o.port, o.host ?? '0.0.0.0', () => resolve(s));
        s.once('error', reject);
    });
    server.keepAliveTimeout = 65_000;
    const port = (server.address() as AddressInfo).port;
    return {
        url: `http://127.0.0.1:${port}`,
        port,
        close: () => new Promise((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
        }),
    };
}
