// Loading the heap tables at start and after an upgrade: from the pre-upgrade snapshot when
// there is a valid one, else rebuilt from the player records, in steps (a game's count of
// players and next default name first brought up to what its slot chunks say was handed out).
import type { Ctx } from './context';
import { emptyGameState, indexPlayer } from './game-state';
import { clearSnapshot, restoreSnapshot } from './snapshot';
import { handedOut, slotPlayers } from './slots';
import { changeStats, flushChangedStats, liveStats, statsOf } from './stats';
import { playerKey } from './store';
import { registerAuthType } from './tables';
import { loadLeagues } from './leagues';

/**
 * Loads every game: from the pre-upgrade snapshot when there is a valid one, else from the
 * records. Rebuilding from records costs ~1 M instructions per player, so at most
 * `rebuildNow` players are read here; the rest is left to `rebuildSome` (a timer), while
 * the service already answers (boards fill up as the rebuild goes).
 */
export function loadGames(ctx: Ctx, rebuildNow = Infinity): 'snapshot' | 'records' {
    ctx.games.clear();
    ctx.stats.clear();
    ctx.dirtyStats.clear();
    ctx.changedStats.clear();
    ctx.rebuilding.clear();
    for (const name of ctx.store.meta.get('authTypes') ?? []) registerAuthType(name);
    const records = ctx.store.games.first(ctx.store.games.size()).map(([, r]) => r);
    const restored = restoreSnapshot(ctx, records);
    // A snapshot is only good for the state it was taken from: drop it once used (or stale).
    clearSnapshot(ctx);
    if (restored) {
        for (const game of ctx.games.values()) loadLeagues(ctx, game);
        return 'snapshot';
    }
    for (const record of records) {
        catchUpCounters(ctx, record.gameId);
        const game = emptyGameState(record);
        ctx.games.set(record.gameId, game);
        ctx.rebuilding.set(record.gameId, 0);
        loadLeagues(ctx, game);
    }
    flushChangedStats(ctx);
    rebuildSome(ctx, rebuildNow);
    return 'records';
}

/**
 * A game's count of players and next default name as its slot chunks say (slots.ts handedOut):
 * both are written on the tick, so after an upgrade that skipped pre_upgrade the stored ones may
 * be behind what the last calls handed out (written back by the caller's flushChangedStats).
 */
function catchUpCounters(ctx: Ctx, gameId: string): void {
    const stored = liveStats(ctx, gameId);
    const done = handedOut(ctx, gameId, stored.players);
    const next = done.nextDefaultName;
    const nextBehind = next !== undefined && (stored.nextDefaultName === undefined || next > stored.nextDefaultName);
    if (done.players === stored.players && !nextBehind) return;
    const stats = changeStats(ctx, gameId);
    stats.players = done.players;
    if (nextBehind) stats.nextDefaultName = next;
}

/** Reads up to `maxPlayers` more player records into the heap tables; true when all are in. */
export function rebuildSome(ctx: Ctx, maxPlayers: number): boolean {
    let budget = maxPlayers;
    for (const [gameId, next] of ctx.rebuilding) {
        const game = ctx.games.get(gameId);
        const players = statsOf(ctx, gameId).players;
        const ids = slotPlayers(ctx, gameId, next, Math.min(budget, players - next));
        for (const playerId of ids) {
            const player = playerId === null ? undefined : ctx.store.players.get(playerKey(gameId, playerId));
            // Submits since the upgrade indexed their players already; indexing again is harmless.
            if (game !== undefined && player !== undefined) indexPlayer(game, player);
        }
        const slot = next + ids.length;
        budget -= ids.length;
        if (slot >= players || game === undefined) ctx.rebuilding.delete(gameId);
        else ctx.rebuilding.set(gameId, slot);
        if (budget === 0) break;
    }
    return ctx.rebuilding.size === 0;
}
