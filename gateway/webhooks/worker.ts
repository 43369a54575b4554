// The gateway's delivery loop: polls the canister's free `webhook_due` query while idle, and when
// there is work takes leases with `webhook_work` (sending back the previous reports), delivers
// each lease's events in order (one at a time per endpoint, stopping at the first failure;
// endpoints in parallel up to a bound, which an endpoint slow to answer stops counting against)
// and reports. Several gateways may run it: the leases keep each endpoint with one of them at a time.
import type { Nanoseconds } from '../../contract/schemas';
import { LEASE_SECONDS, type DeliveryReport, type Lease } from '../../contract/webhooks';
import { DELIVERY_DEFAULTS, deliverEvent, type DeliveryOptions } from './deliver';

/** The canister's side of delivery (the gateway's client, or a test's). */
export interface WebhookCanister {
    due(): Promise<{ due: number; nextAt?: Nanoseconds }>;
    work(reports: DeliveryReport[], want: number): Promise<Lease[]>;
}

export interface WorkerOptions {
    canister: WebhookCanister;
    delivery: DeliveryOptions;
    /** How often an idle gateway asks whether there is work (ms, default 1000). */
    pollMs?: number;
    /**
     * Endpoints delivered to at once (default 8; the canister grants at most 50 per call), not
     * counting those waiting longer than SLOW_MS for an answer: up to SLOW_FACTOR times as many
     * of those are in flight besides.
     */
    parallel?: number;
    /** Where the loop's troubles go (each distinct message once in a row). */
    log?: (message: string) => void;
    /** Told of each lease taken and of its report (the gateway's metrics). */
    observer?: DeliveryObserver;
}

export interface DeliveryObserver {
    leased(lease: Lease): void;
    reported(lease: Lease, report: DeliveryReport): void;
}

export interface WebhookWorker {
    /** Takes no new lease, lets the event being delivered finish (within the delivery timeout), reports, and stops. */
    stop(): Promise<void>;
}

/** A delivery waiting this long for its answer no longer holds one of the `parallel` slots (ms of real time). */
export const SLOW_MS = 1_000;
/** Deliveries in flight at most, slow ones included: this many times `parallel`. */
export const SLOW_FACTOR = 4;

/** How a worker runs one lease (the test route sends its one event with none of these). */
export interface LeaseRun {
    /** Starting another event could outlast the lease after this (this machine's ms clock). */
    deadline?: number;
    /** False once the worker stops: the event in flight finishes, no other starts. */
    going?: () => boolean;
    /** Events up to this seq were answered 2xx under an earlier lease: counted, not sent again. */
    answeredThrough?: number;
    /** Told when an event's request goes out (true) and when its attempt ends (false). */
    sending?: (on: boolean) => void;
}

/**
 * Delivers a lease's events in order until one fails, or until starting another could outlast
 * the lease, or the worker stops: the report.
 */
export async function deliverLease(
    lease: Lease,
    delivery: DeliveryOptions,
    run: LeaseRun = {},
): Promise<DeliveryReport> {
    const { deadline = Infinity, going = () => true, answeredThrough = 0, sending } = run;
    const report: DeliveryReport = { leaseId: lease.leaseId, delivered: 0, attempts: [] };
    const longest = delivery.timeoutMs ?? DELIVERY_DEFAULTS.timeoutMs;
    for (const event of lease.events) {
        // Answered 2xx already, by this gateway under an earlier lease: counted, not sent again.
        if (event.seq > 0 && event.seq <= answeredThrough) {
            report.delivered += 1;
            continue;
        }
        if (!going() || performance.now() + longest > deadline) break;
        sending?.(true);
        const attempt = await deliverEvent(lease.url, lease.secret, event, delivery).finally(() => sending?.(false));
        report.attempts.push(attempt);
        if (attempt.error !== undefined) break;
        report.delivered += 1;
    }
    return report;
}

