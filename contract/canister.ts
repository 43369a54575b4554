// The canister's interface: every method, who may call it, and the JSON it takes and answers
// (Candid `text` in and out; `canister/leaderboard.did` is generated from the canister and a
// test holds it to this table). The gateway's client is typed by method name from here.
import type { IDL } from '@dfinity/candid';

import type { EventKind } from './event-log';
import type { PrizeRow, RewardClaims } from './rewards';
import type { DeliveryReport, Lease, WebhookView } from './webhooks';
import type {
    BoardOptions,
    League,
    Metadata,
    Operator,
    Review,
    ReviewSetting,
    ScoreFormat,
    SortOrder,
    StandardBoards,
    Tiebreak,
    Ties,
} from './board-options';

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
    Division,
    DivisionEntry,
    GameInfo,
    GameStats,
    Grant,
    RewardClaim,
    Rewards,
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
import type { ReportAction, ReportDetail, ReportQueuePage, ReportReason } from './reports';
import type { DirectoryTable, RestoredTable } from './service-backup';
import type { EventPage } from './events';
import type { ShardChunkReply, ShardChunkRequest } from './shard-chunks';
import type { CompactSubmits } from './compact-submits';
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
    /** Metadata keys its reads can filter by (`filter=<key>:<value>`); absent: none. */
    filters?: string[];
    /** Equal scores rank by the submits' tiebreak in this order (score boards only); absent: none. */
    tiebreak?: Tiebreak;
    /** How many top entries its new_leader/overtaken/period_closed events watch (0: none); absent = EVENT_TOP.default. */
    eventTop?: number;
    /** Review of implausible scores (./board-options.ts REVIEW); absent: off. */
    review?: Review;
    /** Divisions in tiers with promotion and demotion at each close (docs/leagues.md); absent: not a league. */
    league?: League;
    /** Prizes granted at each close (timed boards, ./rewards.ts); absent: none. */
    prizes?: PrizeRow[];
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
    /** Who may claim players' rewards (./rewards.ts); absent until set (client). */
    rewardClaims?: RewardClaims;
}

/** A page of one close's grants of a board, for its developer (dev_grants). */
export interface GrantsPage {
    scoreboardId: string;
    /** The board's closes that granted (kept PRIZES.keepDays), newest first, with how many grants each made. */
    periods: Array<{ periodStart: Nanoseconds; periodEnd: Nanoseconds; count: number }>;
    /** The close listed (absent: none granted yet). */
    periodStart?: Nanoseconds;
    offset: number;
    grants: Array<Grant & { playerId: string }>;
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
    /** The board's tiebreak order, when it has one: entries carry theirs (absent: no tiebreak). */
    tiebreak?: Tiebreak;
    totalEntries: number;
    offset: number;
    entries: ExportEntry[];
    nextOffset: number | null;
}

/** The rank reads' requests (public, and the gateway's own-player ones). */
type BoardRankRequest = BoardRef & { playerId: string; percentile?: boolean; filter?: string };
type PlayerRankRequest = GameRef & { playerId: string; sort?: SortBy; percentile?: boolean };
type AroundRequest = BoardRef & {
    playerId: string;
    before?: number;
    after?: number;
    percentile?: boolean;
    filter?: string;
};

