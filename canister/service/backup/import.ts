// A backup's import by an operator (admin_import_chunk/_end): records checked, rebuilt, taken in as a move's.
import { BACKUP_KINDS, type BackupKind } from '../../../contract/backup';
import type { RequestOf } from '../../../contract/canister';
import { checkAchievementId, invalid } from '../../../contract/rules';
import { Fail } from '../../domain/fail';
import { nameKey } from '../../domain/nicknames';
import type { Ctx, Untrusted } from '../../state/context';
import { nameHolder } from '../../state/names';
import type { MoveInRecord } from '../../state/records';
import { slotPlayer } from '../../state/slots';
import { playerKey } from '../../state/store';
import { locationOf } from '../directory';
import { developerOf, newApiKey, text } from '../games';
import { activate, holdsGame, importOf, takeChunk, type Item } from '../move';
import { MAX_ACHIEVEMENTS_PER_PLAYER } from '../players';
import { archiveOf, ban, gameOf, playerIdOk, playerOf, statsOfBackup } from './records';

const bad = (i: number, problem: string): Fail => new Fail(400, `Invalid backup: record ${i} ${problem}`);

/** Auth types a whole import may bring (each becomes a name in the canister's table). */
const MAX_AUTH_TYPES = 16;

/**
 * Checks a chunk of a backup and rebuilds each record from its known fields (as the move's
 * items), refusing the whole chunk on the first bad one: a record of another game, an unknown
 * kind, a value out of its rule's range, a slot, player or nickname taken twice.
 */
function checkBackup(ctx: Ctx, gameId: string, items: unknown, move: MoveInRecord): Item[] {
    if (!Array.isArray(items)) throw new Fail(400, 'Invalid backup: a chunk must be a JSON list of records');
    const out: Item[] = [];
    let record = move.record;
    let players = move.stats?.players ?? 0;
    const slots = new Set<number>();
    const names = new Set<string>();
    const ids = new Set<string>();
    const authTypes = new Set<string>();
    items.forEach((item: unknown, i) => {
        if (!Array.isArray(item) || item.length !== 3 || typeof item[0] !== 'string' || typeof item[1] !== 'string')
            throw bad(i, 'must be [kind, key, value]');
        const [kind, key, value] = item as [BackupKind, string, unknown];
        if (!BACKUP_KINDS.includes(kind)) throw bad(i, `has an unknown kind '${String(kind)}'`);
        const first = move.next === 0 && i === 0;
        if (first !== (kind === 'game'))
            throw bad(i, first ? 'must be the game record (the file starts with it)' : 'is a game record out of place');
        if ((move.next === 0 && i === 1) !== (kind === 'stats'))
            throw bad(
                i,
                kind === 'stats'
                    ? 'is a counters record out of place'
                    : 'must be the counters (they follow the game record)',
            );
        try {
            switch (kind) {
                case 'game':
                    if (key !== gameId) throw new Fail(400, `is not a record of game '${gameId}'`);
                    record = gameOf(gameId, value);
                    out.push(['game', key, record]);
                    return;
                case 'stats': {
                    if (key !== gameId) throw new Fail(400, 'is not the counters of the game');
                    const stats = statsOfBackup(value);
                    players = stats.players;
                    out.push(['stats', key, stats]);
                    return;
                }
                case 'player': {
                    const player = playerOf(key, value, record!, players);
                    const own = playerKey(gameId, key);
                    if (slots.has(player.slot) || slotPlayer(ctx, gameId, player.slot) !== undefined)
                        throw new Fail(400, `takes slot ${player.slot} a second time`);
                    if (ids.has(key) || ctx.store.players.get(own) !== undefined)
                        throw new Fail(400, `is player '${key}' a second time`);
                    ids.add(key);
                    slots.add(player.slot);
                    authTypes.add(player.authType);
                    if (authTypes.size > MAX_AUTH_TYPES)
                        throw new Fail(400, `brings more than ${MAX_AUTH_TYPES} sign-in kinds`);
                    out.push(['player', key, player]);
                    if (!player.defaultName && player.retired === undefined) {
                        const skeleton = nameKey(player.nickname);
                        if (names.has(skeleton) || nameHolder(ctx, gameId, player.nickname) !== undefined)
                            throw new Fail(400, `takes the nickname '${player.nickname}' a second time`);
                        names.add(skeleton);
                        out.push(['name', player.nickname, key]);
                    }
                    return;
                }
                case 'achievements': {
                    const playerId = key.slice(gameId.length + 1);
                    if (!key.startsWith(`${gameId}/`) || !playerIdOk(playerId))
                        throw new Fail(400, `is not of game '${gameId}'`);
                    if (
                        !Array.isArray(value) ||
                        value.length > MAX_ACHIEVEMENTS_PER_PLAYER ||
                        new Set(value).size !== value.length
                    )
                        throw new Fail(
                            400,
                            invalid('achievements', `must be at most ${MAX_ACHIEVEMENTS_PER_PLAYER} distinct ids`),
                        );
                    for (const id of value) {
                        const error = checkAchievementId(id);
                        if (error) throw new Fail(400, error);
                    }
                    out.push(['achievements', key, [...(value as string[])]]);
                    return;
                }
                case 'bans': {
                    if (!key.startsWith(`${gameId}/`) || !playerIdOk(key.slice(gameId.length + 1)))
                        throw new Fail(400, `is not a ban in game '${gameId}'`);
                    out.push(['bans', key, ban(value)]);
                    return;
                }
                case 'archives':
                    out.push(['archives', key, archiveOf(key, value, record!)]);
                    return;
            }
        } catch (e) {
            if (e instanceof Fail) throw bad(i, `(${kind} ${key}): ${e.message}`);
            throw e;
        }
    });
    return out;
}

