// The canister's interface: every method takes one JSON request and answers one JSON reply
// (Candid `text` in and out). The gateway imports these types; they are the contract between
// the two. Times are nanoseconds since the epoch; scores and streaks are integers < 2^53.

export type Period = 'allTime' | 'daily' | 'weekly' | 'monthly' | 'custom';
export type SortBy = 'score' | 'streak';

/** Why a call failed, with the HTTP status the gateway answers with. */
export interface ApiError {
    status: 400 | 401 | 403 | 404 | 409 | 429 | 503;
    message: string;
}

export type Result<T> = { ok: T } | { err: ApiError };

// ---- games and boards -------------------------------------------------------------------------

export interface TimeValidation {
    enabled: boolean;
    /** A play shorter than this is rejected (seconds). */
    minPlaySeconds: number;
    /** A score above elapsed seconds x this is rejected; 0 = no limit. */
    maxScorePerSecond: number;
    /** Play-session tokens expire after this (seconds). */
    sessionLifetimeSeconds: number;
}

export interface Caps {
    maxScore?: number;
    maxStreak?: number;
}

export interface BoardConfig {
    scoreboardId: string;
    name: string;
    description: string;
    period: Period;
    /** For custom boards: the period length in days (0 = never resets). */
    days?: number;
    sortBy: SortBy;
    targeted: boolean;
    isActive: boolean;
    createdAt: number;
}

/** A board as listed: its config plus the current period. */
export interface BoardSummary extends BoardConfig {
    entryCount: number;
    lastReset: number;
}

export interface GameConfig {
    gameId: string;
    name: string;
    description: string;
    developerId: string;
    isActive: boolean;
    createdAt: number;
    timeValidation: TimeValidation;
    caps: Caps;
}

/** What a gateway needs to authorize an API-key request. */
export interface KeyInfo {
    gameId: string;
    isActive: boolean;
}

// ---- requests ----------------------------------------------------------------------------------

/** Who a request acts for: an anonymous player id, or a signed-in account (later). */
export interface PlayerRef {
    gameId: string;
    playerId: string;
}

/** A player write: the canister checks the key against the game in the same call. */
export interface PlayerWrite extends PlayerRef {
    apiKey: string;
}

export interface SubmitRequest extends PlayerWrite {
    score: number;
    streak: number;
    /** Present only when the player just chose a name (rule N1). */
    nickname?: string;
    playSessionToken?: string;
    scoreboardId?: string;
}

export interface SubmitReply {
    message: string;
}

export interface AchievementRequest extends PlayerWrite {
    achievementIds: string[];
}

export interface AchievementReply {
    unlocked: number;
    total: number;
    results: Array<{ achievementId: string; success: boolean; message: string }>;
}

export interface NicknameReply {
    nickname: string;
    message: string;
}

export interface LeaderboardEntry {
    rank: number;
    nickname: string;
    score: number;
    streak: number;
    authType: string;
}

export interface BoardEntry extends LeaderboardEntry {
    submittedAt: number;
}

export interface Profile {
    nickname: string;
    created: number;
    gameProfile: {
        score: number;
        streak: number;
        achievements: string[];
        playCount: number;
        lastPlayed: number;
    };
}

/**
 * One suspicious (player, board) in the log: repeated rejections of the same player on the same
 * board are one entry with a count, moved to the front, so one player cannot flood the log.
 */
export interface SuspicionEntry {
    /** The latest rejection. */
    at: number;
    /** The first rejection this entry counts. */
    firstAt: number;
    count: number;
    playerId: string;
    scoreboardId?: string;
    /** Values and reason of the latest rejection. */
    score: number;
    streak: number;
    reason: string;
}
