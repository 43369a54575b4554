// A game's backup file as text (docs/backups.md): JSON lines, a header, one record a line, a
// trailer with the count and the SHA-256 of the lines before it; written by the dashboard's
// download, read back (and every line checked against the trailer) by `admin import-game`.
import { createHash, type Hash } from 'node:crypto';

import { BACKUP_FORMAT, BACKUP_VERSION, type BackupHeader, type BackupTrailer } from '../../contract/backup';
import { MOVE_CHUNK_BYTES } from '../../contract/shards';

/** Writes the file a line at a time, hashing as it goes: the header first, then each record, then `end()`. */
export function backupWriter(gameId: string, now: Date): { line(value: unknown): string; end(): string } {
    const hash: Hash = createHash('sha256');
    let lines = 0;
    const line = (value: unknown): string => {
        const text = `${JSON.stringify(value)}\n`;
        hash.update(text);
        lines++;
        return text;
    };
    const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        gameId,
        exportedAt: now.toISOString(),
    };
    let head: string | undefined = line(header);
    const first = (): string => {
        const text = head ?? '';
        head = undefined;
        return text;
    };
    return {
        line: (value) => first() + line(value),
        end() {
            const trailer: BackupTrailer = { end: true, items: lines - 1, sha256: hash.digest('hex') };
            return `${first()}${JSON.stringify(trailer)}\n`;
        },
    };
}

/** A file read back: its header and its records, each still the JSON text of its line. */
export interface BackupFile {
    header: BackupHeader;
    records: string[];
}

/** Checks a file as a whole before anything is imported: format, version, every line against the trailer. */
export function readBackup(text: string): BackupFile {
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const json = (i: number): unknown => {
        try {
            return JSON.parse(lines[i]);
        } catch {
            throw new Error(`Not a backup file: line ${i + 1} is not JSON`);
        }
    };
    const header = lines.length > 0 ? (json(0) as Partial<BackupHeader> | null) : null;
    if (header === null || typeof header !== 'object' || header.format !== BACKUP_FORMAT)
        throw new Error(`Not a backup file: its first line must be the header of format '${BACKUP_FORMAT}'`);
    if (header.version !== BACKUP_VERSION)
        throw new Error(
            `Backup version ${String(header.version)} is not supported here (this service reads version ${BACKUP_VERSION})`,
        );
    const trailer = lines.length > 1 ? (json(lines.length - 1) as Partial<BackupTrailer> | null) : null;
    if (trailer === null || typeof trailer !== 'object' || trailer.end !== true)
        throw new Error('The backup file is cut short: its last line is not the trailer');
    const records = lines.slice(1, -1);
    const hash = createHash('sha256');
    for (const line of lines.slice(0, -1)) hash.update(`${line}\n`);
    if (trailer.items !== records.length || trailer.sha256 !== hash.digest('hex'))
        throw new Error('The backup file is corrupt: its lines do not match the trailer (count or SHA-256)');
    return { header: header as BackupHeader, records };
}

/**
 * The records as admin_import_chunk's `data`: JSON lists of at most MOVE_CHUNK_BYTES as they
 * travel (escaped in a JSON request, up to 3 bytes a character when not ASCII).
 */
export function chunksOf(records: string[]): string[] {
    const chunks: string[] = [];
    let parts: string[] = [];
    let size = 2;
    for (const record of records) {
        const cost = Buffer.byteLength(JSON.stringify(record)) + 1;
        if (cost + 2 > MOVE_CHUNK_BYTES) throw new Error('A record of the backup is larger than a chunk');
        if (size + cost > MOVE_CHUNK_BYTES) {
            chunks.push(`[${parts.join(',')}]`);
            parts = [];
            size = 2;
        }
        parts.push(record);
        size += cost;
    }
    if (parts.length > 0) chunks.push(`[${parts.join(',')}]`);
    return chunks;
}
