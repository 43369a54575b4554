// The records kept in stable memory (the durable truth), as plain JSON-able data.
import type { BoardConfig, Caps, SuspicionEntry, TimeValidation } from '../../contract/canister';
import type { PlaySession } from '../domain/anti-cheat';
import type { Best } from '../domain/bests';
import type { LastSubmit } from '../domain/throttle';

/**
 * A map keyed by user input (board ids): an object without a prototype, so that ids such as
 * `__proto__`, `constructor` or `toString` are ordinary keys. Records read from stable memory
 * get theirs back from `revivePlayer`.
 */
export type Dict<V> = { [key: string]: V | undefined };

export function dict<V>(from?: { [key: string]: V | undefined }): Dict<V> {
    const out = Object.create(null) as Dict<V>;
    if (from !== undefined) for (const key of Object.keys(from)) out[key] = from[key];
    return out;
}

export interface BoardRecord extends BoardConfig {
    /** µs, like every time kept in the canister. */
    createdAt: number;
    /** Start (µs) of the period its entries belong to; 0 for boards that never reset. */
    periodStart: number;
    /** Period starts of the kept archives, oldest first. */
    archives: number[];
    /**
     * Which creation of this board id (unique in the game; absent = 0 for the standard boards
     * and boards made before serials): entries of a deleted board never count for a new one.
     */
    serial?: number;
}

export interface GameRecord {
    gameId: string;
    name: string;
    description: string;
    developerId: string;
    isActive: boolean;
    createdAt: number;
    timeValidation: TimeValidation;
    caps: Caps;
    apiKey: string;
    boards: BoardRecord[];
    /** Next sequence number of the suspicion log. */
    suspicionSeq: number;
    /** The last board serial handed out. */
    boardSerial?: number;
}

export interface DeveloperRecord {
    developerId: string;
    allowance: number;
    gameIds: string[];
}

/** One board entry of a player: the bests of one period. */
export interface EntryRecord extends Best {
    period: number;
    submittedAt: number;
    /** The serial of the board it was written to (absent = 0). */
    serial?: number;
}

export interface PlayerRecord {
    slot: number;
    nickname: string;
    /** True while the nickname is the assigned Player_<n> default. */
    defaultName: boolean;
    authType: string;
    created: number;
    /** Profile bests (fan-out submits only); also the all-time board. */
    best?: Best;
    bestAt?: number;
    playCount: number;
    lastPlayed: number;
    /** Entries on the other boards (timed fan-out boards and targeted boards), by board id. */
    boards: Dict<EntryRecord>;
    /**
     * Last accepted submit per board key ('*' = the fan-out boards), for the 2 s rate limit,
     * retries and repeat plays; kept for the play de-duplication window.
     */
    pace: Dict<LastSubmit>;
}

/** A player record as parsed from JSON, with its maps keyed by user input made safe. */
export function revivePlayer(parsed: PlayerRecord): PlayerRecord {
    // JSON.parse makes every key (`__proto__` too) an own property: dropping the prototype is
    // enough, and cheaper than copying the keys.
    Object.setPrototypeOf(parsed.boards, null);
    Object.setPrototypeOf(parsed.pace, null);
    return parsed;
}

/** Whether a player's entry belongs to this board's current period (and not to a deleted namesake). */
export function isCurrentEntry(entry: EntryRecord | undefined, board: BoardRecord): entry is EntryRecord {
    return entry !== undefined && entry.period === board.periodStart && (entry.serial ?? 0) === (board.serial ?? 0);
}

export interface ArchiveRecord {
    gameId: string;
    scoreboardId: string;
    name: string;
    period: BoardConfig['period'];
    sortBy: BoardConfig['sortBy'];
    periodStart: number;
    periodEnd: number;
    entryCount: number;
    /** Top entries in rank order (at most 1000: the most a read may ask for). */
    entries: Array<{ nickname: string; score: number; streak: number; authType: string; submittedAt: number }>;
}

export interface Stats {
    players: number;
    plays: number;
    submissions: number;
    today: number;
    /** The UTC day (ms at 00:00) `today` counts. */
    day: number;
}

/** A player's active play-session tokens with their expiry, for the per-player cap. */
/** Where a player's latest suspicion-log entry for one board key is, for pacing and aggregation. */
export interface SuspectRecord {
    seq: number;
    at: number;
}

export interface ActiveSessions {
    tokens: Array<{ token: string; expiresAt: number }>;
}

/** A suspicion-log entry as kept: times in µs. */
export type SuspicionRecord = SuspicionEntry<number>;

export type { PlaySession };
