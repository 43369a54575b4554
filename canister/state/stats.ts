// Game and platform counters (players, plays, submissions, today's submissions), read once
// per call and written back once.
import type { Ctx } from './context';
import type { Stats } from './records';

/** A game's counters ('*' for the platform), with `today` starting over each UTC day. */
export function statsOf(ctx: Ctx, key: string): Stats {
    const day = Math.floor(ctx.env.now() / 86_400_000_000) * 86_400_000;
    let stats = ctx.stats.get(key);
    if (stats === undefined) {
        stats = ctx.store.stats.get(key) ?? { players: 0, plays: 0, submissions: 0, today: 0, day };
        ctx.stats.set(key, stats);
    }
    return stats.day === day ? stats : { ...stats, today: 0, day };
}

export function updateStats(ctx: Ctx, key: string, change: (stats: Stats) => Stats): void {
    ctx.stats.set(key, change(statsOf(ctx, key)));
    ctx.dirtyStats.add(key);
}

/** Writes the counters changed since the last flush (each mutating call ends with this). */
export function flushStats(ctx: Ctx): void {
    for (const key of ctx.dirtyStats) ctx.store.stats.set(key, ctx.stats.get(key)!);
    ctx.dirtyStats.clear();
}
