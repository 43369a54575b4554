// Events held past a game's log for its webhook endpoints: when the ring drops an event that an
// endpoint (not paused) subscribes to and has not received, the event moves to the game's held
// ring (HELD_KEEP slots after the log's, in the same map, in seq order) until every endpoint
// that needs it has it. Clients' events may fill HELD_CLIENT_MAX of it, so that a flood from the
// public key never crowds out a ban; past the cap the endpoints that needed an event count it lost.
import { EVENTS_KEEP, HELD_CLIENT_MAX, HELD_KEEP, type EventKind } from '../../contract/event-log';
import type { GameEvent } from '../../contract/events';
import type { LostEvents } from '../../contract/webhooks';
import type { Ctx, GameState } from '../state/context';
import type { WebhookRecord } from '../state/records';
import { statsOf, updateStats } from '../state/stats';
import { find } from './webhook-index';

/** An event as the store keeps it: `_server` marks the events of the server key's submits (readers never see it). */
export type StoredEvent = GameEvent & { _server?: 1 };

/** The event as readers get it. */
export function shown(event: StoredEvent): GameEvent {
    if (event._server === undefined) return event;
    const { _server, ...rest } = event;
    return rest as GameEvent;
}

/** The kinds clients' writes record (submits, reports): a client's (public key, session) fill the held ring only up to HELD_CLIENT_MAX. */
const SUBMIT_KINDS: ReadonlySet<EventKind> = new Set([
    'new_leader',
    'overtaken',
    'score_submitted',
    'submit_rejected',
    'entry_reported',
]);
const byClient = (event: StoredEvent): boolean => SUBMIT_KINDS.has(event.kind) && event._server === undefined;

const heldKey = (gameId: string, position: number): string => `${gameId}/${EVENTS_KEEP + (position % HELD_KEEP)}`;

/** Held events read at most per trim (the rest on the next report or drop). */
const TRIM_MAX = 100;

/** The game's endpoints that are not paused, as the heap index has them. */
function enabled(ctx: Ctx, game: GameState): WebhookRecord[] {
    const out: WebhookRecord[] = [];
    for (const w of game.record.webhooks ?? []) {
        if (w.paused) continue;
        const record = find(ctx, game.record.gameId, w.webhookId);
        if (record !== undefined && record.paused === undefined) out.push(record);
    }
    return out;
}

/** Whether an endpoint that is not paused has not received everything up to `seq` (no stable read). */
export function anyBehind(ctx: Ctx, game: GameState, seq: number): boolean {
    for (const w of game.record.webhooks ?? []) {
        if (w.paused) continue;
        const record = find(ctx, game.record.gameId, w.webhookId);
        if (record !== undefined && record.delivered < seq) return true;
    }
    return false;
}

/** The endpoints not paused that subscribe to the event's kind and have not received it. */
const needing = (ctx: Ctx, game: GameState, event: GameEvent): WebhookRecord[] =>
    enabled(ctx, game).filter((w) => w.delivered < event.seq && w.kinds.includes(event.kind));

/** What an endpoint lost, with `loss` added (a count only while every part was counted). */
export function addLost(lost: LostEvents<number> | undefined, loss: LostEvents<number>): LostEvents<number> {
    const merged: LostEvents<number> = {
        from: Math.min(lost?.from ?? loss.from, loss.from),
        to: Math.max(lost?.to ?? loss.to, loss.to),
        at: loss.at,
        reason: loss.reason,
    };
    const count =
        lost === undefined ? loss.count : lost.count === undefined ? undefined : lost.count + (loss.count ?? NaN);
    if (count !== undefined && !Number.isNaN(count)) merged.count = count;
    return merged;
}

/** Writes what endpoints lost into the game's counters (written once per call). */
export function countLost(ctx: Ctx, gameId: string, webhookIds: string[], loss: LostEvents<number>): void {
    updateStats(ctx, gameId, (s) => {
        const lost = { ...(s.lost ?? {}) };
        for (const id of webhookIds) lost[id] = addLost(lost[id], loss);
        return { ...s, lost };
    });
}

/** Forgets an endpoint's losses (it was deleted). */
export function forgetLost(ctx: Ctx, gameId: string, webhookId: string): void {
    const lost = statsOf(ctx, gameId).lost;
    if (lost === undefined || !(webhookId in lost)) return;
    updateStats(ctx, gameId, (s) => {
        const rest = { ...(s.lost ?? {}) };
        delete rest[webhookId];
        return { ...s, lost: rest };
    });
}

/** An event the log drops: held when an endpoint still needs it, else counted lost for those that did. */
export function holdDropped(ctx: Ctx, game: GameState, event: StoredEvent): void {
    const needers = needing(ctx, game, event);
    if (needers.length === 0) return;
    const gameId = game.record.gameId;
    trimHeld(ctx, game);
    const { heldFrom: from = 0, heldTo: to = 0 } = statsOf(ctx, gameId);
    if (to - from < (byClient(event) ? HELD_CLIENT_MAX : HELD_KEEP)) {
        ctx.store.events.set(heldKey(gameId, to), event);
        updateStats(ctx, gameId, (s) => ({ ...s, heldFrom: from, heldTo: to + 1 }));
        return;
    }
    countLost(
        ctx,
        gameId,
        needers.map((w) => w.webhookId),
        { count: 1, from: event.seq, to: event.seq, at: ctx.env.now(), reason: 'held-full' },
    );
}

/** Drops the oldest held events that no endpoint needs any more (at most TRIM_MAX read). */
export function trimHeld(ctx: Ctx, game: GameState): void {
    const gameId = game.record.gameId;
    const { heldFrom: start = 0, heldTo: to = 0 } = statsOf(ctx, gameId);
    let from = start;
    for (let read = 0; from < to && read < TRIM_MAX; read++) {
        const event = ctx.store.events.get(heldKey(gameId, from));
        if (event !== undefined && event.gameId === gameId && needing(ctx, game, event).length > 0) break;
        ctx.store.events.delete(heldKey(gameId, from));
        from++;
    }
    if (from !== start) updateStats(ctx, gameId, (s) => ({ ...s, heldFrom: from }));
}

/**
 * Up to `limit` held events after seq `after`, in order, and the seq read up to: `end` (the seq
 * before the log's oldest) when nothing more is held after them.
 */
export function heldPage(
    ctx: Ctx,
    gameId: string,
    after: number,
    limit: number,
    end: number,
): { events: GameEvent[]; next: number } {
    const { heldFrom: from = 0, heldTo: to = 0 } = statsOf(ctx, gameId);
    const seqAt = (position: number): number => ctx.store.events.get(heldKey(gameId, position))?.seq ?? -1;
    // Held events are in seq order: the first after `after` by bisection.
    let low = from;
    let high = to;
    while (low < high) {
        const middle = Math.floor((low + high) / 2);
        if (seqAt(middle) <= after) low = middle + 1;
        else high = middle;
    }
    const events: GameEvent[] = [];
    for (let position = low; position < to && events.length < limit; position++) {
        const event = ctx.store.events.get(heldKey(gameId, position));
        if (event !== undefined && event.gameId === gameId && event.seq > after && event.seq <= end)
            events.push(shown(event));
    }
    return { events, next: events.length === limit ? events[limit - 1]!.seq : Math.max(after, end) };
}

/** How many slots of the events map a game uses: its log's, and the held ring's after them once it held any. */
export function heldSlots(ctx: Ctx, gameId: string): number {
    const to = statsOf(ctx, gameId).heldTo ?? 0;
    return to === 0 ? 0 : Math.min(to, HELD_KEEP);
}
