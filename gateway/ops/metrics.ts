// The gateway's Prometheus metrics, for the operator only (GET /metrics with METRICS_TOKEN, or
// the loopback METRICS_PORT): HTTP requests by route, canister calls by method, submit batches,
// sign-in steps, webhook deliveries and lag, feed waiters, and the canisters' cycles and room as
// the cycles watch last polled them. Each gateway has its own registry: two never mix.
import { createHash, timingSafeEqual } from 'node:crypto';

import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Principal } from '@dfinity/principal';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

import type { Method, Result } from '../../contract/canister';
import { unknownEndpoint } from '../../contract/messages';
import type { Role } from '../../contract/shards';
import type { BatchObserver } from '../ic/batcher';
import type { DeliveryObserver } from '../webhooks/worker';
import { rejectOf, trapped, type CanisterClient } from '../ic/canister';
import { ApiFailure, canisterFailure, sendError } from '../http/errors';

/** Every metric's name starts with this. */
export const PREFIX = 'leaderboard_';

/** Seconds: from a cached read (ms) to an IC update (1-2 s) and a long-polled feed (30 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32];

/** The route label of a request no route matched (unknown paths, preflight): bounded, never the raw URL. */
export const OTHER_ROUTE = 'other';

/** What the gauges read when scraped (set once the parts exist). */
interface Sources {
    feedWaiters(): number;
    submits(): { queued: number; inFlight: number };
    webhookLag(): Map<string, number>;
}

export type GatewayMetrics = ReturnType<typeof gatewayMetrics>;

export function gatewayMetrics() {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: PREFIX });
    const sources: Sources = {
        feedWaiters: () => 0,
        submits: () => ({ queued: 0, inFlight: 0 }),
        webhookLag: () => new Map(),
    };
    const registers = [registry];
    const canisterLabels = ['canister', 'role'] as const;
    const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
        new Gauge<L>({ name: PREFIX + name, help, labelNames, registers });
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
        new Counter<L>({ name: PREFIX + name, help, labelNames, registers });
    const histogram = <L extends string>(
        name: string,
        help: string,
        buckets: number[],
        labelNames: readonly L[] = [],
    ) => new Histogram<L>({ name: PREFIX + name, help, buckets, labelNames, registers });
    /** A gauge read from the gateway's parts when scraped. */
    const sampled = (name: string, help: string, read: () => number) =>
        new Gauge({
            name: PREFIX + name,
            help,
            registers,
            collect() {
                this.set(read());
            },
        });
    return {
        registry,
        sources,
        httpRequests: counter(
            'http_requests_total',
            `HTTP requests answered, by method, route (the Express route pattern; "${OTHER_ROUTE}" when none matched) and status (499: the client left first)`,
            ['method', 'route', 'status'],
        ),
        httpDuration: histogram(
            'http_request_duration_seconds',
            'Time from a request arriving to its response ending, by method and route',
            LATENCY_BUCKETS,
            ['method', 'route'],
        ),
        signIns: counter(
            'sign_in_steps_total',
            'Player sign-in steps by outcome (ok, pending, expired, limited, refused, error): device_code_start, device_code_poll, link_approve (the link page), id_token_google, id_token_apple',
            ['step', 'outcome'],
        ),
        canisterCalls: counter(
            'canister_calls_total',
            'Canister calls by method, canister and result: ok, err (the canister answered an error), reject (the IC rejected the call), unreachable (no answer)',
            ['method', 'canister', 'role', 'result'],
        ),
        canisterDuration: histogram(
            'canister_call_duration_seconds',
            'Canister call latency by method and canister role, answered or not',
            LATENCY_BUCKETS,
            ['method', 'role'],
        ),
        canisterRejects: counter(
            'canister_rejects_total',
            'Calls the IC rejected, by method, canister, reject code and error code (e.g. 2/IC0207: out of cycles, 5/IC0503: the canister trapped)',
            ['method', 'canister', 'reject_code', 'error_code'],
        ),
        canisterTraps: counter(
            'canister_traps_total',
            'Calls whose canister trapped (IC0502, IC0503, IC0522: a bug or the instruction limit; the call changed nothing)',
            ['method', 'canister'],
        ),
        batchSize: histogram('submit_batch_size', 'Score submits per submit_scores call', [1, 2, 5, 10, 20, 50, 100]),
        submitsShed: counter(
            'submits_shed_total',
            'Score submits answered 503 at once because the queue was full, by limit: gateway (all games) or game (one game)',
            ['limit'],
        ),
        submitsQueued: sampled(
            'submits_queued',
            'Score submits waiting for a submit_scores call',
            () => sources.submits().queued,
        ),
        batchesInFlight: sampled(
            'submit_batches_in_flight',
            'submit_scores calls sent and not answered yet',
            () => sources.submits().inFlight,
        ),
        feedWaiters: sampled('feed_waiters', 'GET /events requests waiting for events (long polling)', () =>
            sources.feedWaiters(),
        ),
        webhookDeliveries: counter(
            'webhook_deliveries_total',
            'Webhook delivery attempts by this gateway, by game and result: ok (answered 2xx) or failed',
            ['game', 'result'],
        ),
        webhookLag: new Gauge({
            name: `${PREFIX}webhook_lag_seconds`,
            help: "Age of the oldest event this gateway holds for a game's endpoints and has not delivered yet (0: caught up), by game",
            labelNames: ['game'] as const,
            registers,
            collect() {
                this.reset();
                for (const [game, seconds] of sources.webhookLag()) this.set({ game }, seconds);
            },
        }),
        // Polled by the cycles watch (./cycles-watch.ts) every minute.
        cycles: gauge('canister_cycles', "A canister's cycles balance", canisterLabels),
        burnPerDay: gauge(
            'canister_burn_cycles_per_day',
            'Cycles a canister burns a day (its measured burn, at least its idle burn)',
            canisterLabels,
        ),
        runwayDays: gauge(
            'canister_runway_days',
            'Days until a canister freezes at its burn if nobody adds cycles (+Inf: it burns nothing measurable)',
            canisterLabels,
        ),
        frozen: gauge(
            'canister_frozen',
            '1 when a canister is frozen (it refuses every call until cycles arrive)',
            canisterLabels,
        ),
        up: gauge('canister_up', '1 when a canister answered shard_status at the last poll', canisterLabels),
        memoryBytes: gauge('canister_memory_bytes', 'Bytes of memory the IC charges a canister for', canisterLabels),
        freezingThreshold: gauge(
            'canister_freezing_threshold_cycles',
            'The balance below which a canister is frozen',
            canisterLabels,
        ),
        heapBytes: gauge('canister_heap_bytes', "Estimated bytes of a canister's wasm heap in use", canisterLabels),
        heapLimitBytes: gauge(
            'canister_heap_limit_bytes',
            'The heap line past which a canister refuses new players and takes no new games',
            canisterLabels,
        ),
        stableBytes: gauge('canister_stable_bytes', 'Bytes of stable memory a canister uses', canisterLabels),
        games: gauge('canister_games', 'Games a canister holds', canisterLabels),
        players: gauge('canister_players', 'Players a canister holds', canisterLabels),
        instructions: gauge(
            'canister_instructions_per_minute',
            'Instructions a canister spent on updates and timers over the last minutes, per minute',
            canisterLabels,
        ),
        alarm: gauge(
            'cycles_alarm',
            'The cycles alarm: 1 for the current level (ok, low: top the directory up; critical: a canister is frozen or about to be)',
            ['level'] as const,
        ),
        serviceRunwayDays: gauge(
            'service_runway_days',
            'Days the service runs before a canister freezes if nobody adds cycles (+Inf: nothing burns)',
        ),
        cyclesStatusUp: gauge('cycles_status_up', '1 when the directory answered cycles_status at the last poll'),
        lastPoll: gauge('cycles_poll_timestamp_seconds', 'When the cycles watch last polled the canisters (Unix time)'),
    };
}

