// The HTTP API's request bodies and response `data`, as zod schemas: the gateway validates
// with them, the API reference (/openapi.json, /docs) is generated from them, and the types
// below are inferred from them (the canister imports only those types, never zod). Values are
// checked by the contract's plain rules (./rules.ts), so both hosts answer with the same words.
import { z } from 'zod';

import {
    MAX_PLAYER_SET,
    METADATA_MAX_BYTES,
    METADATA_MAX_DEPTH,
    checkMetadata,
    parsePlayerSet,
    type Metadata,
} from './board-options';
import { FIELD } from './messages';
import { REPORT_LIMITS, REPORT_REASONS, checkReason, checkReportText, checkSeenRank } from './reports';
import {
    ACHIEVEMENT_ID,
    FANOUT_BOARDS,
    LIMIT,
    MAX_ACHIEVEMENTS_PER_CALL,
    MAX_PLAY_SESSION_TOKEN,
    NICKNAME,
    PATH_ID,
    PLAYER_ID,
    SORTS,
    checkAchievementId,
    checkBoardId,
    checkCount,
    checkNickname,
    checkPlayerId,
    invalid,
    type Check,
} from './rules';

// ---- building blocks ---------------------------------------------------------------------------------

/** A string field whose value a contract rule checks; `json` says the same for the reference. */
function ruled(field: string, check: Check, json: Record<string, unknown>) {
    return z
        .string({ error: invalid(field, 'must be a string') })
        .superRefine((value, ctx) => {
            const message = check(value);
            if (message !== undefined) ctx.addIssue({ code: 'custom', message });
        })
        .meta(json);
}