/** What the moderation log records: the developer's actions, and their verdicts on the review queue. */
export const MODERATION_ACTIONS = [
    'remove-entry',
    'wipe-player',
    'ban',
    'unban',
    'dismiss-report',
    'review-dismiss',
    'review-remove',
    'review-ban',
    'review-approve',
    'review-reject',
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export interface ModerationEntry {
    at: Nanoseconds;
    action: ModerationAction;
    playerId: string;
    scoreboardId?: string;
    detail: string;
}

/** An entry of a board waiting in the game's review queue (docs/boards.md#review-of-implausible-scores). */
export interface ReviewEntry {
    scoreboardId: string;
    playerId: string;
    nickname: string;
    /** flagged: on the board, waiting for a verdict; held: kept off the board until approved. */
    kind: 'flagged' | 'held';
    /** The entry as the flagged submit wrote it (held: the score as submitted). */
    score: number;
    streak: number;
    /** The board's first (its ranked value) the entry was judged against. */
    first: number;
    at: Nanoseconds;
}

/**
 * What the developer does with a flagged entry (keep it, take it off the board) or a held score
 * (put it on the board, drop it); ban: either taken off and its player banned.
 */
export const REVIEW_ACTIONS = ['dismiss', 'remove', 'ban', 'approve', 'reject'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

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
    /** Ranks equal scores on a board with the `tiebreak` option (a count, like scores); ignored elsewhere. */
    tiebreak?: number;
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
    /** Metadata keys its reads can filter by (at most 3; board-options.ts parseFilters). */
    filters?: string[];
    tiebreak?: Tiebreak;
    /** How many top entries its events watch (0-25; absent: 10). */
    eventTop?: number;
    review?: ReviewSetting;
    /** Timed boards only (docs/leagues.md). */
    league?: League;
    /** Prizes granted at each close (timed boards only; ./rewards.ts parsePrizes). */
    prizes?: PrizeRow[];
}

/**
 * What a board update may change besides its name: ties, format and eventTop always; order and
 * operator while it has no entries.
 */
export type BoardOptionsUpdate = Partial<Omit<BoardOptions, 'review' | 'tiebreak' | 'league' | 'prizes'>> & {
    /** null or [] removes the prize table. */
    prizes?: PrizeRow[] | null;
    eventTop?: number;
    /** null removes it; on, off, divisionSize and the number of tiers only while the period has no entries. */
    league?: League | null;
    review?: ReviewSetting;
    /** null takes the board's tiebreak off (while it has no entries, like setting one). */
    tiebreak?: Tiebreak | null;
};

/** A filter key's indexed values on a board's current period, with how many entries have each. */
export interface FilterValues {
    key: string;
    values: Array<{ value: string; entries: number }>;
}

/** A league board as its developer sees it (dev_league): tiers, then one tier's divisions, a page. */
export interface LeagueView {
    tiers: Array<{ index: number; name: string; players: number; divisions: number }>;
    periodStart: Nanoseconds;
    periodEnd: Nanoseconds;
    /** Divisions waiting for the last period's close (closed a batch per timer tick). */
    closing: number;
    divisions: Array<{
        division: number;
        tier: number;
        size: number;
        entries: Array<DivisionEntry & { playerId: string }>;
    }>;
}

type GameRef = { gameId: string };
type BoardRef = GameRef & { boardId: string };
type DevRef = { sessionHash: string };
type DevGame = DevRef & GameRef;

// ---- the methods ---------------------------------------------------------------------------------------

/**
 * Who may call a method: anyone; registered gateways; operators; gateways or operators (what
 * both a gateway's metrics and the admin CLI read); controllers only; a directory's shards; a
 * shard's directory. Controllers pass every kind but the last two.
 */
export type Access = 'public' | 'gateway' | 'operator' | 'gatewayOrOperator' | 'controller' | 'shard' | 'directory'; /**
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

/**
 * Where a gateway sends a method (absent: to the canister of the game the request names, by its
 * `gameId` or its API key, else to the directory): `directory` (it spans games or keeps what the
 * directory keeps: developers, allowances, operators, placing and deleting games, typed user
 * codes); `viaDirectory` (a developer method on one game: the directory answers for a game it
 * holds and forwards it, `dev_forward`, to the shard of any other); `testEvent` (as
 * `viaDirectory`, and the test event's lease is kept with the game's canister); `leaseHolder` (a
 * report goes to the canister that leased its test events); `{eachGameOf: list}` (the request's
 * `list` names games: split by their canisters, the answers put back in order); `everyCanister`
 * (asked of every canister, the answers merged); `submitPath` (score submits: each to its game's
 * canister through the gateway's submit path, which batches them per canister; never the router).
 */
export type Route =
    | 'directory'
    | 'viaDirectory'
    | 'testEvent'
    | 'leaseHolder'
    | 'everyCanister'
    | 'submitPath'
    | { eachGameOf: string };

/** A method's request and reply, as types (the table's values hold nothing). */
export interface Shape<Request, Reply> {
    request: Request;
    reply: Reply;
}
const NO_VALUE = Object.freeze({});
const shape = <Request, Reply>(): Shape<Request, Reply> => NO_VALUE as Shape<Request, Reply>;

/** A method's row: how it runs, who may call it, and what the canister's shell does around it. */
export interface MethodRow {
    kind: 'update' | 'query';
    access: Access;
    marks?: Marks;
    moves?: MoveGate;
    routes?: Route;
    /**
     * The JSON method whose request and reply this one carries packed (./packed-ranks.ts):
     * `(text) -> (blob)` on the wire; the gateway's client packs and unpacks them.
     */
    packs?: 'own_player_rank' | 'own_board_rank';
    /**
     * The method a gateway's client sends this one as, the same request written smaller
     * (./compact-submits.ts), when the canister has it (one of an earlier release does not: then
     * this one, as for `packs`).
     */
    sentAs?: 'submit_scores_compact' | 'admin_upload_shard_wasm_bytes';
    /**
     * The method whose request this one takes as one Candid blob, `(blob) -> (text)` on the wire
     * (./shard-chunks.ts): bytes in place of base64 in JSON text.
     */
    takesBytes?: 'admin_upload_shard_wasm';
    /** The JSON it takes and answers (`{ok: reply}` on success): types only, for the callers' types. */
    shape: Shape<unknown, unknown>;
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

/**
 * Every method of the canister, one row each: how it runs, who may call it, what the canister's
 * shell does around it, where a gateway sends it, and the JSON it takes and answers. The
 * canister's entry points (and so its `.did`), its guards and the gateways' routing read this.
 */
export const METHODS = {
    // player writes (gateways)
    submit_scores: {
        kind: 'update',
        access: 'gateway',
        marks: 'submits',
        routes: 'submitPath',
        sentAs: 'submit_scores_compact',
        shape: shape<{ submits: SubmitRequest[] }, Array<Result<SubmitReply>>>(),
    },
    /**
     * submit_scores with the game most of its submits are of and each game's API key given once
     * (./compact-submits.ts): what this release's gateways send. Each submit is then checked and
     * answered as by submit_scores.
     */
    submit_scores_compact: {
        kind: 'update',
        access: 'gateway',
        marks: 'submits',
        routes: 'submitPath',
        shape: shape<CompactSubmits, Array<Result<SubmitReply>>>(),
    },
    unlock_achievements: {
        kind: 'update',
        access: 'gateway',
        shape: shape<PlayerWrite & { achievementIds: string[] }, AchievementReply>(),
    },
    set_nickname: {
        kind: 'update',
        access: 'gateway',
        shape: shape<PlayerWrite & { nickname: string }, NicknameReply>(),
    },
    start_play_session: { kind: 'update', access: 'gateway', shape: shape<PlayerWrite, PlaySessionStarted>() },
    /** A player's report of an entry they saw (docs/reports.md); `client`: the caller's public address, when known. */
    report_entry: {
        kind: 'update',
        access: 'gateway',
        marks: 'nothing',
        shape: shape<
            PlayerWrite & {
                scoreboardId: string;
                nickname: string;
                rank?: number;
                reason: ReportReason;
                text?: string;
                client?: string;
            },
            Message
        >(),
    },
    /** The player's grants (docs/rewards.md), unclaimed first, newest first. */
    player_rewards: { kind: 'query', access: 'gateway', shape: shape<PlayerWrite, Rewards>() },
    /** Claims one grant, once (a second claim changes nothing); the game's `rewardClaims` decides which credentials may. */
    claim_reward: {
        kind: 'update',
        access: 'gateway',
        marks: 'nothing',
        shape: shape<PlayerWrite & { grantId: string }, RewardClaim>(),
    },
    end_play_session: {
        kind: 'update',
        access: 'gateway',
        shape: shape<
            GameRef &
                ({ apiKey: string } | { sessionHash: string } | { serverKeyHash: string }) & {
                    playSessionToken: string;
                },
            Message
        >(),
    },
    resolve_key: { kind: 'query', access: 'gateway', shape: shape<{ apiKey: string }, KeyInfo>() },
    /** The game of a server key (its SHA-256 hex); 401 MESSAGES.invalidServerKey for a wrong or absent one. */
    resolve_server_key: {
        kind: 'query',
        access: 'gateway',
        shape: shape<GameRef & { serverKeyHash: string }, KeyInfo>(),
    },
    /**
     * The newest seq of several games' feeds at once (long polling: one query per poll for up to
     * FEED_HEADS_MAX waited-on games), each with its server key's hash; null where the key is
     * not (or no longer) the game's.
     */
    events_latest: {
        kind: 'query',
        access: 'gateway',
        routes: { eachGameOf: 'games' },
        shape: shape<{ games: Array<{ gameId: string; serverKeyHash: string }> }, Array<number | null>>(),
    },
    /** Events after `after` (default 0), up to `limit` (FEED_LIMIT), with the server key. */
    read_events: {
        kind: 'query',
        access: 'gateway',
        shape: shape<GameRef & { serverKeyHash: string; after?: number; limit?: number }, EventPage>(),
    },
    // sign-in (gateways): device codes, identity-provider sign-in, sessions, merge
    /** `client`: the normalised address of the device asking (the gateway's), for the per-client cap. */
    device_code_start: {
        kind: 'update',
        access: 'gateway',
        shape: shape<
            GameRef & { nickname?: string; client?: string },
            { deviceCode: string; userCode: string; expiresIn: number; interval: number }
        >(),
    },
    /** `client` names who is typing codes (the gateway passes the client address), for the wrong-code limit. */
    device_code_lookup: {
        kind: 'update',
        access: 'gateway',
        routes: 'directory',
        shape: shape<
            { userCode: string; client: string },
            { userCode: string; gameId: string; gameName: string; expiresIn: number }
        >(),
    },
    device_code_approve: {
        kind: 'update',
        access: 'gateway',
        routes: 'directory',
        shape: shape<{ userCode: string; client: string; identity: Identity }, { gameId: string; gameName: string }>(),
    },
    /**
     * `gameId` (codes part, optional): the game the poll names; a canister the game moved away
     * from answers `moved` for it, so the gateway finds the code where it moved.
     */
    device_code_redeem: {
        kind: 'update',
        access: 'gateway',
        marks: 'everyGame',
        shape: shape<{ deviceCodeHash: string; gameId?: string }, Approval>(),
    },
    sign_in: {
        kind: 'update',
        access: 'gateway',
        shape: shape<GameRef & { identity: Identity; nickname?: string }, Approval>(),
    },
    resolve_session: {
        kind: 'query',
        access: 'gateway',
        shape: shape<GameRef & { sessionHash: string }, SessionInfo>(),
    },
    renew_session: { kind: 'update', access: 'gateway', shape: shape<GameRef & { sessionHash: string }, null>() },
    session_profile: {
        kind: 'query',
        access: 'gateway',
        shape: shape<GameRef & { sessionHash: string }, Profile & { email: string; provider: string }>(),
    },
    logout: { kind: 'update', access: 'gateway', shape: shape<GameRef & { sessionHash: string }, Message>() },
    delete_account: {
        kind: 'update',
        access: 'gateway',
        marks: 'everyGame',
        moves: 'waitsForAll',
        shape: shape<GameRef & { sessionHash: string }, Message>(),
    },
    migrate_account: {
        kind: 'update',
        access: 'gateway',
        moves: 'waitsForAll',
        shape: shape<
            GameRef & { sessionHash: string; deviceId: string },
            { message: string; migratedGames: number; migratedScoreboards: number }
        >(),
    },
    // operators (the admin CLI)
    admin_register_game: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<
            { developerId: string; gameId: string; name: string; description?: string },
            { game: GameView; apiKey: string }
        >(),
    },
    admin_update_game: {
        kind: 'update',
        access: 'operator',
        shape: shape<
            GameRef & {
                name?: string;
                description?: string;
                isActive?: boolean;
                standardBoards?: Partial<StandardBoards>;
                everySubmitEvents?: boolean;
                rewardClaims?: RewardClaims;
            } & ServerSettings,
            GameView
        >(),
    },
    admin_rotate_key: { kind: 'update', access: 'operator', shape: shape<GameRef, { apiKey: string }>() },
    /** A new server key (the old one, if any, stops working at once): shown only in this reply. */
    admin_rotate_server_key: { kind: 'update', access: 'operator', shape: shape<GameRef, { serverKey: string }>() },
    admin_set_time_validation: {
        kind: 'update',
        access: 'operator',
        shape: shape<GameRef & Partial<TimeValidation>, TimeValidation>(),
    },
    /** Fields left out stay; null clears a cap. */
    admin_set_caps: { kind: 'update', access: 'operator', shape: shape<GameRef & CapsUpdate, Caps>() },
    admin_create_board: { kind: 'update', access: 'operator', shape: shape<CreateBoardRequest, BoardView>() },
    admin_update_board: {
        kind: 'update',
        access: 'operator',
        shape: shape<
            GameRef & {
                scoreboardId: string;
                name?: string;
                description?: string;
                isActive?: boolean;
            } & BoardOptionsUpdate,
            BoardView
        >(),
    },
    admin_delete_board: {
        kind: 'update',
        access: 'operator',
        shape: shape<GameRef & { scoreboardId: string }, null>(),
    },
    admin_set_allowance: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<{ developerId: string; allowance: number }, DeveloperView>(),
    },
    admin_list_games: {
        kind: 'query',
        access: 'operator',
        routes: 'everyCanister',
        shape: shape<{ developerId?: string }, GameView[]>(),
    },
    admin_suspicion_log: {
        kind: 'query',
        access: 'operator',
        shape: shape<GameRef & { playerId?: string; limit?: number }, SuspicionEntry[]>(),
    },
    /** On a directory with shards, the list goes to every shard too: `unreached` names those it did not reach. */
    admin_set_gateways: {
        kind: 'update',
        access: 'controller',
        routes: 'directory',
        shape: shape<{ gateways: string[] }, { gateways: string[]; unreached?: string[] }>(),
    },
    admin_set_operators: {
        kind: 'update',
        access: 'controller',
        routes: 'directory',
        shape: shape<{ operators: string[] }, { operators: string[]; unreached?: string[] }>(),
    },
    admin_list_requests: {
        kind: 'query',
        access: 'operator',
        routes: 'directory',
        shape: shape<Record<string, never>, DeveloperView[]>(),
    },
    admin_approve_request: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<{ developerId: string }, DeveloperView>(),
    },
    // developers (the dashboard, through gateways): every call carries the developer session's hash
    dev_sign_in: {
        kind: 'update',
        access: 'gateway',
        routes: 'directory',
        shape: shape<{ identity: Identity }, { sessionToken: string; developer: DeveloperView }>(),
    },
    dev_sign_out: { kind: 'update', access: 'gateway', routes: 'directory', shape: shape<DevRef, Message>() },
    /** The developer and their games; a game on a shard as the directory last heard of it (game_views_changed). */
    dev_me: {
        kind: 'query',
        access: 'gateway',
        routes: 'directory',
        shape: shape<DevRef, { developer: DeveloperView; games: GameView[] }>(),
    },
    /** One of the developer's games as it is now, read where it lives (the dashboard shows a game from this). */
    dev_game: { kind: 'query', access: 'gateway', routes: 'viaDirectory', shape: shape<DevGame, GameView>() },
    dev_register_game: {
        kind: 'update',
        access: 'gateway',
        routes: 'directory',
        shape: shape<
            DevRef & { gameId: string; name: string; description?: string },
            { game: GameView; apiKey: string }
        >(),
    },
    dev_update_game: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<
            DevGame & {
                name?: string;
                description?: string;
                isActive?: boolean;
                standardBoards?: Partial<StandardBoards>;
                everySubmitEvents?: boolean;
                rewardClaims?: RewardClaims;
            } & ServerSettings,
            GameView
        >(),
    },
    /** `confirm` repeats the game id: nothing is deleted by a slip. */
    dev_delete_game: {
        kind: 'update',
        access: 'gateway',
        routes: 'directory',
        shape: shape<DevGame & { confirm: string }, Message>(),
    },
    dev_rotate_key: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame, { apiKey: string }>(),
    },
    /** A new server key (the old one, if any, stops working at once): shown only in this reply. */
    dev_rotate_server_key: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame, { serverKey: string }>(),
    },
    dev_revoke_server_key: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame, Message>(),
    },
    dev_set_time_validation: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & Partial<TimeValidation>, TimeValidation>(),
    },
    dev_set_caps: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & CapsUpdate, Caps>(),
    },
    dev_create_board: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevRef & CreateBoardRequest, BoardView>(),
    },
    dev_update_board: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<
            DevGame & { scoreboardId: string; name?: string; description?: string } & BoardOptionsUpdate,
            BoardView
        >(),
    },
    dev_reset_board: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { scoreboardId: string }, BoardView>(),
    },
    /** A league board's tiers and one tier's divisions (`limit` at most 20) for the dashboard. */
    dev_league: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { boardId: string; tier?: number; offset?: number; limit?: number }, LeagueView>(),
    },
    dev_delete_board: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { scoreboardId: string }, null>(),
    },
    dev_read_board: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<
            DevGame & { boardId: string; offset?: number; limit?: number; filter?: string },
            {
                scoreboardId: string;
                totalEntries: number;
                offset: number;
                entries: DeveloperEntry[];
                /** A board with filters: each key's values this period with their entry counts, most first. */
                filters?: FilterValues[];
            }
        >(),
    },
    /** A page of a board's current period, or of `archiveId` (one of the board's), for a CSV export. */
    dev_export_board: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { boardId: string; archiveId?: string; offset?: number; limit?: number }, ExportPage>(),
    },
    /** A page of the game's backup file from `cursor` (docs/backups.md). */
    dev_backup_game: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { cursor?: number }, BackupPage>(),
    },
    dev_suspicion_log: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { playerId?: string; limit?: number }, SuspicionEntry[]>(),
    },
    dev_request_games: {
        kind: 'update',
        access: 'gateway',
        routes: 'directory',
        shape: shape<DevRef & { games: number; message: string }, DeveloperView>(),
    },
    dev_remove_entry: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { scoreboardId: string; playerId: string }, Message>(),
    },
    dev_wipe_player: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { playerId: string; archives?: boolean }, Message>(),
    },
    dev_ban: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { playerId: string; reason?: string }, Message>(),
    },
    dev_unban: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { playerId: string }, Message>(),
    },
    dev_moderation_log: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { limit?: number }, ModerationEntry[]>(),
    },
    dev_reports: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { offset?: number; limit?: number }, ReportQueuePage>(),
    },
    dev_report: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { playerId: string; scoreboardId: string }, ReportDetail>(),
    },
    /** Acts on a reported entry (dismiss, remove the entry, ban the player): logged, and the item is cleared. */
    dev_report_action: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<
            DevGame & { playerId: string; scoreboardId: string; action: ReportAction; reason?: string },
            Message
        >(),
    },
    /** The game's review queue, newest first. */
    dev_review_queue: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { limit?: number }, ReviewEntry[]>(),
    },
    /** Settles one entry of the review queue. */
    dev_review: {
        kind: 'update',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { scoreboardId: string; playerId: string; action: ReviewAction }, Message>(),
    },
    /** A page of one close's grants of a board (absent periodStart: its newest close). */
    dev_grants: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<
            DevGame & { boardId: string; periodStart?: number; offset?: number; limit?: number },
            GrantsPage
        >(),
    },
    dev_analytics: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame & { days?: number }, Analytics>(),
    },
    // webhooks: the developer's endpoints (dashboard), and the gateways' delivery loop
    dev_list_webhooks: {
        kind: 'query',
        access: 'gateway',
        routes: 'viaDirectory',
        shape: shape<DevGame, WebhookView[]>(),
    },
    /** The secret is in this reply only. */
    dev_add_webhook: {
        kind: 'update',
        access: 'gateway',
        marks: 'nothing',
        routes: 'viaDirectory',
        shape: shape<DevGame & { url: string; kinds: EventKind[] }, { webhook: WebhookView; secret: string }>(),
    },
    /** `paused: false` resumes (failures reset, due now). */
    dev_update_webhook: {
        kind: 'update',
        access: 'gateway',
        marks: 'nothing',
        routes: 'viaDirectory',
        shape: shape<
            DevGame & { webhookId: string; url?: string; kinds?: EventKind[]; paused?: boolean },
            WebhookView
        >(),
    },
    dev_delete_webhook: {
        kind: 'update',
        access: 'gateway',
        marks: 'nothing',
        routes: 'viaDirectory',
        shape: shape<DevGame & { webhookId: string }, Message>(),
    },
    /** A lease of one test event for the gateway to deliver at once; its report only adds to the log. */
    dev_test_webhook: {
        kind: 'update',
        access: 'gateway',
        marks: 'nothing',
        routes: 'testEvent',
        shape: shape<DevGame & { webhookId: string }, Lease>(),
    },
    /** Endpoints with work now, and when the next will have (absent: none waits); gateways poll this while idle. */
    webhook_due: {
        kind: 'query',
        access: 'gateway',
        shape: shape<Record<string, never>, { due: number; nextAt?: Nanoseconds }>(),
    },
    /** Applies the reports, then leases up to `want` (<= 50) due endpoints' next events. */
    webhook_work: {
        kind: 'update',
        access: 'gateway',
        marks: 'nothing',
        routes: 'leaseHolder',
        shape: shape<{ reports: DeliveryReport[]; want: number }, { leases: Lease[] }>(),
    },
    // public reads
    leaderboard: {
        kind: 'query',
        access: 'public',
        shape: shape<GameRef & { sort?: SortBy; limit?: number; filter?: string }, Leaderboard>(),
    },
    list_boards: { kind: 'query', access: 'public', shape: shape<GameRef, BoardList>() },
    /**
     * `offset`: entries skipped from the top (paging; the ranks go on from there). `filter`
     * (`<key>:<value>`, on every board read here): only the entries with that metadata value,
     * ranked and counted among themselves.
     */
    read_board: {
        kind: 'query',
        access: 'public',
        shape: shape<BoardRef & { limit?: number; offset?: number; filter?: string }, Board>(),
    },
    /** `percentile: true` adds the rank's percentile to the reply (absent: the reply as it always was). */
    board_rank: {
        kind: 'query',
        access: 'public',
        shape: shape<BoardRankRequest, BoardRank>(),
    },
    player_rank: {
        kind: 'query',
        access: 'public',
        shape: shape<PlayerRankRequest, PlayerRank>(),
    },
    around: {
        kind: 'query',
        access: 'public',
        shape: shape<AroundRequest, Around>(),
    },
    /** A player's league division on a league board (docs/leagues.md); 404 for other boards. */
    division: {
        kind: 'query',
        access: 'public',
        shape: shape<BoardRef & { playerId: string }, Division>(),
    },
    /**
     * The three rank reads for the player themselves (the gateway's, for the API key's `playerId`
     * or the signed-in player): the same answers, but with their score held for review (a board
     * with review `hold`) in place. The public reads never show a held score.
     */
    own_board_rank: {
        kind: 'query',
        access: 'gateway',
        shape: shape<BoardRankRequest, BoardRank>(),
    },
    own_player_rank: {
        kind: 'query',
        access: 'gateway',
        shape: shape<PlayerRankRequest, PlayerRank>(),
    },
    own_around: {
        kind: 'query',
        access: 'gateway',
        shape: shape<AroundRequest, Around>(),
    },
    /**
     * own_player_rank and own_board_rank packed (./packed-ranks.ts: no JSON either way, ~0.1 M
     * instructions less); what this release's gateways call. The JSON methods stay for the
     * gateways of earlier releases (and `filter`, which the packed board rank does not carry).
     */
    own_player_rank_packed: {
        kind: 'query',
        access: 'gateway',
        packs: 'own_player_rank',
        shape: shape<PlayerRankRequest, PlayerRank>(),
    },
    own_board_rank_packed: {
        kind: 'query',
        access: 'gateway',
        packs: 'own_board_rank',
        shape: shape<Omit<BoardRankRequest, 'filter'>, BoardRank>(),
    },
    /** A set of players (friends, a clan) on a board, ranked among themselves, with their board ranks. */
    board_players: { kind: 'query', access: 'public', shape: shape<BoardRef & { playerIds: string[] }, PlayerSet>() },
    list_archives: { kind: 'query', access: 'public', shape: shape<BoardRef, ArchiveList>() },
    /** Archive counts of the game's timed boards and each one's newest periodEnd. */
    archive_stats: { kind: 'query', access: 'public', shape: shape<GameRef, ArchiveStats>() },
    read_archive: {
        kind: 'query',
        access: 'public',
        shape: shape<GameRef & ({ boardId: string } | { archiveId: string }) & { limit?: number }, Archive>(),
    },
    profile: { kind: 'query', access: 'public', shape: shape<GameRef & { playerId: string }, Profile>() },
    game_info: { kind: 'query', access: 'public', shape: shape<GameRef, GameInfo>() },
    game_stats: { kind: 'query', access: 'public', shape: shape<GameRef, GameStats>() },
    platform_stats: {
        kind: 'query',
        access: 'public',
        routes: 'everyCanister',
        shape: shape<Record<string, never>, PlatformStats>(),
    },
    // ---- move part: a game's whole state to another canister (operators) ----
    /**
     * Source: pauses the game's writes (first call) and stages its export, a bounded number of
     * players per call: call again until `ready` (then `checksum` is the export's). `backup`: an
     * operator's backup (docs/operations.md): the writes go on once it is staged; move_abort drops it.
     */
    move_out_begin: {
        kind: 'update',
        access: 'operator',
        moves: 'exempt',
        shape: shape<
            GameRef & { backup?: boolean },
            { bytes: number; chunks: number; ready: boolean; checksum: string; players: number }
        >(),
    },
    /** Source: one staged chunk (at most MOVE_CHUNK_BYTES as it travels). */
    move_out_chunk: {
        kind: 'query',
        access: 'operator',
        moves: 'exempt',
        shape: shape<GameRef & { index: number }, { data: string }>(),
    },
    /** Source, after the target activated it: the game is dropped here, later calls answer `moved`. */
    move_out_end: {
        kind: 'update',
        access: 'operator',
        moves: 'exempt',
        shape: shape<GameRef & { to: string }, Message>(),
    },
    /** Either side: the source resumes the game's writes; the target drops a half import. */
    move_abort: { kind: 'update', access: 'operator', moves: 'exempt', shape: shape<GameRef, Message>() },
    /** Target: chunk `index` (in order; one taken already is answered again). */
    move_in_chunk: {
        kind: 'update',
        access: 'operator',
        moves: 'exempt',
        shape: shape<GameRef & { index: number; data: string }, { next: number }>(),
    },
    /** Target: checks count and checksum, activates the game. */
    move_in_end: {
        kind: 'update',
        access: 'operator',
        moves: 'exempt',
        shape: shape<GameRef & { chunks: number; checksum: string }, { players: number; rebuilding: boolean }>(),
    },
    /** A backup file's records in order (chunks of at most MOVE_CHUNK_BYTES), each record checked. */
    admin_import_chunk: {
        kind: 'update',
        access: 'operator',
        moves: 'exempt',
        shape: shape<GameRef & { index: number; data: string }, { next: number }>(),
    },
    /** Activates an imported game for `developerId` under a new API key; move_abort drops a half import. */
    admin_import_end: {
        kind: 'update',
        access: 'operator',
        moves: 'exempt',
        shape: shape<
            GameRef & { chunks: number; developerId: string },
            { gameId: string; apiKey: string; players: number }
        >(),
    },
    // ---- directory part: where games live, the shards, forwarding ----
    /** The canister that holds a game (404 `Game not found`; on a shard, 404 with `moved` for a game it does not hold). */
    locate_game: {
        kind: 'query',
        access: 'public',
        moves: 'exempt',
        routes: 'directory',
        shape: shape<GameRef, GameLocation>(),
    },
    /** This canister first (as its role), then the directory's shards. */
    list_shards: {
        kind: 'query',
        access: 'public',
        routes: 'directory',
        shape: shape<Record<string, never>, { shards: ShardEntry[] }>(),
    },
    /**
     * One chunk (base64, <= 1 MiB decoded) of the gzipped shard wasm, in order from offset 0
     * (which starts a new upload), kept in the IC's chunk store of the directory. `sha256` (hex)
     * of the whole is checked by the IC at the first install: a mismatch there is a 400 of
     * admin_create_shard or admin_upgrade_shards, and the upload is dropped.
     */
    admin_upload_shard_wasm: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        sentAs: 'admin_upload_shard_wasm_bytes',
        shape: shape<ShardChunkRequest, ShardChunkReply>(),
    },
    /**
     * admin_upload_shard_wasm with the chunk as bytes (./shard-chunks.ts): what this release's
     * clients send (a 1 MiB chunk read as base64 in JSON costs ~6.6 B instructions more).
     */
    admin_upload_shard_wasm_bytes: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        takesBytes: 'admin_upload_shard_wasm',
        shape: shape<ShardChunkRequest, ShardChunkReply>(),
    },
    /** A new shard (create_canister with cycles from the directory, the uploaded wasm installed). */
    admin_create_shard: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<Record<string, never>, ShardEntry>(),
    },
    /** The uploaded wasm installed on every shard (mode upgrade), one at a time; stops at the first failure. */
    admin_upgrade_shards: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<
            Record<string, never>,
            { upgraded: string[]; failed: Array<{ canisterId: string; message: string }> }
        >(),
    },
    /**
     * A snapshot of every shard (each stopped meanwhile, in place of the one this took before):
     * the undo of admin_upgrade_shards (admin_load_shard_snapshots).
     */
    admin_snapshot_shards: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<
            Record<string, never>,
            {
                snapshots: Array<{ canisterId: string; snapshotId: string; totalSize: number }>;
                failed: Array<{ canisterId: string; message: string }>;
            }
        >(),
    },
    /** The snapshots admin_snapshot_shards took loaded back into the shards named (all of them when none), each stopped meanwhile. */
    admin_load_shard_snapshots: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<
            { canisterIds?: string[] },
            { loaded: string[]; failed: Array<{ canisterId: string; message: string }> }
        >(),
    },
    /**
     * Where a game lives after a move: one of the shards, or the directory itself. A game the
     * directory does not know (restored from a backup onto a shard) comes with its `view`.
     */
    admin_set_location: {
        kind: 'update',
        access: 'operator',
        moves: 'exempt',
        routes: 'directory',
        shape: shape<GameRef & { canisterId: string; view?: GameView }, GameLocation>(),
    },
    // ---- backups (docs/operations.md): an operator's backup and restore of a whole service ----
    /** A page of a directory table from position `start` (`next`: the next page's, null at the end). */
    admin_backup_records: {
        kind: 'query',
        access: 'operator',
        routes: 'directory',
        shape: shape<
            { table: DirectoryTable; start?: number },
            { records: Array<[string, unknown]>; next: number | null }
        >(),
    },
    /**
     * Directory records from a backup, each checked before any is written: one the target has
     * already keeps what it has (a developer or account learns the backup's games). `existing`:
     * the keys the target had already (kept as they were, bar the games they learn).
     */
    admin_restore_records: {
        kind: 'update',
        access: 'operator',
        routes: 'directory',
        shape: shape<
            { table: RestoredTable; records: Array<[string, unknown]> },
            { written: number; kept: number; existing: string[] }
        >(),
    },
    /** A game deleted as its developer would (a restore with --replace); its id is free once purged. */
    admin_delete_game: {
        kind: 'update',
        access: 'operator',
        moves: 'exemptWhenRemote',
        routes: 'directory',
        shape: shape<GameRef & { confirm: string }, Message>(),
    },
    /**
     * A developer method on a game that lives on a shard, through the directory: it checks the
     * session and the game's owner, then calls `method` on the shard; the reply is that method's.
     */
    dev_forward: {
        kind: 'update',
        access: 'gateway',
        shape: shape<DevRef & { method: string; request: Record<string, unknown> }, unknown>(),
    },
    /**
     * The directory's shards: the views of games they hold as they were at `at` (µs), after a
     * change the directory did not forward (an operator's, a period's rollover). The directory
     * keeps each view of a game it places on the caller that is not older than the one it has.
     */
    game_views_changed: {
        kind: 'update',
        access: 'shard',
        shape: shape<{ at: number; views: GameView[] }, { kept: number }>(),
    },
    // ---- limits part: the canister's room ----
    /** Gateways and controllers (a shard's directory is its controller): the heap estimate and load. */
    shard_status: { kind: 'query', access: 'gateway', shape: shape<Record<string, never>, ShardStatus>() },
    /**
     * Gateways and operators, of a directory (or single canister): every canister's cycles,
     * burn and runway as last checked, the latest top-ups, and whether the service runs low.
     */
    cycles_status: { kind: 'query', access: 'gatewayOrOperator', shape: shape<Record<string, never>, CyclesStatus>() },
    /** Operators: the heap line past which new players and games are refused (bytes). */
    admin_set_heap_limit: {
        kind: 'update',
        access: 'operator',
        shape: shape<{ heapLimitBytes: number }, { heapLimitBytes: number }>(),
    },
    // ---- identities part: the directory is the identity registry ----
    /**
     * The directory's shards: the account of an identity, created when new (the nickname seeds
     * only a new account, N4). A shard signing in an identity it does not know asks this once.
     */
    identity_account: {
        kind: 'update',
        access: 'shard',
        shape: shape<{ identity: Identity; nickname?: string }, RegisteredAccount>(),
    },
    /**
     * The directory's shards: an account removed by its player on the shard; the directory
     * removes its record and its own games' players, then has every other shard forget it.
     */
    account_deleted: {
        kind: 'update',
        access: 'shard',
        marks: 'everyGame',
        moves: 'waitsForAll',
        shape: shape<{ accountId: string }, Message>(),
    },
    /** A shard's directory: removes the account's players in every game here, its sessions, its record. */
    account_forget: {
        kind: 'update',
        access: 'directory',
        marks: 'everyGame',
        moves: 'waitsForAll',
        shape: shape<{ accountId: string }, Message>(),
    },
    // ---- codes part: user codes found through the directory ----
    /**
     * A shard's directory: the pending code of a typed user code on this shard (its game, the
     * game's name, seconds left), 404 when it has none. Counts nothing: the directory counted.
     */
    device_code_find: { kind: 'update', access: 'directory', shape: shape<{ userCode: string }, DeviceCodeFound>() },
    /** A shard's directory: new user codes here are long until `until` (µs; the later of it and the shard's own). */
    set_long_codes_until: {
        kind: 'update',
        access: 'directory',
        shape: shape<{ until: number }, { longCodesUntil: number }>(),
    },
} as const satisfies Record<string, MethodRow>;

