// Starts the HTTP API on a port in front of a canister client, with timeouts that close what
// clients leave hanging, beside it the webhook delivery loops, the cycles watch and the loopback
// metrics port; closes by draining the requests in progress.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { createApp, cyclesWatchOf, feedOf, metricsOf, routerOf, type GatewayOptions } from './app';
import type { CanisterClient } from '../ic/canister';
import type { CyclesWatch } from '../ops/cycles-watch';
import { loopbackMetrics, webhookObserver, type GatewayMetrics } from '../ops/metrics';
import type { ShardRouter } from '../ic/shards';
import type { FeedWatcher } from '../ic/feed-watcher';
import { webhookCanister } from '../webhooks/canister-work';
import { startWebhookWorker, type WebhookSettings, type WebhookWorker } from '../webhooks/worker';

/** How long a connection may take for what (ms). */
export interface ServerTimeouts {
    /** A request's headers must have arrived within this. */
    headersMs: number;
    /** A whole request, headers and body. */
    requestMs: number;
    /** An idle keep-alive connection is closed after this (longer than load balancers' 60 s). */
    keepAliveMs: number;
    /** How often connections are checked against the two first. */
    checkIntervalMs: number;
    /** A connection with no bytes either way for this long is closed (a client that stopped reading its answer). */
    idleMs: number;
}

/** What Node's own rejections of a request are answered with. */
const CLIENT_ERRORS = new Map<string | undefined, [string, string]>([
    ['HPE_HEADER_OVERFLOW', ['431 Request Header Fields Too Large', 'Request headers are too large']],
    ['ERR_HTTP_REQUEST_TIMEOUT', ['408 Request Timeout', 'The request did not arrive in time']],
]);

/** Production: a request's headers within 20 s, its body (64 KB at most) within 60 s, 2 minutes of silence at most. */
export const SERVER_TIMEOUTS: ServerTimeouts = {
    headersMs: 20_000,
    requestMs: 60_000,
    keepAliveMs: 65_000,
    checkIntervalMs: 5_000,
    idleMs: 120_000,
};

export interface RunningGateway {
    url: string;
    port: number;
    /** The Node HTTP server (its connection events). */
    server: Server;
    /** The long polling of GET /events (how many wait: tests, health). */
    feed: FeedWatcher;
    /** The canisters' cycles and room, polled every minute (`latest()`: the directory's cycles_status). */
    cycles: CyclesWatch;
    /** The loopback metrics server's URL (http://127.0.0.1:<METRICS_PORT>/metrics), when asked for one. */
    metricsUrl?: string;
    /**
     * Stops taking connections and lets the requests in progress finish (their submits are
     * in a batch the canister may already have applied: their answers must reach the client);
     * after `graceMs` (default 10 s) whatever is left is cut. Webhook delivery stops too: the
     * event being delivered finishes (within its timeout) and is reported.
     */
    close(graceMs?: number): Promise<void>;
}

export async function serveGateway(
    o: GatewayOptions & { port: number; host?: string; timeouts?: Partial<ServerTimeouts> },
): Promise<RunningGateway> {
    const app = createApp(o);
    const t = { ...SERVER_TIMEOUTS, ...o.timeouts };
    const server = createServer(
        { headersTimeout: t.headersMs, requestTimeout: t.requestMs, connectionsCheckingInterval: t.checkIntervalMs },
        app,
    );
    server.keepAliveTimeout = t.keepAliveMs;
    server.timeout = t.idleMs;
    await listen(server, o.port, o.host ?? '0.0.0.0');
    // Requests Node rejects before Express sees them (oversized headers, garbage, too slow) still
    // get JSON; then the connection goes, even when its client neither reads nor ends (ending our
    // side alone would leave it half-open, and its descriptor held, for as long as the client likes).
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
        const [status, message] = CLIENT_ERRORS.get(error.code) ?? ['400 Bad Request', 'Bad request'];
        if (socket.writable) {
            const body = JSON.stringify({ ok: false, error: message });
            socket.end(
                `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
                () => socket.destroy(),
            );
            // An answer the client never takes off the wire cannot hold the connection either.
            setTimeout(() => socket.destroy(), t.headersMs).unref();
        } else socket.destroy();
    });
    // While closing, a connection whose last response went out is closed at once (not kept alive).
    let closing = false;
    server.on('request', (_req, res: ServerResponse) =>
        res.on('close', () => {
            if (closing) setImmediate(() => server.closeIdleConnections());
        }),
    );
    const port = (server.address() as AddressInfo).port;
    // Webhook delivery runs beside the API (WEBHOOKS=off: not on this gateway) and stops with it.
    const webhooks = o.webhooks?.deliver
        ? webhookWorkers(routerOf(app), o.webhooks, metricsOf(app), o.clock)
        : undefined;
    const cycles = cyclesWatchOf(app);
    cycles.start();
    const metricsServer =
        o.metrics?.port === undefined ? undefined : await metricsPort(metricsOf(app), cycles, o.metrics.port);
    return {
        url: `http://127.0.0.1:${port}`,
        port,
        server,
        feed: feedOf(app),
        cycles,
        metricsUrl: metricsServer && `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`,
        close: async (graceMs = 10_000) => {
            cycles.stop();
            metricsServer?.close();
            metricsServer?.closeAllConnections();
            const draining = new Promise<void>((resolve) => {
                closing = true;
                // Feed requests waiting for events are answered now (an empty page), not cut at the grace's end.
                feedOf(app).drain();
                server.close(() => {
                    clearTimeout(cut);
                    resolve();
                });
                server.closeIdleConnections();
                const cut = setTimeout(() => server.closeAllConnections(), graceMs);
                cut.unref();
            });
            await Promise.all([draining, webhooks?.stop()]);
        },
    };
}

function listen(server: Server, port: number, host: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            server.off('error', reject);
            resolve();
        });
    });
}

/** METRICS_PORT: GET /metrics without a token, on 127.0.0.1 only (an operator on this machine, or a local agent). */
async function metricsPort(metrics: GatewayMetrics, cycles: CyclesWatch, port: number): Promise<Server> {
    const server = createServer(loopbackMetrics(metrics, cycles.ready));
    await listen(server, port, '127.0.0.1');
    return server;
}

/**
 * Webhook delivery from every canister: a delivery loop per canister (each leases its own
 * games' endpoints), one for each new shard as the list is refreshed (every minute).
 */
function webhookWorkers(
    router: ShardRouter,
    settings: WebhookSettings,
    metrics: GatewayMetrics,
    clock?: () => number,
    everyMs = 60_000,
): WebhookWorker {
    const observer = webhookObserver(metrics, clock);
    const workers = new Map<CanisterClient, WebhookWorker>();
    let stopped = false;
    const add = (clients: CanisterClient[]): void => {
        for (const client of clients) {
            if (stopped || workers.has(client)) continue;
            workers.set(
                client,
                startWebhookWorker({
                    canister: webhookCanister(client),
                    delivery: settings.delivery,
                    pollMs: settings.pollMs,
                    parallel: settings.parallel,
                    observer,
                }),
            );
        }
    };
    add([router.directory]);
    const check = (): void => void router.all().then(add, () => undefined);
    check();
    const timer = setInterval(check, everyMs);
    timer.unref();
    return {
        async stop() {
            stopped = true;
            clearInterval(timer);
            await Promise.all([...workers.values()].map((w) => w.stop()));
        },
    };
}