export function startWebhookWorker(o: WorkerOptions): WebhookWorker {
    const pollMs = o.pollMs ?? 1000;
    const parallel = Math.max(1, Math.min(50, o.parallel ?? 8));
    let running = true;
    const reports: DeliveryReport[] = [];
    const inFlight = new Set<Promise<void>>();
    /** Leases whose request in flight has waited SLOW_MS or more: their slots are free for others. */
    let slow = 0;
    let wake: (() => void) | undefined;
    let lastTrouble: string | undefined;
    const trouble = (message: string): void => {
        if (message !== lastTrouble) (o.log ?? console.error)(`gateway: webhook delivery: ${message}`);
        lastTrouble = message;
    };
    const nap = (ms: number): Promise<void> =>
        new Promise((resolve) => {
            const done = (): void => {
                clearTimeout(timer);
                wake = undefined;
                resolve();
            };
            const timer = setTimeout(done, ms);
            wake = done;
        });

    /**
     * The endpoints this gateway is delivering to: a new lease of one of them (the canister leased
     * it again after a jump of its clock, or while this gateway was slow) waits for the one in
     * flight, and skips what that one got answered: one request at a time per endpoint, in order.
     */
    const endpoints = new Map<string, { last: Promise<void>; leases: number; answeredThrough: number }>();

    function start(lease: Lease): void {
        // The lease was granted just now: it holds LEASE_SECONDS from here (canister time moves
        // with ours; a test's jumps only shorten it, and the canister then leases it again).
        const deadline = performance.now() + LEASE_SECONDS * 1000;
        const key = `${lease.gameId}/${lease.webhookId}`;
        const endpoint = endpoints.get(key) ?? { last: Promise.resolve(), leases: 0, answeredThrough: 0 };
        endpoints.set(key, endpoint);
        endpoint.leases += 1;
        o.observer?.leased(lease);
        // A request that waits SLOW_MS frees its slot (a slow endpoint does not hold up the
        // other games' deliveries); it counts again when its next request goes out.
        let timer: ReturnType<typeof setTimeout> | undefined;
        let isSlow = false;
        const onSend = (on: boolean): void => {
            clearTimeout(timer);
            if (isSlow) slow -= 1;
            isSlow = false;
            if (!on) return;
            timer = setTimeout(() => {
                isSlow = true;
                slow += 1;
                wake?.();
            }, SLOW_MS);
        };
        const delivering: Promise<void> = endpoint.last
            .then(() =>
                deliverLease(lease, o.delivery, {
                    deadline,
                    going: () => running,
                    answeredThrough: endpoint.answeredThrough,
                    sending: onSend,
                }),
            )
            .then((report) => {
                reports.push(report);
                o.observer?.reported(lease, report);
                const answered = lease.events[report.delivered - 1]?.seq ?? 0;
                endpoint.answeredThrough = Math.max(endpoint.answeredThrough, answered);
            })
            .catch((e: unknown) => trouble(e instanceof Error ? e.message : String(e))) // never expected: the lease expires
            .finally(() => {
                inFlight.delete(delivering);
                if (--endpoint.leases === 0) endpoints.delete(key);
                wake?.();
            });
        endpoint.last = delivering;
        inFlight.add(delivering);
    }

    async function loop(): Promise<void> {
        while (running) {
            const free = Math.min(parallel - (inFlight.size - slow), parallel * SLOW_FACTOR - inFlight.size);
            const sending = reports.splice(0);
            try {
                if (sending.length === 0) {
                    if (free <= 0) {
                        await nap(pollMs);
                        continue;
                    }
                    const { due } = await o.canister.due();
                    if (due === 0 || !running) {
                        await nap(pollMs);
                        continue;
                    }
                }
                const leases = await o.canister.work(sending, running ? Math.max(0, free) : 0);
                lastTrouble = undefined;
                for (const lease of leases) start(lease);
                // Due, yet nothing granted: another gateway took it.
                if (leases.length === 0 && sending.length === 0) await nap(pollMs);
            } catch (e) {
                reports.unshift(...sending); // sent again with the next call
                trouble(e instanceof Error ? e.message : String(e));
                await nap(pollMs);
            }
        }
    }

    const looping = loop();
    return {
        async stop() {
            running = false;
            wake?.();
            await looping;
            await Promise.all([...inFlight]);
            if (reports.length > 0)
                await o.canister.work(reports.splice(0), 0).catch((e: unknown) => trouble(String(e)));
        },
    };
}

/** A gateway's webhook settings (gateway/ops/config.ts reads them from the environment). */
export interface WebhookSettings {
    /** WEBHOOKS=off: this gateway delivers nothing (other gateways do; "send a test event" still works). */
    deliver: boolean;
    /** The address policy (WEBHOOK_ALLOW), DNS servers (WEBHOOK_DNS_SERVERS), timeouts. */
    delivery: DeliveryOptions;
    pollMs?: number;
    /** WEBHOOK_PARALLEL: endpoints delivered to at once. */
    parallel?: number;
}
