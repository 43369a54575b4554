// The target of a move or a backup's import: it takes the chunks in order, then activates the game.
import { loadLeagues } from '../../state/leagues';
import type { RequestOf } from '../../../contract/canister';
import { MOVE_CHUNK_BYTES } from '../../../contract/shards';
import { Fail } from '../../domain/fail';
import type { Ctx, GameState, Untrusted } from '../../state/context';
import { emptyGameState, indexPlayer } from '../../state/game-state';
import { holdName, nameHolder } from '../../state/names';
import type {
    AccountRecord,
    ActiveSessions,
    DeviceCodeRecord,
    GameRecord,
    MoveInRecord,
    PlayerRecord,
    PlayerSessionRecord,
    PlaySession,
    Stats,
} from '../../state/records';
import { setSlot } from '../../state/slots';
import { dropStats, statsOf } from '../../state/stats';
import { playerKey } from '../../state/store';
import { authTypeNames, registerAuthType } from '../../state/tables';
import { assertRoomForNewGame, recount } from '../capacity';
import { importMovedCode } from '../device-codes';
import { forgetMovedAccounts } from '../identities';
import { loadMoves } from '../move-gate';
import { checkItems } from './check';
import { checksumOf, chunkDigest, gameIdOf, inMoves, saveIn, type Item } from './records';

/** Heap tables of games being imported (lost on an upgrade: move_in_end then rebuilds from records). */
const importing = new Map<string, GameState>();
/**
 * Accounts each import brought (heap, like `importing`): checked against the accounts this shard
 * forgot while the game was on its way (identities.ts) when it activates.
 */
const importedAccounts = new Map<string, Set<string>>();

/** Forgets the heap tables and accounts of an import that was dropped. */
export function forgetImport(gameId: string): void {
    importing.delete(gameId);
    importedAccounts.delete(gameId);
}

/** Whether this canister holds anything of `gameId` (a game, a purge of one, its counters, written or not). */
export function holdsGame(ctx: Ctx, gameId: string): boolean {
    return (
        ctx.store.games.get(gameId) !== undefined ||
        ctx.games.has(gameId) ||
        (ctx.store.meta.get('purging') ?? []).some((p) => p.gameId === gameId) ||
        ctx.store.stats.get(gameId) !== undefined ||
        ctx.dirtyStats.has(gameId)
    );
}

/** Takes chunk `index` (they come in order; one taken already is answered again, unchanged). */
export function moveInChunk(ctx: Ctx, req: Untrusted<RequestOf<'move_in_chunk'>>): { next: number } {
    return takeChunk(ctx, req, false, (gameId, parsed, move) => checkItems(gameId, parsed, move.next === 0));
}

/**
 * A chunk of a move (`backup` false) or of a backup's import (true, service/backup/): in order, each
 * item checked by `check` (which may rewrite it) before any of the chunk is written.
 */
export function takeChunk(
    ctx: Ctx,
    req: Untrusted<{ gameId: string; index: number; data: string }>,
    backup: boolean,
    check: (gameId: string, parsed: unknown, move: MoveInRecord) => Item[],
): { next: number } {
    const gameId = gameIdOf(req);
    const index = req.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0)
        throw new Fail(400, 'Invalid index: must be a non-negative integer');
    if (typeof req.data !== 'string') throw new Fail(400, 'Invalid data: must be a string');
    const ins = inMoves(ctx);
    let move = ins[gameId];
    if (move !== undefined && (move.backup === true) !== backup)
        throw new Fail(409, `'${gameId}' is being ${backup ? 'moved' : 'imported from a backup'} here`);
    if (move === undefined) {
        if (index !== 0) throw new Fail(409, `The import of '${gameId}' starts at chunk 0`);
        if (holdsGame(ctx, gameId)) throw new Fail(409, `This canister already holds game '${gameId}'`);
        // A canister past its heap line takes no game (limits part): the directory places none there either.
        assertRoomForNewGame(ctx);
        move = { gameId, startedAt: ctx.env.now(), next: 0, hashes: [], players: 0, events: 0 };
        if (backup) move.backup = true;
    }
    if (index < move.next) return { next: move.next };
    if (index > move.next) throw new Fail(409, `Chunk ${move.next} of '${gameId}' comes next, not ${index}`);
    if (req.data.length > MOVE_CHUNK_BYTES) throw new Fail(400, `Invalid data: at most ${MOVE_CHUNK_BYTES} bytes`);
    let parsed: unknown;
    try {
        parsed = JSON.parse(req.data);
    } catch {
        throw new Fail(400, 'Invalid data: not JSON');
    }
    const items = check(gameId, parsed, move);
    applyItems(ctx, move, items);
    move.hashes.push(chunkDigest(req.data, items));
    move.next++;
    ins[gameId] = move;
    saveIn(ctx, ins);
    return { next: move.next };
}

