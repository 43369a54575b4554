// The directory's own records in an operator's backup (docs/operations.md): paged out by table
// (admin_backup_records) and written back into a running service (admin_restore_records), where
// what the target has already stays (its developers and accounts learn the backup's games).
import type { RequestOf } from '../../contract/canister';
import { invalid } from '../../contract/rules';
import {
    BACKUP_RECORDS_BYTES,
    BACKUP_RECORDS_PAGE,
    DIRECTORY_TABLES,
    RESTORED_TABLES,
    type RestoredTable,
} from '../../contract/service-backup';
import { Fail } from '../domain/fail';
import type { Ctx, Untrusted } from '../state/context';
import type { AccountRecord, DeveloperRecord } from '../state/records';
import type { KV } from '../state/store';

/** A page of `table` from position `start`. */
export function backupRecords(
    ctx: Ctx,
    req: Untrusted<RequestOf<'admin_backup_records'>>,
): { records: Array<[string, unknown]>; next: number | null } {
    const table = req.table;
    if (typeof table !== 'string' || !(DIRECTORY_TABLES as readonly string[]).includes(table))
        throw new Fail(400, invalid('table', `must be one of ${DIRECTORY_TABLES.join(', ')}`));
    const start = req.start ?? 0;
    if (typeof start !== 'number' || !Number.isInteger(start) || start < 0)
        throw new Fail(400, invalid('start', 'must be a non-negative integer'));
    const kv = ctx.store[table as (typeof DIRECTORY_TABLES)[number]] as KV<unknown>;
    const records: Array<[string, unknown]> = [];
    let bytes = 0;
    for (const [key, value] of kv.first(BACKUP_RECORDS_PAGE, start)) {
        records.push([key, value]);
        bytes += key.length + JSON.stringify(value).length;
        if (bytes >= BACKUP_RECORDS_BYTES) break;
    }
    const next = start + records.length;
    return { records, next: next < kv.size() ? next : null };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const HEX64 = /^[0-9a-f]{64}$/;
const IDENTITY = /^[^\n]{1,1000}\n[^\n]{1,1000}$/;
const ID = /^[\w@.:-]{1,200}$/;

/** Whether `value` under `key` is a record of `table` (nothing is written unless all of a call's are). */
function valid(table: RestoredTable, key: string, value: unknown): boolean {
    switch (table) {
        case 'developers':
            return (
                isObject(value) &&
                value.developerId === key &&
                ID.test(key) &&
                typeof value.allowance === 'number' &&
                strings(value.gameIds)
            );
        case 'developerKeys':
        case 'accountKeys':
            return IDENTITY.test(key) && typeof value === 'string' && ID.test(value);
        case 'developerSessions':
            return (
                HEX64.test(key) &&
                isObject(value) &&
                typeof value.developerId === 'string' &&
                typeof value.expiresAt === 'number' &&
                typeof value.renewedAt === 'number'
            );
        case 'accounts':
            return (
                isObject(value) &&
                value.accountId === key &&
                ID.test(key) &&
                typeof value.issuer === 'string' &&
                typeof value.subject === 'string' &&
                strings(value.games)
            );
    }
}

/**
 * Writes the records of `table` that the target lacks; a developer or account it has learns the
 * backup's games. `existing`: the keys it had (the restore gives no identity or session of a
 * backup to a developer or account the target had: those keep their own).
 */
export function restoreRecords(
    ctx: Ctx,
    req: Untrusted<RequestOf<'admin_restore_records'>>,
): { written: number; kept: number; existing: string[] } {
    const table = req.table as RestoredTable;
    if (typeof req.table !== 'string' || !(RESTORED_TABLES as readonly string[]).includes(req.table))
        throw new Fail(400, invalid('table', `must be one of ${RESTORED_TABLES.join(', ')}`));
    const records = req.records;
    if (!Array.isArray(records) || records.length > BACKUP_RECORDS_PAGE)
        throw new Fail(400, invalid('records', `must be a list of at most ${BACKUP_RECORDS_PAGE} [key, value] pairs`));
    records.forEach((item: unknown, i) => {
        if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string' || !valid(table, item[0], item[1]))
            throw new Fail(400, invalid('records', `item ${i} is not a record of ${table}`));
    });
    let written = 0;
    const existing: string[] = [];
    const kv = ctx.store[table] as KV<unknown>;
    for (const [key, value] of records as Array<[string, unknown]>) {
        const here = kv.get(key);
        if (here === undefined) {
            kv.set(key, value);
            if (table === 'developers' && (value as DeveloperRecord).request !== undefined) {
                const requesters = ctx.store.meta.get('requesters') ?? [];
                if (!requesters.includes(key)) ctx.store.meta.set('requesters', [...requesters, key]);
            }
            written++;
            continue;
        }
        existing.push(key);
        if (table === 'developers') {
            const developer = here as DeveloperRecord;
            const gameIds = union(developer.gameIds, (value as DeveloperRecord).gameIds);
            if (gameIds.length > developer.gameIds.length) ctx.store.developers.set(key, { ...developer, gameIds });
        } else if (table === 'accounts') {
            const account = here as AccountRecord;
            const games = union(account.games, (value as AccountRecord).games);
            if (games.length > account.games.length) ctx.store.accounts.set(key, { ...account, games });
        }
    }
    return { written, kept: existing.length, existing };
}

const union = (a: string[], b: string[]): string[] => [...a, ...b.filter((id) => !a.includes(id))];
