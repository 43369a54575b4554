// What a direct-read path names: its game, its board, and the queries it is kept rendered ahead for.

// A path is its keys: decoded segments, a last '' for a trailing `/` (pathKeys).

/** The game a direct-read path names (`/games/<g>/...`, `/archives/<g>:...`), if any. */
export function gameIdOf(path: readonly string[] | undefined): string | undefined {
    if (path?.[0] === 'games') return path[1];
    if (path?.[0] === 'archives') return path[1]?.split(':')[0];
    return undefined;
}

/** The board a path is under (`games/<g>/scoreboards/<b>/...`), if any. */
export function boardOf(path: readonly string[]): string | undefined {
    return path[0] === 'games' && path[2] === 'scoreboards' && path[3] !== '' ? path[3] : undefined;
}

export const isBoardPath = (path: readonly string[]): boolean => path.length === 4 && boardOf(path) !== undefined;

export const urlOf = (path: readonly string[], query: string): string =>
    `/${path.join('/')}${query === '' ? '' : '?'}${query}`;

/** A path of keys as the path a board read matches. */
export const canonicalPath = (path: readonly string[]): string =>
    `/${path.map((k) => encodeURIComponent(k)).join('/')}`;

/**
 * The `limit`s of a board read rendered ahead of time (besides none, which is 100), also for the
 * latest archive. Not 1,000: SHA-256 costs ~1 M instructions per 64 bytes here, so keeping a
 * ~110 KB top 1,000 certified would cost ~1.7 B instructions per board per change; it is
 * rendered on demand instead, like any other limit.
 */
export const CERTIFIED_LIMITS = [10, 25, 50, 100] as const;

/** A query a path is rendered ahead for (kept certified while read); any other is rendered on demand. */
export function aheadQuery(path: readonly string[], query: string): boolean {
    if (query === '') return true;
    const limited = isBoardPath(path) || (path.length === 6 && boardOf(path) !== undefined && path[5] === 'latest');
    return limited && CERTIFIED_LIMITS.some((l) => query === `limit=${l}`);
}