/** admin_import_chunk: a chunk of a backup file's records, in order (docs/backups.md). */
export function importChunk(ctx: Ctx, req: Untrusted<RequestOf<'admin_import_chunk'>>): { next: number } {
    const gameId = req.gameId;
    // Taken is refused by name, wherever the directory knows it (a game on a shard too).
    if (
        req.index === 0 &&
        typeof gameId === 'string' &&
        (holdsGame(ctx, gameId) || locationOf(ctx, gameId) !== undefined || ctx.movedTo.has(gameId))
    )
        throw new Fail(409, `Game ID '${gameId}' is already taken.`);
    return takeChunk(ctx, req, true, (id, items, move) => checkBackup(ctx, id, items, move));
}

/**
 * admin_import_end: activates the imported game for `developerId` (the operator's choice; no
 * allowance applies) under a new API key, without a server key.
 */
export function importEnd(
    ctx: Ctx,
    req: Untrusted<RequestOf<'admin_import_end'>>,
): { gameId: string; apiKey: string; players: number } {
    const developerId = text('developerId', req.developerId, 1, 200);
    const move = importOf(ctx, req, true);
    const gameId = move.gameId;
    if (locationOf(ctx, gameId) !== undefined || ctx.movedTo.has(gameId))
        throw new Fail(409, `Game ID '${gameId}' is already taken.`);
    const apiKey = newApiKey(ctx, gameId);
    move.record = { ...move.record, apiKey, developerId };
    // The counter of slots handed out is what came, whatever the file claimed.
    if (move.stats !== undefined) move.stats = { ...move.stats, players: move.players };
    const { players } = activate(ctx, move);
    // A shard's developers live in its directory, which the CLI tells (after a move there).
    if (ctx.store.meta.get('role') !== 'shard') {
        const developer = developerOf(ctx, developerId);
        if (!developer.gameIds.includes(gameId))
            ctx.store.developers.set(developerId, { ...developer, gameIds: [...developer.gameIds, gameId] });
    }
    return { gameId, apiKey, players };
}
