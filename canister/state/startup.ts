// Loading the heap tables at start and after an upgrade: from the pre-upgrade snapshot when
// there is a valid one, else rebuilt from the player records, in steps.
import type { Ctx } from './context';
import { emptyGameState, indexPlayer } from './game-state';
import { clearSnapshot, restoreSnapshot } from './snapshot';
import { slotPlayers } from './slots';
import { statsOf } from './stats';
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
        const game = emptyGameState(record);
        ctx.games.set(record.gameId, game);
        ctx.rebuilding.set(record.gameId, 0);
        loadLeagues(ctx, game);
    }
    rebuildSome(ctx, rebuildNow);
    return 'records';
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
