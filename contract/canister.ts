// The canister's interface: every method, who may call it, and the JSON it takes and answers
// (Candid `text` in and out; `canister/leaderboard.did` is generated from the canister and a
// test holds it to this table). The gateway's client is typed by method name from here.
import type { IDL } from '@dfinity/candid';

import type {
    AchievementReply,
    Archive,
    ArchiveList,
    Board,
    BoardList,
    BoardRank,
    GameInfo,
    GameStats,
    Leaderboard,
    Message,
    Nanoseconds,
    NicknameReply,
    Period,
    PlatformStats,
    PlayerRank,
    PlaySessionStarted,
    Profile,
    SortBy,
    SubmitReply,
} from './schemas';

/** Why a call failed, with the HTTP status the gateway answers with. */
export interface ApiError {
    status: Status;
    message: string;
}

export type Status = 400 | 401 | 403 | 404 | 409 | 429 | 503;

/** What every method answers (and each submit of a batch): `{ok}` or `{err}`. */
export type Result<T> = { ok: T } | { err: ApiError };

// ---- shapes of the developer side --------------------------------------------------------------------

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
}

/** A board as the developer methods show it. */
export interface BoardView extends BoardConfig {
    createdAt: Nanoseconds;
    /** Start of the period its entries belong to; 0 for boards that never reset. */
    periodStart: Nanoseconds | 0;
    /** Period starts of the kept archives, oldest first. */
    archives: Nanoseconds[];
    serial?: number;
}

export interface GameView {
    gameId: string;
    name: string;
    description: string;
    developerId: string;
    isActive: boolean;
    createdAt: Nanoseconds;
    timeValidation: TimeValidation;
    caps: Caps;
    apiKey: string;
    boards: BoardView[];
}

/** What a gateway needs to authorize an API-key read. */
export interface KeyInfo {
    gameId: string;
    isActive: boolean;
}

export interface DeveloperView {
    developerId: string;
    allowance: number;
    gameIds: string[];
}

/**
 * One suspicious (player, board) in the log: repeated rejections of the same player on the same
 * board are one entry with a count, moved to the front, so one player cannot flood the log.
 */
export interface SuspicionEntry<Time = Nanoseconds> {
    /** The latest rejection. */
    at: Time;
    /** The first rejection this entry counts. */
    firstAt: Time;
    count: number;
    playerId: string;
    scoreboardId?: string;
    /** Values and reason of the latest rejection. */
    score: number;
    streak: number;
    reason: string;
}

// ---- requests ----------------------------------------------------------------------------------------

/** A player write: the canister checks the key against the game in the same call. */
export interface PlayerWrite {
    apiKey: string;
    gameId: string;
    playerId: string;
}

export interface SubmitRequest extends PlayerWrite {
    score: number;
    streak: number;
    /** Present only when the player just chose a name (rule N1). */
    nickname?: string;
    playSessionToken?: string;
    scoreboardId?: string;
}

export interface CreateBoardRequest {
    gameId: string;
    scoreboardId: string;
    type: 'targeted' | 'monthly' | 'custom';
    name?: string;
    description?: string;
    /** custom boards: reset every N days (0 = never); targeted boards may also take a period. */
    days?: number;
    period?: Period;
    sortBy?: SortBy;
}

type GameRef = { gameId: string };
type BoardRef = GameRef & { boardId: string };

// ---- the methods ---------------------------------------------------------------------------------------

/** Who may call a method: anyone, registered gateways (and controllers), or controllers only. */
export type Access = 'public' | 'gateway' | 'controller';

