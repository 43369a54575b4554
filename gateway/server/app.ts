// The HTTP/JSON API ({base_url}) as an Express app: CORS and the API version on every
// response, the routes of gateway/routes, the API reference, and the contract's answers for
// everything else (unknown endpoints, bad JSON, oversized bodies, preflight); the operator's
// GET /metrics beside it.
import express, { type NextFunction, type Request, type Response } from 'express';

import { API_HEADERS } from '../../contract/http';
import { unknownEndpoint } from '../../contract/messages';
import { credentialResolver } from '../routes/auth';
import type { BatcherOptions } from '../ic/batcher';
import { ttlCache } from '../http/cache';
import { clientLimit } from '../http/client-limit';
import { REPORT_LIMITS } from '../../contract/reports';
import type { CanisterClient } from '../ic/canister';
import { canisterUrlFor } from '../ic/canister-url';
import { cyclesWatch, type CyclesWatch } from '../ops/cycles-watch';
import { openApiDocument } from '../reference/openapi';
import { referencePages } from '../reference/pages';
import { dashboard } from '../dashboard';
import { demoPages, type DemoConfig } from '../pages/demo';
import { html, page as framed, sendPage } from '../pages/layout';
import { linkPages } from '../pages/link';
import { providerRegistry, type SignInConfig } from '../sign-in/providers';
import { failureOf, sendError } from '../http/errors';
import type { Log } from '../ops/log';
import {
    batchObserver,
    gatewayMetrics,
    httpMetrics,
    measuredCanister,
    metricsRoute,
    type GatewayMetrics,
} from '../ops/metrics';
import { expressPath, serve, type RouteContext } from '../routes/route';
import { FEED_LIMITS, feedWatcher, pokingCanister, type FeedLimits, type FeedWatcher } from '../ic/feed-watcher';
import { ROUTES } from '../routes';
import { shardRouter, type ShardRouter } from '../ic/shards';
import { SUBMIT_BATCHING, submitPath } from '../ic/submits';
import { STRICT_POLICY } from '../webhooks/address-policy';
import type { WebhookSettings } from '../webhooks/worker';

export interface GatewayOptions {
    canister: CanisterClient;
    /** How long board reads are cached (R2: about 30 s); 0 turns the cache off. */
    readCacheTtlSeconds: number;
    batch?: BatcherOptions;
    /** The clock of the caches and of the hourly cycles alarm (ms); tests pass their own so that no test waits for real time. */
    clock?: () => number;
    /** Sign-in: public URL, the shared secret, identity providers. */
    signIn: SignInConfig;
    /** Express's `trust proxy` (production behind a load balancer): which client address the link page limits. */
    trustProxy?: string | number | boolean;
    /** The /demo game's game, key and board (npm start's demo game; DEMO_GAME_ID in production); absent: no /demo. */
    demo?: DemoConfig;
    /** Webhook delivery (WEBHOOK_* settings: the address policy too); absent: no delivery loop, public https only. */
    webhooks?: WebhookSettings;
    /** Long polling of GET /events: poll interval and waiter limits (default FEED_LIMITS). */
    feed?: Partial<FeedLimits>;
    /**
     * The directory's direct-read URL, {canister_url} (CANISTER_URL; the local stack's): GET /game
     * tells a game on a shard its own canister's URL in the same form. Absent: never told.
     */
    canisterUrl?: string;
    /**
     * The operator's metrics: GET /metrics on the API's port for `Authorization: Bearer <token>`
     * (METRICS_TOKEN; absent: 404 there), and on `port` of 127.0.0.1 without one (METRICS_PORT).
     */
    metrics?: { token?: string; port?: number };
    /** How often the canisters' cycles and room are polled (ms, default CYCLES_POLL_MS). */
    cyclesPollMs?: number;
    /** Where the gateway's own events go (the cycles alarm); default: JSON lines on stdout/stderr. */
    log?: Log;
}

/** The app's feed watcher (serve.ts answers its waiters when the gateway drains). */
export const feedOf = (app: express.Express): FeedWatcher => app.locals.feed as FeedWatcher;

/** The app's router over the directory and its shards (serve.ts runs webhook delivery per canister). */
export const routerOf = (app: express.Express): ShardRouter => app.locals.router as ShardRouter;

/** The app's metrics (serve.ts serves them on METRICS_PORT and counts webhook deliveries). */
export const metricsOf = (app: express.Express): GatewayMetrics => app.locals.metrics as GatewayMetrics;

