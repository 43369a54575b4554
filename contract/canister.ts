// The canister's interface: every method, who may call it, and the JSON it takes and answers
// (Candid `text` in and out; `canister/leaderboard.did` is generated from the canister and a
// test holds it to this table). The gateway's client is typed by method name from here.
import type { IDL } from '@dfinity/candid';

import type { EventKind } from './event-log';
import type { DeliveryReport, Lease, WebhookView } from './webhooks';
import type { BoardOptions, Metadata, Operator, ScoreFormat, SortOrder, StandardBoards, Ties } from './board-options';

import type {
    AchievementReply,
    Archive,
    ArchiveList,
    Around,
    ArchiveStats,
    Board,
    BoardEntry,
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
    PlayerSet,
    PlaySessionStarted,
    Profile,
    SortBy,
    SubmitReply,
} from './schemas';
import type { BackupPage } from './backup';
import type { DirectoryTable, RestoredTable } from './service-backup';
import type { EventPage } from './events';
import type { CyclesStatus } from './cycles';
import type { GameLocation, ShardEntry, ShardStatus } from './shards';

/** Why a call failed, with the HTTP status the gateway answers with. */
export interface ApiError {
    status: Status;
    message: string;
    /** Seconds the caller should wait before trying again (the gateway's `Retry-After`). */
    retryAfter?: number;
    /** The game is not (or no longer) on this canister: ask the directory where it is and retry. */
    moved?: true;
}

export type Status = 400 | 401 | 403 | 404 | 409 | 410 | 428 | 429 | 503;

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
    /** A score below this is rejected (lowest-first boards: the best time a human can reach). */
    minScore?: number;
}

/** admin_set_caps / dev_set_caps: fields left out stay; null clears a cap. */
export type CapsUpdate = { [K in keyof Caps]?: number | null };

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
    /** Absent: the default of ./board-options.ts (what every board did before the options). */
    sortOrder?: SortOrder;
    operator?: Operator;
    ties?: Ties;
    format?: ScoreFormat;
    /** How many top entries its new_leader/overtaken/period_closed events watch (0: none); absent = EVENT_TOP.default. */
    eventTop?: number;
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
    /**
     * How the standard boards (all-time, weekly, daily) rank and keep scores; absent until set
     * (DEFAULT_STANDARD_BOARDS): games' views read as they did before the setting existed.
     */
    standardBoards?: StandardBoards;
    /** Record `score_submitted` for every accepted submit; absent until set (false). */
    everySubmitEvents?: boolean;
    boards: BoardView[];
    /** When the game's server key was made; absent while it has none. */
    serverKeyCreatedAt?: Nanoseconds;
    /** Scores and achievement unlocks from the server key only; absent until set. */
    serverOnly?: boolean;
    /** Server-key submits skip caps and time validation; absent until set. */
    serverSkipsChecks?: boolean;
}

/** What a gateway needs to authorize an API-key read. */
export interface KeyInfo {
    gameId: string;
    isActive: boolean;
}

export interface DeveloperView {
    developerId: string;
    /** Signed-in developers (dashboard); operator-made ones have none. */
    email?: string;
    allowance: number;
    gameIds: string[];
    /** A pending request for more game slots. */
    request?: { games: number; message: string; at: Nanoseconds };
}

/** A board entry as the game's developer sees it: with the player id (never public). */
export interface DeveloperEntry {
    rank: number;
    playerId: string;
    nickname: string;
    score: number;
    streak: number;
    authType: string;
    submittedAt: Nanoseconds;
    banned: boolean;
    /** The entry's metadata (absent when none). */
    metadata?: Metadata;
}

/**
 * The most entries one dev_export_board call returns. Measured: a page of 1,000 costs 0.44 B
 * instructions on a board of 5,000 and 0.53 B on one of 100,000 (each player id is a stable
 * memory read, ~0.4 M; the bench's "CSV export" row), about a tenth of a query's 5 B limit.
 */
export const EXPORT_PAGE_MAX = 1000;

/** A board entry as an export has it: with the player id (empty for archives written before slots). */
export type ExportEntry = BoardEntry & { playerId: string };

/**
 * A page of a board's current period (or of one archive) for its CSV export, from rank offset
 * `offset` on; `nextOffset` is where the next page starts (null: this was the last).
 */
export interface ExportPage {
    scoreboardId: string;
    /** The archive read; absent for the current period. */
    archiveId?: string;
    /** Start of the period the entries belong to (0 for boards that never reset): it changes when a period ends mid-export. */
    periodStart: Nanoseconds | 0;
    sortBy: SortBy;
    format: ScoreFormat;
    totalEntries: number;
    offset: number;
    entries: ExportEntry[];
    nextOffset: number | null;
}

