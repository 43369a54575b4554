// Moving a game's whole state to another canister: the source freezes the game's writes and
// stages its export in chunks (stable memory), the target takes the chunks in order and
// activates the game, then the source drops its copy in bounded steps and keeps a tombstone
// (gameId -> the canister it went to) so that any later call for it answers `moved`.
import { MOVE_CHUNK_BYTES } from '../../contract/shards';
import { Fail } from '../domain/fail';
import { tokenHash } from '../domain/sha256';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { emptyGameState, indexPlayer } from '../state/game-state';
import { holdName, nameHolder } from '../state/names';
import type {
    DeviceCodeRecord,
    AccountRecord,
    ActiveSessions,
    BanRecord,
    GameRecord,
    MoveInRecord,
    MoveOutRecord,
    PlayerRecord,
    PlayerSessionRecord,
    PlaySession,
    PurgeRecord,
    Stats,
} from '../state/records';
import { setSlot, slotPlayers } from '../state/slots';
import { statsOf } from '../state/stats';
import { playerKey } from '../state/store';
import { authTypeNames, registerAuthType } from '../state/tables';
import { archiveKey } from './rollover';
import { forgetPlayerIds } from './board-events';
import { eventSlots } from './events';
import { SUSPICION_KEEP } from './scores';
import { MODERATION_KEEP } from './moderation';
import type { RequestOf } from '../../contract/canister';
import { loadMoves, refuseMoved } from './move-gate';
import { nextDefaultNumber } from './players';
import { assertRoomForNewGame, recount } from './capacity';
import { codesOfGame, forgetCodesOfGame, importMovedCode, isMovedCode } from './device-codes';
import { forgetMovedAccounts } from './identities';

/** Players staged per move_out_begin call (measured: see docs; far inside the 40 B update limit). */
export const STAGE_PLAYERS_PER_CALL = 5_000;

/** Key of a staged chunk. */
const chunkKey = (gameId: string, index: number): string => `${gameId}/${index}`;

/**
 * What identifies a chunk: its length, item count, first and last key. Hashing every byte of
 * 1 MiB in this runtime's interpreter would cost billions of instructions per chunk; these catch
 * a chunk lost, repeated, cut short, out of order or from another export (a chunk that does not
 * parse is refused before). The move's checksum is the SHA-256 of the chunks' digests in order.
 */
export function chunkDigest(text: string, items: Array<[string, string, unknown]>): string {
    const first = items[0];
    const last = items[items.length - 1];
    return `${text.length}:${items.length}:${first?.[0]}/${first?.[1]}:${last?.[0]}/${last?.[1]}`;
}

export const checksumOf = (digests: string[]): string => tokenHash(digests.join('\n'));

// ---- source: begin (freeze + stage), chunk, end, abort -------------------------------------------

function outMoves(ctx: Ctx): Record<string, MoveOutRecord> {
    return Object.assign(Object.create(null) as Record<string, MoveOutRecord>, ctx.store.meta.get('moveOut') ?? {});
}

function saveOut(ctx: Ctx, moves: Record<string, MoveOutRecord>): void {
    if (Object.keys(moves).length === 0) ctx.store.meta.delete('moveOut');
    else ctx.store.meta.set('moveOut', moves);
    loadMoves(ctx);
}

function gameIdOf(req: { gameId?: unknown }): string {
    if (typeof req.gameId !== 'string' || req.gameId === '') throw new Fail(400, 'Invalid gameId: must be a string');
    return req.gameId;
}

/** Where staged records go: a move's chunks (Packer), or a developer's backup page (backup.ts). */
export interface Sink {
    add(kind: string, key: string, value: unknown): void;
}

/** Packs items (JSON text each) into chunks of at most MOVE_CHUNK_BYTES as they travel (escaped in a JSON reply). */
class Packer implements Sink {
    private parts: string[] = [];
    private items: Array<[string, string, unknown]> = [];
    private size = 2;
    constructor(
        private readonly ctx: Ctx,
        private readonly move: MoveOutRecord,
    ) {}

