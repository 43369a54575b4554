// The records kept in stable memory (the durable truth), as plain JSON-able data.
import type { Operator, SortOrder, StandardBoards, Tiebreak } from '../../contract/board-options';
import type {
    BoardConfig,
    Caps,
    Identity,
    ModerationAction,
    SuspicionEntry,
    TimeValidation,
} from '../../contract/canister';
import type { ReportReason } from '../../contract/reports';
import type { DeviceCodeStatus } from '../domain/device-codes';
import type { PlaySession } from '../domain/anti-cheat';
import type { Best } from '../domain/bests';
import type { LastSubmit } from '../domain/throttle';
import type { EventKind } from '../../contract/event-log';
import type { DeliveryAttempt, LostEvents } from '../../contract/webhooks';
import type { TopUp } from '../../contract/cycles';
import type { RewardClaims } from '../../contract/rewards';

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
    /** Custom boards: where their periods count from (absent = createdAt); a reset moves it. */
    anchor?: number;
    /** When its league was turned on (µs): names its league records (state/leagues.ts leagueKey). */
    leagueSince?: number;
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
    /** Next sequence number of the moderation log. */
    moderationSeq?: number;
    /** Next sequence number of the review queue (absent: 0, nothing was ever queued). */
    reviewSeq?: number;
    /** Bans of player ids that had no record when banned (kept in `bans`). */
    pendingBans?: number;
    /** Bans of accounts' identities (kept in `bans`, bans.ts). */
    identityBans?: number;
    /** Players wiped from the archives: their entries in periods before `before` are hidden. */
    archiveWipes?: Array<{ slot: number; before: number }>;
    /** The last board serial handed out. */
    boardSerial?: number;
    /** Absent: DEFAULT_STANDARD_BOARDS (also copied onto the standard board records). */
    standardBoards?: StandardBoards;
    /** SHA-256 (hex) of the game's server key and when it was made (absent: none). */
    serverKey?: { hash: string; createdAt: number };
    /** Scores and achievement unlocks from the server key only (absent = false). */
    serverOnly?: boolean;
    /** Server-key submits skip caps and time validation (absent = false: they apply). */
    serverSkipsChecks?: boolean;
    /** Record `score_submitted` for every accepted submit (absent = false; webhooks may also ask for it). */
    everySubmitEvents?: boolean;
    /** Who may claim players' rewards (absent = 'client', contract/rewards.ts). */
    rewardClaims?: RewardClaims;
    /** The game's webhook endpoints in brief (their full records: Store.webhooks), kept by service/webhooks.ts. */
    webhooks?: Array<{ webhookId: string; kinds: EventKind[]; paused: boolean }>;
}

export interface DeveloperRecord {
    developerId: string;
    allowance: number;
    gameIds: string[];
    /** Developers who sign in to the dashboard. */
    email?: string;
    provider?: string;
    /** A standing request for more game slots. */
    request?: { games: number; message: string; at: number };
}

/** A dashboard session, kept under the hash of its token. */
export interface DeveloperSessionRecord {
    developerId: string;
    createdAt: number;
    renewedAt: number;
    expiresAt: number;
}

/** A ban of a player id (or an account's `@id`, or an account's identity) in a game. */
export interface BanRecord {
    at: number;
    reason: string;
    /** On an account's ban: the hash of its identity, also banned (bans.ts). */
    identity?: string;
}

/**
 * A player's entry of one board waiting in the game's review queue (service/review.ts): the
 * entry as the implausible submit wrote it (flagged), or the submit kept off the board (held),
 * and the board's first it was judged against.
 */
export interface ReviewRecord {
    /** Its place in the game's queue ring (`reviewQueue`): a newer flag of the same entry replaces it. */
    seq: number;
    kind: 'flagged' | 'held';
    score: number;
    streak: number;
    /** The ranked value (score, or streak on a streak board) of the board's first at the time. */
    first: number;
    /** µs. */
    at: number;
    /** The board's period and serial then: a verdict removes an entry of that period of that board only. */
    period: number;
    serial: number;
    /** Held: the submit's metadata (JSON text), written with it if approved. */
    metadata?: string;
    /** Held: the submit's tiebreak, written with it if approved. */
    tiebreak?: number;
}

/** One moderation action, kept in the game's log (a ring like the suspicion log). */
export interface ModerationRecord {
    at: number;
    action: ModerationAction;
    playerId: string;
    scoreboardId?: string;
    detail: string;
}

