// A game's webhook endpoints and their delivery state: the developer's add/list/update/delete/test,
// and the gateways' work loop (which endpoints are due, leases of their next events, reports of
// what was delivered: cursor, retries with backoff, pause after GIVE_UP_SECONDS of failures).
import type { RequestOf } from '../../contract/canister';
import { EVENT_KINDS, type EventKind } from '../../contract/event-log';
import type { GameEvent } from '../../contract/events';
import { invalid } from '../../contract/rules';
import type { Nanoseconds } from '../../contract/schemas';
import {
    ATTEMPTS_KEPT,
    GIVE_UP_SECONDS,
    LEASE_EVENTS_MAX,
    LEASE_SECONDS,
    WEBHOOKS_MAX,
    checkWebhookUrl,
    retryDelaySeconds,
    type DeliveryAttempt,
    type Lease,
    type TestEvent,
    type WebhookView,
} from '../../contract/webhooks';
import { newToken, randomHex } from '../domain/tokens';
import { Fail } from '../domain/fail';
import { ns } from '../domain/json';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { saveGame } from '../state/game-state';
import { statsOf } from '../state/stats';
import type { WebhookRecord } from '../state/records';
import { latestSeq, oldestKept, readEvents } from './events';
import { countLost, forgetLost, heldPage, trimHeld } from './held-events';
import { find, indexOf, keyOf, put } from './webhook-index';

export { loadWebhooks } from './webhook-index';

/** Leases one webhook_work call may grant. */
export const WORK_WANT_MAX = 50;
/** Events all leases of one reply carry at most (a period_closed event of 25 entries is ~2.5 KB: under the 2 MiB reply). */
const EVENTS_PER_WORK = 500;
/** Events of other kinds one lease may skip over looking for its own (the rest on the next call). */
const SCAN_MAX = 500;
/** Reports one call takes. */
const REPORTS_MAX = 200;
/** Superseded leases whose late reports still move the cursor, and test leases awaiting reports. */
const PAST_KEPT = 3;
const TESTS_KEPT = 5;
/** Test events of one endpoint are this far apart at least (each makes a gateway send a POST). */
export const TEST_EVENT_SECONDS = 10;
const ERROR_MAX = 300;
const BY_DEVELOPER = 'by the developer';

/** Keeps the game record's brief of its endpoints (the events helper reads it) in step. */
function syncBrief(ctx: Ctx, game: GameState, record: WebhookRecord): void {
    const brief = { webhookId: record.webhookId, kinds: record.kinds, paused: record.paused !== undefined };
    const list = game.record.webhooks ?? [];
    const at = list.findIndex((w) => w.webhookId === record.webhookId);
    const same = at >= 0 && list[at].paused === brief.paused && list[at].kinds.join() === brief.kinds.join();
    if (same) return;
    game.record.webhooks = at >= 0 ? list.map((w, i) => (i === at ? brief : w)) : [...list, brief];
    saveGame(ctx, game);
}

// ---- checks ------------------------------------------------------------------------------------------

function checkKinds(value: unknown): EventKind[] {
    const problem = `must be a non-empty list of event kinds (${EVENT_KINDS.join(', ')})`;
    if (!Array.isArray(value) || value.length === 0 || value.length > 50)
        throw new Fail(400, invalid('kinds', problem));
    for (const kind of value)
        if (!(EVENT_KINDS as readonly unknown[]).includes(kind)) throw new Fail(400, invalid('kinds', problem));
    return EVENT_KINDS.filter((k) => value.includes(k));
}

function checkUrl(value: unknown): string {
    const error = checkWebhookUrl(value);
    if (error !== undefined) throw new Fail(400, error);
    return value as string;
}

function requireWebhook(ctx: Ctx, game: GameState, webhookId: unknown): WebhookRecord {
    const record = typeof webhookId === 'string' ? find(ctx, game.record.gameId, webhookId) : undefined;
    if (record === undefined) throw new Fail(404, `No webhook '${String(webhookId).slice(0, 60)}' in this game`);
    return record;
}

// ---- the developer's methods -------------------------------------------------------------------------