/** A status as what a sign-in step came to. */
function outcomeOf(status: number): string {
    if (status === 200) return 'ok';
    if (status === 428) return 'pending';
    if (status === 410) return 'expired';
    if (status === 429) return 'limited';
    return status >= 500 ? 'error' : 'refused';
}

/** The request's route pattern (`/players/:playerId/profile`), never the raw URL. */
const routeOf = (req: Request): string =>
    typeof req.route?.path === 'string' ? `${req.baseUrl}${req.route.path}` : OTHER_ROUTE;

/** Marks a response as a sign-in step (counted by outcome when it ends). */
export const countSignInStep = (res: Response, step: string): void => void (res.locals.signInStep = step);

/** Counts every request and its latency when its response ends (or its client leaves). */
export function httpMetrics(m: GatewayMetrics): RequestHandler {
    return (req, res, next) => {
        const done = m.httpDuration.startTimer();
        res.once('close', () => {
            const route = routeOf(req);
            const status = res.headersSent ? res.statusCode : 499;
            done({ method: req.method, route });
            m.httpRequests.inc({ method: req.method, route, status: String(status) });
            const step: unknown = res.locals.signInStep;
            if (typeof step === 'string') m.signIns.inc({ step, outcome: outcomeOf(status) });
        });
        next();
    };
}

/** The batchers' sizes and sheds as metrics. */
export const batchObserver = (m: GatewayMetrics): BatchObserver => ({
    sent: (size) => m.batchSize.observe(size),
    shed: (limit) => m.submitsShed.inc({ limit }),
});

/**
 * The canister client with every call counted and timed (its result, the IC's reject codes, traps);
 * the clients it makes for other canisters (shards) are measured too.
 */
