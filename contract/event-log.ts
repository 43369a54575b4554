// A game's event log in numbers, without zod (the canister imports these): the event kinds, how
// many events a game keeps, how much of a board events name, and the feed's paging and waiting.
import { invalid, type Parsed } from './rules';

/**
 * What the log records. `score_submitted` is recorded only for games that ask for it (the game
 * setting `everySubmitEvents`, or a webhook subscribed to it); the others always.
 */
export const EVENT_KINDS = [
    'new_leader',
    'overtaken',
    'period_closed',
    'submit_rejected',
    'player_banned',
    'player_wiped',
    'score_submitted',
    'entry_reported',
    'score_flagged',
    'score_reviewed',
    'score_held',
    'division_closed',
    'reward_granted',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The events a game keeps (a ring per game: the oldest is dropped first). */
export const EVENTS_KEEP = 10_000;
/**
 * Events a game keeps besides, for its webhook endpoints: one dropped from the log while an
 * endpoint that is not paused subscribes to its kind and has not received it yet is held until
 * every such endpoint has it. Past this many, the endpoints that needed it lose it (each one's
 * view counts what it lost).
 */
export const HELD_KEEP = 10_000;
/**
 * Of HELD_KEEP, how many the events of clients' submits (the public API key, players' sessions)
 * may take: the rest stays for the events of the game's moderators, its server and its periods.
 */
export const HELD_CLIENT_MAX = 9_000;
/**
 * `overtaken` events clients' submits may record in a game: a burst, refilled each minute (one
 * submit passes up to a board's eventTop players: a flood of new players with rising scores
 * would otherwise make ten events of each submit on every board). The server key's submits are
 * not counted.
 */
export const CLIENT_OVERTAKEN = { burst: 600, perMinute: 600 } as const;
/** How many of a board's top entries `overtaken` watches and `period_closed` lists, by default and at most. */
export const EVENT_TOP = { default: 10, max: 25 } as const;
/** A board's `eventTop` setting: an integer from 0 (no top events for the board) to EVENT_TOP.max. */
export function parseEventTop(value: unknown): Parsed<number> {
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= EVENT_TOP.max
        ? { ok: value }
        : { error: invalid('eventTop', `must be a whole number from 0 to ${EVENT_TOP.max}`) };
}

/** Events per feed read, by default and at most. */
export const FEED_LIMIT = { default: 100, max: 100 } as const;
/** Games one events_latest query asks about at most. */
export const FEED_HEADS_MAX = 100;
/** The longest a feed read waits for an event (`wait=` seconds). */
export const FEED_WAIT_MAX_SECONDS = 30;

/** An event's id: unique across games and the same on every delivery (for idempotency). */
export const eventId = (gameId: string, seq: number): string => `evt_${gameId}_${seq}`;
