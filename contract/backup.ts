// A game's backup file (the dashboard's "Download a backup", `npm run admin -- import-game`): its
// format name and version, the kinds of record it holds and how the canister pages them out.
// docs/backups.md describes the file for its readers.

/** The first line's `format`. */
export const BACKUP_FORMAT = 'leaderboard-game-backup';
/** The first line's `version`: a file of another version is refused, never guessed at. */
export const BACKUP_VERSION = 1;

/**
 * What a backup holds: the game's settings and boards, its counters, each player's record
 * (nickname, entries, metadata, ban), achievements, bans of ids without a record, archives.
 * Never accounts (emails, identities), sessions, device codes, keys, webhooks, logs or events.
 */
export const BACKUP_KINDS = ['game', 'stats', 'player', 'achievements', 'bans', 'archives'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** One record: `[kind, key, value]`, a line of the file. */
export type BackupItem = [BackupKind, string, unknown];

/** The file's first line. */
export interface BackupHeader {
    format: typeof BACKUP_FORMAT;
    version: typeof BACKUP_VERSION;
    gameId: string;
    /** ISO 8601, UTC. */
    exportedAt: string;
}

/** The file's last line: how many records came and the SHA-256 (hex) of every line before it, newline-terminated. */
export interface BackupTrailer {
    end: true;
    items: number;
    sha256: string;
}

/**
 * The most players one dev_backup_game page holds (one query each): ~1 KB a player with
 * metadata on a few boards keeps a page near 0.5 MB, inside a reply's 2 MiB.
 */
export const BACKUP_PAGE_PLAYERS = 500;
/** The most archives a page holds (up to 1,000 entries each, ~100 KB; ~400 KB with metadata). */
export const BACKUP_PAGE_ARCHIVES = 8;
/**
 * A page ends once its records' JSON reaches this many characters, after the record at hand:
 * with the largest record (an archive full of metadata, a player with entries on 100 boards and
 * 1,000 achievements: under 0.5 MB) a page stays inside a reply's 2 MiB.
 */
export const BACKUP_PAGE_BYTES = 1_000_000;

/**
 * A page of the backup from position `cursor`: position 0 is the game, its counters and bans,
 * then one position per archive, then one per player slot; `next` is the next page's cursor
 * (null: this was the last). `periods`: the boards' current periods, so that a reader notices a
 * rollover between pages.
 */
export interface BackupPage {
    items: BackupItem[];
    next: number | null;
    periods: string;
}