/** GET /openapi.json: the same for every app of a process (ROUTES are fixed), made by the first. */
let apiReference: ReturnType<typeof openApiDocument> | undefined;

/** The app's cycles watch: `latest()` is the directory's last cycles_status (a page's banner reads it). */
export const cyclesWatchOf = (app: express.Express): CyclesWatch => app.locals.cycles as CyclesWatch;

export function createApp(options: GatewayOptions): express.Express {
    const providerNamed = providerRegistry(options.signIn);
    const metrics = gatewayMetrics();
    // The configured canister is the directory: each game's calls go to the canister holding it
    // (every call counted and timed, the shards' too).
    const router = shardRouter(measuredCanister(options.canister, metrics, 'directory'));
    const feed = feedWatcher(router.routed, { ...FEED_LIMITS, ...options.feed });
    metrics.sources.feedWaiters = () => feed.waiting();
    const cycles = cyclesWatch({
        directory: router.directory,
        metrics,
        everyMs: options.cyclesPollMs,
        clock: options.clock,
        log: options.log,
    });
    // This gateway's writes for a game (submits, moderation) wake the game's feed waiters at once.
    const o = { ...options, canister: pokingCanister(router.routed, feed) };
    const submit = submitPath(router, {
        batching: o.batch ?? SUBMIT_BATCHING,
        observer: batchObserver(metrics),
        feed,
    });
    metrics.sources.submits = () => submit.stats();
    const ctx: RouteContext = {
        signIn: o.signIn,
        providerNamed,
        canister: o.canister,
        router,
        webhookDelivery: o.webhooks?.delivery ?? { policy: STRICT_POLICY },
        webhookPolicy: o.webhooks?.delivery.policy ?? STRICT_POLICY,
        async canisterUrlOf(gameId) {
            if (o.canisterUrl === undefined) return undefined;
            const directoryId = router.directory.canisterId.toText();
            // Where the router sends the game's calls (located once, then kept); a failure: as far as this says, here.
            const canisterId = (await router.locate(gameId).catch(() => router.directory)).canisterId.toText();
            return canisterId === directoryId ? undefined : canisterUrlFor(o.canisterUrl, directoryId, canisterId);
        },
        feed,
        credentials: credentialResolver(o.canister, undefined, o.clock),
        reads: ttlCache(o.readCacheTtlSeconds * 1000, undefined, o.clock),
        reportLimit: clientLimit(REPORT_LIMITS.perClientPerMinute, o.clock),
        submit,
    };
    const app = express();
    app.locals.feed = feed;
    app.locals.router = router;
    app.locals.metrics = metrics;
    app.locals.cycles = cycles;
    app.disable('x-powered-by');
    app.set('etag', false);
    if (o.trustProxy !== undefined) app.set('trust proxy', o.trustProxy);
    app.use(httpMetrics(metrics));
    // Not the API: no CORS headers (no web page reads it), whatever credential it carries.
    app.get('/metrics', metricsRoute(metrics, cycles.ready, o.metrics?.token));
    app.use((req: Request, res: Response, next: NextFunction) => {
        res.set(API_HEADERS);
        if (req.method === 'OPTIONS') {
            res.status(200).json({});
            return;
        }
        next();
    });
    for (const r of ROUTES) app[r.method](expressPath(r.path), ...serve(ctx, r));
    app.use(linkPages({ canister: o.canister, signIn: o.signIn, providerNamed }));
    app.use(
        dashboard({
            canister: o.canister,
            signIn: o.signIn,
            providerNamed,
            webhookDelivery: o.webhooks?.delivery ?? { policy: STRICT_POLICY },
            cyclesStatus: () => cycles.latest(),
        }),
    );
    app.use(demoPages(o.demo));
    const reference = (apiReference ??= openApiDocument(ROUTES));
    app.get('/openapi.json', (_req, res) => void res.json(reference));
    app.use(referencePages());
    app.use((req: Request, res: Response) => {
        res.status(404).json({ ok: false, error: unknownEndpoint(req.method, req.path) });
    });
    app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
        if (res.headersSent) return next(error);
        const failure = failureOf(error);
        // The link page's own failures are pages; what escapes its handlers is one too.
        if (req.path.startsWith('/link')) {
            const body = html`<h1>That did not work</h1>
                <p class="error" role="alert">${failure.message}</p>
                <a class="button" href="/link">Start again</a>`;
            return sendPage(res, failure.status, o.signIn.providers, framed('Sign-in problem', body));
        }
        sendError(res, failure);
    });
    return app;
}
