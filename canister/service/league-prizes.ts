// The prizes of a closed league division: called once per division at the close, after its
// ranking is known and before tiers change. This version grants nothing (rewards replace it).
import type { BoardRecord } from '../state/records';
import type { Ctx, GameState } from '../state/context';

export function grantDivisionPrizes(
    _ctx: Ctx,
    _game: GameState,
    _board: BoardRecord,
    _close: {
        /** µs. */
        periodStart: number;
        periodEnd: number;
        tier: number;
        division: number;
        /** The division in rank order. */
        ranked: Array<{ slot: number; rank: number; score: number }>;
    },
): number {
    return 0;
}
