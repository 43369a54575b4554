// Which player holds each slot of a game, SLOTS_PER_CHUNK slots to a stored value: an entry
// per player cost ~190 bytes of stable memory (a B-tree entry in a half-full 1 KiB page).
// The chunks a call changes stay in the heap until flushSlots writes each once (each mutating
// call ends with it), so a batch of new players rewrites a chunk once, not once per player;
// a call that creates one player rewrites its chunk: +0.4 M instructions at 16 slots a chunk,
// +1.0 M at 64, for no measurable difference in memory. Each game's last chunk written stays in
// the heap (`slotTails`): a game's next player most often goes to it, and it is not read again.
// A chunk written by this release carries its game's next default-name number after its slots:
// a game's count of players and that number are written on the tick (stats.ts), and after an
// upgrade that skipped pre_upgrade the chunks tell what was handed out since (handedOut).
// Slots written one entry each (before chunks) are still read: `store.slots`, as a fallback.
import type { Ctx } from './context';
import type { SlotChunk } from './store';

export const SLOTS_PER_CHUNK = 16;

const chunkKey = (gameId: string, chunk: number): string => `${gameId}/${chunk}`;

/**
 * The player ids of a chunk's slots (null: not handed out, or written one entry each), then
 * perhaps the next default-name number (never read as a slot: a slot's index is below SLOTS_PER_CHUNK).
 */
function chunkOf(ctx: Ctx, gameId: string, chunk: number): SlotChunk {
    const key = chunkKey(gameId, chunk);
    const changed = ctx.slotChunks.get(key);
    if (changed !== undefined) return changed;
    const tail = ctx.slotTails.get(gameId);
    if (tail !== undefined && tail.key === key) return tail.ids;
    return ctx.store.slotChunks.get(key) ?? [];
}

/** The player who holds `slot`, if it was handed out. */
export function slotPlayer(ctx: Ctx, gameId: string, slot: number): string | undefined {
    return slotPlayers(ctx, gameId, slot, 1)[0] ?? undefined;
}

/** The holders of `count` slots from `first` on, in slot order (null where none), reading each chunk once. */
export function slotPlayers(ctx: Ctx, gameId: string, first: number, count: number): Array<string | null> {
    const out: Array<string | null> = [];
    let chunk: SlotChunk = [];
    for (let slot = first; slot < first + count; slot++) {
        const at = slot % SLOTS_PER_CHUNK;
        if (slot === first || at === 0) chunk = chunkOf(ctx, gameId, Math.floor(slot / SLOTS_PER_CHUNK));
        out.push((chunk[at] as string | null | undefined) ?? ctx.store.slots.get(`${gameId}/${slot}`) ?? null);
    }
    return out;
}

/** Hands `slot` to `playerId` (written by the next flushSlots). */
export function setSlot(ctx: Ctx, gameId: string, slot: number, playerId: string): void {
    const chunk = Math.floor(slot / SLOTS_PER_CHUNK);
    const ids = chunkOf(ctx, gameId, chunk); // decoded afresh, this call's copy, or the game's last written
    while (ids.length < slot % SLOTS_PER_CHUNK) ids.push(null);
    ids[slot % SLOTS_PER_CHUNK] = playerId;
    ctx.slotChunks.set(chunkKey(gameId, chunk), ids);
}

/**
 * Forgets slots `first` to `end` (exclusive) of a deleted game of `players` slots: their old
 * entries, and each chunk once its last slot is passed.
 */
export function dropSlots(ctx: Ctx, gameId: string, first: number, end: number, players: number): void {
    ctx.slotTails.delete(gameId);
    for (let slot = first; slot < end; slot++) {
        ctx.store.slots.delete(`${gameId}/${slot}`);
        if (slot % SLOTS_PER_CHUNK === SLOTS_PER_CHUNK - 1 || slot === players - 1) {
            const key = chunkKey(gameId, Math.floor(slot / SLOTS_PER_CHUNK));
            ctx.slotChunks.delete(key);
            ctx.store.slotChunks.delete(key);
        }
    }
}

/**
 * Writes the chunks changed since the last flush, each with its game's next default-name number
 * after its slots; each game's last one stays in the heap.
 */
export function flushSlots(ctx: Ctx): void {
    for (const [key, ids] of ctx.slotChunks) {
        const gameId = key.slice(0, key.lastIndexOf('/'));
        const next = ctx.stats.get(gameId)?.nextDefaultName;
        if (next !== undefined) {
            while (ids.length < SLOTS_PER_CHUNK) ids.push(null);
            ids[SLOTS_PER_CHUNK] = next;
        }
        ctx.store.slotChunks.set(key, ids);
        ctx.slotTails.set(gameId, { key, ids });
    }
    ctx.slotChunks.clear();
}

/**
 * What a game handed out up to its last call, by its chunks: the slots held from `players` (its
 * stored count, which may be behind after an upgrade that skipped pre_upgrade) on, and the
 * highest next default-name number the chunks from there on carry.
 */
export function handedOut(
    ctx: Ctx,
    gameId: string,
    players: number,
): { players: number; nextDefaultName: number | undefined } {
    let slot = players;
    let next: number | undefined;
    for (;;) {
        const chunk = ctx.store.slotChunks.get(chunkKey(gameId, Math.floor(slot / SLOTS_PER_CHUNK)));
        if (chunk === undefined) return { players: slot, nextDefaultName: next };
        const mark = chunk[SLOTS_PER_CHUNK];
        if (typeof mark === 'number' && (next === undefined || mark > next)) next = mark;
        do {
            if (typeof chunk[slot % SLOTS_PER_CHUNK] !== 'string') return { players: slot, nextDefaultName: next };
            slot++;
        } while (slot % SLOTS_PER_CHUNK !== 0);
    }
}
