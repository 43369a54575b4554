// The nickname map: who holds each chosen name, keyed by its skeleton (nameKey: case and
// look-alike characters folded), so that look-alike names are one name. Stores of older
// releases keep their names under lower-cased keys (`legacyNicknames`); rekeySome moves them
// to skeleton keys in bounded steps (timers, after the upgrade), and until it is done a name is
// looked up under both keys (and under its skeleton spelled as a legacy key).
import { legacyNameKey, nameKey } from '../domain/nicknames';
import type { Ctx } from './context';

/** The owner (`<gameId>/<playerId>`) of a chosen name or of one that looks like it, if any. */
export function nameHolder(ctx: Ctx, nickname: string): string | undefined {
    const key = nameKey(nickname);
    const holder = ctx.store.nicknames.get(key);
    if (holder !== undefined || ctx.store.legacyNicknames.size() === 0) return holder;
    return ctx.store.legacyNicknames.get(legacyNameKey(nickname)) ?? ctx.store.legacyNicknames.get(key);
}

export function holdName(ctx: Ctx, nickname: string, owner: string): void {
    ctx.store.nicknames.set(nameKey(nickname), owner);
}

/** Frees a name its owner held (never one another player holds under the same key). */
export function releaseName(ctx: Ctx, nickname: string, owner: string): void {
    const key = nameKey(nickname);
    if (ctx.store.nicknames.get(key) === owner) ctx.store.nicknames.delete(key);
    if (ctx.store.legacyNicknames.size() === 0) return;
    const legacy = legacyNameKey(nickname);
    if (ctx.store.legacyNicknames.get(legacy) === owner) ctx.store.legacyNicknames.delete(legacy);
}

/**
 * Moves up to `budget` names of an older release to their skeleton keys; true when none is
 * left. Two old names of one skeleton (`Alice` and `AIice`, both taken before): the first moved
 * keeps the key, both players keep their names, and new look-alikes of them are refused.
 */
export function rekeySome(ctx: Ctx, budget: number): boolean {
    for (let left = budget; left > 0;) {
        // The first entries, a bounded number at a time: each moved entry leaves the legacy map.
        const batch = ctx.store.legacyNicknames.first(Math.min(left, REKEY_BATCH));
        if (batch.length === 0) break;
        for (const [legacy, owner] of batch) {
            const key = nameKey(legacy);
            if (ctx.store.nicknames.get(key) === undefined) ctx.store.nicknames.set(key, owner);
            ctx.store.legacyNicknames.delete(legacy);
        }
        left -= batch.length;
    }
    return ctx.store.legacyNicknames.size() === 0;
}

const REKEY_BATCH = 1_000;
