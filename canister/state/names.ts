// The nickname map: who holds each chosen name in its game, keyed `<gameId>/<skeleton>` (nameKey:
// case and look-alike characters folded), so that look-alikes are one name within a game, the
// same name may live in two games, and a game's names are the keys under `<gameId>/`. Stores of
// older releases keep names service-wide, under lower-cased keys (`legacyNicknames`) or skeleton
// keys (`skeletonNicknames`); rekeySome moves them to per-game keys in bounded steps (post_upgrade,
// then timers; init too, on an empty store, so that lookups stop asking), and until it is done a
// name is looked up there as well (a holder of another game does not count).
import { legacyNameKey, nameKey } from '../domain/nicknames';
import type { Ctx } from './context';

/** The key of a name in its game: `<gameId>/<skeleton>`. */
export function gameNameKey(gameId: string, nickname: string): string {
    return `${gameId}/${nameKey(nickname)}`;
}

/** The game of an owner `<gameId>/<playerId>` (game ids hold no `/`). */
function gameOf(owner: string): string {
    return owner.slice(0, owner.indexOf('/'));
}

/** Whether names of an older release wait to be moved to per-game keys. */
export function namesToRekey(ctx: Ctx): boolean {
    return !ctx.namesRekeyed && (ctx.store.skeletonNicknames.size() > 0 || ctx.store.legacyNicknames.size() > 0);
}

/** The owner (`<gameId>/<playerId>`) of a chosen name, or of one that looks like it, in the game. */
export function nameHolder(ctx: Ctx, gameId: string, nickname: string): string | undefined {
    const key = nameKey(nickname);
    const holder = ctx.store.nicknames.get(`${gameId}/${key}`);
    if (holder !== undefined || !namesToRekey(ctx)) return holder;
    const prefix = `${gameId}/`;
    const old = [
        ctx.store.skeletonNicknames.get(key),
        ctx.store.legacyNicknames.get(legacyNameKey(nickname)),
        ctx.store.legacyNicknames.get(key),
    ];
    return old.find((owner) => owner !== undefined && owner.startsWith(prefix));
}

export function holdName(ctx: Ctx, nickname: string, owner: string): void {
    ctx.store.nicknames.set(gameNameKey(gameOf(owner), nickname), owner);
}

/** Frees a name its owner held (never one another player holds under the same key). */
export function releaseName(ctx: Ctx, nickname: string, owner: string): void {
    const key = gameNameKey(gameOf(owner), nickname);
    if (ctx.store.nicknames.get(key) === owner) ctx.store.nicknames.delete(key);
    if (!namesToRekey(ctx)) return;
    const skeleton = nameKey(nickname);
    if (ctx.store.skeletonNicknames.get(skeleton) === owner) ctx.store.skeletonNicknames.delete(skeleton);
    const legacy = legacyNameKey(nickname);
    if (ctx.store.legacyNicknames.get(legacy) === owner) ctx.store.legacyNicknames.delete(legacy);
}

/**
 * Moves up to `budget` names of an older release to their per-game keys; true when none is
 * left. Two old names of one skeleton in one game (`Alice` and `AIice`, both taken before
 * look-alikes were compared): the first moved keeps the key, both players keep their names, and
 * new look-alikes of them are refused.
 */
export function rekeySome(ctx: Ctx, budget: number): boolean {
    let left = budget;
    for (const old of [ctx.store.skeletonNicknames, ctx.store.legacyNicknames]) {
        while (left > 0) {
            // The first entries, a bounded number at a time: each moved entry leaves the old map.
            const batch = old.first(Math.min(left, REKEY_BATCH));
            if (batch.length === 0) break;
            for (const [name, owner] of batch) {
                const key = gameNameKey(gameOf(owner), name);
                if (ctx.store.nicknames.get(key) === undefined) ctx.store.nicknames.set(key, owner);
                old.delete(name);
            }
            left -= batch.length;
        }
    }
    if (!namesToRekey(ctx)) ctx.namesRekeyed = true;
    return ctx.namesRekeyed;
}

const REKEY_BATCH = 1_000;
