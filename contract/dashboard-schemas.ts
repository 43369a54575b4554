// The dashboard's JSON API (/dashboard/api, for developers' own tools): its request bodies,
// query parameters and response `data` as zod schemas, checked by the gateway and listed in the
// API reference like the rest of the API. The replies are the developer methods' replies of
// ./canister.ts (the routes' handlers are type-checked against these schemas).
import { z } from 'zod';

import { EVENT_TOP } from './event-log';
import {
    FILTER_KEY,
    LEAGUE,
    MAX_DECIMAL_PLACES,
    MAX_FILTERS,
    MAX_FILTER_VALUES,
    OPERATORS,
    REVIEW,
    REVIEW_MODES,
    SORT_ORDERS,
    TIEBREAKS,
    TIES,
    parseFilters,
    parseLeague,
    type League,
} from './board-options';
import { MODERATION_ACTIONS, REVIEW_ACTIONS } from './canister';
import { FIELD } from './messages';
import { REPORT_ACTIONS, REPORT_LIMITS, REPORT_REASONS } from './reports';
import { invalid } from './rules';
import { PRIZES, REWARD_CLAIMS, prizesRule } from './rewards';
import { BoardEntry, Grant, Nanoseconds, Period, SortBy, optional } from './schemas';

/** A player as the developer names one: an anonymous player id, or a signed-in player's `@…` id. */
export const PLAYER_REF = /^(?:[A-Za-z0-9_-]{1,100}|@[0-9a-f]{32})$/;
export const PLAYER_REF_TEXT = `${FIELD.playerId}, or a signed-in player's @ id`;
/** The longest ban reason the canister keeps. */
export const MAX_BAN_REASON = 200;
/** The days of analytics kept. */
export const ANALYTICS_DAYS = 90;
/** Entries of the suspicion and moderation logs kept per game. */
export const LOG_KEEP = 1000;

// ---- board options (contract/board-options.ts): the same values and messages as the canister's checks

const listed = (values: readonly string[]): string => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
const SortOrderField = z
    .enum(SORT_ORDERS, { error: invalid('sortOrder', `must be ${listed(SORT_ORDERS)}`) })
    .meta({ description: 'desc: higher is better (default); asc: lower is better (times, strokes, moves)' });
const OperatorField = z.enum(OPERATORS, { error: invalid('operator', `must be ${listed(OPERATORS)}`) }).meta({
    description:
        "best: each player's best by the order (default); latest: the last accepted submit; sum: every submit added up",
});
const TiesField = z.enum(TIES, { error: invalid('ties', `must be ${listed(TIES)}`) }).meta({
    description:
        'distinct: who reached a value first ranks higher (default); shared: equal values share a rank (1, 2, 2, 4)',
});
const TiebreakField = z.enum(TIEBREAKS, { error: invalid('tiebreak', `must be ${listed(TIEBREAKS)}`) }).meta({
    description:
        "equal scores rank by the submits' tiebreak: asc lower first (e.g. time taken), desc higher first; an entry without one ranks after those with one (absent: no tiebreak, the default). Boards ranked by score only; like order and operator it changes only while the board has no entries",
});
/** Every way a format can be wrong gets the canister's one message (./board-options.ts parseFormat). */
const badFormat = {
    error: invalid(
        'format',
        `must be { kind: 'number' | 'milliseconds' } or { kind: 'decimal', places: 1-${MAX_DECIMAL_PLACES} }`,
    ),
};
const FormatField = z
    .union(
        [
            z.strictObject({ kind: z.literal('number', badFormat) }, badFormat),
            z.strictObject({ kind: z.literal('milliseconds', badFormat) }, badFormat),
            z.strictObject(
                {
                    kind: z.literal('decimal', badFormat),
                    places: z.number(badFormat).int(badFormat).min(1, badFormat).max(MAX_DECIMAL_PLACES, badFormat),
                },
                badFormat,
            ),
        ],
        badFormat,
    )
    .meta({
        description:
            'how pages and CSV exports show scores (values stay integers): number (default), milliseconds (m:ss.mmm), decimal with places',
    });

