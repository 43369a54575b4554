// The events of a game's log and the feed's page as zod schemas: the feed route, the webhook
// bodies and the API reference use them; the canister imports only the inferred types (its
// constants come from ./event-log.ts, which holds no zod).
import { z } from 'zod';

import type { EventKind } from './event-log';
import { REPORT_REASONS } from './reports';
import { Nanoseconds } from './schemas';

export {
    EVENT_KINDS,
    EVENTS_KEEP,
    EVENT_TOP,
    FEED_LIMIT,
    FEED_WAIT_MAX_SECONDS,
    eventId,
    type EventKind,
} from './event-log';

const PlayerField = z
    .string()
    .meta({ description: 'the player id (anonymous id, or `@` + 32 hex digits for an account)' });
const BoardField = z.string().meta({ description: 'the board (scoreboardId)' });
const Value = z.number().int();

/** A board entry as events name it. */
export const EventEntry = z.object({
    rank: z.number().int(),
    playerId: PlayerField,
    nickname: z.string(),
    score: Value,
    streak: Value,
});
export type EventEntry = z.infer<typeof EventEntry>;

const base = <K extends EventKind, S extends z.ZodRawShape>(kind: K, shape: S) =>
    z.object({
        id: z
            .string()
            .meta({ description: 'evt_<gameId>_<seq>: the same on every delivery; use it to drop duplicates' }),
        seq: z.number().int().meta({ description: "the event's place in the game's log (1, 2, 3, ...)" }),
        gameId: z.string(),
        kind: z.literal(kind),
        at: Nanoseconds,
        ...shape,
    });

export const NewLeaderEvent = base('new_leader', {
    scoreboardId: BoardField,
    leader: EventEntry,
    previous: EventEntry.optional().meta({ description: 'the leader before (absent on an empty board)' }),
});
export const OvertakenEvent = base('overtaken', {
    scoreboardId: BoardField,
    player: EventEntry.meta({ description: 'who was passed, with their new rank' }),
    by: EventEntry.meta({ description: 'who passed them, with their new rank' }),
});
export const PeriodClosedEvent = base('period_closed', {
    scoreboardId: BoardField,
    archiveId: z.string().meta({ description: 'read it with GET /games/{gameId}/archives/{archiveId}' }),
    periodStart: Nanoseconds,
    periodEnd: Nanoseconds,
    totalEntries: z.number().int(),
    top: z.array(EventEntry).meta({ description: "the period's top N (the board's eventTop, default 10)" }),
});
export const SubmitRejectedEvent = base('submit_rejected', {
    scoreboardId: BoardField.optional().meta({ description: 'absent for a fan-out submit' }),
    playerId: PlayerField,
    score: Value,
    streak: Value,
    reason: z.string().meta({ description: "the suspicion log's reason" }),
});
export const PlayerBannedEvent = base('player_banned', { playerId: PlayerField, reason: z.string() });
export const PlayerWipedEvent = base('player_wiped', {
    playerId: PlayerField,
    scoreboardId: BoardField.optional().meta({ description: 'one board when only one entry was removed' }),
});
export const ScoreSubmittedEvent = base('score_submitted', {
    scoreboardId: BoardField.optional().meta({ description: 'absent for a fan-out submit' }),
    playerId: PlayerField,
    score: Value,
    streak: Value,
    metadata: z.record(z.string(), z.unknown()).optional(),
});
export const EntryReportedEvent = base('entry_reported', {
    scoreboardId: BoardField,
    playerId: PlayerField.meta({ description: 'the reported player' }),
    nickname: z.string().meta({ description: 'the reported entry as the board shows it' }),
    reportedBy: PlayerField.meta({ description: 'the reporting player' }),
    reason: z.enum(REPORT_REASONS),
    reporters: z
        .number()
        .int()
        .meta({ description: 'distinct players who reported the entry so far, this one included' }),
});