export function webhookView(ctx: Ctx, gameId: string, record: WebhookRecord): WebhookView {
    const view: WebhookView = {
        webhookId: record.webhookId,
        url: record.url,
        kinds: record.kinds,
        createdAt: ns(record.createdAt),
        state: record.paused !== undefined ? 'paused' : record.failures > 0 ? 'failing' : 'active',
        delivered: record.delivered,
        pending: Math.max(0, latestSeq(ctx, gameId) - record.delivered),
        failures: record.failures,
        attempts: record.attempts.map((a) => ({ ...a, at: ns(a.at) })),
    };
    if (record.paused !== undefined) view.pausedReason = record.paused.reason;
    if (record.failingSince !== undefined) view.failingSince = ns(record.failingSince);
    if (record.nextAttemptAt !== undefined && record.paused === undefined)
        view.nextAttemptAt = ns(record.nextAttemptAt);
    const stats = statsOf(ctx, gameId);
    const lost = stats.lost?.[record.webhookId];
    if (lost !== undefined) view.lost = { ...lost, at: ns(lost.at) };
    if (record.kinds.includes('overtaken') && (stats.overtakenSkipped ?? 0) > 0)
        view.overtakenSkipped = stats.overtakenSkipped;
    return view;
}

export function listWebhooks(ctx: Ctx, game: GameState): WebhookView[] {
    const gameId = game.record.gameId;
    return (game.record.webhooks ?? [])
        .map((w) => find(ctx, gameId, w.webhookId))
        .filter((r) => r !== undefined)
        .map((r) => webhookView(ctx, gameId, r));
}

export function addWebhook(
    ctx: Ctx,
    game: GameState,
    req: Untrusted<RequestOf<'dev_add_webhook'>>,
): { webhook: WebhookView; secret: string } {
    const url = checkUrl(req.url);
    const kinds = checkKinds(req.kinds);
    if ((game.record.webhooks ?? []).length >= WEBHOOKS_MAX)
        throw new Fail(409, `A game may have at most ${WEBHOOKS_MAX} webhooks: delete one to add another`);
    const gameId = game.record.gameId;
    const record: WebhookRecord = {
        webhookId: `whk_${randomHex(ctx.env.random, 8)}`,
        url,
        kinds,
        secret: `whsec_${newToken(ctx.env.random)}`,
        createdAt: ctx.env.now(),
        // It hears of what happens from now on.
        delivered: latestSeq(ctx, gameId),
        failures: 0,
        attempts: [],
    };
    put(ctx, gameId, record);
    syncBrief(ctx, game, record);
    return { webhook: webhookView(ctx, gameId, record), secret: record.secret };
}

export function updateWebhook(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_update_webhook'>>): WebhookView {
    const current = requireWebhook(ctx, game, req.webhookId);
    const url = req.url === undefined ? undefined : checkUrl(req.url);
    const kinds = req.kinds === undefined ? undefined : checkKinds(req.kinds);
    if (req.paused !== undefined && typeof req.paused !== 'boolean')
        throw new Fail(400, invalid('paused', 'must be true or false'));
    const record: WebhookRecord = { ...current };
    if (kinds !== undefined) record.kinds = kinds;
    // A new address, or a resumed endpoint, starts its retries afresh: it is due now.
    const fresh = (url !== undefined && url !== current.url) || (req.paused === false && current.paused !== undefined);
    if (url !== undefined) record.url = url;
    if (fresh) {
        record.failures = 0;
        delete record.failingSince;
        delete record.nextAttemptAt;
    }
    if (req.paused === true && record.paused === undefined) record.paused = { at: ctx.env.now(), reason: BY_DEVELOPER };
    if (req.paused === false && current.paused !== undefined) {
        delete record.paused;
        // A paused endpoint held nothing: it goes on with the log, and its view says what left it meanwhile.
        const beforeLog = oldestKept(latestSeq(ctx, game.record.gameId)) - 1;
        if (record.delivered < beforeLog) {
            countLost(ctx, game.record.gameId, [record.webhookId], {
                from: record.delivered + 1,
                to: beforeLog,
                at: ctx.env.now(),
                reason: 'paused',
            });
            record.delivered = beforeLog;
        }
    }
    put(ctx, game.record.gameId, record);
    syncBrief(ctx, game, record);
    return webhookView(ctx, game.record.gameId, record);
}

export function deleteWebhook(
    ctx: Ctx,
    game: GameState,
    req: Untrusted<RequestOf<'dev_delete_webhook'>>,
): { message: string } {
    const record = requireWebhook(ctx, game, req.webhookId);
    const gameId = game.record.gameId;
    ctx.store.webhooks.delete(keyOf(gameId, record.webhookId));
    indexOf(ctx).records.delete(keyOf(gameId, record.webhookId));
    forgetLost(ctx, gameId, record.webhookId);
    game.record.webhooks = (game.record.webhooks ?? []).filter((w) => w.webhookId !== record.webhookId);
    saveGame(ctx, game);
    return { message: `Webhook ${record.webhookId} deleted: nothing more is delivered to ${record.url}.` };
}