/** A score or streak: a non-negative integer a double holds exactly. */
function count(field: string) {
    return z
        .number({ error: invalid(field, FIELD.count) })
        .superRefine((value, ctx) => {
            const message = checkCount(field, value);
            if (message !== undefined) ctx.addIssue({ code: 'custom', message });
        })
        .meta({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
}

/** Optional in the contract; JSON null counts as absent (some engines send null for "no value"). */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

// Not z.int(): nanosecond times are above 2^53 (JSON carries them as plain integers, rule E1).
export const Nanoseconds = z
    .number()
    .brand<'ns'>()
    .meta({ type: 'integer', description: 'nanoseconds since the Unix epoch' });
/** A time as replies carry it: integer nanoseconds since the epoch (spec: envelope rule 3). */
export type Nanoseconds = z.infer<typeof Nanoseconds>;

/** A body's gameId: optional, the credential's game; empty or null is the same as none (rule K3). */
const GameIdField = z
    .string({ error: invalid('gameId', 'must be a string') })
    .nullish()
    .transform((v) => (v === '' || v === null ? undefined : v))
    .meta({ description: "the game of the credential; optional (empty or null: none, the credential's game)" });
const NicknameField = ruled('nickname', checkNickname, {
    minLength: NICKNAME.min,
    maxLength: NICKNAME.max,
    pattern: NICKNAME.characters.source,
    description: 'rule N1 on submits, N2 on PUT',
});
const BoardIdField = ruled('scoreboardId', checkBoardId, { pattern: PATH_ID.source, description: FIELD.scoreboardId });
const AchievementIdField = ruled('achievementId', checkAchievementId, {
    pattern: ACHIEVEMENT_ID.source,
    description: FIELD.achievementId,
});
const PlaySessionTokenField = z.string({ error: invalid('playSessionToken', 'must be a string') });

export const Period = z.enum(['allTime', 'daily', 'weekly', 'monthly', 'custom']);
export type Period = z.infer<typeof Period>;
export const SortBy = z.enum(SORTS);
export type SortBy = z.infer<typeof SortBy>;

// ---- request bodies ----------------------------------------------------------------------------------

/** A signed-in player's id in a game: `@` and 32 hex digits (only the server key writes with it). */
const ACCOUNT_PLAYER_ID = /^@[0-9a-f]{32}$/;

/**
 * The player a write acts for; required with an API key or the server key, ignored with a session
 * (rule K2). The server key may also name a signed-in player's `@` id (the API key may not:
 * the canister refuses it with the same words as here).
 */
const WriterPlayerId = optional(
    ruled('playerId', (id) => (typeof id === 'string' && ACCOUNT_PLAYER_ID.test(id) ? undefined : checkPlayerId(id)), {
        pattern: `(?:${PLAYER_ID.source})|(?:${ACCOUNT_PLAYER_ID.source})`,
        description: `required with X-API-Key or the server key; ignored with X-Session-Token. ${FIELD.playerId}; with the server key also a signed-in player's @ id`,
    }),
);

/**
 * Entry metadata: checked by the contract's rule (the canister answers with the same words).
 * Unlike other optional fields, null is refused: the field is new, no client sends it by habit.
 */
const MetadataField = z
    .custom<Metadata | undefined>()
    .superRefine((value, ctx) => {
        if (value === undefined) return;
        const message = checkMetadata(value);
        if (message !== undefined) ctx.addIssue({ code: 'custom', message });
    })
    .optional()
    .meta({
        type: 'object',
        description:
            `optional: a JSON object of at most ${METADATA_MAX_BYTES} bytes, nested at most ${METADATA_MAX_DEPTH} levels, ` +
            "without '__proto__' keys or control characters; kept with the entry this submit produces " +
            "(best: only a new best by the board's ranking; latest and sum: every accepted submit) and shown in board reads",
    });

export const SubmitBody = z.object({
    playerId: WriterPlayerId,
    gameId: GameIdField,
    score: count('score'),
    streak: count('streak'),
    nickname: optional(NicknameField),
    playSessionToken: optional(
        PlaySessionTokenField.meta({ description: 'required when the game has time validation on' }),
    ),
    scoreboardId: optional(BoardIdField.meta({ description: `one targeted board (not ${FANOUT_BOARDS.join(', ')})` })),
    metadata: MetadataField,
    tiebreak: count('tiebreak').optional().meta({
        description:
            "optional: ranks equal scores on a board with the `tiebreak` option (e.g. the time taken, with `asc`); a non-negative integer a double holds exactly, like scores. Kept with the score it came with (best: an equal score with a better tiebreak is a new best; latest and sum: the last submit's); ignored by boards without the option",
    }),
});

export const NicknameBody = z.object({ nickname: NicknameField });

/** A player's report of an entry they saw on the board of the path (docs/reports.md). */
export const ReportBody = z.object({
    playerId: WriterPlayerId,
    gameId: GameIdField,
    nickname: NicknameField.meta({ description: "the reported entry's nickname, as the board shows it" }),
    rank: optional(
        z
            .number({ error: invalid('rank', 'must be a whole number from 1') })
            .superRefine((value, ctx) => {
                const message = checkSeenRank(value);
                if (message !== undefined) ctx.addIssue({ code: 'custom', message });
            })
            .meta({
                type: 'integer',
                minimum: 1,
                description: 'the rank the player saw: finds an entry with a default name (Player_<n>) near it',
            }),
    ),
    reason: z.enum(REPORT_REASONS, { error: checkReason(undefined) }).meta({ description: 'why' }),
    text: optional(
        ruled('text', checkReportText, {
            maxLength: REPORT_LIMITS.text,
            description: 'optional words of the reporter, kept as text and shown escaped to the developer',
        }),
    ),
});

export const AchievementBody = z.object({
    playerId: WriterPlayerId,
    gameId: GameIdField,
    achievementId: optional(AchievementIdField),
    achievementIds: optional(
        z
            .array(AchievementIdField, { error: invalid('achievementIds', 'must be a list of strings') })
            .min(1, { error: invalid('achievementIds', 'must not be empty') })
            .max(MAX_ACHIEVEMENTS_PER_CALL, {
                error: invalid('achievementIds', `may hold at most ${MAX_ACHIEVEMENTS_PER_CALL} ids`),
            }),
    ),
});

export const PlaySessionStartBody = z.object({ playerId: WriterPlayerId, gameId: GameIdField });

export const PlaySessionEndBody = z.object({
    playSessionToken: PlaySessionTokenField.min(1, { error: invalid('playSessionToken', 'must not be empty') }).max(
        MAX_PLAY_SESSION_TOKEN,
        {
            error: invalid('playSessionToken', `must be at most ${MAX_PLAY_SESSION_TOKEN} characters`),
        },
    ),
});

export const PlayerSetBody = z.object({
    playerIds: z
        .array(z.string({ error: invalid('playerIds', 'must be a list of player ids') }), {
            error: invalid('playerIds', 'must be a list of player ids'),
        })
        .superRefine((ids, ctx) => {
            const parsed = parsePlayerSet(ids, (id) => PLAYER_ID.test(id), FIELD.playerId);
            if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
        })
        .meta({
            items: { type: 'string', pattern: PLAYER_ID.source },
            description: `the players to read (friends, a clan): at most ${MAX_PLAYER_SET} different ids; a duplicate counts once`,
        }),
});

// ---- query parameters (parsed by rules.parseLimit / parseSort; described here for the reference) -----

export const LimitQuery = z.object({
    limit: z.optional(
        z.string().meta({
            type: 'integer',
            minimum: 1,
            maximum: LIMIT.max,
            default: LIMIT.default,
            description: 'clamped to 1..1000',
        }),
    ),
});
export const LimitOffsetQuery = LimitQuery.extend({
    offset: z.optional(
        z
            .string()
            .meta({ type: 'integer', minimum: 0, default: 0, description: 'entries to skip from the top (paging)' }),
    ),
});
/** `?filter=<key>:<value>`: a board's reads of only the entries with that metadata value (docs/filters.md). */
export const FilterQuery = z.object({
    filter: z.optional(
        z.string().meta({
            description:
                "`<key>:<value>`: only the entries whose metadata has this value for one of the board's `filters` keys, ranked and counted among themselves (a key the board does not declare: 400; a value nobody has: an empty board)",
        }),
    ),
});
export const PercentileQuery = z.object({
    percentile: z.optional(
        z.enum(['true', 'false']).meta({
            default: 'false',
            description: "`true` adds the rank's `percentile` to the answer",
        }),
    ),
});
export const LimitSortQuery = LimitQuery.extend({ sort: z.optional(SortBy.meta({ default: 'score' })) });
/** A board read's query: paging and a filter. */
export const BoardReadQuery = LimitOffsetQuery.extend(FilterQuery.shape);

// ---- response data -------------------------------------------------------------------------------------

export const SubmitReply = z.object({
    message: z.string().meta({ description: 'human-readable feedback; not a structured field' }),
});
export type SubmitReply = z.infer<typeof SubmitReply>;

const LeaderboardEntry = z.object({
    rank: z.number().int(),
    nickname: z.string(),
    score: z.number().int(),
    streak: z.number().int(),
    authType: z.string().meta({ description: '`external` for anonymous / API-key players' }),
});
type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

export const Leaderboard = z.object({ leaderboard: z.array(LeaderboardEntry), total: z.number().int() });
export type Leaderboard = z.infer<typeof Leaderboard>;

export const BoardEntry = LeaderboardEntry.extend({
    submittedAt: Nanoseconds,
    metadata: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'what the submit that produced the entry sent as `metadata` (absent when none)' }),
    tiebreak: z.number().int().optional().meta({
        description:
            "only on a board with the `tiebreak` option: the tiebreak kept with the entry's score (absent when its submit sent none)",
    }),
});
export type BoardEntry = z.infer<typeof BoardEntry>;
/** A rank's percentile, in the rank reads that ask for it (`?percentile=true`). */
const PercentileField = z.number().optional().meta({
    description:
        'with `?percentile=true`: how far down the board the rank is, in percent of its entries, rounded up to one decimal ("top 0.1 %" for the leader of a big board, 100 for the last); absent otherwise',
});