/** What moderation did, for the game's developer. */
export interface ModerationEntry {
    at: Nanoseconds;
    action: 'remove-entry' | 'wipe-player' | 'ban' | 'unban';
    playerId: string;
    scoreboardId?: string;
    detail: string;
}

/** A game's activity per UTC day (kept for 90 days) and its players by provider. */
export interface Analytics {
    days: Array<{
        day: string;
        submissions: number;
        plays: number;
        activePlayers: number;
        newPlayers: number;
        returningPlayers: number;
    }>;
    providers: Array<{ provider: string; players: number }>;
    boards: Array<{ scoreboardId: string; submissions: number }>;
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

/**
 * Who a player write acts as, checked by the canister in the same call: an anonymous player
 * with the game's API key, a signed-in player by their session, or any player of the game
 * (an anonymous id, or an account's `@` id that exists there) with the game's server key.
 * Sessions and server keys travel as the SHA-256 of the token (hex): gateways hash, the
 * canister stores and compares only hashes.
 */
export type PlayerCredential =
    { apiKey: string; playerId: string } | { sessionHash: string } | { serverKeyHash: string; playerId: string };

/** A game setting: who may write scores, and what server writes skip. */
export interface ServerSettings {
    serverOnly?: boolean;
    serverSkipsChecks?: boolean;
}

export type PlayerWrite = { gameId: string } & PlayerCredential;

/** A person as an identity provider vouched for them (verified by the gateway). */
export interface Identity {
    issuer: string;
    subject: string;
    email: string;
    /** The provider's name: `authType` on boards (google, apple, or a configured name). */
    provider: string;
}

/** Device-code approval and direct sign-in answer (docs/sign-in.md). */
export interface Approval {
    sessionId: string;
    nickname: string;
    email: string;
    gameProfile: Profile['gameProfile'];
    isNewUser: boolean;
    provider: string;
}

/** A session as the gateway needs it for reads; `renewDue` asks for a renew_session call. */
export interface SessionInfo {
    playerId: string;
    provider: string;
    renewDue: boolean;
}

export type SubmitRequest = PlayerWrite & {
    score: number;
    streak: number;
    /** Present only when the player just chose a name (rule N1). */
    nickname?: string;
    playSessionToken?: string;
    scoreboardId?: string;
    /** Entry metadata (board-options.ts checkMetadata): kept with the entry this submit produces. */
    metadata?: Metadata;
};

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
    sortOrder?: SortOrder;
    operator?: Operator;
    ties?: Ties;
    format?: ScoreFormat;
    /** How many top entries its events watch (0-25; absent: 10). */
    eventTop?: number;
}

/**
 * What a board update may change besides its name: ties, format and eventTop always; order and
 * operator while it has no entries.
 */
export type BoardOptionsUpdate = Partial<BoardOptions> & { eventTop?: number };

type GameRef = { gameId: string };
type BoardRef = GameRef & { boardId: string };
type DevRef = { sessionHash: string };
type DevGame = DevRef & GameRef;

// ---- the methods ---------------------------------------------------------------------------------------

/**
 * Who may call a method: anyone; registered gateways (player and developer requests, each
 * carrying its own credential); operators (the admin CLI: allowances, approvals, any game);
 * or controllers only. Controllers may call everything of those. Between a directory and its
 * shards (identities part): `shard` only the directory's own shards (`meta.shards`), `directory`
 * only a shard's own directory (`meta.directory`): nobody else, controllers and operators included.
 */
/**
 * Who may call a method: anyone; registered gateways; operators; gateways or operators (what
 * both a gateway's metrics and the admin CLI read); controllers only; a directory's shards; a
 * shard's directory. Controllers pass every kind but the last two.
 */
export type Access = 'public' | 'gateway' | 'operator' | 'gatewayOrOperator' | 'controller' | 'shard' | 'directory';

