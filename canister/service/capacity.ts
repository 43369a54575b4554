// A canister's capacity: its heap estimated from what its heap tables hold, the heap line past
// which it takes no new players and no new games (503 shardFull with Retry-After), its recent
// instruction use, and the status it reports to its directory and operators (shard_status).
import { MESSAGES } from '../../contract/messages';
import { DEFAULT_HEAP_LIMIT_BYTES, type Role, type ShardStatus } from '../../contract/shards';
import { Fail } from '../domain/fail';
import type { Ctx, GameState } from '../state/context';
import { statsOf } from '../state/stats';
import type { BoardTable } from '../state/tables';

/**
 * Where the line is, and why. Azle (0.33) gives JavaScript no wasm memory size (no
 * `ic0.stable_size`, no `memory.size`: checked in node_modules/azle), so the heap is estimated
 * from what the heap tables hold: their typed arrays' bytes (capacity, not just entries: arrays
 * grow by half), times the allocator's and the collector's share, plus a fixed cost per game and
 * the runtime's own. The figures below were measured in the local replica, whose
 * `canister_status` reports the wasm heap as the IC does (test/gateway/shard-full.test.ts checks
 * the estimate against it; bench/README.md "Memory per player": 481-514 B of heap per player).
 *
 * The line, DEFAULT_HEAP_LIMIT_BYTES = 3 GiB of the 4 GiB wasm32 heap, leaves 1 GiB for what the
 * estimate does not count: garbage the collector has not reclaimed yet and memory the allocator
 * cannot hand back (a grown array's old copy), a query's or a render's temporary objects (a
 * top-1000 page, a CSV export page), the direct reads' rendered answers (bounded per watched
 * path), and the upgrade: pre_upgrade copies one table's arrays at a time (players, or one
 * board's entries and slot map, ~60 B a player; a rank index's snapshot is a view, no copy:
 * state/snapshot.ts) before writing them to stable memory, ~12 % of a game's heap at most;
 * post_upgrade reads them back one table at a time into a fresh heap.
 * A canister at the line still has ~1 GiB for those, a third of what it holds.
 */
/**
 * Measured in the local replica (test/bench/heap-estimate.ts; wasm heap as canister_status reports
 * it, estimate with these figures): an empty canister 7.0 MiB (12.7 MiB before the UTF-8-only
 * text polyfill: docs/costs.md "Installing and upgrading"); 200 empty games of 3 boards +57.6 MiB
 * (295 KiB a game: its 4 rank indexes start with room for 1,395 entries, 67 KiB each); one game
 * from 10,000 to 100,000 players +39.5 MiB (460 B a player; bench/README.md: 514 B at 1,000,000).
 * The estimate then: 7.0 MiB, +60.8 MiB (1.06x), +41.6 MiB (485 B a player, 1.05x): a little
 * high, on the safe side.
 */
/** The runtime's heap before any game: Azle, QuickJS and the bundled service. */
export const BASE_HEAP_BYTES = 7 * 1024 ** 2;
/** A game beyond its tables' arrays: its record, maps and the objects around them. */
export const GAME_HEAP_BYTES = 8 * 1024;
/** Heap per byte of table arrays: the allocator's headers and the old copies of grown arrays. */
export const TABLE_OVERHEAD = 1.15;
/** An entry's metadata (JSON text kept in a Map by entry id): measured 104 B for 64 B of metadata. */
const METADATA_ENTRY_BYTES = 128;
/**
 * A player created since the last full estimate counts this much until the next one (more than
 * the ~514 B a player of 3 boards takes: the estimate errs on the safe side between recounts).
 */
export const NEW_PLAYER_GUESS_BYTES = 1024;
/** An empty game of 3 boards (~330 KiB by the figures above), rounded up. */
const NEW_GAME_GUESS_BYTES = 512 * 1024;
/** A full estimate walks every game's tables: at most once a minute, or after this many new players. */
const RECOUNT_US = 60e6;
const RECOUNT_PLAYERS = 1000;

/** A refused new player or game: try again in an hour (an operator moves games or raises the line). */
export const SHARD_FULL_RETRY_AFTER_SECONDS = 3600;

/**
 * Stable memory: the IC's stable size is not reachable from Azle either, so it is estimated from
 * the records kept: ~445 B per player (their record, their share of a 16-slot chunk and of the
 * name map: bench/README.md, at 1,000,000), ~300 B per other record (a B-tree entry of ~150-250
 * B of JSON in half-full 1 KiB pages), over what an empty canister holds: the memory manager's
 * first 8 MiB bucket of each stable map the store opens, plus the 64 MiB of Azle's own file
 * system (memory 254); measured in the replica: 432.1 MiB for the 46 maps of this release.
 */
const STABLE_PER_PLAYER = 445;
const STABLE_PER_RECORD = 300;
const STABLE_BUCKET_BYTES = 8 * 1024 ** 2;
const STABLE_RUNTIME_BYTES = 64 * 1024 ** 2;

/** The heap line in force (bytes). */
export function heapLimit(ctx: Ctx): number {
    return ctx.store.meta.get('heapLimitBytes') ?? DEFAULT_HEAP_LIMIT_BYTES;
}

/** Sets the heap line (init argument or admin_set_heap_limit): a non-negative integer of bytes. */
export function setHeapLimit(ctx: Ctx, value: unknown): { heapLimitBytes: number } {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
        throw new Fail(400, 'Invalid heapLimitBytes: must be a non-negative integer of bytes');
    ctx.store.meta.set('heapLimitBytes', value);
    ctx.room.limit = value;
    return { heapLimitBytes: value };
}