export const Around = z.object({
    rank: z
        .number()
        .int()
        .meta({ description: "the player's rank (shared by equal values on a board with ties 'shared')" }),
    percentile: PercentileField,
    entries: z.array(BoardEntry),
});
export type Around = z.infer<typeof Around>;

/** Where an entry stands in its league division (docs/leagues.md): by its position in the division's order. */
export const DIVISION_ZONES = ['promotion', 'stay', 'demotion'] as const;
const TierRef = z.object({
    index: z.number().int().meta({ description: 'the tier, 0 = the lowest (where new players start)' }),
    name: z.string(),
});
export const DivisionEntry = BoardEntry.extend({
    rank: z.number().int().meta({ description: "rank in the division, by the board's order, ties and tiebreak" }),
    zone: z.enum(DIVISION_ZONES).meta({
        description: 'what the close would do now: promotion (up a tier), demotion (down a tier) or stay',
    }),
    you: z.literal(true).optional().meta({ description: 'the player asked about (absent on the others)' }),
});
export type DivisionEntry = z.infer<typeof DivisionEntry>;
export const Division = z.object({
    scoreboardId: z.string(),
    periodStart: Nanoseconds,
    periodEnd: Nanoseconds,
    tier: TierRef.meta({ description: "the player's tier this period" }),
    tiers: z.number().int().meta({ description: 'how many tiers the league has' }),
    division: z
        .number()
        .int()
        .nullable()
        .meta({ description: "the player's division this period (null: not played this period yet; entries [])" }),
    promote: z.number().int().meta({ description: 'promoted per division from this tier (0 in the top tier)' }),
    demote: z.number().int().meta({ description: 'demoted per division from this tier (0 in the lowest tier)' }),
    entries: z.array(DivisionEntry).meta({ description: "the division's entries in rank order" }),
    player: z
        .object({ rank: z.number().int(), zone: z.enum(DIVISION_ZONES) })
        .nullable()
        .meta({ description: "the player's rank and zone in the division (null: not in one this period)" }),
});
export type Division = z.infer<typeof Division>;