    add(kind: string, key: string, value: unknown): void {
        const text = JSON.stringify([kind, key, value]);
        // Its size as it travels: escaped in a JSON reply, up to 3 bytes a character when not ASCII.
        const escaped = JSON.stringify(text);
        const cost = (ASCII.test(escaped) ? escaped.length : escaped.length * 3) + 1;
        if (cost + 2 > MOVE_CHUNK_BYTES) throw new Error(`move: one record of ${key} is larger than a chunk`);
        if (this.size + cost > MOVE_CHUNK_BYTES) this.flush();
        this.parts.push(text);
        this.items.push([kind, key, undefined]);
        this.size += cost;
    }

    flush(): void {
        if (this.parts.length === 0) return;
        const text = `[${this.parts.join(',')}]`;
        this.ctx.store.moveChunks.set(chunkKey(this.move.gameId, this.move.chunks), text);
        this.move.hashes.push(chunkDigest(text, this.items));
        this.move.chunks++;
        this.move.bytes += text.length;
        this.parts = [];
        this.items = [];
        this.size = 2;
    }
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Freezes the game's writes (first call) and stages its export, STAGE_PLAYERS_PER_CALL players
 * a call; call again until `ready`. Idempotent: a ready export is answered again as it is.
 */
export function moveOutBegin(
    ctx: Ctx,
    req: Untrusted<RequestOf<'move_out_begin'>>,
): { bytes: number; chunks: number; checksum: string; ready: boolean; players: number } {
    const gameId = gameIdOf(req);
    const backup = req.backup === true;
    if (req.backup !== undefined && typeof req.backup !== 'boolean')
        throw new Fail(400, 'Invalid backup: must be true or false');
    const moves = outMoves(ctx);
    let move: MoveOutRecord | undefined = moves[gameId];
    if (move !== undefined && (move.backup === true) !== backup)
        throw new Fail(
            409,
            move.backup
                ? `A backup of '${gameId}' is being taken: move it once that is done (or move_abort drops the backup)`
                : `'${gameId}' is moving: back it up once the move is done`,
        );
    // A backup staged earlier is not taken again: a new one starts from now.
    if (move !== undefined && backup && move.ready) {
        dropStaged(ctx, move);
        delete moves[gameId];
        move = undefined;
    }
    if (move === undefined) {
        refuseMoved(ctx, gameId);
        const game = ctx.games.get(gameId);
        if (game === undefined) throw new Fail(404, 'Game not found');
        if (ctx.rebuilding.has(gameId))
            throw new Fail(503, 'This game is still loading after an upgrade: move it once that is done', {
                retryAfter: 30,
            });
        move = {
            gameId,
            startedAt: ctx.env.now(),
            next: 0,
            players: statsOf(ctx, gameId).players,
            chunks: 0,
            bytes: 0,
            hashes: [],
            ready: false,
        };
        if (backup) move.backup = true;
        moves[gameId] = move;
        saveOut(ctx, moves); // frozen from here on
        // Stage the game's record and everything not kept per player; this call's work ends here.
        const packer = new Packer(ctx, move);
        stageGame(ctx, game, packer);
        packer.flush();
        saveOut(ctx, moves);
    } else if (!move.ready) {
        const game = ctx.games.get(gameId)!;
        const packer = new Packer(ctx, move);
        const count = Math.max(0, Math.min(STAGE_PLAYERS_PER_CALL, move.players - move.next));
        const ids = slotPlayers(ctx, gameId, move.next, count);
        for (const playerId of ids) if (playerId !== null) stagePlayer(ctx, game, playerId, packer);
        move.next += ids.length;
        packer.flush();
        if (move.next >= move.players) move.ready = true;
        saveOut(ctx, moves);
    }
    return {
        bytes: move.bytes,
        chunks: move.chunks,
        checksum: move.ready ? checksumOf(move.hashes) : '',
        ready: move.ready,
        players: move.players,
    };
}

function stageGame(ctx: Ctx, game: GameState, packer: Sink): void {
    const record = game.record;
    const gameId = record.gameId;
    packer.add('game', gameId, record);
    // The next default name goes with the game as a number of its own (an older release's game
    // counts from the service-wide counter, which the target's is not).
    packer.add('stats', gameId, { ...statsOf(ctx, gameId), nextDefaultName: nextDefaultNumber(ctx, gameId) });
    for (let i = 0; i < 90; i++) {
        const key = `${gameId}/${i}`;
        const day = ctx.daily.get(key) ?? ctx.store.daily.get(key);
        if (day !== undefined) packer.add('daily', key, day);
    }
    const suspicionSlots = Math.min(record.suspicionSeq, SUSPICION_KEEP);
    for (let i = 0; i < suspicionSlots; i++) {
        const key = `${gameId}/${i}`;
        const entry = ctx.store.suspicion.get(key);
        if (entry === undefined) continue;
        packer.add('suspicion', key, entry);
        const suspectKey = `${gameId}/${entry.playerId}/${entry.scoreboardId ?? '*'}`;
        const suspect = ctx.store.suspects.get(suspectKey);
        if (suspect !== undefined) packer.add('suspects', suspectKey, suspect);
    }
    const moderationSlots = Math.min(record.moderationSeq ?? 0, MODERATION_KEEP);
    for (let i = 0; i < moderationSlots; i++) {
        const key = `${gameId}/${i}`;
        const entry = ctx.store.moderation.get(key);
        if (entry !== undefined) packer.add('moderation', key, entry);
    }
    // The log's ring and the events held past it for webhook endpoints.
    for (let i = 0; i < eventSlots(ctx, gameId); i++) {
        const key = `${gameId}/${i}`;
        const event = ctx.store.events.get(key);
        if (event !== undefined && event.gameId === gameId) packer.add('events', key, event);
    }
    for (const w of record.webhooks ?? []) {
        const key = `${gameId}/${w.webhookId}`;
        const hook = ctx.store.webhooks.get(key);
        if (hook !== undefined) packer.add('webhooks', key, hook);
    }
    for (const board of record.boards)
        for (const start of board.archives) {
            const key = archiveKey(gameId, board.scoreboardId, start);
            const archive = ctx.store.archives.get(key);
            if (archive !== undefined) packer.add('archives', key, archive);
        }
    for (const [key, ban] of gameBans(ctx, record)) packer.add('bans', key, ban);
    // codes part: pending device codes go with their game (the game's poll redeems them there)
    for (const [hash, code] of codesOfGame(ctx, gameId)) packer.add('deviceCode', hash, code);
}

/**
 * The game's bans kept apart from player records: of ids without a record and of identities.
 * Only a game that has some looks (the map spans games).
 */
export function gameBans(ctx: Ctx, record: GameRecord): Array<[string, BanRecord]> {
    if ((record.pendingBans ?? 0) === 0 && (record.identityBans ?? 0) === 0) return [];
    return ctx.store.bans
        .first(ctx.store.bans.size())
        .filter(([key, ban]) => key.startsWith(`${record.gameId}/`) && ban.at >= record.createdAt);
}

export function stagePlayer(ctx: Ctx, game: GameState, playerId: string, packer: Sink): void {
    const gameId = game.record.gameId;
    const key = playerKey(gameId, playerId);
    const player = ctx.store.players.get(key);
    if (player === undefined) return;
    packer.add('player', playerId, player);
    if (!player.defaultName && player.retired === undefined && nameHolder(ctx, gameId, player.nickname) === key)
        packer.add('name', player.nickname, playerId);
    const achievements = ctx.store.achievements.get(key);
    if (achievements !== undefined) packer.add('achievements', key, achievements);
    const ban = ctx.store.bans.get(key);
    if (ban !== undefined) packer.add('bans', key, ban);
    const active = ctx.store.activeSessions.get(key);
    if (active !== undefined) {
        packer.add('activeSessions', key, active);
        for (const { token } of active.tokens) {
            const session = ctx.store.sessions.get(token);
            if (session !== undefined && session.gameId === gameId) packer.add('session', token, session);
        }
    }
    if (playerId.startsWith('@')) {
        const accountId = playerId.slice(1);
        const account = ctx.store.accounts.get(accountId);
        if (account !== undefined) {
            packer.add('account', accountId, account);
            for (const hash of ctx.store.accountSessions.get(accountId) ?? []) {
                const session = ctx.store.playerSessions.get(hash);
                if (session !== undefined && session.gameId === gameId) packer.add('playerSession', hash, session);
            }
        }
    }
}

/** One staged chunk (a query: reads go on). */
export function moveOutChunk(ctx: Ctx, req: Untrusted<RequestOf<'move_out_chunk'>>): { data: string } {
    const gameId = gameIdOf(req);
    const move = outMoves(ctx)[gameId];
    // Staged chunks never change: they may be read while the rest is staged.
    if (move === undefined) throw new Fail(409, `'${gameId}' is not moving: call move_out_begin`);
    const index = req.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= move.chunks)
        throw new Fail(400, `Invalid index: must be an integer from 0 to ${move.chunks - 1}`);
    const data = ctx.store.moveChunks.get(chunkKey(gameId, index));
    if (data === undefined) throw new Fail(409, `Chunk ${index} of '${gameId}' is missing: abort and move again`);
    return { data };
}