/** Request and reply of every method (`{ok: reply}` on success). */
export interface Methods {
    // player writes (gateways)
    submit_scores: { request: { submits: SubmitRequest[] }; reply: Array<Result<SubmitReply>> };
    unlock_achievements: { request: PlayerWrite & { achievementIds: string[] }; reply: AchievementReply };
    set_nickname: { request: PlayerWrite & { nickname: string }; reply: NicknameReply };
    start_play_session: { request: PlayerWrite; reply: PlaySessionStarted };
    end_play_session: { request: { apiKey: string; gameId: string; playSessionToken: string }; reply: Message };
    resolve_key: { request: { apiKey: string }; reply: KeyInfo };
    // developers (dashboard, admin CLI)
    admin_register_game: {
        request: { developerId: string; gameId: string; name: string; description?: string };
        reply: { game: GameView; apiKey: string };
    };
    admin_update_game: {
        request: GameRef & { name?: string; description?: string; isActive?: boolean };
        reply: GameView;
    };
    admin_rotate_key: { request: GameRef; reply: { apiKey: string } };
    admin_set_time_validation: { request: GameRef & Partial<TimeValidation>; reply: TimeValidation };
    /** Fields left out stay; null clears a cap. */
    admin_set_caps: { request: GameRef & { maxScore?: number | null; maxStreak?: number | null }; reply: Caps };
    admin_create_board: { request: CreateBoardRequest; reply: BoardView };
    admin_update_board: {
        request: GameRef & { scoreboardId: string; name?: string; description?: string; isActive?: boolean };
        reply: BoardView;
    };
    admin_delete_board: { request: GameRef & { scoreboardId: string }; reply: null };
    admin_set_allowance: { request: { developerId: string; allowance: number }; reply: DeveloperView };
    admin_list_games: { request: { developerId?: string }; reply: GameView[] };
    admin_suspicion_log: { request: GameRef & { limit?: number }; reply: SuspicionEntry[] };
    admin_set_gateways: { request: { gateways: string[] }; reply: { gateways: string[] } };
    // public reads
    leaderboard: { request: GameRef & { sort?: SortBy; limit?: number }; reply: Leaderboard };
    list_boards: { request: GameRef; reply: BoardList };
    read_board: { request: BoardRef & { limit?: number }; reply: Board };
    board_rank: { request: BoardRef & { playerId: string }; reply: BoardRank };
    player_rank: { request: GameRef & { playerId: string; sort?: SortBy }; reply: PlayerRank };
    around: {
        request: BoardRef & { playerId: string; before?: number; after?: number };
        reply: { rank: number; entries: Board['entries'] };
    };
    list_archives: { request: BoardRef; reply: ArchiveList };
    read_archive: {
        request: GameRef & ({ boardId: string } | { archiveId: string }) & { limit?: number };
        reply: Archive;
    };
    profile: { request: GameRef & { playerId: string }; reply: Profile };
    game_info: { request: GameRef; reply: GameInfo };
    game_stats: { request: GameRef; reply: GameStats };
    platform_stats: { request: Record<string, never>; reply: PlatformStats };
}

export type Method = keyof Methods;
export type RequestOf<M extends Method> = Methods[M]['request'];
export type ReplyOf<M extends Method> = Methods[M]['reply'];

/** How each method runs and who may call it; the canister's entry points follow this table. */
export const METHODS = {
    submit_scores: { kind: 'update', access: 'gateway' },
    unlock_achievements: { kind: 'update', access: 'gateway' },
    set_nickname: { kind: 'update', access: 'gateway' },
    start_play_session: { kind: 'update', access: 'gateway' },
    end_play_session: { kind: 'update', access: 'gateway' },
    resolve_key: { kind: 'query', access: 'gateway' },
    admin_register_game: { kind: 'update', access: 'gateway' },
    admin_update_game: { kind: 'update', access: 'gateway' },
    admin_rotate_key: { kind: 'update', access: 'gateway' },
    admin_set_time_validation: { kind: 'update', access: 'gateway' },
    admin_set_caps: { kind: 'update', access: 'gateway' },
    admin_create_board: { kind: 'update', access: 'gateway' },
    admin_update_board: { kind: 'update', access: 'gateway' },
    admin_delete_board: { kind: 'update', access: 'gateway' },
    admin_set_allowance: { kind: 'update', access: 'gateway' },
    admin_list_games: { kind: 'query', access: 'gateway' },
    admin_suspicion_log: { kind: 'query', access: 'gateway' },
    admin_set_gateways: { kind: 'update', access: 'controller' },
    leaderboard: { kind: 'query', access: 'public' },
    list_boards: { kind: 'query', access: 'public' },
    read_board: { kind: 'query', access: 'public' },
    board_rank: { kind: 'query', access: 'public' },
    player_rank: { kind: 'query', access: 'public' },
    around: { kind: 'query', access: 'public' },
    list_archives: { kind: 'query', access: 'public' },
    read_archive: { kind: 'query', access: 'public' },
    profile: { kind: 'query', access: 'public' },
    game_info: { kind: 'query', access: 'public' },
    game_stats: { kind: 'query', access: 'public' },
    platform_stats: { kind: 'query', access: 'public' },
} as const satisfies Record<Method, { kind: 'update' | 'query'; access: Access }>;

export const isQuery = (method: Method): boolean => METHODS[method].kind === 'query';

/** The Candid interface the agent needs: every method is `(text) -> (text)`. */
export const idlFactory: IDL.InterfaceFactory = ({ IDL: I }) =>
    I.Service(
        Object.fromEntries(
            (Object.keys(METHODS) as Method[]).map((m) => [m, I.Func([I.Text], [I.Text], isQuery(m) ? ['query'] : [])]),
        ),
    );

/** The actor `idlFactory` gives: each method takes and returns JSON text. */
export type LeaderboardActor = Record<Method, (json: string) => Promise<string>>;

/** The init/upgrade argument: which principals may call the write methods (besides controllers). */
export interface InitConfig {
    gateways?: string[];
}