/** Every way a filters list can be wrong gets the canister's one message (./board-options.ts parseFilters). */
const badFilters = { error: (parseFilters(null) as { error: string }).error };
const FiltersField = z
    .array(z.string(badFilters).regex(FILTER_KEY, badFilters), badFilters)
    .max(MAX_FILTERS, badFilters)
    .refine((keys) => new Set(keys).size === keys.length, badFilters)
    .meta({
        description: `metadata keys its reads can filter by (\`filter=<key>:<value>\`), at most ${MAX_FILTERS}; [] removes them. Each key indexes up to ${MAX_FILTER_VALUES} values per period (docs/filters.md)`,
    });

/** A league, checked whole by the canister's own rule (./board-options.ts parseLeague), with its message. */
const LeagueField = z
    .custom<League | null>()
    .superRefine((value, ctx) => {
        const parsed = parseLeague(value);
        if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
    })
    .meta({
        type: 'object',
        properties: {
            divisionSize: { type: 'integer', minimum: LEAGUE.divisionSize.min, maximum: LEAGUE.divisionSize.max },
            tiers: {
                type: 'array',
                minItems: LEAGUE.tiers.min,
                maxItems: LEAGUE.tiers.max,
                items: { type: 'string', minLength: LEAGUE.tierName.min, maxLength: LEAGUE.tierName.max },
            },
            promote: { type: 'integer', minimum: 0 },
            demote: { type: 'integer', minimum: 0 },
        },
        description:
            'timed boards only: players play in divisions of divisionSize within their tier (tiers: names, lowest first, all different); at each close the first promote of a division move up a tier and the last demote down (each at most divisionSize / 2); docs/leagues.md',
    });
const LeagueView = z
    .object({
        divisionSize: z.number().int(),
        tiers: z.array(z.string()),
        promote: z.number().int(),
        demote: z.number().int(),
    })
    .meta({ description: 'the league (docs/leagues.md); absent: not a league' });

const badEventTop = { error: invalid('eventTop', `must be a whole number from 0 to ${EVENT_TOP.max}`) };
const EventTopField = z
    .number(badEventTop)
    .int(badEventTop)
    .min(0, badEventTop)
    .max(EVENT_TOP.max, badEventTop)
    .meta({
        description: `how many top entries its new_leader, overtaken and period_closed events name (0: none; default ${EVENT_TOP.default})`,
    });

/** Every way a review setting can be wrong gets the canister's one message (./board-options.ts parseReview). */
const badReview = {
    error: invalid(
        'review',
        `must be { mode: 'off' } or { mode: 'flag' | 'hold', factor?: ${REVIEW.factor.min}-${REVIEW.factor.max} }`,
    ),
};
const ReviewFactor = z
    .number(badReview)
    .min(REVIEW.factor.min, badReview)
    .max(REVIEW.factor.max, badReview)
    .meta({
        description: `how far past the board's first a score is implausible (default ${REVIEW.factor.default}: twice the first; lowest-first boards: below half of it)`,
    });
const ReviewSettingField = z
    .union(
        [
            z.strictObject({ mode: z.literal('off', badReview) }, badReview),
            z.strictObject({ mode: z.enum(REVIEW_MODES, badReview), factor: ReviewFactor.optional() }, badReview),
        ],
        badReview,
    )
    .meta({
        description: `review of implausible scores (default off): with flag, a score that beats the board's first by more than factor, on a board of at least ${REVIEW.minEntries} entries, is accepted as always and its entry waits in the game's review queue; with hold, the player gets the same answer but the score stays off the board (and out of the events) in the queue until approved (docs/boards.md#review-of-implausible-scores); {mode: 'off'} turns it off`,
    });
const ReviewView = z
    .object({ mode: z.enum(REVIEW_MODES), factor: z.number() })
    .meta({ description: 'review of implausible scores; absent: off' });