/** A lease of one test event, for the gateway to deliver at once (its report only adds to the log). */
export function testWebhook(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_test_webhook'>>): Lease {
    const current = requireWebhook(ctx, game, req.webhookId);
    const gameId = game.record.gameId;
    const now = ctx.env.now();
    const event: TestEvent = {
        id: `evt_${gameId}_test_${randomHex(ctx.env.random, 8)}`,
        seq: 0,
        gameId,
        kind: 'test',
        at: ns(now),
        message: `A test event from the leaderboard service for ${game.record.name}.`,
    };
    const leaseId = newLeaseId(ctx, gameId, current.webhookId);
    const expiresAt = now + LEASE_SECONDS * 1e6;
    if (current.lastTestAt !== undefined && now - current.lastTestAt < TEST_EVENT_SECONDS * 1e6)
        throw new Fail(
            429,
            `Test events of one endpoint are at least ${TEST_EVENT_SECONDS} seconds apart: try again shortly`,
        );
    const tests = (current.tests ?? []).filter((t) => t.expiresAt > now).slice(-(TESTS_KEPT - 1));
    put(ctx, gameId, { ...current, tests: [...tests, { leaseId, expiresAt }], lastTestAt: now });
    return {
        leaseId,
        gameId,
        webhookId: current.webhookId,
        url: current.url,
        secret: current.secret,
        events: [event],
        expiresAt: ns(expiresAt),
    };
}

// ---- the gateways' work loop -------------------------------------------------------------------------

/** `<random>.<webhookId>.<gameId>`: a report finds its endpoint from the lease id alone. */
function newLeaseId(ctx: Ctx, gameId: string, webhookId: string): string {
    return `${randomHex(ctx.env.random, 16)}.${webhookId}.${gameId}`;
}

function parseLeaseId(value: unknown): { gameId: string; webhookId: string } | undefined {
    if (typeof value !== 'string' || value.length > 300) return undefined;
    const match = /^[0-9a-f]{32}\.(whk_[0-9a-f]{16})\.(.+)$/.exec(value);
    return match === null ? undefined : { webhookId: match[1], gameId: match[2] };
}

function isDue(record: WebhookRecord, latest: number, now: number): boolean {
    return (
        record.paused === undefined &&
        record.delivered < latest &&
        (record.lease === undefined || record.lease.expiresAt <= now) &&
        (record.nextAttemptAt === undefined || record.nextAttemptAt <= now)
    );
}

/** Every endpoint of the index, by game, dropping games that no longer have any. */
function endpointsByGame(ctx: Ctx): Array<{ gameId: string; records: WebhookRecord[] }> {
    const index = indexOf(ctx);
    const out: Array<{ gameId: string; records: WebhookRecord[] }> = [];
    for (const gameId of index.games) {
        const brief = ctx.games.get(gameId)?.record.webhooks ?? [];
        if (brief.length === 0) {
            index.games.delete(gameId);
            continue;
        }
        const records = brief.map((w) => find(ctx, gameId, w.webhookId)).filter((r) => r !== undefined);
        out.push({ gameId, records });
    }
    return out;
}

/** How many endpoints have work now, and when the next one will (a free query gateways poll). */
export function webhookDue(ctx: Ctx): { due: number; nextAt?: Nanoseconds } {
    const now = ctx.env.now();
    let due = 0;
    let next = Infinity;
    for (const { gameId, records } of endpointsByGame(ctx)) {
        const latest = latestSeq(ctx, gameId);
        for (const record of records) {
            if (record.paused !== undefined || record.delivered >= latest) continue;
            if (isDue(record, latest, now)) due++;
            else next = Math.min(next, Math.max(record.nextAttemptAt ?? 0, record.lease?.expiresAt ?? 0));
        }
    }
    return next === Infinity ? { due } : { due, nextAt: ns(next) };
}

