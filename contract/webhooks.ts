// Webhooks as the canister keeps them and gateways deliver them: an endpoint's view, the lease a
// gateway holds while it delivers, the report it sends back, the retry schedule and the signature
// header's format (gateways sign; receivers check, docs/webhooks.md).
import type { EventKind } from './event-log';
import type { GameEvent } from './events';
import type { Nanoseconds } from './schemas';

/** Endpoints per game. */
export const WEBHOOKS_MAX = 5;
/** A URL's longest form. */
export const WEBHOOK_URL_MAX = 500;
/** Events one lease hands a gateway for one endpoint (delivered one at a time, in order). */
export const LEASE_EVENTS_MAX = 100;
/** How long a lease holds (canister time): a gateway that dies loses it after this. */
export const LEASE_SECONDS = 60;
/** Attempts an endpoint's view keeps for the delivery log, newest first. */
export const ATTEMPTS_KEPT = 20;
/** An endpoint failing this long (since its first failure in a row) is paused. */
export const GIVE_UP_SECONDS = 24 * 60 * 60;

/**
 * Seconds to wait before the next try after `failures` failures in a row: 10 s, 20 s, 40 s, ...
 * doubling up to an hour (about 30 tries in the 24 hours before an endpoint is paused).
 */
export function retryDelaySeconds(failures: number): number {
    return Math.min(3600, 10 * 2 ** Math.max(0, Math.min(failures - 1, 20)));
}

/** The request headers of a delivery. */
export const WEBHOOK_HEADERS = {
    /** `t=<unix seconds>,v1=<hex HMAC-SHA256 under the endpoint's secret of "<t>.<body>">`. */
    signature: 'X-Signature',
    /** The event's id (also in the body): the same on every delivery of the event. */
    eventId: 'X-Event-Id',
    eventKind: 'X-Event-Kind',
} as const;

/** What `X-Signature` signs: the timestamp, a dot, and the exact body bytes. */
export const signedPayload = (timestamp: number, body: string): string => `${timestamp}.${body}`;

/** http(s)://, then printable ASCII without space, backslash, `@` (user info) or `#` (fragment). */
const URL_SHAPE = /^https?:\/\/[^\x00-\x20\x7f-\uffff\\@#]+$/i;

/**
 * A webhook URL's shape, checked where it is saved (gateways add their address policy, and
 * check the resolved address again at every delivery): http(s), no user info, no fragment.
 * Written without `URL` (Azle's stable runtime has none): printable ASCII only (no spaces or
 * backslashes, which URL parsers read differently), a host name or [IPv6] literal, a port
 * 1..65535 when given.
 */
export function checkWebhookUrl(value: unknown): string | undefined {
    const problem =
        'must be an https:// URL without user name, password or #fragment, at most ' + WEBHOOK_URL_MAX + ' characters';
    if (typeof value !== 'string' || value.length > WEBHOOK_URL_MAX || !URL_SHAPE.test(value))
        return `Invalid url: ${problem}`;
    const authority = /^https?:\/\/([^/?]*)/i.exec(value)![1];
    const host =
        /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?)(?::(\d{1,5}))?$/.exec(
            authority,
        );
    if (host === null || (host[2] !== undefined && (Number(host[2]) < 1 || Number(host[2]) > 65535)))
        return `Invalid url: ${problem}`;
    return undefined;
}

/** Whether an endpoint is delivering, retrying after failures, or paused (by its developer, or after GIVE_UP_SECONDS of failures). */
export type WebhookState = 'active' | 'failing' | 'paused';

/** One delivery attempt, for the delivery log. */
export interface DeliveryAttempt<Time = Nanoseconds> {
    at: Time;
    eventId: string;
    kind: EventKind | 'test';
    /** The HTTP status answered; absent when none came (refused address, timeout, connection error). */
    status?: number;
    /** What went wrong, in words (absent on a 2xx). */
    error?: string;
    latencyMs: number;
}

/**
 * Events of an endpoint's kinds that it will never get: `count` of them (absent: not counted)
 * between seqs `from` and `to`, the last dropped at `at`. `held-full`: the endpoint fell further
 * behind than the log and HELD_KEEP held events; `paused`: they left the log while it was paused.
 */
export interface LostEvents<Time = Nanoseconds> {
    count?: number;
    from: number;
    to: number;
    at: Time;
    reason: 'held-full' | 'paused';
}

/** An endpoint as its developer sees it (never with its secret: that is shown once). */
export interface WebhookView {
    webhookId: string;
    url: string;
    kinds: EventKind[];
    createdAt: Nanoseconds;
    state: WebhookState;
    /** Why it is paused ('by the developer', or the last error when it gave up). */
    pausedReason?: string;
    /** The last event seq delivered (events after it wait). */
    delivered: number;
    /** Events of its kinds recorded but not delivered yet. */
    pending: number;
    /** Failures in a row, and since when (absent while it delivers). */
    failures: number;
    failingSince?: Nanoseconds;
    nextAttemptAt?: Nanoseconds;
    /** Events of its kinds it lost (absent: none). */
    lost?: LostEvents;
    /** For an endpoint subscribed to `overtaken`: how many the game did not record, over CLIENT_OVERTAKEN (absent: none). */
    overtakenSkipped?: number;
    attempts: DeliveryAttempt[];
}

/** What "send a test event" delivers: not in the log (seq 0), its id new each time. */
export interface TestEvent {
    id: string;
    seq: 0;
    gameId: string;
    kind: 'test';
    at: Nanoseconds;
    message: string;
}

/** Events a gateway may deliver to one endpoint until `expiresAt`; it reports back with `leaseId`. */
export interface Lease {
    leaseId: string;
    gameId: string;
    webhookId: string;
    url: string;
    secret: string;
    /** In order; deliver one at a time, stop at the first failure. */
    events: Array<GameEvent | TestEvent>;
    expiresAt: Nanoseconds;
}

/** What a gateway did with a lease: how many of its events (from the first) were answered 2xx, and each attempt. */
export interface DeliveryReport {
    leaseId: string;
    delivered: number;
    attempts: DeliveryAttempt[];
}
