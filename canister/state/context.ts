// What every service function works on: the stable store (the truth), the clock and
// randomness, and the heap tables of every game; one constructor for the canister and tests.
import type { RegisteredAccount } from '../../contract/canister';
import type { DailyRecord, Stats } from './records';
import type { GameRecord } from './records';
import type { SlotChunk, Store } from './store';
import type { BoardTable, PlayerTable } from './tables';
import type { LeagueState } from './leagues';

export interface Env {
    /** Current time, µs since the epoch (exact in a double; replies show ns). */
    now(): number;
    /** Random bytes from a CSPRNG (seeded by the IC's raw_rand in the canister). */
    random(n: number): Uint8Array;
}

/** A game with its heap tables. */
export interface GameState {
    record: GameRecord;
    players: PlayerTable;
    /** Profile bests: the all-time board and the global leaderboard (ranked by score and by streak). */
    global: BoardTable;
    /** Every other board's current period. */
    boards: Map<string, BoardTable>;
    /** When each board's current period ends (µs), so the rollover check is one comparison. */
    periodEnds: Map<string, number>;
    /** Slots of retired players: merged into another slot, or -1 when removed (archives still name them). */
    retired: Map<number, number>;
    /** League boards' state, by board id (state/leagues.ts). */
    leagues: Map<string, LeagueState>;
}

export interface Ctx {
    store: Store;
    env: Env;
    games: Map<string, GameState>;
    /** Counters, read once from the store; kept here and written by state/stats.ts's flushes. */
    stats: Map<string, Stats>;
    /** Counters not written since they changed (written on the tick and before an upgrade). */
    dirtyStats: Set<string>;
    /** Of those, the ones written at the end of the call (all but the platform's counts of submits). */
    changedStats: Set<string>;
    /** Today's activity per game (analytics), read once and written on the tick like the counters. */
    daily: Map<string, DailyRecord>;
    dirtyDaily: Set<string>;
    /** Slot chunks changed in this call, written back by flushSlots (slots.ts). */
    slotChunks: Map<string, SlotChunk>;
    /**
     * Each game's last chunk written (key and ids), kept after the call: the next new player's
     * slot is most often in it, and needs no read of the stored chunk (~190 K instructions).
     */
    slotTails: Map<string, { key: string; ids: SlotChunk }>;
    /** Games whose heap tables are still being rebuilt from records: the next slot to read. */
    rebuilding: Map<string, number>;
    // ---- move part ----
    /** Games whose writes are paused while they move out (service/move/; from meta `moveOut`). */
    moving: Set<string>;
    /** Games that moved away -> the canister that holds them now (meta `movedGames`). */
    movedTo: Map<string, string>;
    /**
     * On a shard, during one call from its directory: the developer the directory vouches for
     * (it checked the dashboard session). Set only by the canister's entry, never from a request
     * of any other caller.
     */
    actingDeveloper?: string;
    /**
     * On a shard, while a sign-in runs again after asking its directory (identities part): the
     * registry's account of the identity (key `issuer\nsubject`), used when none is here yet.
     */
    registered?: { key: string; account: RegisteredAccount };
    /** This canister is a shard (meta `role`, read once at start): its identities come from its directory. */
    isShard?: boolean;
    /** The heap estimate and the recent instruction use (service/capacity.ts): heap only. */
    room: Room;
    /**
     * No name of an older release waits for its per-game key (set by names.ts rekeySome once the
     * old maps are empty; they never fill again): name lookups skip them, not even asking their size.
     */
    namesRekeyed: boolean;
}

/** What service/capacity.ts keeps between calls (heap only: an upgrade starts it over). */
export interface Room {
    /** The last full heap estimate (bytes; -1: none yet) and when it was made (µs). */
    heapBytes: number;
    at: number;
    /** The heap line (bytes; -1: not read yet): a stored value, not read again per new player. */
    limit: number;
    /** Players created since that estimate (each counted at a guess until the next one). */
    added: number;
    /** Instructions of updates and timers, a ring cell per minute (the last 5): the minute (since the epoch) of each cell. */
    minutes: Float64Array;
    instructions: Float64Array;
}

/** A context over a store with nothing in the heap yet (the canister loads its games at start). */
export function newCtx(store: Store, env: Env): Ctx {
    return {
        store,
        env,
        games: new Map(),
        stats: new Map(),
        dirtyStats: new Set(),
        changedStats: new Set(),
        daily: new Map(),
        dirtyDaily: new Set(),
        slotChunks: new Map(),
        slotTails: new Map(),
        rebuilding: new Map(),
        room: {
            heapBytes: -1,
            at: 0,
            limit: -1,
            added: 0,
            minutes: new Float64Array(5),
            instructions: new Float64Array(5),
        },
        namesRekeyed: false,
        moving: new Set(),
        movedTo: new Map(),
    };
}

/**
 * A request as it arrives: JSON from any caller (anyone can call the canister), so every field
 * is checked before use. `T` names the fields the contract gives it.
 */
export type Untrusted<T> = { readonly [K in KeysOfUnion<T>]?: unknown };

/** Every key of every member of a union (keyof a union has only the common ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T : never;