/** Request and reply of every method. */
export type Methods = { [M in keyof typeof METHODS]: (typeof METHODS)[M]['shape'] };
export type Method = keyof Methods;
export type RequestOf<M extends Method> = Methods[M]['request'];
export type ReplyOf<M extends Method> = Methods[M]['reply'];
/**
 * A request a gateway passes on as it came (a dashboard form's fields, the admin CLI's
 * arguments): the method's keys, the values unchecked. The canister checks every value of
 * every request anyway; this says so instead of claiming the types.
 */
export type Relayed<M extends Method> = { [K in keyof RequestOf<M>]?: unknown };

/** The methods a gateway sends as `route` says (see Route). */
export type RoutedAs<R extends Route> = {
    [M in Method]: (typeof METHODS)[M] extends { routes: R } ? M : never;
}[Method];

/** A developer method on one game that the directory forwards to the game's shard (dev_forward). */
export const forwardedByDirectory = (method: string): method is Method => {
    const routes = (METHODS as Record<string, MethodRow>)[method]?.routes;
    return routes === 'viaDirectory' || routes === 'testEvent';
};

export const isQuery = (method: Method): boolean => METHODS[method].kind === 'query';

/** The methods that answer a `blob` (their request and reply packed: `packs`). */
export const isPacked = (method: Method): boolean => (METHODS[method] as MethodRow).packs !== undefined;

/** The methods whose request is one Candid blob (their rows' `takesBytes`). */
export const takesBytes = (method: Method): boolean => (METHODS[method] as MethodRow).takesBytes !== undefined;

/**
 * The Candid interface the agent needs: every method is `(text) -> (text)`, a packed one
 * `(text) -> (blob)`, one that takes bytes `(blob) -> (text)`.
 */
export const idlFactory: IDL.InterfaceFactory = ({ IDL: I }) =>
    I.Service(
        Object.fromEntries(
            (Object.keys(METHODS) as Method[]).map((m) => [
                m,
                I.Func(
                    [takesBytes(m) ? I.Vec(I.Nat8) : I.Text],
                    [isPacked(m) ? I.Vec(I.Nat8) : I.Text],
                    isQuery(m) ? ['query'] : [],
                ),
            ]),
        ),
    );

/** The actor `idlFactory` gives: each method takes and returns JSON text (a packed one, or one taking bytes: bytes). */
export type LeaderboardActor = Record<Method, (arg: string | Uint8Array) => Promise<string | Uint8Array>>;