/** Request and reply of every method (`{ok: reply}` on success). */
export interface Methods {
    // player writes (gateways)
    submit_scores: { request: { submits: SubmitRequest[] }; reply: Array<Result<SubmitReply>> };
    unlock_achievements: { request: PlayerWrite & { achievementIds: string[] }; reply: AchievementReply };
    set_nickname: { request: PlayerWrite & { nickname: string }; reply: NicknameReply };
    start_play_session: { request: PlayerWrite; reply: PlaySessionStarted };
    end_play_session: {
        request: GameRef &
            ({ apiKey: string } | { sessionHash: string } | { serverKeyHash: string }) & { playSessionToken: string };
        reply: Message;
    };
    resolve_key: { request: { apiKey: string }; reply: KeyInfo };
    /** The game of a server key (its SHA-256 hex); 401 MESSAGES.invalidServerKey for a wrong or absent one. */
    resolve_server_key: { request: GameRef & { serverKeyHash: string }; reply: KeyInfo };
    /** Events after `after` (default 0), up to `limit` (FEED_LIMIT), with the server key. */
    /**
     * The newest seq of several games' feeds at once (long polling: one query per poll for up to
     * FEED_HEADS_MAX waited-on games), each with its server key's hash; null where the key is
     * not (or no longer) the game's.
     */
    events_latest: {
        request: { games: Array<{ gameId: string; serverKeyHash: string }> };
        reply: Array<number | null>;
    };
    read_events: {
        request: GameRef & { serverKeyHash: string; after?: number; limit?: number };
        reply: EventPage;
    };
    // sign-in (gateways): device codes, identity-provider sign-in, sessions, merge
    /** `client`: the normalised address of the device asking (the gateway's), for the per-client cap. */
    device_code_start: {
        request: GameRef & { nickname?: string; client?: string };
        reply: { deviceCode: string; userCode: string; expiresIn: number; interval: number };
    };
    /** `client` names who is typing codes (the gateway passes the client address), for the wrong-code limit. */
    device_code_lookup: {
        request: { userCode: string; client: string };
        reply: { userCode: string; gameId: string; gameName: string; expiresIn: number };
    };
    device_code_approve: {
        request: { userCode: string; client: string; identity: Identity };
        reply: { gameId: string; gameName: string };
    };
    /**
     * `gameId` (codes part, optional): the game the poll names; a canister the game moved away
     * from answers `moved` for it, so the gateway finds the code where it moved.
     */
    device_code_redeem: { request: { deviceCodeHash: string; gameId?: string }; reply: Approval };
    sign_in: { request: GameRef & { identity: Identity; nickname?: string }; reply: Approval };
    resolve_session: { request: GameRef & { sessionHash: string }; reply: SessionInfo };
    renew_session: { request: GameRef & { sessionHash: string }; reply: null };
    session_profile: {
        request: GameRef & { sessionHash: string };
        reply: Profile & { email: string; provider: string };
    };
    logout: { request: GameRef & { sessionHash: string }; reply: Message };
    delete_account: { request: GameRef & { sessionHash: string }; reply: Message };
    migrate_account: {
        request: GameRef & { sessionHash: string; deviceId: string };
        reply: { message: string; migratedGames: number; migratedScoreboards: number };
    };
    // operators (the admin CLI)
    admin_register_game: {
        request: { developerId: string; gameId: string; name: string; description?: string };
        reply: { game: GameView; apiKey: string };
    };
    admin_update_game: {
        request: GameRef & {
            name?: string;
            description?: string;
            isActive?: boolean;
            standardBoards?: Partial<StandardBoards>;
            everySubmitEvents?: boolean;
        } & ServerSettings;
        reply: GameView;
    };
    admin_rotate_key: { request: GameRef; reply: { apiKey: string } };
    /** A new server key (the old one, if any, stops working at once): shown only in this reply. */
    admin_rotate_server_key: { request: GameRef; reply: { serverKey: string } };
    admin_set_time_validation: { request: GameRef & Partial<TimeValidation>; reply: TimeValidation };
    /** Fields left out stay; null clears a cap. */
    admin_set_caps: { request: GameRef & CapsUpdate; reply: Caps };
    admin_create_board: { request: CreateBoardRequest; reply: BoardView };
    admin_update_board: {
        request: GameRef & {
            scoreboardId: string;
            name?: string;
            description?: string;
            isActive?: boolean;
        } & BoardOptionsUpdate;
        reply: BoardView;
    };
    admin_delete_board: { request: GameRef & { scoreboardId: string }; reply: null };
    admin_set_allowance: { request: { developerId: string; allowance: number }; reply: DeveloperView };
    admin_list_games: { request: { developerId?: string }; reply: GameView[] };
    admin_suspicion_log: { request: GameRef & { playerId?: string; limit?: number }; reply: SuspicionEntry[] };
    /** On a directory with shards, the list goes to every shard too: `unreached` names those it did not reach. */
    admin_set_gateways: { request: { gateways: string[] }; reply: { gateways: string[]; unreached?: string[] } };
    admin_set_operators: { request: { operators: string[] }; reply: { operators: string[]; unreached?: string[] } };
    admin_list_requests: { request: Record<string, never>; reply: DeveloperView[] };
    admin_approve_request: { request: { developerId: string }; reply: DeveloperView };
    // developers (the dashboard, through gateways): every call carries the developer session's hash
    dev_sign_in: { request: { identity: Identity }; reply: { sessionToken: string; developer: DeveloperView } };
    dev_sign_out: { request: DevRef; reply: Message };
    /** The developer and their games; a game on a shard as the directory last heard of it (game_views_changed). */
    dev_me: { request: DevRef; reply: { developer: DeveloperView; games: GameView[] } };
    /** One of the developer's games as it is now, read where it lives (the dashboard shows a game from this). */
    dev_game: { request: DevGame; reply: GameView };
    dev_register_game: {
        request: DevRef & { gameId: string; name: string; description?: string };
        reply: { game: GameView; apiKey: string };
    };
    dev_update_game: {
        request: DevGame & {
            name?: string;
            description?: string;
            isActive?: boolean;
            standardBoards?: Partial<StandardBoards>;
            everySubmitEvents?: boolean;
        } & ServerSettings;
        reply: GameView;
    };
    /** `confirm` repeats the game id: nothing is deleted by a slip. */
    dev_delete_game: { request: DevGame & { confirm: string }; reply: Message };
    dev_rotate_key: { request: DevGame; reply: { apiKey: string } };
    /** A new server key (the old one, if any, stops working at once): shown only in this reply. */
    dev_rotate_server_key: { request: DevGame; reply: { serverKey: string } };
    dev_revoke_server_key: { request: DevGame; reply: Message };
    dev_set_time_validation: { request: DevGame & Partial<TimeValidation>; reply: TimeValidation };
    dev_set_caps: { request: DevGame & CapsUpdate; reply: Caps };
    dev_create_board: { request: DevRef & CreateBoardRequest; reply: BoardView };
    dev_update_board: {
        request: DevGame & { scoreboardId: string; name?: string; description?: string } & BoardOptionsUpdate;
        reply: BoardView;
    };
    dev_reset_board: { request: DevGame & { scoreboardId: string }; reply: BoardView };
    dev_delete_board: { request: DevGame & { scoreboardId: string }; reply: null };
    dev_read_board: {
        request: DevGame & { boardId: string; offset?: number; limit?: number };
        reply: { scoreboardId: string; totalEntries: number; offset: number; entries: DeveloperEntry[] };
    };
    /** A page of a board's current period, or of `archiveId` (one of the board's), for a CSV export. */
    dev_export_board: {
        request: DevGame & { boardId: string; archiveId?: string; offset?: number; limit?: number };
        reply: ExportPage;
    };
    /** A page of the game's backup file from `cursor` (docs/backups.md). */
    dev_backup_game: { request: DevGame & { cursor?: number }; reply: BackupPage };
    dev_suspicion_log: { request: DevGame & { playerId?: string; limit?: number }; reply: SuspicionEntry[] };
    dev_request_games: { request: DevRef & { games: number; message: string }; reply: DeveloperView };
    dev_remove_entry: { request: DevGame & { scoreboardId: string; playerId: string }; reply: Message };
    dev_wipe_player: { request: DevGame & { playerId: string; archives?: boolean }; reply: Message };
    dev_ban: { request: DevGame & { playerId: string; reason?: string }; reply: Message };
    dev_unban: { request: DevGame & { playerId: string }; reply: Message };
    dev_moderation_log: { request: DevGame & { limit?: number }; reply: ModerationEntry[] };
    dev_analytics: { request: DevGame & { days?: number }; reply: Analytics };
    // webhooks: the developer's endpoints (dashboard), and the gateways' delivery loop
    dev_list_webhooks: { request: DevGame; reply: WebhookView[] };
    /** The secret is in this reply only. */
    dev_add_webhook: {
        request: DevGame & { url: string; kinds: EventKind[] };
        reply: { webhook: WebhookView; secret: string };
    };
    /** `paused: false` resumes (failures reset, due now). */
    dev_update_webhook: {
        request: DevGame & { webhookId: string; url?: string; kinds?: EventKind[]; paused?: boolean };
        reply: WebhookView;
    };
    dev_delete_webhook: { request: DevGame & { webhookId: string }; reply: Message };
    /** A lease of one test event for the gateway to deliver at once; its report only adds to the log. */
    dev_test_webhook: { request: DevGame & { webhookId: string }; reply: Lease };
    /** Endpoints with work now, and when the next will have (absent: none waits); gateways poll this while idle. */
    webhook_due: { request: Record<string, never>; reply: { due: number; nextAt?: Nanoseconds } };
    /** Applies the reports, then leases up to `want` (<= 50) due endpoints' next events. */
    webhook_work: { request: { reports: DeliveryReport[]; want: number }; reply: { leases: Lease[] } };
    // public reads
    leaderboard: { request: GameRef & { sort?: SortBy; limit?: number }; reply: Leaderboard };
    list_boards: { request: GameRef; reply: BoardList };
    /** `offset`: entries skipped from the top (paging; the ranks go on from there). */
    read_board: { request: BoardRef & { limit?: number; offset?: number }; reply: Board };
    /** `percentile: true` adds the rank's percentile to the reply (absent: the reply as it always was). */
    board_rank: { request: BoardRef & { playerId: string; percentile?: boolean }; reply: BoardRank };
    player_rank: {
        request: GameRef & { playerId: string; sort?: SortBy; percentile?: boolean };
        reply: PlayerRank;
    };
    around: {
        request: BoardRef & { playerId: string; before?: number; after?: number; percentile?: boolean };
        reply: Around;
    };
    /** A set of players (friends, a clan) on a board, ranked among themselves, with their board ranks. */
    board_players: { request: BoardRef & { playerIds: string[] }; reply: PlayerSet };
    list_archives: { request: BoardRef; reply: ArchiveList };
    /** Archive counts of the game's timed boards and each one's newest periodEnd. */
    archive_stats: { request: GameRef; reply: ArchiveStats };
    read_archive: {
        request: GameRef & ({ boardId: string } | { archiveId: string }) & { limit?: number };
        reply: Archive;
    };
    profile: { request: GameRef & { playerId: string }; reply: Profile };
    game_info: { request: GameRef; reply: GameInfo };
    game_stats: { request: GameRef; reply: GameStats };
    platform_stats: { request: Record<string, never>; reply: PlatformStats };
    // ---- move part: a game's whole state to another canister (operators) ----
    /**
     * Source: pauses the game's writes (first call) and stages its export, a bounded number of
     * players per call: call again until `ready` (then `checksum` is the export's).
     */
    move_out_begin: {
        /** `backup`: an operator's backup (docs/operations.md): the writes go on once it is staged; move_abort drops it. */
        request: GameRef & { backup?: boolean };
        reply: { bytes: number; chunks: number; ready: boolean; checksum: string; players: number };
    };
    /** Source: one staged chunk (at most MOVE_CHUNK_BYTES as it travels). */
    move_out_chunk: { request: GameRef & { index: number }; reply: { data: string } };
    /** Source, after the target activated it: the game is dropped here, later calls answer `moved`. */
    move_out_end: { request: GameRef & { to: string }; reply: Message };
    /** Either side: the source resumes the game's writes; the target drops a half import. */
    move_abort: { request: GameRef; reply: Message };
    /** Target: chunk `index` (in order; one taken already is answered again). */
    move_in_chunk: { request: GameRef & { index: number; data: string }; reply: { next: number } };
    /** Target: checks count and checksum, activates the game. */
    move_in_end: {
        request: GameRef & { chunks: number; checksum: string };
        reply: { players: number; rebuilding: boolean };
    };
    /** A backup file's records in order (chunks of at most MOVE_CHUNK_BYTES), each record checked. */
    admin_import_chunk: { request: GameRef & { index: number; data: string }; reply: { next: number } };
    /** Activates an imported game for `developerId` under a new API key; move_abort drops a half import. */
    admin_import_end: {
        request: GameRef & { chunks: number; developerId: string };
        reply: { gameId: string; apiKey: string; players: number };
    };
    // ---- directory part: where games live, the shards, forwarding ----
    /** The canister that holds a game (404 `Game not found`; on a shard, 404 with `moved` for a game it does not hold). */
    locate_game: { request: GameRef; reply: GameLocation };
    /** This canister first (as its role), then the directory's shards. */
    list_shards: { request: Record<string, never>; reply: { shards: ShardEntry[] } };
    /**
     * One chunk (base64, <= 1 MiB decoded) of the gzipped shard wasm, in order from offset 0
     * (which starts a new upload); the last one checks `sha256` (hex) of the whole.
     */
    admin_upload_shard_wasm: {
        request: { offset: number; total: number; sha256: string; chunk: string };
        reply: { received: number; total: number; complete: boolean };
    };
    /** A new shard (create_canister with cycles from the directory, the uploaded wasm installed). */
    admin_create_shard: { request: Record<string, never>; reply: ShardEntry };
    /** The uploaded wasm installed on every shard (mode upgrade), one at a time; stops at the first failure. */
    admin_upgrade_shards: {
        request: Record<string, never>;
        reply: { upgraded: string[]; failed: Array<{ canisterId: string; message: string }> };
    };
    /**
     * A snapshot of every shard (each stopped meanwhile, in place of the one this took before):
     * the undo of admin_upgrade_shards (admin_load_shard_snapshots).
     */
    admin_snapshot_shards: {
        request: Record<string, never>;
        reply: {
            snapshots: Array<{ canisterId: string; snapshotId: string; totalSize: number }>;
            failed: Array<{ canisterId: string; message: string }>;
        };
    };
    /** The snapshots admin_snapshot_shards took loaded back into the shards named (all of them when none), each stopped meanwhile. */
    admin_load_shard_snapshots: {
        request: { canisterIds?: string[] };
        reply: { loaded: string[]; failed: Array<{ canisterId: string; message: string }> };
    };
    /**
     * Where a game lives after a move: one of the shards, or the directory itself. A game the
     * directory does not know (restored from a backup onto a shard) comes with its `view`.
     */
    admin_set_location: { request: GameRef & { canisterId: string; view?: GameView }; reply: GameLocation };
    // ---- backups (docs/operations.md): an operator's backup and restore of a whole service ----
    /** A page of a directory table from position `start` (`next`: the next page's, null at the end). */
    admin_backup_records: {
        request: { table: DirectoryTable; start?: number };
        reply: { records: Array<[string, unknown]>; next: number | null };
    };
    /**
     * Directory records from a backup, each checked before any is written: one the target has
     * already keeps what it has (a developer or account learns the backup's games).
     */
    admin_restore_records: {
        request: { table: RestoredTable; records: Array<[string, unknown]> };
        /** `existing`: the keys the target had already (kept as they were, bar the games they learn). */
        reply: { written: number; kept: number; existing: string[] };
    };
    /** A game deleted as its developer would (a restore with --replace); its id is free once purged. */
    admin_delete_game: { request: GameRef & { confirm: string }; reply: Message };
    /**
     * A developer method on a game that lives on a shard, through the directory: it checks the
     * session and the game's owner, then calls `method` on the shard; the reply is that method's.
     */
    dev_forward: { request: DevRef & { method: Method; request: Record<string, unknown> }; reply: unknown };
    /**
     * The directory's shards: the views of games they hold as they were at `at` (µs), after a
     * change the directory did not forward (an operator's, a period's rollover). The directory
     * keeps each view of a game it places on the caller that is not older than the one it has.
     */
    game_views_changed: { request: { at: number; views: GameView[] }; reply: { kept: number } };
    // ---- limits part: the canister's room ----
    /** Gateways and controllers (a shard's directory is its controller): the heap estimate and load. */
    shard_status: { request: Record<string, never>; reply: ShardStatus };
    /**
     * Gateways and operators, of a directory (or single canister): every canister's cycles,
     * burn and runway as last checked, the latest top-ups, and whether the service runs low.
     */
    cycles_status: { request: Record<string, never>; reply: CyclesStatus };
    /** Operators: the heap line past which new players and games are refused (bytes). */
    admin_set_heap_limit: { request: { heapLimitBytes: number }; reply: { heapLimitBytes: number } };
    // ---- identities part: the directory is the identity registry ----
    /**
     * The directory's shards: the account of an identity, created when new (the nickname seeds
     * only a new account, N4). A shard signing in an identity it does not know asks this once.
     */
    identity_account: { request: { identity: Identity; nickname?: string }; reply: RegisteredAccount };
    /**
     * The directory's shards: an account removed by its player on the shard; the directory
     * removes its record and its own games' players, then has every other shard forget it.
     */
    account_deleted: { request: { accountId: string }; reply: Message };
    /** A shard's directory: removes the account's players in every game here, its sessions, its record. */
    account_forget: { request: { accountId: string }; reply: Message };
    // ---- codes part: user codes found through the directory ----
    /**
     * A shard's directory: the pending code of a typed user code on this shard (its game, the
     * game's name, seconds left), 404 when it has none. Counts nothing: the directory counted.
     */
    device_code_find: { request: { userCode: string }; reply: DeviceCodeFound };
    /** A shard's directory: new user codes here are long until `until` (µs; the later of it and the shard's own). */
    set_long_codes_until: { request: { until: number }; reply: { longCodesUntil: number } };
}

