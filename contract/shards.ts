// Past one canister: the roles a canister runs in, where a game lives, what a shard reports
// about its room, and the shapes of the methods that place, find and move games.

/**
 * `directory`: places games, knows where each lives, holds what spans games (developers,
 * operators, gateways, player identities, allowances) and may hold games itself (a single
 * canister of an older release is a directory whose games are all its own).
 * `shard`: holds games only; created and controlled by its directory.
 */
export type Role = 'directory' | 'shard';

/**
 * The line past which a shard refuses new players and takes no new games (bytes of wasm heap,
 * estimated from what its heap tables hold). 3 GiB of the 4 GiB wasm32 heap: the rest is room
 * for QuickJS's garbage-collector growth, a query's temporary objects and the upgrade snapshot.
 */
export const DEFAULT_HEAP_LIMIT_BYTES = 3 * 1024 ** 3;

/** What a canister tells its directory and operators about its room (query `shard_status`). */
export interface ShardStatus {
    canisterId: string;
    role: Role;
    games: number;
    players: number;
    /** Estimated bytes of wasm heap in use. */
    heapBytes: number;
    heapLimitBytes: number;
    /** Bytes of stable memory in use. */
    stableBytes: number;
    /** Instructions spent by update calls and timers over the last minutes, per minute. */
    instructionsPerMinute: number;
    /** Past its heap line: new players of its games are refused, no game is placed on it. */
    full: boolean;
}

/** Where a game lives (directory query `locate_game`). */
export interface GameLocation {
    gameId: string;
    /** The canister (principal text) that holds the game. */
    canisterId: string;
}

/** One shard as the directory lists it (query `list_shards`): the directory itself comes first. */
export interface ShardEntry {
    canisterId: string;
    role: Role;
    /** Takes new games (not full, not retired by an operator). */
    placing: boolean;
}

/** A game's whole state moves in chunks of at most this many bytes (inside the 2 MiB message limit). */
export const MOVE_CHUNK_BYTES = 1024 * 1024;

/** While a game moves, its writes are answered 503 with this Retry-After (seconds). */
export const MOVE_RETRY_AFTER_SECONDS = 5;
