// What calls keep in the heap between writes (counters, today's activity, slot chunks),
// written to the store: once at the end of every mutating call and before an upgrade.
import { flushDaily } from './analytics';
import type { Ctx } from './context';
import { flushSlots } from './slots';
import { flushStats } from './stats';

export function flushCallWrites(ctx: Ctx): void {
    flushStats(ctx);
    flushDaily(ctx);
    flushSlots(ctx);
}
