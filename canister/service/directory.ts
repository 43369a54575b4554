// The directory's side of sharding: the canister's role, where each game lives (the game ->
// shard map), the shard list, and the answers gateways and direct reads route by.
import type { ShardEntry, GameLocation, Role } from '../../contract/shards';
import { MESSAGES } from '../../contract/messages';
import { Fail } from '../domain/fail';
import type { Ctx, Untrusted } from '../state/context';

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

/**
 * Where a game lives (public query). A directory: its own id for its own games, the shard's for
 * a placed one, 404 for an unknown game. A shard: its own id when it holds the game, else 404
 * with `moved` (ask the directory).
 */
export function locateGame(ctx: Ctx, self: string, req: Untrusted<{ gameId: string }>): GameLocation {
    const gameId = req.gameId;
    if (typeof gameId !== 'string') throw new Fail(400, 'Invalid gameId: must be a string');
    const elsewhere = roleOf(ctx) === 'directory' ? locationOf(ctx, gameId) : undefined;
    if (elsewhere !== undefined) return { gameId, canisterId: elsewhere };
    if (ctx.games.has(gameId)) return { gameId, canisterId: self };
    if (roleOf(ctx) === 'shard') throw new Fail(404, MESSAGES.gameMoved, { moved: true });
    throw new Fail(404, 'Game not found');
}

/**
 * The canisters that hold games: this one first (as its role), then its shards. The directory
 * places games only while it has no shard; a shard is placing unless retired or last seen full.
 */
export function listShards(ctx: Ctx, self: string): { shards: ShardEntry[] } {
    const role = roleOf(ctx);
    const shards = role === 'directory' ? (ctx.store.meta.get('shards') ?? []) : [];
    return {
        shards: [
            { canisterId: self, role, placing: role === 'directory' ? shards.length === 0 : false },
            ...shards.map((s) => ({
                canisterId: s.canisterId,
                role: 'shard' as const,
                placing: !s.retired && !s.full,
            })),
        ],
    };
}