function applyItems(ctx: Ctx, move: MoveInRecord, items: Item[]): void {
    const gameId = move.gameId;
    let game = importing.get(gameId);
    let authTypesGrew = false;
    for (const [kind, key, value] of items) {
        switch (kind) {
            case 'game': {
                move.record = value as GameRecord;
                game = emptyGameState(move.record);
                importing.set(gameId, game);
                break;
            }
            case 'stats':
                move.stats = value as Stats;
                break;
            case 'player': {
                const player = value as PlayerRecord;
                // A record as parsed from JSON: its maps keyed by user input lose their prototype.
                player.boards = Object.assign(Object.create(null), player.boards ?? {});
                player.pace = Object.assign(Object.create(null), player.pace ?? {});
                ctx.store.players.set(playerKey(gameId, key), player);
                setSlot(ctx, gameId, player.slot, key);
                move.players = Math.max(move.players, player.slot + 1);
                if (registerAuthType(player.authType)) authTypesGrew = true;
                if (game !== undefined) indexPlayer(game, player);
                break;
            }
            case 'name': {
                const owner = playerKey(gameId, value as string);
                if (nameHolder(ctx, gameId, key) === undefined) holdName(ctx, key, owner);
                break;
            }
            case 'session': {
                const session = value as PlaySession;
                ctx.store.sessions.set(key, session);
                ctx.store.sessionExpiry.set(`${String(session.expiresAt).padStart(20, '0')}/${key}`, '');
                break;
            }
            case 'playerSession': {
                const session = value as PlayerSessionRecord;
                ctx.store.playerSessions.set(key, session);
                const list = ctx.store.accountSessions.get(session.accountId) ?? [];
                if (!list.includes(key)) ctx.store.accountSessions.set(session.accountId, [...list, key]);
                break;
            }
            case 'account': {
                // One here already (signed in here too) keeps what it has, and learns of this game.
                const account = value as AccountRecord;
                importedAccounts.set(gameId, (importedAccounts.get(gameId) ?? new Set<string>()).add(key));
                const here = ctx.store.accounts.get(key);
                if (here === undefined) {
                    ctx.store.accounts.set(key, account);
                    const identity = `${account.issuer}\n${account.subject}`;
                    if (ctx.store.accountKeys.get(identity) === undefined) ctx.store.accountKeys.set(identity, key);
                } else if (!here.games.includes(gameId))
                    ctx.store.accounts.set(key, { ...here, games: [...here.games, gameId] });
                break;
            }
            case 'events':
                move.events = Math.max(move.events, Number(key.slice(gameId.length + 1)) + 1);
                ctx.store.events.set(key, value as never);
                break;
            case 'activeSessions':
                ctx.store.activeSessions.set(key, value as ActiveSessions);
                break;
            case 'deviceCode':
                importMovedCode(ctx, key, value as DeviceCodeRecord);
                break;
            default:
                (ctx.store[kind as 'daily'] as { set(k: string, v: unknown): void }).set(key, value);
        }
    }
    if (authTypesGrew) ctx.store.meta.set('authTypes', [...authTypeNames()]);
}

/**
 * Checks the count and checksum of what came and activates the game: its record and API key,
 * counters, heap tables (built as the chunks came; rebuilt from the records after an upgrade).
 * Returns whether the heap tables still fill up (a timer finishes them).
 */
export function moveInEnd(
    ctx: Ctx,
    req: Untrusted<RequestOf<'move_in_end'>>,
): { players: number; rebuilding: boolean } {
    const move = importOf(ctx, req, false);
    if (typeof req.checksum !== 'string' || req.checksum !== checksumOf(move.hashes))
        throw new Fail(409, 'Invalid checksum: the chunks that came are not the export (abort and move again)');
    return activate(ctx, move);
}

/** The import of `req.gameId` (a move's or a backup's) once `req.chunks` chunks came. */
export function importOf(
    ctx: Ctx,
    req: Untrusted<{ gameId: string; chunks: number }>,
    backup: boolean,
): MoveInRecord & { record: GameRecord } {
    const gameId = gameIdOf(req);
    const move = inMoves(ctx)[gameId];
    if (move === undefined || (move.backup === true) !== backup) {
        if (ctx.games.has(gameId)) throw new Fail(409, `Game '${gameId}' is here already`);
        throw new Fail(404, `'${gameId}' is not being imported here`);
    }
    if (req.chunks !== move.next)
        throw new Fail(409, `Invalid chunks: ${move.next} chunks came, not ${String(req.chunks)}`);
    if (move.record === undefined) throw new Fail(409, 'The import has no game record');
    return move as MoveInRecord & { record: GameRecord };
}

/** Activates an import whose chunks all came (`move.record` as it is to be kept). */
export function activate(
    ctx: Ctx,
    move: MoveInRecord & { record: GameRecord },
): { players: number; rebuilding: boolean } {
    const gameId = move.gameId;
    const ins = inMoves(ctx);
    const record = move.record;
    if (holdsGame(ctx, gameId)) throw new Fail(409, `This canister already holds game '${gameId}'`);
    // Its leagues start anew here, under keys of their own (none of an old stay here can meet them).
    for (const board of record.boards) if (board.league !== undefined) board.leagueSince = ctx.env.now();
    ctx.store.games.set(gameId, record);
    ctx.store.apiKeys.set(record.apiKey, gameId);
    dropStats(ctx, gameId);
    if (move.stats !== undefined) ctx.store.stats.set(gameId, move.stats);
    let game = importing.get(gameId);
    const rebuilding = game === undefined;
    if (game === undefined) {
        game = emptyGameState(record);
        ctx.rebuilding.set(gameId, 0);
    }
    // The tables were built with the record of chunk 0: the same record (the game was frozen).
    game.record = record;
    loadLeagues(ctx, game);
    ctx.games.set(gameId, game);
    importing.delete(gameId);
    forgetMovedAccounts(ctx, gameId, importedAccounts.get(gameId) ?? []);
    importedAccounts.delete(gameId);
    delete ins[gameId];
    saveIn(ctx, ins);
    recount(ctx);
    // A game that comes back is no longer "moved" here.
    const moved = { ...(ctx.store.meta.get('movedGames') ?? {}) };
    if (gameId in moved) {
        delete moved[gameId];
        if (Object.keys(moved).length === 0) ctx.store.meta.delete('movedGames');
        else ctx.store.meta.set('movedGames', moved);
        loadMoves(ctx);
    }
    return { players: statsOf(ctx, gameId).players, rebuilding };
}
