// Prizes paid at a timed board's close (docs/rewards.md): a board's prize table, the grants it
// makes, who may claim them (the game's `rewardClaims`), and their limits. No zod: the canister
// imports this; the replies' zod schemas are in ./schemas.ts.
import { invalid, type Parsed } from './rules';

/**
 * A row of a board's prize table: ranks `from`..`to` (1-based, inclusive), or the ranks within
 * the top `topPercent` % of the period's entries (a rank r of n entries: r x 100 <= p x n). On a
 * league board rows match ranks inside a division (`tier`: only divisions of that tier; absent:
 * every tier); elsewhere ranks on the whole board, by the board's ties rule.
 */
export type PrizeRow =
    | { from: number; to: number; reward: string; amount: number; tier?: number }
    | { topPercent: number; reward: string; amount: number; tier?: number };

export const PRIZES = {
    /** Rows a prize table holds at most. */
    rows: 20,
    /** A reward's name: what the game's code gives the player (`gold`, `chest:rare`, `skin.red`). */
    reward: /^[A-Za-z0-9_.:-]{1,64}$/,
    amountMax: 2 ** 31 - 1,
    /** The highest rank a `from`/`to` row may name (a close walks the board that far at most). */
    rankMax: 100_000,
    /**
     * Grants one close of a board makes at most (every row, every player), and one division of a
     * league board: past this, the rest is not granted (in rank order, row by row), so a close
     * stays within one message's instructions (docs/rewards.md). A league's close spreads its
     * divisions over timer ticks, counting each grant as GRANT_PLACES players' places.
     */
    perClose: 1000,
    /** What one grant weighs in a league close's tick, in players' places (a grant ~1.5 M, a place ~0.24 M). */
    grantPlaces: 6,
    /** Grants one close lists at most (the dashboard's paging): a league's divisions together. */
    listed: 10_000_000,
    /** Days a grant is kept (claimed or not) from its close; a player's list holds the newest `perPlayer`. */
    keepDays: 90,
    perPlayer: 200,
    /** dev_grants page size. */
    page: { default: 50, max: 100 },
} as const;

/**
 * Who may claim a player's grants: `client` (default: the API key with the player id, a session,
 * or the server key), `session` (a signed-in player's session or the server key), `server` (the
 * server key only, e.g. after the `reward_granted` webhook).
 */
export const REWARD_CLAIMS = ['client', 'session', 'server'] as const;
export type RewardClaims = (typeof REWARD_CLAIMS)[number];

export function parseRewardClaims(value: unknown): Parsed<RewardClaims> {
    return typeof value === 'string' && (REWARD_CLAIMS as readonly string[]).includes(value)
        ? { ok: value as RewardClaims }
        : { error: invalid('rewardClaims', 'must be client, session or server') };
}

/**
 * What a prize table must be: the one message of every way it can be wrong (a function: bundles
 * that never check a table, the JS client's, leave it out).
 */
export const prizesRule = (): string =>
    `must be a list of at most ${PRIZES.rows} rows, each { from, to, reward, amount, tier? } ` +
    `(ranks 1-${PRIZES.rankMax}, from <= to) or { topPercent, reward, amount, tier? } (0 < topPercent <= 100); ` +
    'reward: 1-64 of A-Z a-z 0-9 _ . : -; amount: a whole number from 1 to 2147483647; tier: a whole number from 0';

const whole = (v: unknown, min: number, max: number): v is number =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** One row of a prize table (unknown fields refused), or undefined. */
function parseRow(value: unknown): PrizeRow | undefined {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const { from, to, topPercent, reward, amount, tier, ...rest } = value as Record<string, unknown>;
    if (Object.keys(rest).length > 0) return undefined;
    if (typeof reward !== 'string' || !PRIZES.reward.test(reward)) return undefined;
    if (!whole(amount, 1, PRIZES.amountMax)) return undefined;
    if (tier !== undefined && !whole(tier, 0, 99)) return undefined;
    const withTier = <R extends PrizeRow>(row: R): R => (tier === undefined ? row : { ...row, tier: tier as number });
    if (topPercent !== undefined) {
        if (from !== undefined || to !== undefined) return undefined;
        if (typeof topPercent !== 'number' || !Number.isFinite(topPercent) || topPercent <= 0 || topPercent > 100)
            return undefined;
        return withTier({ topPercent, reward, amount });
    }
    if (!whole(from, 1, PRIZES.rankMax) || !whole(to, from, PRIZES.rankMax)) return undefined;
    return withTier({ from, to, reward, amount });
}

/** A board's `prizes` (`[]` and null: none), or the whole error message. */
export function parsePrizes(value: unknown): Parsed<PrizeRow[] | null> {
    if (value === null) return { ok: null };
    const fail = { error: invalid('prizes', prizesRule()) };
    if (!Array.isArray(value) || value.length > PRIZES.rows) return fail;
    const rows: PrizeRow[] = [];
    for (const item of value) {
        const row = parseRow(item);
        if (row === undefined) return fail;
        rows.push(row);
    }
    return { ok: rows.length === 0 ? null : rows };
}

/** Whether rank `rank` of `total` ranked entries matches a row (the row's tier is checked by the caller). */
export function rowMatches(row: PrizeRow, rank: number, total: number): boolean {
    // A hair of slack: p x n in floating point may fall just short of a whole number.
    if ('topPercent' in row) return rank * 100 <= row.topPercent * total + 1e-9;
    return rank >= row.from && rank <= row.to;
}

/**
 * The ranks a table's rows can match among `total` entries, as sorted, merged spans [from, to]
 * (a close walks only these: rows far down a big board cost no walk over the ranks between).
 */
export function rankSpans(rows: readonly PrizeRow[], total: number): Array<[number, number]> {
    const spans = rows
        .map((row): [number, number] =>
            'topPercent' in row ? [1, Math.floor((row.topPercent * total + 1e-9) / 100)] : [row.from, row.to],
        )
        .map(([from, to]): [number, number] => [from, Math.min(to, total)])
        .filter(([from, to]) => from <= to)
        .sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [from, to] of spans) {
        const last = merged[merged.length - 1];
        if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
        else merged.push([from, to]);
    }
    return merged;
}

/**
 * A grant id: `<boardId>.<periodStart µs>.<row>.<player's slot>`, the same for a (board, period,
 * row, player) so a close run twice grants once, and different for every player (another
 * player's grant is never one's own). Not secret: a claim needs the player's credential.
 */
export const grantIdOf = (boardId: string, periodStart: number, row: number, slot: number): string =>
    `${boardId}.${periodStart}.${row}.${slot}`;
/** What a grant id looks like (the claim route's path checks it). */
export const GRANT_ID = /^[A-Za-z0-9_-]{1,64}\.[0-9]{1,20}\.[0-9]{1,2}\.[0-9]{1,10}$/;