function boardBytes(t: BoardTable): number {
    return (
        t.bySlot.cells.byteLength +
        t.slot.byteLength +
        t.score.byteLength +
        t.streak.byteLength +
        t.submittedAt.byteLength +
        (t.byScore?.bytes() ?? 0) +
        (t.byStreak?.bytes() ?? 0)
    );
}

/** The heap a game's tables hold (bytes), by the measured model above. */
export function gameHeapBytes(game: GameState): number {
    const p = game.players;
    let arrays = p.nick.byteLength + p.nickLen.byteLength + p.auth.byteLength + boardBytes(game.global);
    let metadata = game.global.metadata?.size ?? 0;
    for (const table of game.boards.values()) {
        arrays += boardBytes(table);
        metadata += table.metadata?.size ?? 0;
    }
    return GAME_HEAP_BYTES + Math.round(arrays * TABLE_OVERHEAD) + metadata * METADATA_ENTRY_BYTES;
}

/**
 * A full estimate of the heap in use (walks every game's tables: ~0.1 M instructions a game).
 * Players not read back yet after an upgrade without a snapshot count at the guess.
 */
function countHeap(ctx: Ctx): number {
    let bytes = BASE_HEAP_BYTES;
    for (const game of ctx.games.values()) bytes += gameHeapBytes(game);
    for (const [gameId, next] of ctx.rebuilding)
        bytes += Math.max(0, statsOf(ctx, gameId).players - next) * NEW_PLAYER_GUESS_BYTES;
    return bytes;
}

/** The estimated heap in use (bytes): the last full estimate, recounted when it is old. */
export function heapBytes(ctx: Ctx): number {
    const room = ctx.room;
    const now = ctx.env.now();
    if (room.heapBytes < 0 || now - room.at >= RECOUNT_US || room.added >= RECOUNT_PLAYERS) {
        room.heapBytes = countHeap(ctx);
        room.at = now;
        room.added = 0;
    }
    return room.heapBytes + room.added * NEW_PLAYER_GUESS_BYTES;
}

/** Counts a player just created (players.ts createPlayer): the estimate grows by a guess until recounted. */
export function playerAdded(ctx: Ctx): void {
    ctx.room.added++;
}

/** Forgets the last full estimate (a game added or removed changes it by more than a guess). */
export function recount(ctx: Ctx): void {
    ctx.room.heapBytes = -1;
}

/** Past the line: the estimate (recounted when old) against the line (a stored value, read once). */
function full(ctx: Ctx, extra: number): boolean {
    const room = ctx.room;
    if (room.limit < 0) room.limit = heapLimit(ctx);
    return heapBytes(ctx) + extra > room.limit;
}

const refused = (): Fail => new Fail(503, MESSAGES.shardFull, { retryAfter: SHARD_FULL_RETRY_AFTER_SECONDS });

/**
 * Call before anything changes on a path that creates a player: 503 shardFull (Retry-After an
 * hour) when the new player would take the heap past the line. Existing players never meet it.
 */
export function assertRoomForNewPlayer(ctx: Ctx): void {
    if (full(ctx, NEW_PLAYER_GUESS_BYTES)) throw refused();
}

/** Call before registering a game here: 503 when an empty game would take the heap past the line. */
export function assertRoomForNewGame(ctx: Ctx): void {
    if (full(ctx, NEW_GAME_GUESS_BYTES))
        throw new Fail(
            503,
            'This canister is full and takes no new games: register the game again later (the directory places it elsewhere).',
            { retryAfter: SHARD_FULL_RETRY_AFTER_SECONDS },
        );
}

// ---- instructions per minute: a ring of one-minute cells ------------------------------------------

/** Adds what an update or timer spent (its performance counter at its end). */
export function noteInstructions(ctx: Ctx, instructions: number): void {
    const { minutes, instructions: spent } = ctx.room;
    const minute = Math.floor(ctx.env.now() / 60e6);
    const i = minute % minutes.length;
    if (minutes[i] !== minute) {
        minutes[i] = minute;
        spent[i] = 0;
    }
    spent[i] += instructions;
}

/** Instructions per minute over the ring's minutes (the current one included). */
export function instructionsPerMinute(ctx: Ctx): number {
    const { minutes, instructions: spent } = ctx.room;
    const minute = Math.floor(ctx.env.now() / 60e6);
    let sum = 0;
    for (let i = 0; i < minutes.length; i++) if (minutes[i] > minute - minutes.length) sum += spent[i];
    return Math.round(sum / minutes.length);
}

/** Estimated stable memory in use (bytes), from the records kept. */
export function stableBytes(ctx: Ctx): number {
    const s = ctx.store;
    const maps = Object.values(s) as Array<{ size?: () => number }>;
    let players = 0;
    for (const game of ctx.games.values()) players += game.players.count;
    let records = 0;
    for (const map of maps) if (map !== s.players && typeof map.size === 'function') records += map.size();
    const empty = STABLE_RUNTIME_BYTES + maps.length * STABLE_BUCKET_BYTES;
    return empty + players * STABLE_PER_PLAYER + records * STABLE_PER_RECORD;
}

/**
 * What the canister tells its directory and operators about its room (shard_status): the heap
 * as the checks see it (new players since the last recount at their guess), so `full` is what
 * the next new player meets.
 */
export function shardStatus(ctx: Ctx, canisterId: string, role: Role): ShardStatus {
    let players = 0;
    for (const game of ctx.games.values()) players += game.players.count;
    const heap = heapBytes(ctx);
    const limit = heapLimit(ctx);
    return {
        canisterId,
        role,
        games: ctx.games.size,
        players,
        heapBytes: heap,
        heapLimitBytes: limit,
        stableBytes: stableBytes(ctx),
        instructionsPerMinute: instructionsPerMinute(ctx),
        full: heap + NEW_PLAYER_GUESS_BYTES > limit,
    };
}