/** One player's report of an entry (service/reports.ts). */
export interface ReportRecord {
    /** The reporter's player id. */
    by: string;
    /** A short hash of the reporter's client address, when the gateway knew a public one. */
    client?: string;
    reason: ReportReason;
    text?: string;
    at: number;
}

/** A reported entry: its player and board, and its distinct reporters (at most REPORT_LIMITS.reportersPerItem). */
export interface ReportItemRecord {
    playerId: string;
    scoreboardId: string;
    nickname: string;
    reports: ReportRecord[];
    firstAt: number;
    lastAt: number;
}

/** A game's open items (`<playerId>/<boardId>`, reporters, last report), most reporters then latest first. */
export interface ReportQueueRecord {
    items: Array<[item: string, reporters: number, lastAt: number]>;
}

/** How many new entries a reporter reported on a UTC day. */
export interface ReporterDayRecord {
    day: number;
    count: number;
}

/** One UTC day of a game's activity (a ring of 90 days). */
export interface DailyRecord {
    /** The UTC day, in days since the epoch. */
    day: number;
    submissions: number;
    plays: number;
    activePlayers: number;
    newPlayers: number;
    /** Submissions per board id. */
    boards: Dict<number>;
    /** Active players per sign-in provider (authType). */
    providers: Dict<number>;
}

/** One board entry of a player: the bests of one period. */
export interface EntryRecord extends Best {
    period: number;
    submittedAt: number;
    /** The serial of the board it was written to (absent = 0). */
    serial?: number;
    /** The entry's metadata as JSON text (domain/metadata.ts says whose); absent = none. */
    metadata?: string;
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
    /** The all-time entry's metadata as JSON text (domain/metadata.ts); absent = none. */
    bestMetadata?: string;
    playCount: number;
    lastPlayed: number;
    /** Entries on the other boards (timed fan-out boards and targeted boards), by board id. */
    boards: Dict<EntryRecord>;
    /**
     * Last accepted submit per board key ('*' = the fan-out boards), for the 2 s rate limit,
     * retries and repeat plays; kept for the play de-duplication window.
     */
    pace: Dict<LastSubmit>;
    /** The last UTC day (days since the epoch) the player submitted: daily active players. */
    activeDay?: number;
    /** Banned players' submits are refused. */
    banned?: BanRecord;
    /**
     * Set once the player is gone from every board: merged into a signed-in account's player
     * (its id and slot), or removed (its account was deleted). Its submits are refused.
     */
    retired?: { into?: string; intoSlot?: number };
}

/** A signed-in person: one per (issuer, subject). */
export interface AccountRecord {
    accountId: string;
    issuer: string;
    subject: string;
    email: string;
    /** The identity provider's name; `authType` of the account's entries. */
    provider: string;
    /** The name asked for when the account was created (N4); each game's player has its own. */
    nickname?: string;
    createdAt: number;
    /** Games the account has a player in (or wrote to). */
    games: string[];
    /**
     * Set on accounts made since every write of an account records its game in `games`; older
     * ones may have written to other games too (removing them looks in every game).
     */
    gamesTracked?: true;
    /** identityHash (bans.ts) of issuer and subject, kept from creation; computed for older accounts. */
    identityHash?: string;
}

/** A player session, kept under the hash of its token. */
export interface PlayerSessionRecord {
    accountId: string;
    /** The game the session was signed in for. */
    gameId: string;
    signedInAt: number;
    renewedAt: number;
    expiresAt: number;
    /** An anonymous player was merged into the account with this session (at most once). */
    merged?: boolean;
}

/** A device code, kept under the hash of the code; its user code points to it while pending. */
export interface DeviceCodeRecord {
    userCode: string;
    gameId: string;
    /** N4: the name for a brand-new account. */
    nickname?: string;
    createdAt: number;
    expiresAt: number;
    status: DeviceCodeStatus;
    /** Who approved it (until it is redeemed). */
    identity?: Identity;
    /** Past its lifetime: its user code and place under the caps are free again. */
    released?: boolean;
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
    /** The board's order and operator when archived (absent: the defaults): merges read later combine entries by them. */
    sortOrder?: SortOrder;
    operator?: Operator;
    /** The board's tiebreak when archived (absent: none): equal scores were ranked by it. */
    tiebreak?: Tiebreak;
    periodStart: number;
    periodEnd: number;
    entryCount: number;
    /** Top entries in rank order (at most 1000: the most a read may ask for). */
    entries: Array<{
        nickname: string;
        score: number;
        streak: number;
        authType: string;
        submittedAt: number;
        slot?: number;
        /** The entry's metadata as JSON text; absent = none. */
        metadata?: string;
        /** On an archive with a tiebreak: the entry's (absent = none). */
        tiebreak?: number;
    }>;
}