/** Applies the reports, then grants up to `want` leases on due endpoints, taking turns across games. */
export function webhookWork(ctx: Ctx, req: Untrusted<RequestOf<'webhook_work'>>): { leases: Lease[] } {
    const reports = req.reports ?? [];
    if (!Array.isArray(reports) || reports.length > REPORTS_MAX)
        throw new Fail(400, invalid('reports', `must be a list of at most ${REPORTS_MAX} delivery reports`));
    const want = req.want ?? 0;
    if (typeof want !== 'number' || !Number.isInteger(want) || want < 0 || want > WORK_WANT_MAX)
        throw new Fail(400, invalid('want', `must be an integer from 0 to ${WORK_WANT_MAX}`));
    for (const report of reports) applyReport(ctx, report);
    return { leases: want === 0 ? [] : grant(ctx, want) };
}

function grant(ctx: Ctx, want: number): Lease[] {
    const now = ctx.env.now();
    const index = indexOf(ctx);
    const games = endpointsByGame(ctx);
    if (games.length === 0) return [];
    const start = index.turn % games.length;
    const queues = [];
    for (let i = 0; i < games.length; i++) {
        const at = (start + i) % games.length;
        const { gameId, records } = games[at]!;
        // A game moving out leases nothing: its target delivers from where the export left off.
        if (ctx.moving.size > 0 && ctx.moving.has(gameId)) continue;
        const latest = latestSeq(ctx, gameId);
        const due = records.filter((r) => isDue(r, latest, now));
        if (due.length === 0) continue;
        const busy = records.filter((r) => r.lease !== undefined && r.lease.expiresAt > now).length;
        queues.push({ gameId, at, busy, due });
    }
    // Games with fewer deliveries in flight go first (then in turn): a game whose slow endpoints
    // hold gateways' slots does not take the next free one from a game that has none.
    queues.sort((a, b) => a.busy - b.busy);
    const leases: Lease[] = [];
    let budget = EVENTS_PER_WORK;
    let last = start;
    // Round after round, one endpoint of each game with work: no game waits behind another's.
    for (let round = 0; leases.length < want && budget >= LEASE_EVENTS_MAX; round++) {
        let any = false;
        for (let i = 0; i < queues.length && leases.length < want && budget >= LEASE_EVENTS_MAX; i++) {
            const record = queues[i].due[round];
            if (record === undefined) continue;
            any = true;
            const lease = leaseOf(ctx, queues[i].gameId, record, now);
            if (lease === undefined) continue;
            leases.push(lease);
            budget -= lease.events.length;
            last = queues[i].at;
        }
        if (!any) break;
    }
    index.turn = last + 1;
    return leases;
}

/** The endpoint's next events of its kinds after `delivered`, leased; none: it skips past what it read. */
function leaseOf(ctx: Ctx, gameId: string, current: WebhookRecord, now: number): Lease | undefined {
    const events: GameEvent[] = [];
    let after = current.delivered;
    let scanned = 0;
    const latest = latestSeq(ctx, gameId);
    const beforeLog = oldestKept(latest) - 1;
    while (events.length < LEASE_EVENTS_MAX && after < latest && scanned < SCAN_MAX) {
        // Behind the log: what is held for it first (the rest of those seqs it does not need, or lost).
        const held = after < beforeLog;
        const page = held
            ? heldPage(ctx, gameId, after, LEASE_EVENTS_MAX, beforeLog)
            : readEvents(ctx, gameId, after, LEASE_EVENTS_MAX);
        if (page.next <= after) break;
        scanned += held ? page.events.length + 1 : page.next - after;
        for (const event of page.events) {
            if (!current.kinds.includes(event.kind)) continue;
            events.push(event);
            if (events.length === LEASE_EVENTS_MAX) break;
        }
        after = events.length === LEASE_EVENTS_MAX ? events[events.length - 1].seq : page.next;
    }
    const record: WebhookRecord = { ...current };
    if (events.length === 0) {
        record.delivered = Math.max(record.delivered, after);
        put(ctx, gameId, record);
        return undefined;
    }
    // Events of other kinds before its first are passed at once.
    record.delivered = Math.max(record.delivered, events[0].seq - 1);
    const past = record.lease === undefined ? (record.past ?? []) : [...(record.past ?? []), leaseRef(record.lease)];
    if (past.length > 0) record.past = past.slice(-PAST_KEPT);
    const leaseId = newLeaseId(ctx, gameId, record.webhookId);
    const expiresAt = now + LEASE_SECONDS * 1e6;
    record.lease = { leaseId, expiresAt, seqs: events.map((e) => e.seq), upTo: after };
    put(ctx, gameId, record);
    return {
        leaseId,
        gameId,
        webhookId: record.webhookId,
        url: record.url,
        secret: record.secret,
        events,
        expiresAt: ns(expiresAt),
    };
}

