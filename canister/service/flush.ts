// What calls keep in the heap between writes (counters, today's activity, slot chunks) and
// when it reaches the store. A trap rolls back the heap and stable memory of its message
// alike, and the heap lives on between messages, so counts may wait in the heap for the tick;
// an upgrade keeps only stable memory, so pre_upgrade writes everything first.
import { flushDaily } from './analytics';
import type { Ctx } from '../state/context';
import { flushSlots } from '../state/slots';
import { flushChangedStats, flushStats } from '../state/stats';

/**
 * The end of every mutating call: what must hold even through an upgrade that skips
 * pre_upgrade (a game's counters when a player was created or they changed otherwise, a new
 * player's slot and its holder; counts of submits alone wait for the tick).
 */
export function flushCallWrites(ctx: Ctx): void {
    flushChangedStats(ctx);
    // Most calls hand out no slot: no loop over an empty map (its iterator costs in the canister).
    if (ctx.slotChunks.size > 0) flushSlots(ctx);
}

/** The tick and pre_upgrade: everything, the platform's counts and today's activity included. */
export function flushAll(ctx: Ctx): void {
    flushStats(ctx);
    flushDaily(ctx);
    flushSlots(ctx);
}
