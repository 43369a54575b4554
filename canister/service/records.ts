// The records kept in stable memory (the durable truth), as plain JSON-able data.
import type { BoardConfig, GameConfig, SuspicionEntry } from '../api';
import type { PlaySession } from '../domain/anti-cheat';
import type { Best } from '../domain/bests';
import type { LastSubmit } from '../domain/throttle';

export interface BoardRecord extends BoardConfig {
    /** Start (ns) of the period its entries belong to; 0 for boards that never reset. */
    periodStart: number;
    /** Period starts of the kept archives, oldest first. */
    archives: number[];
}

export interface GameRecord extends GameConfig {
    apiKey: string;
    boards: BoardRecord[];
    /** Next sequence number of the suspicion log. */
    suspicionSeq: number;
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
    lastPlayAt?: number;
    /** Entries on the other boards (timed fan-out boards and targeted boards), by board id. */
    boards: Record<string, EntryRecord>;
    /** Last accepted submit per board key ('*' = the fan-out boards), for the 2 s rate limit. */
    pace: Record<string, LastSubmit>;
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
export interface ActiveSessions {
    tokens: Array<{ token: string; expiresAt: number }>;
}

export type { PlaySession, SuspicionEntry };
