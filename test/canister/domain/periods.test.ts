// UTC periods: boundaries across month, year and leap-year edges; custom periods from their anchor.
import { archiveId, parseArchiveId, periodEnd, periodStart, type PeriodRule } from '../../../canister/domain/periods';

const us = (iso: string): number => Date.parse(iso) * 1e3;
const iso = (n: number): string => new Date(n / 1e3).toISOString();
const rule = (period: PeriodRule['period'], extra: Partial<PeriodRule> = {}): PeriodRule => ({
    period,
    anchor: 0,
    ...extra,
});
/** Where the standard period holding `at` starts, and where the one holding `at` ends. */
const start = (period: PeriodRule['period'], at: string): string => iso(periodStart(rule(period), us(at)));
const end = (period: PeriodRule['period'], at: string): string => iso(periodEnd(rule(period), us(at)));

test.each([
    {
        name: 'daily periods start at 00:00 UTC and end at the next midnight',
        period: 'daily' as const,
        starts: [
            ['2026-03-01T23:59:59.999Z', '2026-03-01T00:00:00.000Z'],
            ['2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
        ],
        ends: [
            ['2026-12-31T00:00:00Z', '2027-01-01T00:00:00.000Z'],
            ['2028-02-28T00:00:00Z', '2028-02-29T00:00:00.000Z'],
        ],
    },
    {
        name: 'weekly periods start on Monday 00:00 UTC, also across a year boundary',
        period: 'weekly' as const,
        starts: [
            // 2026-01-01 is a Thursday: its week started Monday 2025-12-29.
            ['2026-01-01T12:00:00Z', '2025-12-29T00:00:00.000Z'],
            // A Sunday belongs to the week that started the Monday before.
            ['2026-03-08T23:00:00Z', '2026-03-02T00:00:00.000Z'],
            ['2026-03-09T00:00:00Z', '2026-03-09T00:00:00.000Z'],
        ],
        ends: [['2025-12-29T00:00:00Z', '2026-01-05T00:00:00.000Z']],
    },
    {
        name: 'monthly periods start on the 1st, with February in leap and common years',
        period: 'monthly' as const,
        starts: [['2028-02-29T18:00:00Z', '2028-02-01T00:00:00.000Z']],
        ends: [
            ['2028-02-01T00:00:00Z', '2028-03-01T00:00:00.000Z'],
            ['2027-02-01T00:00:00Z', '2027-03-01T00:00:00.000Z'],
            ['2026-12-01T00:00:00Z', '2027-01-01T00:00:00.000Z'],
        ],
    },
])('$name', ({ period, starts, ends }) => {
    for (const [at, expected] of starts) expect(start(period, at)).toBe(expected);
    for (const [at, expected] of ends) expect(end(period, at)).toBe(expected);
});

test('custom periods count N days from the board creation; 0 days never resets', () => {
    const anchor = us('2026-03-01T10:00:00Z');
    const threeDays = rule('custom', { days: 3, anchor });
    expect(iso(periodStart(threeDays, us('2026-03-03T09:00:00Z')))).toBe('2026-03-01T10:00:00.000Z');
    expect(iso(periodStart(threeDays, us('2026-03-04T10:00:00Z')))).toBe('2026-03-04T10:00:00.000Z');
    expect(iso(periodEnd(threeDays, us('2026-03-04T10:00:00Z')))).toBe('2026-03-07T10:00:00.000Z');
    const never = rule('custom', { days: 0, anchor });
    expect(periodStart(never, us('2030-01-01T00:00:00Z'))).toBe(anchor);
    expect(periodEnd(never, anchor)).toBe(Infinity);
});

test('all-time boards have one period that never ends', () => {
    expect(periodStart(rule('allTime'), us('2026-03-01T00:00:00Z'))).toBe(0);
    expect(periodEnd(rule('allTime'), 0)).toBe(Infinity);
});

test('period starts in µs are exact integers', () => {
    const start = periodStart(rule('daily'), us('2026-03-01T12:34:56.789Z'));
    expect(Number.isInteger(start)).toBe(true);
    expect(BigInt(start)).toBe(BigInt(Date.parse('2026-03-01T00:00:00Z')) * 1_000n);
});

test('archive ids round-trip and reject other shapes', () => {
    const id = archiveId('my-game', 'weekly', 1772323200000000);
    expect(id).toBe('my-game:weekly:1772323200000000000');
    expect(parseArchiveId(id)).toEqual({ gameId: 'my-game', boardId: 'weekly', periodStart: 1772323200000000 });
    expect(parseArchiveId('my-game:weekly:1772323200000000001')).toBeUndefined();
    expect(parseArchiveId('nope')).toBeUndefined();
    expect(parseArchiveId('Bad Game:weekly:1')).toBeUndefined();
});
