// Game and platform counters (players, plays, submissions, today's submissions), kept in the
// heap between calls. A game's counters are written at the end of every call that changed them
// otherwise than by counting submits or creating players (flushChangedStats). Counts of submits,
// the game's and the platform's ('*'), are written on the tick and before an upgrade
// (flushStats): one write fewer per call (~150 K instructions); an upgrade that skips
// pre_upgrade loses up to 30 s of them. So are a game's players and next default name, but those
// must hold even through such an upgrade (a slot or a default name handed out twice): the slot
// chunk a call creating players writes carries them (slots.ts), and the tables' rebuild after
// such an upgrade takes them back from there (startup.ts).
import type { Ctx } from './context';
import type { Stats } from './records';

const DAY_US = 86_400_000_000;

/** The UTC day (ms at 00:00) of a time in µs. */
const dayOf = (us: number): number => Math.floor(us / DAY_US) * 86_400_000;

/** The heap's counters of `key` (read from the store once), with `today` started over each UTC `day`. */
function live(ctx: Ctx, key: string, day: number): Stats {
    let stats = ctx.stats.get(key);
    if (stats === undefined) {
        stats = ctx.store.stats.get(key) ?? { players: 0, plays: 0, submissions: 0, today: 0, day };
        ctx.stats.set(key, stats);
    }
    if (stats.day !== day) {
        stats.today = 0;
        stats.day = day;
    }
    return stats;
}

/** A game's counters ('*' for the platform), with `today` starting over each UTC day. */
export function statsOf(ctx: Ctx, key: string): Stats {
    return { ...live(ctx, key, dayOf(ctx.env.now())) };
}

/** statsOf without its copy (~20 K instructions in the canister), to read and not to change. */
export function liveStats(ctx: Ctx, key: string): Readonly<Stats> {
    return live(ctx, key, dayOf(ctx.env.now()));
}

/**
 * The counters to change in place (written at the end of this call, as updateStats writes):
 * without updateStats' two copies (~40 K instructions), for the hot paths: recording an event,
 * catching up after an upgrade.
 */
export function changeStats(ctx: Ctx, key: string): Stats {
    // tickStats' two lines inline, with this one: a call costs ~1 K on these paths.
    ctx.dirtyStats.add(key);
    ctx.changedStats.add(key);
    return live(ctx, key, dayOf(ctx.env.now()));
}

/**
 * The counters to change in place, written on the tick: a new player's slot and default name,
 * whose durable copy is the slot chunk the same call writes (slots.ts flushSlots). One write
 * fewer per call that creates players (~175 K instructions).
 */
export function tickStats(ctx: Ctx, key: string): Stats {
    ctx.dirtyStats.add(key);
    return live(ctx, key, dayOf(ctx.env.now()));
}

/** Changes counters (written at the end of this call). */
export function updateStats(ctx: Ctx, key: string, change: (stats: Stats) => Stats): void {
    ctx.stats.set(key, change(statsOf(ctx, key)));
    ctx.dirtyStats.add(key);
    ctx.changedStats.add(key);
}

/** Counts an accepted submit: written on the tick (or at the end of a call that changed the counters otherwise). */
export function countSubmitStats(ctx: Ctx, gameId: string, play: boolean, now: number): void {
    const day = dayOf(now);
    const game = live(ctx, gameId, day);
    game.submissions += 1;
    game.today += 1;
    if (play) game.plays += 1;
    const platform = live(ctx, '*', day);
    platform.submissions += 1;
    platform.today += 1;
    ctx.dirtyStats.add(gameId);
    ctx.dirtyStats.add('*');
}

/** Writes the counters a call changed but by counting submits (each mutating call ends with this). */
export function flushChangedStats(ctx: Ctx): void {
    if (ctx.changedStats.size === 0) return;
    for (const key of ctx.changedStats) {
        ctx.store.stats.set(key, ctx.stats.get(key)!);
        ctx.dirtyStats.delete(key);
    }
    ctx.changedStats.clear();
}

/** Writes every counter changed since the last flush (the tick, and before an upgrade). */
export function flushStats(ctx: Ctx): void {
    for (const key of ctx.dirtyStats) ctx.store.stats.set(key, ctx.stats.get(key)!);
    ctx.dirtyStats.clear();
    ctx.changedStats.clear();
}

/** Forgets a game's counters, stored and in the heap. */
export function dropStats(ctx: Ctx, gameId: string): void {
    ctx.store.stats.delete(gameId);
    ctx.stats.delete(gameId);
    ctx.dirtyStats.delete(gameId);
    ctx.changedStats.delete(gameId);
}