/**
 * After the target activated the game (and the directory points to it): the source forgets it
 * in bounded steps (the deleted-game purge) and answers `moved` for it from now on.
 */
export function moveOutEnd(ctx: Ctx, req: Untrusted<RequestOf<'move_out_end'>>): { message: string } {
    const gameId = gameIdOf(req);
    if (typeof req.to !== 'string' || !PRINCIPAL.test(req.to))
        throw new Fail(400, 'Invalid to: must be the principal text of the canister that holds the game now');
    const moves = outMoves(ctx);
    const move = moves[gameId];
    if (move === undefined) {
        if (ctx.movedTo.get(gameId) === req.to) return { message: `Game '${gameId}' moved to ${req.to}.` };
        throw new Fail(409, `'${gameId}' is not moving: call move_out_begin first`);
    }
    if (!move.ready) throw new Fail(409, `The export of '${gameId}' is not complete yet`);
    if (move.backup) throw new Fail(409, `'${gameId}' is being backed up, not moved: its copy here stays`);
    const game = ctx.games.get(gameId)!;
    const record = game.record;
    const archives = record.boards.flatMap((b) => b.archives.map((start) => archiveKey(gameId, b.scoreboardId, start)));
    ctx.store.apiKeys.delete(record.apiKey);
    forgetPlayerIds(ctx, game);
    forgetCodesOfGame(ctx, gameId);
    ctx.store.games.delete(gameId);
    ctx.games.delete(gameId);
    ctx.rebuilding.delete(gameId);
    const purge: PurgeRecord = { gameId, next: 0, players: statsOf(ctx, gameId).players, archives };
    const events = eventSlots(ctx, gameId);
    if (events > 0) purge.events = events;
    if ((record.webhooks ?? []).length > 0) purge.webhooks = record.webhooks!.map((w) => `${gameId}/${w.webhookId}`);
    ctx.store.meta.set('purging', [...(ctx.store.meta.get('purging') ?? []), purge]);
    dropStaged(ctx, move);
    delete moves[gameId];
    ctx.store.meta.set('movedGames', { ...(ctx.store.meta.get('movedGames') ?? {}), [gameId]: req.to });
    saveOut(ctx, moves);
    recount(ctx);
    return { message: `Game '${gameId}' moved to ${req.to}.` };
}