export function measuredCanister(client: CanisterClient, m: GatewayMetrics, role: Role): CanisterClient {
    // The id's text, remembered (toText is base32 and a CRC in JavaScript): read at the call, as
    // tests' stand-in clients may have no id or change it.
    let id: Principal | undefined;
    let idText = '';
    const canisterText = (): string => {
        const now = client.canisterId;
        if (now !== id) [id, idText] = [now, now?.toText() ?? ''];
        return idText;
    };
    const measure = async <T>(method: Method, run: () => Promise<Result<T>>): Promise<Result<T>> => {
        const canister = canisterText();
        const done = m.canisterDuration.startTimer({ method, role });
        try {
            const reply = await run();
            m.canisterCalls.inc({ method, canister, role, result: 'err' in reply ? 'err' : 'ok' });
            return reply;
        } catch (error) {
            const reject = error instanceof ApiFailure ? error.reject : rejectOf(error);
            m.canisterCalls.inc({ method, canister, role, result: reject === undefined ? 'unreachable' : 'reject' });
            if (reject !== undefined)
                m.canisterRejects.inc({
                    method,
                    canister,
                    reject_code: String(reject.code),
                    error_code: reject.errorCode ?? '',
                });
            if (trapped(error)) m.canisterTraps.inc({ method, canister });
            throw error;
        } finally {
            done();
        }
    };
    const measured: CanisterClient = {
        get canisterId() {
            return client.canisterId;
        },
        get agent() {
            return client.agent;
        },
        call: (method, request) => measure(method, () => client.call(method, request)),
        relay: (method, request) => measure(method, () => client.relay(method, request)),
        async ok(method, request) {
            const reply = await measured.call(method, request);
            if ('err' in reply) throw canisterFailure(reply.err);
            return reply.ok;
        },
    };
    const other = client.forCanister?.bind(client);
    if (other !== undefined) measured.forCanister = (id) => measuredCanister(other(id), m, 'shard');
    return measured;
}

/** An endpoint no lease told of for this long is another gateway's now, or idle: its lag is not this gateway's to tell (ms). */
const LAG_FORGET_MS = 2 * 60 * 60_000;

/**
 * Webhook deliveries as metrics: each attempt by game and result, and each game's lag: the age
 * of the oldest event this gateway was leased and has not delivered (0 once delivered).
 */
export function webhookObserver(m: GatewayMetrics, clock: () => number = Date.now): DeliveryObserver {
    /** Per endpoint: since when (ms, the event's time) its oldest undelivered event waits (undefined: caught up), and when a lease last named it. */
    const endpoints = new Map<string, { game: string; since?: number; seen: number }>();
    const keyOf = (lease: { gameId: string; webhookId: string }): string => `${lease.gameId}/${lease.webhookId}`;
    const waitingSince = (event: { at: number } | undefined): number | undefined =>
        event === undefined ? undefined : event.at / 1e6;
    m.sources.webhookLag = () => {
        const now = clock();
        const lag = new Map<string, number>();
        for (const [key, e] of endpoints) {
            if (now - e.seen > LAG_FORGET_MS) endpoints.delete(key);
            else
                lag.set(
                    e.game,
                    Math.max(lag.get(e.game) ?? 0, e.since === undefined ? 0 : Math.max(0, (now - e.since) / 1000)),
                );
        }
        return lag;
    };
    return {
        leased(lease) {
            endpoints.set(keyOf(lease), { game: lease.gameId, since: waitingSince(lease.events[0]), seen: clock() });
        },
        reported(lease, report) {
            for (const a of report.attempts)
                m.webhookDeliveries.inc({ game: lease.gameId, result: a.error === undefined ? 'ok' : 'failed' });
            const since = waitingSince(lease.events[report.delivered]);
            endpoints.set(keyOf(lease), { game: lease.gameId, since, seen: clock() });
        },
    };
}

/** Whether `Authorization: Bearer <token>` carries `token` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
    const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
    return timingSafeEqual(digest(given), digest(token));
}

/** Answers with the metrics in Prometheus text format, after the first poll of the canisters (waiting 5 s at most). */
function expose(m: GatewayMetrics, firstPoll: () => Promise<void>): RequestHandler {
    return (_req, res, next) => {
        let timer: NodeJS.Timeout | undefined;
        Promise.race([firstPoll(), new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)))])
            .then(() => m.registry.metrics())
            .then((text) => void res.type(m.registry.contentType).send(text), next)
            .finally(() => clearTimeout(timer));
    };
}

/** METRICS_PORT's app: GET /metrics without a token (it listens on 127.0.0.1 only), nothing else. */
export function loopbackMetrics(m: GatewayMetrics, firstPoll: () => Promise<void>): express.Express {
    const app = express();
    app.disable('x-powered-by');
    app.get('/metrics', expose(m, firstPoll));
    app.use((req: Request, res: Response) =>
        sendError(res, new ApiFailure(404, unknownEndpoint(req.method, req.path))),
    );
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => sendError(res, error));
    return app;
}

/**
 * GET /metrics on the public port: with METRICS_TOKEN, for `Authorization: Bearer <token>` only
 * (401 otherwise, whatever other credential a request carries); without it, absent (404).
 */
export function metricsRoute(
    m: GatewayMetrics,
    firstPoll: () => Promise<void>,
    token: string | undefined,
): RequestHandler {
    const send = expose(m, firstPoll);
    return (req, res, next) => {
        if (token === undefined) return next();
        if (!bearerMatches(req.get('authorization'), token)) {
            res.set('WWW-Authenticate', 'Bearer realm="metrics"');
            return sendError(res, new ApiFailure(401, 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'));
        }
        send(req, res, next);
    };
}
