// Which player holds each slot of a game, SLOTS_PER_CHUNK slots to a stored value: an entry
// per player cost ~190 bytes of stable memory (a B-tree entry in a half-full 1 KiB page).
// The chunks a call changes stay in the heap until flushSlots writes each once (each mutating
// call ends with it), so a batch of new players rewrites a chunk once, not once per player;
// a call that creates one player rewrites its chunk: +0.4 M instructions at 16 slots a chunk,
// +1.0 M at 64, for no measurable difference in memory. Slots written one entry each (before
// chunks) are still read: `store.slots`, as a fallback.
import type { Ctx } from './context';

export const SLOTS_PER_CHUNK = 16;

const chunkKey = (gameId: string, chunk: number): string => `${gameId}/${chunk}`;

/** The player ids of a chunk's slots (null: not handed out, or written one entry each). */
function chunkOf(ctx: Ctx, gameId: string, chunk: number): Array<string | null> {
    const key = chunkKey(gameId, chunk);
    return ctx.slotChunks.get(key) ?? ctx.store.slotChunks.get(key) ?? [];
}

/** The player who holds `slot`, if it was handed out. */
export function slotPlayer(ctx: Ctx, gameId: string, slot: number): string | undefined {
    return slotPlayers(ctx, gameId, slot, 1)[0] ?? undefined;
}

/** The holders of `count` slots from `first` on, in slot order (null where none), reading each chunk once. */
export function slotPlayers(ctx: Ctx, gameId: string, first: number, count: number): Array<string | null> {
    const out: Array<string | null> = [];
    let chunk: Array<string | null> = [];
    for (let slot = first; slot < first + count; slot++) {
        const at = slot % SLOTS_PER_CHUNK;
        if (slot === first || at === 0) chunk = chunkOf(ctx, gameId, Math.floor(slot / SLOTS_PER_CHUNK));
        out.push(chunk[at] ?? ctx.store.slots.get(`${gameId}/${slot}`) ?? null);
    }
    return out;
}

/** Hands `slot` to `playerId` (written by the next flushSlots). */
export function setSlot(ctx: Ctx, gameId: string, slot: number, playerId: string): void {
    const chunk = Math.floor(slot / SLOTS_PER_CHUNK);
    const ids = chunkOf(ctx, gameId, chunk); // decoded afresh, or already this call's copy
    while (ids.length < slot % SLOTS_PER_CHUNK) ids.push(null);
    ids[slot % SLOTS_PER_CHUNK] = playerId;
    ctx.slotChunks.set(chunkKey(gameId, chunk), ids);
}

/**
 * Forgets slots `first` to `end` (exclusive) of a deleted game of `players` slots: their old
 * entries, and each chunk once its last slot is passed.
 */
export function dropSlots(ctx: Ctx, gameId: string, first: number, end: number, players: number): void {
    for (let slot = first; slot < end; slot++) {
        ctx.store.slots.delete(`${gameId}/${slot}`);
        if (slot % SLOTS_PER_CHUNK === SLOTS_PER_CHUNK - 1 || slot === players - 1) {
            const key = chunkKey(gameId, Math.floor(slot / SLOTS_PER_CHUNK));
            ctx.slotChunks.delete(key);
            ctx.store.slotChunks.delete(key);
        }
    }
}

/** Writes the chunks changed since the last flush. */
export function flushSlots(ctx: Ctx): void {
    for (const [key, ids] of ctx.slotChunks) ctx.store.slotChunks.set(key, ids);
    ctx.slotChunks.clear();
}