const PRINCIPAL = /^[a-z0-9]{5}(-[a-z0-9]{5}){0,9}(-[a-z0-9]{1,5})?$/;

function dropStaged(ctx: Ctx, move: MoveOutRecord): void {
    for (let i = 0; i < move.chunks; i++) ctx.store.moveChunks.delete(chunkKey(move.gameId, i));
}

/**
 * A backup's staging that stopped (its operator's tool died) pauses the game's writes for at most
 * this long (µs); a staged backup nobody dropped goes after BACKUP_KEEP_US.
 */
export const BACKUP_STAGE_US = 10 * 60 * 1e6;
export const BACKUP_KEEP_US = 24 * 3600 * 1e6;

/** Drops backups staged too long ago (the timer's tick): their writes go on, their chunks go. */
export function dropStaleBackups(ctx: Ctx): void {
    const moves = outMoves(ctx);
    const now = ctx.env.now();
    let dropped = false;
    for (const move of Object.values(moves)) {
        if (move.backup !== true) continue;
        if (now - move.startedAt < (move.ready ? BACKUP_KEEP_US : BACKUP_STAGE_US)) continue;
        dropStaged(ctx, move);
        delete moves[move.gameId];
        dropped = true;
    }
    if (dropped) saveOut(ctx, moves);
}

