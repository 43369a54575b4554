// The canister's role, and what a directory records of its shards and of where its games live.
import type { Role } from '../../../contract/shards';
import { Fail } from '../../domain/fail';
import type { Ctx } from '../../state/context';
import type { ShardRecord } from '../../state/records';

/** The canister's role: `directory` unless its init argument made it a shard. */
export function roleOf(ctx: Ctx): Role {
    return ctx.store.meta.get('role') ?? 'directory';
}

/**
 * The shard (principal text) that holds a game this canister does not: undefined when the game
 * is here or unknown. The map wins over a local copy: once an operator sets a moved game's
 * location, the directory sends its callers there even before the source removed its copy.
 */
export function locationOf(ctx: Ctx, gameId: string): string | undefined {
    return ctx.store.locations.get(gameId);
}

/** Refuses a directory's call on a shard. */
export function requireDirectory(ctx: Ctx): void {
    if (roleOf(ctx) !== 'directory') throw new Fail(400, 'This canister is a shard: ask its directory');
}

/** Records a shard (replacing its record), without its fields left undefined. */
export function saveShard(ctx: Ctx, shard: ShardRecord): void {
    const shards = ctx.store.meta.get('shards') ?? [];
    const at = shards.findIndex((s) => s.canisterId === shard.canisterId);
    const clean = Object.fromEntries(Object.entries(shard).filter(([, v]) => v !== undefined)) as ShardRecord;
    ctx.store.meta.set('shards', at < 0 ? [...shards, clean] : shards.map((s, i) => (i === at ? clean : s)));
}

/** Counts `by` more games placed on a shard (never below 0). */
export function countGames(ctx: Ctx, canisterId: string, by: number): void {
    const shard = (ctx.store.meta.get('shards') ?? []).find((s) => s.canisterId === canisterId);
    if (shard !== undefined) saveShard(ctx, { ...shard, games: Math.max(0, (shard.games ?? 0) + by) });
}

/** The shards that are installed (a creation that failed midway is not). */
export const readyShards = (ctx: Ctx): ShardRecord[] =>
    (ctx.store.meta.get('shards') ?? []).filter((s) => s.ready !== false);