const leaseRef = ({ leaseId, seqs, upTo }: NonNullable<WebhookRecord['lease']>) => ({ leaseId, seqs, upTo });

function applyReport(ctx: Ctx, report: unknown): void {
    if (report === null || typeof report !== 'object') return;
    const { leaseId, delivered, attempts } = report as Record<string, unknown>;
    const ref = parseLeaseId(leaseId);
    const current = ref && find(ctx, ref.gameId, ref.webhookId);
    if (ref === undefined || current === undefined) return;
    const now = ctx.env.now();
    const record: WebhookRecord = { ...current };
    const logged = cleanAttempts(attempts, now);
    const test = (record.tests ?? []).find((t) => t.leaseId === leaseId);
    const lease =
        record.lease?.leaseId === leaseId ? record.lease : (record.past ?? []).find((p) => p.leaseId === leaseId);
    if (test !== undefined) {
        record.tests = (record.tests ?? []).filter((t) => t !== test);
        record.attempts = [...logged.filter((a) => a.kind === 'test'), ...record.attempts].slice(0, ATTEMPTS_KEPT);
        put(ctx, ref.gameId, record);
        return;
    }
    if (lease === undefined) return;
    const n = lease.seqs.length;
    if (typeof delivered !== 'number' || !Number.isInteger(delivered) || delivered < 0 || delivered > n) return;
    // 2xx answers count even from an expired lease; never beyond what the lease held.
    if (delivered > 0)
        record.delivered = Math.max(record.delivered, delivered === n ? lease.upTo : lease.seqs[delivered - 1]);
    record.attempts = [...logged.filter((a) => a.kind !== 'test'), ...record.attempts].slice(0, ATTEMPTS_KEPT);
    if (record.lease?.leaseId === leaseId) {
        delete record.lease;
        if (delivered === n) {
            record.failures = 0;
            delete record.failingSince;
            delete record.nextAttemptAt;
        } else {
            record.failures += 1;
            record.failingSince ??= now;
            record.nextAttemptAt = now + retryDelaySeconds(record.failures) * 1e6;
            if (record.paused === undefined && now - record.failingSince >= GIVE_UP_SECONDS * 1e6) {
                const error = logged.find((a) => a.error !== undefined)?.error ?? 'no 2xx answer';
                record.paused = { at: now, reason: `Failing for ${GIVE_UP_SECONDS / 3600} hours: ${error}` };
            }
        }
    } else {
        record.past = (record.past ?? []).filter((p) => p.leaseId !== leaseId);
    }
    put(ctx, ref.gameId, record);
    const game = ctx.games.get(ref.gameId);
    if (game !== undefined) {
        syncBrief(ctx, game, record);
        // What it received may have been held for it alone.
        if (record.delivered > current.delivered || record.paused !== undefined) trimHeld(ctx, game);
    }
}

/** A gateway's attempts as the log keeps them (µs), newest first; nonsense fields dropped, at most ATTEMPTS_KEPT. */
function cleanAttempts(value: unknown, now: number): Array<DeliveryAttempt<number>> {
    if (!Array.isArray(value)) return [];
    const out: Array<DeliveryAttempt<number>> = [];
    for (const a of value.slice(0, ATTEMPTS_KEPT)) {
        if (a === null || typeof a !== 'object') continue;
        const { eventId, kind, status, error, latencyMs } = a as Record<string, unknown>;
        if (typeof eventId !== 'string' || eventId.length > 200) continue;
        if (kind !== 'test' && !(EVENT_KINDS as readonly unknown[]).includes(kind)) continue;
        const attempt: DeliveryAttempt<number> = {
            // The canister's clock, like every other time of the endpoint's (failing since, next retry):
            // the log never reads as if a retry came before the attempt that scheduled it.
            at: now,
            eventId,
            kind: kind as EventKind | 'test',
            latencyMs:
                typeof latencyMs === 'number' && Number.isFinite(latencyMs)
                    ? Math.min(Math.max(0, Math.round(latencyMs)), 3_600_000)
                    : 0,
        };
        if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599)
            attempt.status = status;
        if (typeof error === 'string' && error !== '') attempt.error = error.slice(0, ERROR_MAX);
        out.push(attempt);
    }
    // Newest first (the gateway lists them in the order it made them).
    return out.reverse();
}
