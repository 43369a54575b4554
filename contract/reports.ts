// Player reports of board entries and the developer's queue of them, without zod (the canister
// imports these): the reasons, the bounds, the checks of a report's fields, and the shapes the
// canister answers (docs/reports.md).
import { invalid } from './rules';
import type { Nanoseconds } from './schemas';
import type { ModerationEntry, SuspicionEntry } from './canister';

/** Why a player reports an entry. */
export const REPORT_REASONS = ['cheating', 'impossible_score', 'offensive_name', 'exploit', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_LIMITS = {
    /** Characters of a report's optional text. */
    text: 200,
    /** New entries one reporter may report per UTC day (repeats of a report they made count nothing). */
    perReporterPerDay: 20,
    /**
     * Reported entries a game's queue holds open; past it, a new entry takes the place of the
     * oldest one of a single reporter, and when every open entry has more, further entries are 429.
     */
    openPerGame: 1000,
    /** Reporters an item keeps (their reasons and texts); past it, more reports of the entry change nothing. */
    reportersPerItem: 100,
    /** Reports one client address may send to a gateway per minute. */
    perClientPerMinute: 30,
    /** Queue items per page, by default and at most. */
    page: { default: 50, max: 200 },
} as const;

/** What a developer does with a reported entry: each clears the item and is logged. */
export const REPORT_ACTIONS = ['dismiss', 'remove', 'ban'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** The reason, or a 400 message. */
export function checkReason(value: unknown): string | undefined {
    return typeof value === 'string' && (REPORT_REASONS as readonly string[]).includes(value)
        ? undefined
        : invalid('reason', `must be one of ${REPORT_REASONS.join(', ')}`);
}

/** The optional text, or a 400 message. */
export function checkReportText(value: unknown): string | undefined {
    return value === undefined || (typeof value === 'string' && value.length <= REPORT_LIMITS.text)
        ? undefined
        : invalid('text', `must be text of at most ${REPORT_LIMITS.text} characters`);
}

/** The optional rank the reporter saw, or a 400 message. */
export function checkSeenRank(value: unknown): string | undefined {
    return value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 1)
        ? undefined
        : invalid('rank', 'must be a whole number from 1');
}

/** One player's report of an entry, as the developer sees it. */
export interface ReportView {
    playerId: string;
    reason: ReportReason;
    text?: string;
    at: Nanoseconds;
}

/** A reported entry in the queue: the player and board, and how many distinct players reported it. */
export interface ReportItemView {
    playerId: string;
    scoreboardId: string;
    /** The entry's nickname when it was last reported. */
    nickname: string;
    reporters: number;
    /** Reports by reason. */
    reasons: Partial<Record<ReportReason, number>>;
    firstAt: Nanoseconds;
    lastAt: Nanoseconds;
}

/** A page of the queue, by distinct reporters then latest report. */
export interface ReportQueuePage {
    total: number;
    offset: number;
    items: ReportItemView[];
}

/** A player's entry on one board now. */
export interface ReportedEntry {
    scoreboardId: string;
    rank: number;
    score: number;
    streak: number;
    metadata?: Record<string, unknown>;
}

/** One queue item in full: the entry now, the player's other entries, logs and the reports. */
export interface ReportDetail {
    item: ReportItemView;
    /** The reported entry now (null: no longer on the board). */
    entry: ReportedEntry | null;
    /** The player's entries on every board of the game. */
    entries: ReportedEntry[];
    banned: boolean;
    /** The player's latest rejected submits. */
    suspicion: SuspicionEntry[];
    /** The latest moderation actions on the player. */
    moderation: ModerationEntry[];
    reports: ReportView[];
}
