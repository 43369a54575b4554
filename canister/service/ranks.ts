// The ranks reads show: distinct by default (who reached a value first ranks higher: 1, 2, 3,
// 4), or shared by equal values on a board with `ties: 'shared'` (1, 2, 2, 4), and the
// percentile a rank read carries when asked. A shared rank is 1 + the entries with a strictly
// better value (one descent of the rank index); a page finds its first entry's once and walks on.
import { DEFAULT_BOARD_OPTIONS, percentile, type Ties } from '../../contract/board-options';
import type { SortBy } from '../../contract/rules';
import { invalid } from '../../contract/rules';
import { Fail } from '../domain/fail';
import type { GameState, Untrusted } from '../state/context';
import type { BoardRecord } from '../state/records';
import { rankIndex, type BoardTable } from '../state/tables';

/** How a board shows equal values (absent board or option: distinct, as always). */
export function tiesOf(board: BoardRecord | undefined): Ties {
    return board?.ties ?? DEFAULT_BOARD_OPTIONS.ties;
}

/** The ties of the game's all-time board: the global leaderboard and /players/{id}/rank. */
export function globalTies(game: GameState): Ties {
    return tiesOf(game.record.boards.find((b) => b.scoreboardId === 'all-time'));
}

const valuesOf = (table: BoardTable, sortBy: SortBy): Float64Array =>
    sortBy === 'streak' ? table.streak : table.score;

/** The rank `id` shows on the board (undefined when it has no entry). */
export function rankOf(table: BoardTable, sortBy: SortBy, id: number, ties: Ties): number | undefined {
    const index = rankIndex(table, sortBy);
    if (ties === 'distinct') return index.rank(id);
    if (!index.has(id)) return undefined;
    return 1 + index.countBetter(valuesOf(table, sortBy)[id]);
}

/**
 * The ranks of a page with ties 'shared' (undefined for distinct ranks: start + i, nothing to
 * call): called with each entry's id and place i on the page, in order, for consecutive entries
 * from position `start` (1-based). The first entry's shared rank comes from the index; then an
 * entry with the value above it keeps that rank, and any other value starts at its own position
 * (all above it are strictly better).
 */
export function sharedRanker(
    table: BoardTable,
    sortBy: SortBy,
    start: number,
    ties: Ties,
): ((id: number, i: number) => number) | undefined {
    if (ties === 'distinct') return undefined;
    const values = valuesOf(table, sortBy);
    let previous = NaN;
    let rank = 0;
    return (id, i) => {
        const value = values[id];
        if (i === 0) rank = 1 + rankIndex(table, sortBy).countBetter(value);
        else if (value !== previous) rank = start + i;
        previous = value;
        return rank;
    };
}

/** Ranks of a list already in board order from the top (an archive's entries). */
export function listRanks(values: readonly number[], ties: Ties): number[] {
    const ranks = new Array<number>(values.length);
    for (let i = 0; i < values.length; i++)
        ranks[i] = ties === 'shared' && i > 0 && values[i] === values[i - 1] ? ranks[i - 1] : i + 1;
    return ranks;
}

/** Whether a rank read asked for its percentile (`percentile: true`; absent: no). */
export function wantsPercentile(value: Untrusted<{ percentile: boolean }>['percentile']): boolean {
    if (value === undefined || value === null || value === false) return false;
    if (value === true) return true;
    throw new Fail(400, invalid('percentile', 'must be true or false'));
}

/** Adds `percentile` to a rank reply when it was asked for (else the reply stays as it always was). */
export function withPercentile<T extends object>(
    reply: T,
    asked: boolean,
    rank: number,
    total: number,
): T & { percentile?: number } {
    if (asked) (reply as { percentile?: number }).percentile = percentile(rank, total);
    return reply;
}
