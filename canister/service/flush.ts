// What calls keep in the heap between writes (counters, today's activity, slot chunks),
// written to the store: once at the end of every mutating call and before an upgrade.
import { flushDaily } from './analytics';
import type { Ctx } from '../state/context';
import { flushSlots } from '../state/slots';
import { flushStats } from '../state/stats';

export function flushCallWrites(ctx: Ctx): void {
    flushStats(ctx);
    flushDaily(ctx);
    flushSlots(ctx);
}