/** What the developer decided about a flagged entry or a held score (the review queue's actions). */
export const REVIEW_VERDICTS = ['dismissed', 'removed', 'banned', 'approved', 'rejected'] as const;
/** A score judged implausible: its entry (flagged) or itself (held), and the board's first it was judged against. */
const judged = (what: string) => ({
    scoreboardId: BoardField,
    playerId: PlayerField,
    score: Value,
    streak: Value,
    first: Value.meta({
        description: `the board's first (its ranked value: score, or streak on a streak board) the ${what} was judged against`,
    }),
});
export const ScoreFlaggedEvent = base('score_flagged', judged('entry'));
export const ScoreReviewedEvent = base('score_reviewed', {
    scoreboardId: BoardField,
    playerId: PlayerField,
    score: Value,
    streak: Value,
    verdict: z.enum(REVIEW_VERDICTS).meta({
        description:
            'dismissed: the entry stays; removed: taken off the board; banned: removed (or a held score rejected) and the player banned; approved: a held score went on the board; rejected: a held score was dropped',
    }),
});

export const ScoreHeldEvent = base('score_held', judged('score'));

const EventTier = z.object({
    index: z.number().int().meta({ description: 'the tier, 0 = the lowest' }),
    name: z.string(),
});
export const DivisionClosedEvent = base('division_closed', {
    scoreboardId: BoardField,
    periodStart: Nanoseconds,
    periodEnd: Nanoseconds,
    tier: EventTier.meta({ description: "the division's tier in the period that closed" }),
    division: z.number().int().meta({ description: "the division's number in that period" }),
    entries: z
        .array(
            z.object({
                rank: z.number().int(),
                playerId: PlayerField,
                nickname: z.string(),
                score: Value,
                outcome: z.enum(['promoted', 'stayed', 'demoted']),
                tierAfter: EventTier.meta({ description: "the player's tier from now on" }),
            }),
        )
        .meta({ description: "the division's final table in rank order (docs/leagues.md)" }),
});
/** One prize granted at a board's close (docs/rewards.md): give it from your server, then claim it. */
export const RewardGrantedEvent = base('reward_granted', {
    grantId: z.string().meta({ description: 'claim it with POST /players/{playerId}/rewards/{grantId}/claim' }),
    playerId: PlayerField,
    scoreboardId: BoardField,
    periodStart: Nanoseconds,
    periodEnd: Nanoseconds,
    rank: z.number().int().meta({ description: 'the rank that won it (in the division on a league board)' }),
    tier: z
        .object({ index: z.number().int(), name: z.string() })
        .optional()
        .meta({ description: "league boards: the division's tier" }),
    division: z.number().int().optional().meta({ description: 'league boards: the division' }),
    reward: z.string().meta({ description: "the prize table row's reward: what the game gives the player" }),
    amount: z.number().int().meta({ description: 'how much of it' }),
});

export const GameEvent = z.discriminatedUnion('kind', [
    NewLeaderEvent,
    OvertakenEvent,
    PeriodClosedEvent,
    SubmitRejectedEvent,
    PlayerBannedEvent,
    PlayerWipedEvent,
    ScoreSubmittedEvent,
    EntryReportedEvent,
    ScoreFlaggedEvent,
    ScoreReviewedEvent,
    ScoreHeldEvent,
    DivisionClosedEvent,
    RewardGrantedEvent,
]);
export type GameEvent = z.infer<typeof GameEvent>;
/** An event of one kind. */
export type EventOf<K extends EventKind> = Extract<GameEvent, { kind: K }>;
/** What a recorder hands the log: the log adds id, seq, gameId and at. */
export type NewEvent = GameEvent extends infer E
    ? E extends GameEvent
        ? Omit<E, 'id' | 'seq' | 'gameId' | 'at'>
        : never
    : never;

/** A page of the feed (GET /events). */
export const EventPage = z.object({
    events: z.array(GameEvent).meta({ description: 'in order of seq' }),
    next: z.number().int().meta({ description: 'pass as `after` to read on' }),
    latest: z.number().int().meta({ description: 'the newest seq recorded so far (0: none yet)' }),
    missed: z
        .object({ from: z.number().int(), to: z.number().int() })
        .optional()
        .meta({ description: 'present when the reader fell behind: these events were dropped before it read them' }),
});
export type EventPage = z.infer<typeof EventPage>;