const PlayerSetEntry = BoardEntry.extend({
    playerId: z.string().meta({ description: 'one of the ids asked for' }),
    rank: z.number().int().meta({
        description:
            "rank among the players asked for who are on the board, in board order (equal values share one on a board with ties 'shared')",
    }),
    globalRank: z.number().int().meta({ description: 'rank on the whole board, as its pages show it' }),
    percentile: z.number().meta({
        description: 'how far down the whole board globalRank is, in percent of its entries, rounded up to one decimal',
    }),
});
export const PlayerSet = z.object({
    scoreboardId: z.string(),
    entries: z
        .array(PlayerSetEntry)
        .meta({ description: 'the players asked for who have an entry this period, in board order' }),
    missing: z.array(z.string()).meta({
        description:
            'the ids asked for with no entry on the board this period (unknown players too), in the order given',
    }),
    totalEntries: z.number().int().meta({ description: "the board's size in the current period" }),
});
export type PlayerSet = z.infer<typeof PlayerSet>;

const BoardListItem = z.object({
    scoreboardId: z.string(),
    name: z.string(),
    description: z.string(),
    period: Period,
    sortBy: SortBy,
    targeted: z.boolean(),
    entryCount: z.number().int(),
    lastReset: Nanoseconds.or(z.literal(0)).meta({
        description: 'start of the current period; 0 for boards that never reset',
    }),
    isActive: z.boolean(),
});
export const BoardList = z.object({ gameId: z.string(), scoreboards: z.array(BoardListItem) });
export type BoardList = z.infer<typeof BoardList>;

export const Board = z.object({
    scoreboardId: z.string(),
    config: z.object({
        name: z.string(),
        description: z.string(),
        period: Period,
        sortBy: SortBy,
        lastReset: Nanoseconds.or(z.literal(0)),
    }),
    entries: z.array(BoardEntry),
    totalEntries: z.number().int(),
});
export type Board = z.infer<typeof Board>;

export const ArchiveList = z.object({
    gameId: z.string(),
    scoreboardId: z.string(),
    archives: z.array(
        z.object({
            archiveId: z.string().meta({ description: '<gameId>:<boardId>:<periodStartNs>' }),
            periodStart: Nanoseconds,
            periodEnd: Nanoseconds,
            entryCount: z.number().int(),
            topPlayer: z.string().nullable(),
            topScore: z.number().int().nullable(),
        }),
    ),
});
export type ArchiveList = z.infer<typeof ArchiveList>;