export interface Stats {
    players: number;
    plays: number;
    submissions: number;
    today: number;
    /** The UTC day (ms at 00:00) `today` counts. */
    day: number;
    /** Players merged into accounts or removed: `players` counts slots ever handed out. */
    retired?: number;
    /**
     * A game's: the number of its next Player_<n> default nickname to try (players.ts
     * nextDefaultNumber). The platform's ('*'): where older releases counted for every game.
     */
    nextDefaultName?: number;
    /**
     * A game's: the highest <n> of a `Player_<n>`-shaped name (look-alikes included) its players
     * chose (rule N1 lets them take one not handed out yet), kept since a game's registration by
     * a release that keeps it (0 then); never lowered. Defaults above it need no look-up in the
     * nickname map. Absent (games of older releases, restored ones): every default asks the map.
     */
    chosenDefaultMax?: number;
    /** Events recorded in the game's log so far: the last event's seq (service/events.ts). */
    events?: number;
    /**
     * Events held past the log for webhook endpoints (service/held-events.ts): positions
     * `heldFrom` to `heldTo` (exclusive) of the game's held ring, oldest first.
     */
    heldFrom?: number;
    heldTo?: number;
    /** What each webhook endpoint (by id) lost: events of its kinds neither in the log nor held. */
    lost?: Record<string, LostEvents<number>>;
    /** `overtaken` events of clients' submits not recorded: over CLIENT_OVERTAKEN. */
    overtakenSkipped?: number;
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

/** A deleted game whose players and archives are still being removed, a few per tick. */
export interface PurgeRecord {
    gameId: string;
    /** The next player slot to remove, and how many there are. */
    next: number;
    players: number;
    /** Store keys of its archives. */
    archives: string[];
    /** Slots of its events (the ring, then those held for endpoints) still to remove, from the top down (absent: none). */
    events?: number;
    /** Store keys of its webhook endpoints (absent: none). */
    webhooks?: string[];
    /** Its boards whose grant index (Store.grantIndex) is still to remove (absent: none). */
    grantBoards?: string[];
}

/** Pending device codes, service-wide and by game (the caps). */
export interface PendingCodes {
    total: number;
    byGame: Record<string, number>;
}

/** What the heap snapshot holds (snapshot.ts); stored as the last part, so one cut short has none. */
export interface SnapshotManifest {
    version: number;
    games: Array<{
        gameId: string;
        parts: Array<{ name: string; meta: unknown; chunks: number }>;
        retired?: Array<[number, number]>;
    }>;
}

/**
 * A webhook endpoint with its delivery state (service/webhooks.ts): times in µs. The secret is
 * kept as given out (gateways sign with it); only gateway methods ever read it back.
 */
export interface WebhookRecord {
    webhookId: string;
    url: string;
    kinds: EventKind[];
    secret: string;
    createdAt: number;
    /** The last event seq delivered (or skipped as not of its kinds). */
    delivered: number;
    paused?: { at: number; reason: string };
    failures: number;
    failingSince?: number;
    nextAttemptAt?: number;
    /**
     * The gateway delivering now, until `expiresAt`: the seqs of the events it holds, and how far
     * `delivered` moves when all are answered (past the events of other kinds it skipped).
     */
    lease?: { leaseId: string; expiresAt: number; seqs: number[]; upTo: number };
    /** Leases taken over after they expired: their late reports still move `delivered`. */
    past?: Array<{ leaseId: string; seqs: number[]; upTo: number }>;
    /** Test-event leases (dev_test_webhook) whose reports are awaited. */
    tests?: Array<{ leaseId: string; expiresAt: number }>;
    /** Newest first, at most ATTEMPTS_KEPT. */
    /** When the last test event was handed out (µs): they are paced per endpoint. */
    lastTestAt?: number;
    attempts: Array<DeliveryAttempt<number>>;
}

// ---- move part ----

/** A source's move of one game (meta `moveOut`). */
export interface MoveOutRecord {
    gameId: string;
    startedAt: number;
    /** Next slot to stage; `players` slots in all (the game's counter when the move began). */
    next: number;
    players: number;
    /** Chunks staged so far (store.moveChunks `<gameId>/<index>`), their length and digest each (service/move/records.ts chunkDigest). */
    chunks: number;
    bytes: number;
    hashes: string[];
    ready: boolean;
    /**
     * An operator's backup (service/move/stale-backups.ts): the game's writes pause only while it is staged;
     * once ready they go on, and the staged chunks stay to be read until move_abort drops them.
     */
    backup?: true;
}

/** A target's import of one game (meta `moveIn`). */
export interface MoveInRecord {
    gameId: string;
    startedAt: number;
    /** The next chunk index expected; the digest of each chunk taken. */
    next: number;
    hashes: string[];
    record?: GameRecord;
    stats?: Stats;
    /** Highest slot taken + 1 (for dropping a half import). */
    players: number;
    events: number;
    /** A developer's backup file being imported (service/backup/), not a move. */
    backup?: true;
}

// ---- directory part ----

/** A shard its directory created (meta `shards`): times in µs. */
export interface ShardRecord {
    canisterId: string;
    createdAt: number;
    /** An operator took it out of placement (no new games; its games stay). */
    retired?: boolean;
    /** Past its heap line when the directory last asked (shard_status). */
    full?: boolean;
    /** Games the directory placed there (and did not delete): the tie-break of placement. */
    games?: number;
    /** false while created but its wasm not yet installed (the next admin_create_shard installs it). */
    ready?: false;
}

/**
 * The shard wasm (gzipped) an operator uploads, in the IC's chunk store of the directory:
 * `received` bytes of `total` so far, the hashes (hex) of their chunks in order; `complete` once
 * all are in. `sha256` is what the operator says the whole hashes to (the IC checks it at install).
 */
export interface ShardWasmRecord {
    total: number;
    sha256: string;
    received: number;
    complete: boolean;
    /** Absent in a record of a release before the chunk store (its bytes in `Store.shardWasm`): no wasm. */
    chunks?: string[];
}

/** What canister_status says of a canister (the directory's view of a shard, or of itself). */
export interface CanisterReading {
    cycles: number;
    idleBurnPerDay: number;
    /** The freezing threshold setting (seconds). */
    freezingThresholdSeconds: number;
    memoryBytes: number;
}

/** One balance a directory read (µs), with the cycles it had moved in (+) or out (-) by then. */
export interface FundsSample {
    at: number;
    cycles: number;
    flow: number;
}

/** What a directory keeps of one canister's cycles (service/funding.ts). */
export interface FundsRecord {
    /** The last canister_status (its cycles include the deposits made since). */
    reading: CanisterReading;
    /** When it was read (µs). */
    at: number;
    /** The last readings, oldest first: the burn is measured over them. */
    samples: FundsSample[];
    /** Cycles moved in (+) or out (-) so far. */
    flow: number;
    /** One balance a day, oldest first. */
    daily: Array<{ at: number; cycles: number }>;
    lastTopUp?: { at: number; cycles: number };
}

/** A directory's cycles bookkeeping: by canister (itself too), and its latest deposits, newest first. */
export interface FundingRecord {
    canisters: Record<string, FundsRecord>;
    topUps: TopUp[];
}

/** A prize granted to a player at a board's close (service/rewards.ts); times in µs. */
export interface GrantRecord {
    grantId: string;
    scoreboardId: string;
    periodStart: number;
    periodEnd: number;
    rank: number;
    /** League boards: the division's tier and number. */
    tier?: { index: number; name: string };
    division?: number;
    reward: string;
    amount: number;
    grantedAt: number;
    claimedAt?: number;
}

/** A player's grants in a game, oldest first (PRIZES.keepDays, at most PRIZES.perPlayer). */
export interface PlayerGrants {
    grants: GrantRecord[];
}

/** A board's closes that granted something, oldest first, with how many grants each made. */
export interface BoardGrants {
    periods: Array<{ start: number; end: number; count: number }>;
}

/** Who got a grant of a close (a chunk of the close's list, for the dashboard). */
export type GrantRef = [playerId: string, grantId: string];
