// A game's event log: a ring of EVENTS_KEEP events in stable memory, numbered 1, 2, 3, ... (the
// count lives with the game's counters, written once per call), read in order from any seq. An
// event the ring drops while a webhook endpoint still needs it is held (held-events.ts).
import { EVENTS_KEEP, FEED_LIMIT, eventId, type EventKind } from '../../contract/event-log';
import type { EventPage, GameEvent, NewEvent } from '../../contract/events';
import { ns } from '../domain/json';
import type { Ctx, GameState } from '../state/context';
import { changeStats, liveStats } from '../state/stats';
import { anyBehind, heldSlots, holdDropped, shown, type StoredEvent } from './held-events';

/**
 * Who made an event happen, when not the game's developer or the service itself: a client (the
 * public API key or a player's session) or the game's server (its server key).
 */
export type EventCause = 'client' | 'server';

const ringKey = (gameId: string, seq: number): string => `${gameId}/${seq % EVENTS_KEEP}`;

/** The newest seq of the game's log (0: nothing recorded yet). */
export function latestSeq(ctx: Ctx, gameId: string): number {
    return liveStats(ctx, gameId).events ?? 0;
}

/**
 * Whether anyone can read the game's events of `kind`: its server key (the feed reads every
 * kind) or a webhook endpoint subscribed to it. Nothing else is recorded (nobody could ever read
 * it), so a game pays for its log only for what it reads; events from before are not kept.
 */
export function hasEventReader(game: GameState, kind: EventKind): boolean {
    if (game.record.serverKey !== undefined) return true;
    const webhooks = game.record.webhooks;
    if (webhooks === undefined) return false;
    for (const w of webhooks) if (w.kinds.includes(kind)) return true;
    return false;
}

/**
 * Appends an event (dropping the oldest once the ring is full: held if an endpoint still needs
 * it) when the game has a reader of its kind; returns it as readers will see it (undefined: not
 * recorded).
 */
export function recordEvent(ctx: Ctx, game: GameState, event: NewEvent, cause?: EventCause): GameEvent | undefined {
    if (!hasEventReader(game, event.kind)) return undefined;
    const gameId = game.record.gameId;
    const seq = latestSeq(ctx, gameId) + 1;
    const full = { id: eventId(gameId, seq), seq, gameId, at: ns(ctx.env.now()), ...event } as GameEvent;
    const key = ringKey(gameId, seq);
    const dropped = seq - EVENTS_KEEP;
    // Only while an endpoint lags a whole ring behind is the dropped event read (to hold it).
    if (dropped > 0 && anyBehind(ctx, game, dropped)) {
        const old = ctx.store.events.get(key) as StoredEvent | undefined;
        if (old !== undefined && old.seq === dropped && old.gameId === gameId) holdDropped(ctx, game, old);
    }
    ctx.store.events.set(key, cause === 'server' ? ({ ...full, _server: 1 } as StoredEvent) : full);
    changeStats(ctx, gameId).events = seq;
    return full;
}

/** How many slots of its ring a game with this newest seq has used (its slots are 0 to this, exclusive). */
export const ringSlots = (latest: number): number => Math.min(latest + 1, EVENTS_KEEP);

/** How many slots of the events map a game uses (0 to this, exclusive): its ring's, then its held events'. */
export function eventSlots(ctx: Ctx, gameId: string): number {
    const latest = latestSeq(ctx, gameId);
    const held = heldSlots(ctx, gameId);
    return latest === 0 ? 0 : held > 0 ? EVENTS_KEEP + held : ringSlots(latest);
}

/** Removes slots `from` to `end` (exclusive) of a deleted game's events (eventSlots). */
export function dropRingSlots(ctx: Ctx, gameId: string, from: number, end: number): void {
    for (let i = from; i < end; i++) ctx.store.events.delete(`${gameId}/${i}`);
}

/** The oldest seq still kept. */
export const oldestKept = (latest: number): number => Math.max(1, latest - EVENTS_KEEP + 1);

/**
 * Up to `limit` events after `after`, in order, and where to go on. A reader whose `after` fell
 * out of the ring gets `missed` (the seqs it can no longer read) and the oldest kept events.
 */
export function readEvents(ctx: Ctx, gameId: string, after: number, limit: number = FEED_LIMIT.default): EventPage {
    const latest = latestSeq(ctx, gameId);
    const oldest = oldestKept(latest);
    const from = Math.max(after + 1, oldest);
    const events: GameEvent[] = [];
    for (let seq = from; seq <= latest && events.length < limit; seq++) {
        const event = ctx.store.events.get(ringKey(gameId, seq));
        // A deleted game's id used again may find older events in its ring: only its own seqs count.
        if (event !== undefined && event.seq === seq && event.gameId === gameId) events.push(shown(event));
    }
    const page: EventPage = {
        events,
        next: events.length > 0 ? events[events.length - 1].seq : Math.max(after, from - 1),
        latest,
    };
    if (after + 1 < oldest && latest > 0) page.missed = { from: after + 1, to: oldest - 1 };
    return page;
}