export const ArchiveStats = z.object({
    gameId: z.string(),
    totalArchives: z.number().int().meta({ description: 'archived periods of all its timed boards' }),
    byScoreboard: z
        .array(
            z.object({
                scoreboardId: z.string(),
                archiveCount: z.number().int(),
                latestPeriodEnd: Nanoseconds.or(z.literal(0)).meta({
                    description: "the newest archive's periodEnd (ns); 0 when the board has none yet",
                }),
            }),
        )
        .meta({
            description:
                'one item per timed board (daily, weekly, monthly, custom: every board but all-time ones), in board order',
        }),
});
export type ArchiveStats = z.infer<typeof ArchiveStats>;

export const Archive = z.object({
    archiveId: z.string(),
    config: z.object({
        name: z.string(),
        period: Period,
        sortBy: SortBy,
        periodStart: Nanoseconds,
        periodEnd: Nanoseconds,
    }),
    entries: z.array(BoardEntry),
    totalEntries: z.number().int(),
});
export type Archive = z.infer<typeof Archive>;

export const Profile = z.object({
    nickname: z.string(),
    created: Nanoseconds,
    gameProfile: z.object({
        score: z.number().int(),
        streak: z.number().int(),
        achievements: z.array(z.string()),
        playCount: z.number().int(),
        lastPlayed: Nanoseconds,
    }),
});
export type Profile = z.infer<typeof Profile>;

export const PlayerRank = z.object({
    rank: z.number().int(),
    score: z.number().int(),
    streak: z.number().int(),
    totalPlayers: z.number().int(),
    percentile: PercentileField,
});
export type PlayerRank = z.infer<typeof PlayerRank>;

export const BoardRank = z.union([
    PlayerRank.extend({ found: z.literal(true) }),
    z.object({ found: z.literal(false), message: z.string(), totalPlayers: z.number().int() }),
]);
export type BoardRank = z.infer<typeof BoardRank>;

export const NicknameReply = z.object({
    nickname: z.string().meta({ description: 'the name actually applied' }),
    message: z.string(),
});
export type NicknameReply = z.infer<typeof NicknameReply>;

export const AchievementReply = z.object({
    unlocked: z.number().int(),
    total: z.number().int(),
    results: z.array(z.object({ achievementId: z.string(), success: z.boolean(), message: z.string() })),
});
export type AchievementReply = z.infer<typeof AchievementReply>;

/** POST /achievements: the canister's reply, and for a single unlock the id unlocked (the Unity SDK reads it). */
export const UnlockReply = AchievementReply.extend({
    achievementId: z
        .string()
        .optional()
        .meta({ description: 'a single unlock (achievementId in the body): the id unlocked; absent for a batch' }),
});
export type UnlockReply = z.infer<typeof UnlockReply>;

export const PlaySessionStarted = z.object({
    ok: z.string().meta({ description: 'the play-session token' }),
    message: z.string(),
});
export type PlaySessionStarted = z.infer<typeof PlaySessionStarted>;

export const Message = z.object({ message: z.string() });
export type Message = z.infer<typeof Message>;

export const GameInfo = z.object({
    gameId: z.string(),
    name: z.string(),
    description: z.string(),
    totalPlayers: z.number().int(),
    totalPlays: z.number().int(),
    isActive: z.boolean(),
    timeValidationEnabled: z.boolean(),
    scoreboards: z.array(z.object({ scoreboardId: z.string(), name: z.string(), period: Period })),
});
export type GameInfo = z.infer<typeof GameInfo>;

/** GET /game: the game, and where its own canister serves direct reads when that is not {canister_url}. */
export const GameReply = GameInfo.extend({
    canisterUrl: z.string().optional().meta({
        description:
            "the direct-read URL of the game's own canister, when the game lives on another canister than {canister_url} (a shard): the same board paths answer there without a redirect; absent when {canister_url} holds the game",
    }),
});
export type GameReply = z.infer<typeof GameReply>;

export const GameStats = z.object({
    gameId: z.string(),
    totalPlayers: z.number().int(),
    totalPlays: z.number().int(),
    submissions: z.object({ total: z.number().int(), today: z.number().int() }),
});
export type GameStats = z.infer<typeof GameStats>;