/** The registry's account of an identity (identity_account): the same id on every shard. */
export interface RegisteredAccount {
    accountId: string;
    /** The account's own name (seeds its name in a game it has none in yet). */
    nickname?: string;
    createdAt: number;
    /** Whether this call created it (the person's first sign-in anywhere). */
    isNew: boolean;
}

/** A pending code a shard holds (device_code_find). */
export interface DeviceCodeFound {
    gameId: string;
    gameName: string;
    expiresIn: number;
}

export type Method = keyof Methods;
export type RequestOf<M extends Method> = Methods[M]['request'];
export type ReplyOf<M extends Method> = Methods[M]['reply'];
/**
 * A request a gateway passes on as it came (a dashboard form's fields, the admin CLI's
 * arguments): the method's keys, the values unchecked. The canister checks every value of
 * every request anyway; this says so instead of claiming the types.
 */
export type Relayed<M extends Method> = { [K in keyof RequestOf<M>]?: unknown };

/**
 * What a successful update marks to render again on the public board paths (absent: the game its
 * request or reply names): `nothing` (webhook endpoints and deliveries show on no board path),
 * `submits` (each submit's game, its board or its fan-out), `everyGame` (an account removed, a
 * device code redeemed: whichever games they touched).
 */
export type Marks = 'nothing' | 'submits' | 'everyGame';

