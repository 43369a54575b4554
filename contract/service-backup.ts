// An operator's backup of a whole service (`npm run admin -- backup`/`restore`, docs/operations.md):
// its manifest, its files' formats and versions, and the directory tables it holds.

/** The manifest's `format`; `version` is SERVICE_BACKUP_VERSION (a newer one is refused, never guessed at). */
export const SERVICE_BACKUP_FORMAT = 'leaderboard-service-backup';
export const SERVICE_BACKUP_VERSION = 1;
/** The first line of a game's file. */
export const GAME_FILE_FORMAT = 'leaderboard-service-backup-game';

/**
 * The directory's records a backup holds (admin_backup_records), by table: developers (with their
 * emails and allowances), their sign-in identities and dashboard sessions, players' accounts and
 * their identities (the identity registry), and where each game lives (read only: a restore
 * places games on the target's own canisters).
 */
export const DIRECTORY_TABLES = [
    'developers',
    'developerKeys',
    'developerSessions',
    'accounts',
    'accountKeys',
    'locations',
    'remoteGames',
] as const;
export type DirectoryTable = (typeof DIRECTORY_TABLES)[number];
/** The tables admin_restore_records writes (locations go through admin_set_location). */
export const RESTORED_TABLES = ['developers', 'developerKeys', 'developerSessions', 'accounts', 'accountKeys'] as const;
export type RestoredTable = (typeof RESTORED_TABLES)[number];

/** Records per admin_backup_records page at most; a page also ends past BACKUP_RECORDS_BYTES of JSON. */
export const BACKUP_RECORDS_PAGE = 2_000;
export const BACKUP_RECORDS_BYTES = 1_000_000;

/** One directory record: `[table, key, value]`, a line of `directory.jsonl`. */
export type DirectoryRecord = [DirectoryTable, string, unknown];

/** A file of the backup as the manifest lists it. */
export interface BackupFileEntry {
    /** Relative to the backup's folder, `/`-separated. */
    name: string;
    bytes: number;
    /** SHA-256 (hex) of the file's bytes. */
    sha256: string;
}

/** A game as the manifest lists it. */
export interface BackupGameEntry {
    gameId: string;
    /** Its file (`games/<gameId>.jsonl`). */
    file: string;
    /** The canister that held it. */
    canisterId: string;
    players: number;
    chunks: number;
    /** The export's checksum (move_out_begin), checked again by the target at move_in_end. */
    checksum: string;
    /** How long its writes paused while it was staged (ms, as the backup measured it). */
    pausedMs: number;
}

/** `manifest.json`, written last: a folder without it is a backup cut short. */
export interface BackupManifest {
    format: typeof SERVICE_BACKUP_FORMAT;
    version: number;
    /** ISO 8601, UTC. */
    createdAt: string;
    /** The service backed up: its directory (or single canister) and shards. */
    directory: string;
    shards: string[];
    /** The one game backed up (`--game`), or absent for the whole service. */
    game?: string;
    games: BackupGameEntry[];
    files: BackupFileEntry[];
}

/** The first line of a game's file; each line after it is one chunk of its export, as staged. */
export interface GameFileHeader {
    format: typeof GAME_FILE_FORMAT;
    version: number;
    gameId: string;
    chunks: number;
    checksum: string;
}