/** Every way a prize table can be wrong gets the canister's one message (./rewards.ts parsePrizes). */
const badPrizes = { error: invalid('prizes', prizesRule()) };
const RewardName = z.string(badPrizes).regex(PRIZES.reward, badPrizes);
const Amount = z.number(badPrizes).int(badPrizes).min(1, badPrizes).max(PRIZES.amountMax, badPrizes);
const Tier = z
    .number(badPrizes)
    .int(badPrizes)
    .min(0, badPrizes)
    .max(99, badPrizes)
    .optional()
    .meta({ description: 'league boards only: the row pays in divisions of this tier (absent: every tier)' });
const Rank = z.number(badPrizes).int(badPrizes).min(1, badPrizes).max(PRIZES.rankMax, badPrizes);
export const PrizeRowField = z.union(
    [
        z.strictObject({ from: Rank, to: Rank, reward: RewardName, amount: Amount, tier: Tier }, badPrizes),
        z.strictObject(
            {
                topPercent: z.number(badPrizes).gt(0, badPrizes).max(100, badPrizes),
                reward: RewardName,
                amount: Amount,
                tier: Tier,
            },
            badPrizes,
        ),
    ],
    badPrizes,
);
const PrizesField = z
    .array(PrizeRowField, badPrizes)
    .max(PRIZES.rows, badPrizes)
    .refine((rows) => rows.every((r) => !('from' in r) || r.from <= r.to), badPrizes)
    .meta({
        description: `the prize table paid at each close (timed boards only; docs/rewards.md): at most ${PRIZES.rows} rows, each ranks from..to or the top topPercent % (on a league board, ranks inside a division); a player gets every row they match, at most ${PRIZES.perClose} grants a close (a league: a division); [] removes it`,
    });

const RewardClaimsField = z
    .enum(REWARD_CLAIMS, { error: invalid('rewardClaims', 'must be client, session or server') })
    .meta({
        description:
            "who may claim players' rewards: client (the API key with a player id, a session, or the server key; the default), session (a signed-in player or the server key), server (the server key only)",
    });

/** The options a board may be created or updated with (absent: the default, or unchanged). */
const BoardOptionFields = {
    sortOrder: optional(SortOrderField),
    operator: optional(OperatorField),
    ties: optional(TiesField),
    format: optional(FormatField),
    filters: optional(FiltersField),
    eventTop: optional(EventTopField),
    review: optional(ReviewSettingField),
    prizes: optional(PrizesField),
};

// ---- request bodies and query parameters ---------------------------------------------------------

const boardText = (field: string, max: number) =>
    optional(z.string({ error: invalid(field, `must be text of at most ${max} characters`) }));

export const CreateBoardBody = z.object({
    scoreboardId: z
        .string({ error: invalid('scoreboardId', 'must be text') })
        .meta({ description: FIELD.scoreboardId }),
    type: z.enum(['targeted', 'monthly', 'custom'], { error: invalid('type', 'must be targeted, monthly or custom') }),
    name: boardText('name', 100),
    description: boardText('description', 500),
    period: optional(Period.meta({ description: 'targeted boards: how often they reset (default allTime)' })),
    days: optional(
        z
            .number({ error: invalid('days', 'must be a number from 0 to 3650') })
            .meta({ description: 'custom periods: reset every this many days (0 = never)' }),
    ),
    sortBy: optional(SortBy),
    ...BoardOptionFields,
    tiebreak: optional(TiebreakField),
    league: optional(LeagueField),
});

export const UpdateBoardBody = z.object({
    name: boardText('name', 100),
    description: boardText('description', 500),
    ...BoardOptionFields,
    tiebreak: TiebreakField.nullable()
        .optional()
        .meta({ description: 'asc, desc, or null to take the tiebreak off (while the board has no entries)' }),
    league: LeagueField.optional().meta({
        description:
            'the league, or null to take it off; on, off, divisionSize and the number of tiers change only while the period has no entries (at its start or after Reset now); tier names, promote and demote any time (they apply at the close)',
    }),
    prizes: PrizesField.nullable().optional().meta({ description: 'the prize table; null or [] removes it' }),
});

export const StandardBoardsBody = z.object({
    sortOrder: optional(SortOrderField),
    operator: optional(OperatorField),
});