/**
 * How a method meets the gate of moving games (absent: a query answers `moved` for a game that
 * left, an update also waits while its game moves): `exempt` (the move's own methods and where a
 * game lives: they are for moving and moved games too), `waitsForAll` (an account's writes touch
 * any of its games: they wait out every move), `exemptWhenRemote` (an operator's delete of a game
 * on a shard: the directory forwards it there).
 */
export type MoveGate = 'exempt' | 'waitsForAll' | 'exemptWhenRemote';

/** A method's row: how it runs, who may call it, and what the canister's shell does around it. */
export interface MethodRow {
    kind: 'update' | 'query';
    access: Access;
    marks?: Marks;
    moves?: MoveGate;
}

/** How each method runs and who may call it; the canister's entry points follow this table. */
export const METHODS = {
    submit_scores: { kind: 'update', access: 'gateway', marks: 'submits' },
    unlock_achievements: { kind: 'update', access: 'gateway' },
    set_nickname: { kind: 'update', access: 'gateway' },
    start_play_session: { kind: 'update', access: 'gateway' },
    end_play_session: { kind: 'update', access: 'gateway' },
    resolve_key: { kind: 'query', access: 'gateway' },
    resolve_server_key: { kind: 'query', access: 'gateway' },
    events_latest: { kind: 'query', access: 'gateway' },
    read_events: { kind: 'query', access: 'gateway' },
    device_code_start: { kind: 'update', access: 'gateway' },
    device_code_lookup: { kind: 'update', access: 'gateway' },
    device_code_approve: { kind: 'update', access: 'gateway' },
    device_code_redeem: { kind: 'update', access: 'gateway', marks: 'everyGame' },
    sign_in: { kind: 'update', access: 'gateway' },
    resolve_session: { kind: 'query', access: 'gateway' },
    renew_session: { kind: 'update', access: 'gateway' },
    session_profile: { kind: 'query', access: 'gateway' },
    logout: { kind: 'update', access: 'gateway' },
    delete_account: { kind: 'update', access: 'gateway', marks: 'everyGame', moves: 'waitsForAll' },
    migrate_account: { kind: 'update', access: 'gateway', moves: 'waitsForAll' },
    admin_register_game: { kind: 'update', access: 'operator' },
    admin_update_game: { kind: 'update', access: 'operator' },
    admin_rotate_key: { kind: 'update', access: 'operator' },
    admin_rotate_server_key: { kind: 'update', access: 'operator' },
    admin_set_time_validation: { kind: 'update', access: 'operator' },
    admin_set_caps: { kind: 'update', access: 'operator' },
    admin_create_board: { kind: 'update', access: 'operator' },
    admin_update_board: { kind: 'update', access: 'operator' },
    admin_delete_board: { kind: 'update', access: 'operator' },
    admin_set_allowance: { kind: 'update', access: 'operator' },
    admin_list_games: { kind: 'query', access: 'operator' },
    admin_suspicion_log: { kind: 'query', access: 'operator' },
    admin_set_gateways: { kind: 'update', access: 'controller' },
    admin_set_operators: { kind: 'update', access: 'controller' },
    admin_list_requests: { kind: 'query', access: 'operator' },
    admin_approve_request: { kind: 'update', access: 'operator' },
    dev_sign_in: { kind: 'update', access: 'gateway' },
    dev_sign_out: { kind: 'update', access: 'gateway' },
    dev_me: { kind: 'query', access: 'gateway' },
    dev_game: { kind: 'query', access: 'gateway' },
    dev_register_game: { kind: 'update', access: 'gateway' },
    dev_update_game: { kind: 'update', access: 'gateway' },
    dev_delete_game: { kind: 'update', access: 'gateway' },
    dev_rotate_key: { kind: 'update', access: 'gateway' },
    dev_rotate_server_key: { kind: 'update', access: 'gateway' },
    dev_revoke_server_key: { kind: 'update', access: 'gateway' },
    dev_set_time_validation: { kind: 'update', access: 'gateway' },
    dev_set_caps: { kind: 'update', access: 'gateway' },
    dev_create_board: { kind: 'update', access: 'gateway' },
    dev_update_board: { kind: 'update', access: 'gateway' },
    dev_reset_board: { kind: 'update', access: 'gateway' },
    dev_delete_board: { kind: 'update', access: 'gateway' },
    dev_read_board: { kind: 'query', access: 'gateway' },
    dev_export_board: { kind: 'query', access: 'gateway' },
    dev_backup_game: { kind: 'query', access: 'gateway' },
    dev_suspicion_log: { kind: 'query', access: 'gateway' },
    dev_request_games: { kind: 'update', access: 'gateway' },
    dev_remove_entry: { kind: 'update', access: 'gateway' },
    dev_wipe_player: { kind: 'update', access: 'gateway' },
    dev_ban: { kind: 'update', access: 'gateway' },
    dev_unban: { kind: 'update', access: 'gateway' },
    dev_moderation_log: { kind: 'query', access: 'gateway' },
    dev_analytics: { kind: 'query', access: 'gateway' },
    dev_list_webhooks: { kind: 'query', access: 'gateway' },
    dev_add_webhook: { kind: 'update', access: 'gateway', marks: 'nothing' },
    dev_update_webhook: { kind: 'update', access: 'gateway', marks: 'nothing' },
    dev_delete_webhook: { kind: 'update', access: 'gateway', marks: 'nothing' },
    dev_test_webhook: { kind: 'update', access: 'gateway', marks: 'nothing' },
    webhook_due: { kind: 'query', access: 'gateway' },
    webhook_work: { kind: 'update', access: 'gateway', marks: 'nothing' },
    leaderboard: { kind: 'query', access: 'public' },
    list_boards: { kind: 'query', access: 'public' },
    read_board: { kind: 'query', access: 'public' },
    board_rank: { kind: 'query', access: 'public' },
    player_rank: { kind: 'query', access: 'public' },
    around: { kind: 'query', access: 'public' },
    board_players: { kind: 'query', access: 'public' },
    list_archives: { kind: 'query', access: 'public' },
    archive_stats: { kind: 'query', access: 'public' },
    read_archive: { kind: 'query', access: 'public' },
    profile: { kind: 'query', access: 'public' },
    game_info: { kind: 'query', access: 'public' },
    game_stats: { kind: 'query', access: 'public' },
    platform_stats: { kind: 'query', access: 'public' },
    // move part
    move_out_begin: { kind: 'update', access: 'operator', moves: 'exempt' },
    move_out_chunk: { kind: 'query', access: 'operator', moves: 'exempt' },
    move_out_end: { kind: 'update', access: 'operator', moves: 'exempt' },
    move_abort: { kind: 'update', access: 'operator', moves: 'exempt' },
    move_in_chunk: { kind: 'update', access: 'operator', moves: 'exempt' },
    move_in_end: { kind: 'update', access: 'operator', moves: 'exempt' },
    admin_import_chunk: { kind: 'update', access: 'operator', moves: 'exempt' },
    admin_import_end: { kind: 'update', access: 'operator', moves: 'exempt' },
    // directory part
    locate_game: { kind: 'query', access: 'public', moves: 'exempt' },
    list_shards: { kind: 'query', access: 'public' },
    admin_upload_shard_wasm: { kind: 'update', access: 'operator' },
    admin_create_shard: { kind: 'update', access: 'operator' },
    admin_upgrade_shards: { kind: 'update', access: 'operator' },
    admin_snapshot_shards: { kind: 'update', access: 'operator' },
    admin_load_shard_snapshots: { kind: 'update', access: 'operator' },
    admin_set_location: { kind: 'update', access: 'operator', moves: 'exempt' },
    admin_backup_records: { kind: 'query', access: 'operator' },
    admin_restore_records: { kind: 'update', access: 'operator' },
    admin_delete_game: { kind: 'update', access: 'operator', moves: 'exemptWhenRemote' },
    dev_forward: { kind: 'update', access: 'gateway' },
    game_views_changed: { kind: 'update', access: 'shard' },
    // ---- limits part ----
    shard_status: { kind: 'query', access: 'gateway' },
    cycles_status: { kind: 'query', access: 'gatewayOrOperator' },
    admin_set_heap_limit: { kind: 'update', access: 'operator' },
    // ---- identities part ----
    identity_account: { kind: 'update', access: 'shard' },
    account_deleted: { kind: 'update', access: 'shard', marks: 'everyGame', moves: 'waitsForAll' },
    account_forget: { kind: 'update', access: 'directory', marks: 'everyGame', moves: 'waitsForAll' },
    // ---- codes part ----
    device_code_find: { kind: 'update', access: 'directory' },
    set_long_codes_until: { kind: 'update', access: 'directory' },
} as const satisfies Record<Method, MethodRow>;

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

/**
 * The developer methods that act on one game of the developer's: they run where the game lives
 * (a game on a shard: through the directory's `dev_forward`). Never sign-in, sign-out, dev_me,
 * registering or deleting a game (the directory's own).
 */
export const DEV_ON_GAME_METHODS: ReadonlySet<Method> = new Set<Method>([
    'dev_update_game',
    'dev_rotate_key',
    'dev_rotate_server_key',
    'dev_revoke_server_key',
    'dev_set_time_validation',
    'dev_set_caps',
    'dev_create_board',
    'dev_update_board',
    'dev_reset_board',
    'dev_delete_board',
    'dev_game',
    'dev_read_board',
    'dev_export_board',
    'dev_backup_game',
    'dev_suspicion_log',
    'dev_remove_entry',
    'dev_wipe_player',
    'dev_ban',
    'dev_unban',
    'dev_moderation_log',
    'dev_analytics',
    'dev_list_webhooks',
    'dev_add_webhook',
    'dev_update_webhook',
    'dev_delete_webhook',
    'dev_test_webhook',
]);
