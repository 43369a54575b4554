// UTC board periods: when the current period of a board started, when it ends, and how
// many finished periods are kept as archives. Times are µs since the epoch.
import type { Period } from '../../contract/schemas';

export const US_PER_MS = 1000;
const DAY_MS = 86_400_000;

/** Finished periods kept per board, by period kind. */
export const RETENTION: Record<Period, number> = { allTime: 0, daily: 90, weekly: 52, monthly: 24, custom: 52 };

export interface PeriodRule {
    period: Period;
    /** Custom boards: length in days; 0 means the period never ends. */
    days?: number;
    /** Custom boards count their periods from here (µs): the board's creation. */
    anchor: number;
}

/** Start (µs) of the period that contains `now` (µs). */
export function periodStart(rule: PeriodRule, now: number): number {
    const ms = Math.floor(now / US_PER_MS);
    const d = new Date(ms);
    switch (rule.period) {
        case 'allTime':
            return 0;
        case 'daily':
            return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) * US_PER_MS;
        case 'weekly': {
            // getUTCDay: Sunday = 0; weeks start on Monday.
            const sinceMonday = (d.getUTCDay() + 6) % 7;
            return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - sinceMonday) * US_PER_MS;
        }
        case 'monthly':
            return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) * US_PER_MS;
        case 'custom': {
            const days = rule.days ?? 0;
            if (days <= 0 || now < rule.anchor) return rule.anchor;
            const lengthMs = days * DAY_MS;
            const anchorMs = Math.floor(rule.anchor / US_PER_MS);
            return (anchorMs + Math.floor((ms - anchorMs) / lengthMs) * lengthMs) * US_PER_MS;
        }
    }
}

/** End (µs, exclusive) of the period that starts at `start`; Infinity for periods that never end. */
export function periodEnd(rule: PeriodRule, start: number): number {
    const d = new Date(Math.floor(start / US_PER_MS));
    switch (rule.period) {
        case 'allTime':
            return Infinity;
        case 'daily':
            return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) * US_PER_MS;
        case 'weekly':
            return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 7) * US_PER_MS;
        case 'monthly':
            return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) * US_PER_MS;
        case 'custom': {
            const days = rule.days ?? 0;
            return days <= 0 ? Infinity : start + days * DAY_MS * US_PER_MS;
        }
    }
}

/** `<gameId>:<boardId>:<period start in ns>`, as the contract names archives. */
export function archiveId(gameId: string, boardId: string, periodStartUs: number): string {
    return `${gameId}:${boardId}:${periodStartUs}000`;
}

/** Splits an archive id; undefined when it is not one. */
export function parseArchiveId(id: string): { gameId: string; boardId: string; periodStart: number } | undefined {
    const m = /^([a-z0-9-]{3,50}):([A-Za-z0-9_-]{1,64}):([0-9]{1,17})000$/.exec(id);
    if (m === null) return undefined;
    return { gameId: m[1], boardId: m[2], periodStart: Number(m[3]) };
}