export const BanBody = z.object({
    reason: optional(
        z
            .string({ error: invalid('reason', `must be text of at most ${MAX_BAN_REASON} characters`) })
            .max(MAX_BAN_REASON, { error: invalid('reason', `must be text of at most ${MAX_BAN_REASON} characters`) })
            .meta({ description: 'shown in the moderation log' }),
    ),
});

export const ReportActionBody = z.object({
    action: z.enum(REPORT_ACTIONS, { error: invalid('action', `must be one of ${REPORT_ACTIONS.join(', ')}`) }).meta({
        description:
            'dismiss: nothing changes for the player; remove: their entry leaves this board; ban: the player is banned (as PUT .../bans/{playerId}). Each is logged in the moderation log and clears the item',
    }),
    reason: BanBody.shape.reason.meta({
        description: 'with ban: shown in the moderation log (default: the number of reporters)',
    }),
});

export const WipeBody = z.object({
    archives: optional(
        z
            .boolean({ error: invalid('archives', 'must be true or false') })
            .meta({ description: 'also hide the player in the archived periods', default: false }),
    ),
});

const integer = (description: string, minimum: number, maximum: number, fallback?: number) =>
    z.optional(
        z.string().meta({
            type: 'integer',
            minimum,
            maximum,
            description,
            ...(fallback === undefined ? {} : { default: fallback }),
        }),
    );

export const EntriesQuery = z.object({
    offset: integer('entries to skip from the top', 0, 1_000_000_000, 0),
    limit: integer('entries in the page', 1, 1000, 50),
    filter: z.optional(
        z
            .string()
            .meta({ description: "`<key>:<value>`: only the entries with this value of one of the board's filters" }),
    ),
});
/** An archive id as the archive list gives it: `<gameId>:<boardId>:<periodStartNs>`. */
export const ARCHIVE_ID = /^[a-z0-9-]{3,50}:[A-Za-z0-9_-]{1,64}:[0-9]{1,20}$/;
export const ExportQuery = z.object({
    archiveId: z.optional(
        z.string().meta({
            pattern: ARCHIVE_ID.source,
            description: "one of the board's archives (from its archive list); absent: the current period",
        }),
    ),
});
export const SuspicionQuery = z.object({
    playerId: z.optional(z.string().meta({ pattern: PLAYER_REF.source, description: 'only this player' })),
    limit: integer('entries, newest first', 1, LOG_KEEP, 100),
});
export const ModerationQuery = z.object({ limit: integer('entries, newest first', 1, LOG_KEEP, 100) });
export const ReportsQuery = z.object({
    offset: integer('items skipped from the top of the queue', 0, REPORT_LIMITS.openPerGame, 0),
    limit: integer('items, most reporters first', 1, REPORT_LIMITS.page.max, REPORT_LIMITS.page.default),
});
export const ReviewBody = z.object({
    action: z.enum(REVIEW_ACTIONS, { error: invalid('action', `must be ${REVIEW_ACTIONS.join(', ')}`) }).meta({
        description:
            'a flagged entry: dismiss (it stays on its board) or remove (taken off, this period only); a held score: approve (it goes on its board as if submitted then) or reject (dropped); ban: either taken off or dropped and its player banned',
    }),
});
export const AnalyticsQuery = z.object({ days: integer('the last this many UTC days', 1, ANALYTICS_DAYS, 30) });

// ---- response data -----------------------------------------------------------------------------------

const TimeValidation = z.object({
    enabled: z.boolean(),
    minPlaySeconds: z.number(),
    maxScorePerSecond: z.number().meta({ description: '0 = no limit' }),
    sessionLifetimeSeconds: z.number(),
});

export const BoardView = z.object({
    scoreboardId: z.string(),
    name: z.string(),
    description: z.string(),
    period: Period,
    days: z.number().int().optional().meta({ description: 'custom boards: the period in days (0 = never resets)' }),
    sortBy: SortBy,
    targeted: z.boolean(),
    isActive: z.boolean(),
    createdAt: Nanoseconds,
    periodStart: Nanoseconds.or(z.literal(0)),
    archives: z.array(Nanoseconds).meta({ description: 'period starts of the kept archives, oldest first' }),
    serial: z.number().int().optional(),
    sortOrder: SortOrderField.optional(),
    operator: OperatorField.optional(),
    ties: TiesField.optional(),
    format: FormatField.optional(),
    filters: FiltersField.optional(),
    tiebreak: TiebreakField.optional(),
    eventTop: EventTopField.optional(),
    review: ReviewView.optional(),
    league: LeagueView.optional(),
    prizes: PrizesField.optional(),
});

