// The dashboard's JSON API (/dashboard/api, for developers' own tools): its request bodies,
// query parameters and response `data` as zod schemas, checked by the gateway and listed in the
// API reference like the rest of the API. The replies are the developer methods' replies of
// ./canister.ts (the routes' handlers are type-checked against these schemas).
import { z } from 'zod';

import { EVENT_TOP } from './event-log';
import { MAX_DECIMAL_PLACES, OPERATORS, SORT_ORDERS, TIEBREAKS, TIES } from './board-options';
import { FIELD } from './messages';
import { invalid } from './rules';
import { BoardEntry, Nanoseconds, Period, SortBy, optional } from './schemas';

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

const badEventTop = { error: invalid('eventTop', `must be a whole number from 0 to ${EVENT_TOP.max}`) };
const EventTopField = z
    .number(badEventTop)
    .int(badEventTop)
    .min(0, badEventTop)
    .max(EVENT_TOP.max, badEventTop)
    .meta({
        description: `how many top entries its new_leader, overtaken and period_closed events name (0: none; default ${EVENT_TOP.default})`,
    });

/** The options a board may be created or updated with (absent: the default, or unchanged). */
const BoardOptionFields = {
    sortOrder: optional(SortOrderField),
    operator: optional(OperatorField),
    ties: optional(TiesField),
    format: optional(FormatField),
    eventTop: optional(EventTopField),
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
});

export const UpdateBoardBody = z.object({
    name: boardText('name', 100),
    description: boardText('description', 500),
    ...BoardOptionFields,
    tiebreak: TiebreakField.nullable()
        .optional()
        .meta({ description: 'asc, desc, or null to take the tiebreak off (while the board has no entries)' }),
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
    tiebreak: TiebreakField.optional(),
    eventTop: EventTopField.optional(),
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
        }),
    ),
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
        action: z.enum(['remove-entry', 'wipe-player', 'ban', 'unban']),
        playerId: z.string(),
        scoreboardId: z.string().optional(),
        detail: z.string(),
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
