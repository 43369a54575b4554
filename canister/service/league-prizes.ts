// The prize hook of a league board's close (contract: league-core calls it once per closed
// division, with the division ranked, before tiers change): the board's prize rows matched by
// rank inside the division, rows with a `tier` only in that tier's divisions (service/rewards.ts).
import type { Ctx, GameState } from '../state/context';
import type { BoardRecord } from '../state/records';
import { grantRanked } from './rewards';

/** Grants of one closed division; returns how many were made (0 on a board without prizes). */
export function grantDivisionPrizes(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    close: {
        periodStart: number; // µs
        periodEnd: number; // µs
        tier: number;
        division: number;
        ranked: Array<{ slot: number; rank: number; score: number }>; // the division in rank order
    },
): number {
    const rows = board.prizes;
    if (rows === undefined || rows.length === 0 || close.ranked.length === 0) return 0;
    return grantRanked(ctx, game, board, rows, {
        periodStart: close.periodStart,
        periodEnd: close.periodEnd,
        total: close.ranked.length,
        ranked: close.ranked,
        tier: { index: close.tier, name: tierName(board, close.tier) },
        division: close.division,
    });
}

/** A tier's name from the board's `league` option (its index as text when the board has none). */
function tierName(board: BoardRecord, tier: number): string {
    return board.league?.tiers[tier] ?? String(tier);
}