export const StandardBoards = z.object({ sortOrder: SortOrderField, operator: OperatorField });

const DeveloperView = z.object({
    developerId: z.string(),
    email: z.string().optional(),
    allowance: z.number().int().meta({ description: 'how many games the developer may have' }),
    gameIds: z.array(z.string()),
    request: z
        .object({ games: z.number().int(), message: z.string(), at: Nanoseconds })
        .optional()
        .meta({ description: 'a pending request for more game slots' }),
});

export const DeveloperMe = z.object({
    developer: DeveloperView,
    games: z.array(
        z.object({
            gameId: z.string(),
            name: z.string(),
            description: z.string(),
            developerId: z.string(),
            isActive: z.boolean(),
            createdAt: Nanoseconds,
            timeValidation: TimeValidation,
            caps: z.object({
                maxScore: z.number().optional(),
                maxStreak: z.number().optional(),
                minScore: z.number().optional().meta({ description: 'a score below this is rejected' }),
            }),
            apiKey: z.string(),
            standardBoards: StandardBoards.meta({
                description: 'how the all-time, weekly and daily boards rank and keep',
            }),
            everySubmitEvents: z
                .boolean()
                .optional()
                .meta({ description: 'score_submitted is recorded for every accepted submit (absent until set: no)' }),
            boards: z.array(BoardView),
            serverKeyCreatedAt: Nanoseconds.optional().meta({
                description: 'when the server key was made; absent while the game has none',
            }),
            serverOnly: z.boolean().optional().meta({ description: 'scores and unlocks from the server key only' }),
            serverSkipsChecks: z
                .boolean()
                .optional()
                .meta({ description: 'server-key submits skip caps and time validation' }),
            rewardClaims: RewardClaimsField.optional().meta({ description: 'who may claim rewards (absent: client)' }),
        }),
    ),
});

/** Who may claim the game's rewards (PUT /dashboard/api/games/{gameId}/reward-claims). */
export const RewardClaimsBody = z.object({ rewardClaims: RewardClaimsField });
export const RewardClaimsSetting = z.object({ rewardClaims: RewardClaimsField });
export const GrantsQuery = z.object({
    periodStart: z.optional(
        z.string().meta({
            pattern: '^[0-9]{1,20}$',
            description: "a close's period start (ns, from `periods`); absent: the newest close",
        }),
    ),
    offset: integer('grants skipped', 0, PRIZES.listed, 0),
    limit: integer('grants, in rank order', 1, PRIZES.page.max, PRIZES.page.default),
});
export const GrantsPage = z.object({
    scoreboardId: z.string(),
    periods: z
        .array(z.object({ periodStart: Nanoseconds, periodEnd: Nanoseconds, count: z.number().int() }))
        .meta({ description: `the board's closes that granted (kept ${PRIZES.keepDays} days), newest first` }),
    periodStart: Nanoseconds.optional().meta({ description: 'the close listed (absent: none granted yet)' }),
    offset: z.number().int(),
    grants: z.array(Grant.extend({ playerId: z.string() })).meta({ description: 'in the order they were granted' }),
});

/** The server settings of a game (PUT /dashboard/api/games/{gameId}/server-settings). */
export const ServerSettingsBody = z.object({
    serverOnly: z.boolean().optional().meta({
        description: 'scores and achievement unlocks from the server key only (the API key: 403; sessions: 400)',
    }),
    serverSkipsChecks: z
        .boolean()
        .optional()
        .meta({ description: 'server-key submits skip caps and time validation (clients never do)' }),
});
export const ServerSettings = z.object({ serverOnly: z.boolean(), serverSkipsChecks: z.boolean() });
export const NewServerKey = z.object({
    serverKey: z.string().meta({
        description:
            'skey_<gameId>_<43 characters>: shown only in this answer; keep it on your server, never in a game client',
    }),
});