export const PlatformStats = z.object({
    total: z.number().int(),
    today: z.number().int(),
    date: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
});
export type PlatformStats = z.infer<typeof PlatformStats>;

export const Health = z.object({ status: z.literal('healthy'), version: z.string() });
export type Health = z.infer<typeof Health>;

// ---- sign-in ---------------------------------------------------------------------------------------

export const DeviceCodeBody = z.object({
    gameId: GameIdField,
    nickname: optional(NicknameField.meta({ description: 'N4: seeds the nickname of a brand-new account only' })),
});

export const DeviceCodeStarted = z.object({
    device_code: z.string().meta({ description: 'poll POST /auth/device/token with it' }),
    user_code: z
        .string()
        .meta({ description: 'XXXX-XXXX (XXXX-XXXX-XXXX-XXXX while codes are being guessed), shown to the player' }),
    verification_url: z.string().meta({ description: 'the link page' }),
    verification_url_complete: z
        .string()
        .meta({ description: 'the link page with the code filled in (the QR code encodes it)' }),
    expires_in: z.number().int(),
    interval: z.number().int(),
    qr_data_url: z.string().meta({ description: 'data:image/png;base64,... of verification_url_complete' }),
});

export const DeviceTokenBody = z.object({
    device_code: z
        .string({ error: invalid('device_code', 'must be a string') })
        .max(200, { error: invalid('device_code', 'is too long') }),
});

export const Approval = z.object({
    sessionId: z.string().meta({ description: 'send it as X-Session-Token from now on' }),
    nickname: z.string(),
    email: z.string(),
    gameProfile: Profile.shape.gameProfile,
    isNewUser: z.boolean(),
    provider: z.string(),
});

export const IdTokenBody = z.object({
    id_token: optional(z.string({ error: invalid('id_token', 'must be a string') }).max(10_000)),
    idToken: optional(z.string({ error: invalid('idToken', 'must be a string') }).max(10_000)),
    identityToken: optional(z.string({ error: invalid('identityToken', 'must be a string') }).max(10_000)),
    nickname: optional(NicknameField.meta({ description: 'N4: seeds the nickname of a brand-new account only' })),
});

export const SessionProfile = Profile.extend({ email: z.string(), provider: z.string() });

export const MigrateBody = z.object({
    deviceId: ruled('deviceId', checkPlayerId, {
        pattern: PLAYER_ID.source,
        description: 'the anonymous playerId to merge',
    }),
});

export const Migrated = z.object({
    message: z.string(),
    migratedGames: z.number().int(),
    migratedScoreboards: z.number().int(),
});

// ---- rewards (docs/rewards.md) ---------------------------------------------------------------------

/** A prize granted to a player at a board's close. */
export const Grant = z.object({
    grantId: z.string().meta({
        description:
            '<scoreboardId>.<periodStart µs>.<prize row>.<player slot>: the same for the same close, row and player, so a close grants once',
    }),
    scoreboardId: z.string(),
    periodStart: Nanoseconds,
    periodEnd: Nanoseconds,
    rank: z.number().int().meta({ description: 'the rank that won it (in the division on a league board)' }),
    tier: TierRef.optional().meta({ description: "league boards: the division's tier" }),
    division: z.number().int().optional().meta({ description: 'league boards: the division' }),
    reward: z.string().meta({ description: "the prize table row's reward: what the game gives the player" }),
    amount: z.number().int(),
    grantedAt: Nanoseconds,
    claimedAt: Nanoseconds.optional().meta({ description: 'absent until claimed' }),
});
export type Grant = z.infer<typeof Grant>;

export const Rewards = z.object({
    rewards: z.array(Grant).meta({ description: 'unclaimed first, newest first' }),
});
export type Rewards = z.infer<typeof Rewards>;

export const RewardClaim = z.object({
    grant: Grant,
    claimed: z.literal(true),
    alreadyClaimed: z
        .boolean()
        .meta({ description: 'true: it was claimed before and nothing changed now (give the reward only when false)' }),
});
export type RewardClaim = z.infer<typeof RewardClaim>;
