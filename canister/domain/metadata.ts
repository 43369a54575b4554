// Which metadata a board entry keeps: the rule for a submit (by the board's operator) and for a
// merge of two entries (the metadata goes with the value that wins). Metadata is kept as its
// JSON text (contract/board-options.ts parseMetadata); absent = none.
import type { Operator } from '../../contract/board-options';
import type { SortBy } from '../../contract/rules';
import type { Best } from './bests';

/**
 * Whether an accepted submit's metadata (or its absence) replaces the entry's. With `best` only
 * when the submit set a new best of the value the board ranks by (score, or streak on a board
 * ranked by streak; a first entry counts): the metadata describes that value, so a new best
 * without metadata clears it and a new best of the other field alone leaves it. With `latest`
 * and `sum` every accepted submit that writes the entry: the entry is the last submit's.
 */
export function keepsMetadata(operator: Operator, improved: boolean): boolean {
    return operator === 'best' ? improved : true;
}

/** An entry's bests with its metadata, as a merge compares them. */
export type Noted = Best & { metadata?: string };

/**
 * The metadata of a merged entry: that of the side whose ranked value (and the time it was
 * reached) the merge kept; when it kept neither as it was (a sum), the side that reached its
 * value last.
 */
export function mergedMetadata(
    merged: Best,
    sortBy: SortBy,
    a: Noted | undefined,
    b: Noted | undefined,
): string | undefined {
    const field = sortBy === 'streak' ? 'streak' : 'score';
    const at = sortBy === 'streak' ? 'streakAt' : 'scoreAt';
    const took = (side: Noted | undefined): boolean =>
        side !== undefined && side[field] === merged[field] && side[at] === merged[at];
    if (took(a)) return a!.metadata;
    if (took(b)) return b!.metadata;
    if (a === undefined) return b?.metadata;
    if (b === undefined) return a.metadata;
    return b[at] > a[at] ? b.metadata : a.metadata;
}
