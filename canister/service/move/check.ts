// Which items a move's chunk may carry: each checked against the game it claims to be of.
import { Fail } from '../../domain/fail';
import { isMovedCode } from '../device-codes';
import type { Item } from './records';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const PLAYER_ID = /^@?[A-Za-z0-9_-]{1,100}$/;

/** Checks every item of a chunk against the game it claims to be of: nothing is written unless all pass. */
export function checkItems(gameId: string, items: unknown, first: boolean): Item[] {
    if (!Array.isArray(items)) throw new Fail(400, 'Invalid data: must be a JSON list of items');
    const prefix = `${gameId}/`;
    const bad = (i: number, problem: string): Fail => new Fail(400, `Invalid data: item ${i} ${problem}`);
    items.forEach((item: unknown, i) => {
        if (!Array.isArray(item) || item.length !== 3 || typeof item[0] !== 'string' || typeof item[1] !== 'string')
            throw bad(i, 'must be [kind, key, value]');
        const [kind, key, value] = item as Item;
        if (first && i === 0 && kind !== 'game')
            throw bad(i, 'must be the game record (the first chunk starts with it)');
        if (kind === 'game' && !(first && i === 0)) throw bad(i, 'is a game record out of place');
        const own = (v: unknown): boolean => isObject(v) && v.gameId === gameId;
        switch (kind) {
            case 'game':
                if (key !== gameId || !own(value) || !Array.isArray((value as { boards?: unknown }).boards))
                    throw bad(i, `is not a record of game '${gameId}'`);
                return;
            case 'stats':
                if (key !== gameId || !isObject(value)) throw bad(i, `is not the counters of '${gameId}'`);
                return;
            case 'reportQueues':
                if (key !== gameId || !isObject(value) || !Array.isArray(value.items))
                    throw bad(i, `is not the report queue of '${gameId}'`);
                return;
            case 'player': {
                const slot = isObject(value) ? value.slot : undefined;
                if (
                    !PLAYER_ID.test(key) ||
                    typeof slot !== 'number' ||
                    !Number.isInteger(slot) ||
                    slot < 0 ||
                    slot > 1e9
                )
                    throw bad(i, 'is not a player record');
                return;
            }
            case 'name':
                if (typeof value !== 'string' || !PLAYER_ID.test(value)) throw bad(i, 'is not a name holder');
                return;
            case 'session':
            case 'playerSession':
                if (!own(value)) throw bad(i, `is a session of another game than '${gameId}'`);
                return;
            case 'account':
                if (!isObject(value) || value.accountId !== key || typeof value.issuer !== 'string')
                    throw bad(i, 'is not an account');
                return;
            case 'events':
            case 'archives':
                if (!key.startsWith(prefix) || !own(value)) throw bad(i, `is not of game '${gameId}'`);
                return;
            case 'daily':
            case 'suspicion':
            case 'suspects':
            case 'moderation':
            case 'reports':
            case 'webhooks':
            case 'achievements':
            case 'grants':
            case 'grantIndex':
            case 'activeSessions':
            case 'bans':
                if (!key.startsWith(prefix) || value === null || typeof value !== 'object')
                    throw bad(i, `is not of game '${gameId}'`);
                return;
            case 'deviceCode':
                if (!isMovedCode(gameId, key, value)) throw bad(i, `is not a device code of '${gameId}'`);
                return;
            default:
                throw bad(i, `has an unknown kind '${kind}'`);
        }
    });
    return items as Item[];
}