export const DeveloperBoardPage = z.object({
    scoreboardId: z.string(),
    totalEntries: z.number().int(),
    offset: z.number().int(),
    entries: z.array(
        z.object({
            rank: z.number().int(),
            playerId: z.string(),
            nickname: z.string(),
            score: z.number().int(),
            streak: z.number().int(),
            authType: z.string(),
            submittedAt: Nanoseconds,
            banned: z.boolean(),
            metadata: BoardEntry.shape.metadata,
            tiebreak: BoardEntry.shape.tiebreak,
        }),
    ),
    filters: z
        .array(
            z.object({
                key: z.string(),
                values: z.array(z.object({ value: z.string(), entries: z.number().int() })),
            }),
        )
        .optional()
        .meta({
            description: "a board with filters: each key's values this period with their entry counts, most first",
        }),
});

export const SuspicionLog = z.array(
    z.object({
        at: Nanoseconds.meta({ description: 'the latest rejection' }),
        firstAt: Nanoseconds,
        count: z.number().int(),
        playerId: z.string(),
        scoreboardId: z.string().optional(),
        score: z.number(),
        streak: z.number(),
        reason: z.string(),
    }),
);

export const ModerationLog = z.array(
    z.object({
        at: Nanoseconds,
        action: z.enum(MODERATION_ACTIONS),
        playerId: z.string(),
        scoreboardId: z.string().optional(),
        detail: z.string(),
    }),
);

export const ReviewQueue = z.array(
    z.object({
        scoreboardId: z.string(),
        playerId: z.string(),
        nickname: z.string(),
        kind: z.literal('flagged').meta({ description: 'flagged: accepted and on its board, waiting for a verdict' }),
        score: z.number().int().meta({ description: 'the entry as the flagged submit wrote it' }),
        streak: z.number().int(),
        first: z
            .number()
            .int()
            .meta({ description: "the board's first (score, or streak on a streak board) it was judged against" }),
        at: Nanoseconds,
    }),
);

export const Analytics = z.object({
    days: z.array(
        z.object({
            day: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
            submissions: z.number().int(),
            plays: z.number().int(),
            activePlayers: z.number().int(),
            newPlayers: z.number().int(),
            returningPlayers: z.number().int(),
        }),
    ),
    providers: z.array(z.object({ provider: z.string(), players: z.number().int() })),
    boards: z.array(z.object({ scoreboardId: z.string(), submissions: z.number().int() })),
});

const ReportItem = z.object({
    playerId: z.string(),
    scoreboardId: z.string(),
    nickname: z.string().meta({ description: "the entry's nickname when it was last reported" }),
    reporters: z.number().int().meta({ description: 'distinct players who reported it' }),
    reasons: z.partialRecord(z.enum(REPORT_REASONS), z.number().int()).meta({ description: 'reports by reason' }),
    firstAt: Nanoseconds,
    lastAt: Nanoseconds,
});

export const ReportQueue = z.object({
    total: z.number().int().meta({ description: 'open items' }),
    offset: z.number().int(),
    items: z.array(ReportItem).meta({ description: 'most distinct reporters first, then the latest report' }),
});

const ReportedEntry = z.object({
    scoreboardId: z.string(),
    rank: z.number().int(),
    score: z.number(),
    streak: z.number(),
    metadata: z.record(z.string(), z.unknown()).optional(),
});

export const ReportDetail = z.object({
    item: ReportItem,
    entry: ReportedEntry.nullable().meta({ description: 'the reported entry now (null: no longer on the board)' }),
    entries: z.array(ReportedEntry).meta({ description: "the player's entries on every board of the game" }),
    banned: z.boolean(),
    suspicion: SuspicionLog.meta({ description: "the player's latest rejected submits" }),
    moderation: ModerationLog.meta({ description: 'the latest moderation actions on the player' }),
    reports: z
        .array(
            z.object({
                playerId: z.string().meta({ description: 'the reporter' }),
                reason: z.enum(REPORT_REASONS),
                text: z.string().optional(),
                at: Nanoseconds,
            }),
        )
        .meta({ description: 'newest first' }),
});
