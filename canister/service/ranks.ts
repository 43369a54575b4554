// The ranks reads show: distinct by default (who reached a value first ranks higher: 1, 2, 3,
// 4), or shared by equal values on a board with `ties: 'shared'` (1, 2, 2, 4; on a board with a
// tiebreak, by equal values with equal tiebreaks), and the percentile a rank read carries when asked. A shared rank is 1 + the entries with a strictly
// better value (one descent of the rank index); a page finds its first entry's once and walks on.
import { DEFAULT_BOARD_OPTIONS, percentile, type Ties } from '../../contract/board-options';
import type { SortBy } from '../../contract/rules';
import { invalid } from '../../contract/rules';
import { Fail } from '../domain/fail';
import type { GameState, Untrusted } from '../state/context';
import { allTimeBoard } from '../state/game-state';
import type { ArchiveRecord, BoardRecord } from '../state/records';
import { rankIndex, tiebreakOf, type BoardTable } from '../state/tables';

/** How a board shows equal values (absent board or option: distinct, as always). */
export function tiesOf(board: BoardRecord | undefined): Ties {
    return board?.ties ?? DEFAULT_BOARD_OPTIONS.ties;
}

/** The ties of the game's all-time board: the global leaderboard and /players/{id}/rank. */
export function globalTies(game: GameState): Ties {
    return tiesOf(allTimeBoard(game.record));
}

const valuesOf = (table: BoardTable, sortBy: SortBy): Float64Array =>
    sortBy === 'streak' ? table.streak : table.score;

/** The rank `id` shows on the board (undefined when it has no entry). */
export function rankOf(table: BoardTable, sortBy: SortBy, id: number, ties: Ties): number | undefined {
    const index = rankIndex(table, sortBy);
    if (ties === 'distinct') return index.rank(id);
    if (!index.has(id)) return undefined;
    return 1 + better(table, sortBy, id);
}

/**
 * How many entries rank strictly ahead of `id` by value, or on a board with a tiebreak by
 * (value, tiebreak): 1 + this is its shared rank. (Among equal values, a tiebreak makes ranks
 * distinct; only entries equal in both share one.)
 */
function better(table: BoardTable, sortBy: SortBy, id: number): number {
    const index = rankIndex(table, sortBy);
    const value = valuesOf(table, sortBy)[id];
    if (table.tiebreak === undefined || sortBy !== 'score') return index.countBetter(value);
    return index.countAhead(value, index.atOf(id)!);
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
    if (table.tiebreak !== undefined && sortBy === 'score') {
        // A tiebreak splits equal values: the same rank needs the same tiebreak too.
        let previousTiebreak: number | undefined;
        return (id, i) => {
            const value = values[id];
            const tiebreak = tiebreakOf(table, id);
            if (i === 0) rank = 1 + better(table, sortBy, id);
            else if (value !== previous || tiebreak !== previousTiebreak) rank = start + i;
            previous = value;
            previousTiebreak = tiebreak;
            return rank;
        };
    }
    return (id, i) => {
        const value = values[id];
        if (i === 0) rank = 1 + rankIndex(table, sortBy).countBetter(value);
        else if (value !== previous) rank = start + i;
        previous = value;
        return rank;
    };
}

/**
 * Ranks of a list already in board order from the top (an archive's entries). With `tiebreaks`
 * (a board with the option) a shared rank needs the tiebreaks equal too.
 */
export function listRanks(
    values: readonly number[],
    ties: Ties,
    tiebreaks?: ReadonlyArray<number | undefined>,
): number[] {
    const ranks = new Array<number>(values.length);
    for (let i = 0; i < values.length; i++)
        ranks[i] =
            ties === 'shared' &&
            i > 0 &&
            values[i] === values[i - 1] &&
            (tiebreaks === undefined || tiebreaks[i] === tiebreaks[i - 1])
                ? ranks[i - 1]
                : i + 1;
    return ranks;
}

/** The ranks of an archive's entries (in its order, from its top) by the board's ties. */
export function archiveRanks(archive: ArchiveRecord, entries: ArchiveRecord['entries'], ties: Ties): number[] {
    return listRanks(
        entries.map((e) => (archive.sortBy === 'streak' ? e.streak : e.score)),
        ties,
        archive.tiebreak === undefined ? undefined : entries.map((e) => e.tiebreak),
    );
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
