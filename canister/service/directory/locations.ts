// Where each game lives, as callers ask it (locate_game, the shard list) and operators set it.
import type { GameView } from '../../../contract/canister';
import { MESSAGES } from '../../../contract/messages';
import { checkGameId, invalid } from '../../../contract/rules';
import type { GameLocation, ShardEntry } from '../../../contract/shards';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import { gameView } from '../games';
import { countGames, locationOf, readyShards, requireDirectory, roleOf } from './role';
import { isView } from './views';

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
            { canisterId: self, role, placing: role === 'directory' ? !shards.some((s) => s.ready !== false) : false },
            ...shards
                .filter((s) => s.ready !== false)
                .map((s) => ({
                    canisterId: s.canisterId,
                    role: 'shard' as const,
                    placing: !s.retired && !s.full,
                })),
        ],
    };
}

/** Where a game lives now (operators, after a move): one of the shards, or this directory. */
export function setLocation(
    ctx: Ctx,
    self: string,
    req: Untrusted<{ gameId: string; canisterId: string; view?: GameView }>,
): GameLocation {
    requireDirectory(ctx);
    const idError = checkGameId(req.gameId);
    if (idError) throw new Fail(400, idError);
    const gameId = req.gameId as string;
    const canisterId = req.canisterId;
    if (
        typeof canisterId !== 'string' ||
        (canisterId !== self && !readyShards(ctx).some((s) => s.canisterId === canisterId))
    )
        throw new Fail(400, invalid('canisterId', 'must be this directory or one of its shards'));
    if (canisterId === self) {
        if (!ctx.games.has(gameId)) throw new Fail(404, 'Game not found');
        const was = locationOf(ctx, gameId);
        if (was !== undefined) countGames(ctx, was, -1);
        ctx.store.locations.delete(gameId);
        ctx.store.remoteGames.delete(gameId);
    } else {
        const local = ctx.games.get(gameId)?.record;
        const was = locationOf(ctx, gameId);
        // A game new to the directory (restored from a backup onto a shard) comes with its view.
        const view = req.view;
        const restored = local === undefined && was === undefined && isView(view) && view.gameId === gameId;
        if (local === undefined && was === undefined && !restored) throw new Fail(404, 'Game not found');
        if (was !== undefined) countGames(ctx, was, -1);
        countGames(ctx, canisterId, +1);
        ctx.store.locations.set(gameId, canisterId);
        if (local !== undefined) ctx.store.remoteGames.set(gameId, { ...gameView(local), seenAt: ctx.env.now() });
        else if (restored) ctx.store.remoteGames.set(gameId, { ...(view as GameView), seenAt: ctx.env.now() });
    }
    return { gameId, canisterId };
}