/** Either side: the source unfreezes the game (its export dropped); the target drops a half import. */
export function moveAbort(ctx: Ctx, req: Untrusted<RequestOf<'move_abort'>>): { message: string } {
    const gameId = gameIdOf(req);
    const moves = outMoves(ctx);
    const out = moves[gameId];
    if (out !== undefined) {
        dropStaged(ctx, out);
        delete moves[gameId];
        saveOut(ctx, moves);
        if (out.backup) return { message: `The backup of '${gameId}' staged here was dropped.` };
        return { message: `The move of '${gameId}' was aborted: its writes go on here.` };
    }
    const ins = inMoves(ctx);
    const move = ins[gameId];
    if (move !== undefined) {
        importing.delete(gameId);
        importedAccounts.delete(gameId);
        delete ins[gameId];
        saveIn(ctx, ins);
        // What was written goes like a deleted game's records.
        if (move.next > 0) {
            const purge: PurgeRecord = { gameId, next: 0, players: move.players, archives: archivesOf(move.record) };
            if (move.events > 0) purge.events = move.events;
            if ((move.record?.webhooks ?? []).length > 0)
                purge.webhooks = move.record!.webhooks!.map((w) => `${gameId}/${w.webhookId}`);
            ctx.store.meta.set('purging', [...(ctx.store.meta.get('purging') ?? []), purge]);
        }
        return { message: `The import of '${gameId}' was dropped.` };
    }
    throw new Fail(404, `'${gameId}' is not moving here`);
}

const archivesOf = (record: GameRecord | undefined): string[] =>
    record === undefined
        ? []
        : record.boards.flatMap((b) => b.archives.map((start) => archiveKey(record.gameId, b.scoreboardId, start)));

// ---- target: chunks in order, then end --------------------------------------------------------

/** Heap tables of games being imported (lost on an upgrade: move_in_end then rebuilds from records). */
const importing = new Map<string, GameState>();
/**
 * Accounts each import brought (heap, like `importing`): checked against the accounts this shard
 * forgot while the game was on its way (identities.ts) when it activates.
 */
const importedAccounts = new Map<string, Set<string>>();

function inMoves(ctx: Ctx): Record<string, MoveInRecord> {
    return Object.assign(Object.create(null) as Record<string, MoveInRecord>, ctx.store.meta.get('moveIn') ?? {});
}

function saveIn(ctx: Ctx, moves: Record<string, MoveInRecord>): void {
    if (Object.keys(moves).length === 0) ctx.store.meta.delete('moveIn');
    else ctx.store.meta.set('moveIn', moves);
}

/** Whether this canister holds anything of `gameId` (a game, a purge of one, its counters). */
export function holdsGame(ctx: Ctx, gameId: string): boolean {
    return (
        ctx.store.games.get(gameId) !== undefined ||
        ctx.games.has(gameId) ||
        (ctx.store.meta.get('purging') ?? []).some((p) => p.gameId === gameId) ||
        ctx.store.stats.get(gameId) !== undefined
    );
}

export type Item = [string, string, unknown];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const PLAYER_ID = /^@?[A-Za-z0-9_-]{1,100}$/;

/** Checks every item of a chunk against the game it claims to be of: nothing is written unless all pass. */
function checkItems(gameId: string, items: unknown, first: boolean): Item[] {
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
            case 'webhooks':
            case 'achievements':
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

/** Takes chunk `index` (they come in order; one taken already is answered again, unchanged). */
export function moveInChunk(ctx: Ctx, req: Untrusted<RequestOf<'move_in_chunk'>>): { next: number } {
    return takeChunk(ctx, req, false, (gameId, parsed, move) => checkItems(gameId, parsed, move.next === 0));
}

/**
 * A chunk of a move (`backup` false) or of a backup's import (true, backup.ts): in order, each
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
    ctx.store.games.set(gameId, record);
    ctx.store.apiKeys.set(record.apiKey, gameId);
    if (move.stats !== undefined) ctx.store.stats.set(gameId, move.stats);
    ctx.stats.delete(gameId);
    ctx.dirtyStats.delete(gameId);
    let game = importing.get(gameId);
    const rebuilding = game === undefined;
    if (game === undefined) {
        game = emptyGameState(record);
        ctx.rebuilding.set(gameId, 0);
    }
    // The tables were built with the record of chunk 0: the same record (the game was frozen).
    game.record = record;
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
