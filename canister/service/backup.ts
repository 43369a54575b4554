// A game's backup for its developer (dev_backup_game: pages of the move's staged records, only
// what the developer may see) and its import by an operator (admin_import_chunk/_end: every
// record checked and rebuilt from its known fields, then taken in like a move's chunks; the game
// gets a new API key and the developer the operator names). The file: docs/backups.md.
import {
    BACKUP_KINDS,
    BACKUP_PAGE_ARCHIVES,
    BACKUP_PAGE_BYTES,
    BACKUP_PAGE_PLAYERS,
    type BackupItem,
    type BackupKind,
    type BackupPage,
} from '../../contract/backup';
import { parseBoardOptions, parseMetadata, parseOperator, parseSortOrder } from '../../contract/board-options';
import type { Caps, RequestOf, TimeValidation } from '../../contract/canister';
import { parseEventTop } from '../../contract/event-log';
import {
    FANOUT_BOARDS,
    checkAchievementId,
    checkBoardId,
    checkCount,
    checkNickname,
    checkPlayerId,
    invalid,
} from '../../contract/rules';
import type { Period } from '../../contract/schemas';
import { Fail } from '../domain/fail';
import { nameKey } from '../domain/nicknames';
import { RETENTION } from '../domain/periods';
import type { Ctx, Untrusted } from '../state/context';
import { nameHolder } from '../state/names';
import type {
    ArchiveRecord,
    BanRecord,
    BoardRecord,
    EntryRecord,
    GameRecord,
    MoveInRecord,
    PlayerRecord,
    Stats,
} from '../state/records';
import { slotPlayer, slotPlayers } from '../state/slots';
import { statsOf } from '../state/stats';
import { playerKey } from '../state/store';
import { locationOf } from './directory';
import { developerOf, MAX_BOARDS, newApiKey, optionalText, parsed, seconds, text } from './games';
import { ownedGame } from './developers';
import { activate, gameBans, holdsGame, importOf, stagePlayer, takeChunk, type Item, type Sink } from './move';
import { MAX_ACHIEVEMENTS_PER_PLAYER } from './players';
import { archiveKey } from './rollover';

// ---- export: a page of the developer's records -------------------------------------------------------

const cursorOf = (v: unknown): number => {
    if (v === undefined) return 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
        throw new Fail(400, invalid('cursor', 'must be a non-negative integer'));
    return v;
};

/** A ban as the developer sees it: when and why (an account's identity hash stays behind). */
const banView = (ban: BanRecord): BanRecord => ({ at: ban.at, reason: ban.reason });

/** The game record without what is not the developer's to carry: keys, owner, webhooks, log positions. */
function gameView(record: GameRecord): Partial<GameRecord> {
    const {
        apiKey: _key,
        serverKey: _serverKey,
        serverOnly: _serverOnly,
        webhooks: _webhooks,
        developerId: _developer,
        identityBans: _identityBans,
        suspicionSeq: _suspicion,
        moderationSeq: _moderation,
        everySubmitEvents: _events,
        ...rest
    } = record;
    return rest;
}

/** The records of the move's staging that a developer may see, as they may see them. */
function developerSink(out: BackupItem[]): Sink {
    return {
        add(kind, key, value) {
            switch (kind) {
                case 'player': {
                    const { pace: _pace, banned, ...player } = value as PlayerRecord;
                    out.push(['player', key, banned === undefined ? player : { ...player, banned: banView(banned) }]);
                    return;
                }
                case 'achievements':
                    out.push(['achievements', key, value]);
                    return;
                case 'bans':
                    // Identity bans (`~` keys) are of accounts' identities: never in the file.
                    if (!key.includes('/~')) out.push(['bans', key, banView(value as BanRecord)]);
                    return;
                default:
                // names are rebuilt from the players; sessions, accounts, device codes never leave
            }
        },
    };
}

/**
 * A page of the game's backup from `cursor` (contract/backup.ts BackupPage): a query, bounded
 * by BACKUP_PAGE_PLAYERS players or BACKUP_PAGE_ARCHIVES archives, and by BACKUP_PAGE_BYTES.
 */
export function backupPage(ctx: Ctx, req: Untrusted<RequestOf<'dev_backup_game'>>): BackupPage {
    const { game } = ownedGame(ctx, req, false);
    const record = game.record;
    const gameId = record.gameId;
    const archives = record.boards.flatMap((b) => b.archives.map((start) => archiveKey(gameId, b.scoreboardId, start)));
    const players = statsOf(ctx, gameId).players;
    const total = 1 + archives.length + players;
    let at = cursorOf(req.cursor);
    if (at > total) throw new Fail(400, invalid('cursor', `must be at most ${total}`));
    const items: BackupItem[] = [];
    const sink = developerSink(items);
    if (at === 0) {
        items.push(['game', gameId, gameView(record)]);
        const { players: count, plays, submissions, today, day, retired, nextDefaultName } = statsOf(ctx, gameId);
        items.push(['stats', gameId, { players: count, plays, submissions, today, day, retired, nextDefaultName }]);
        for (const [key, ban] of gameBans(ctx, record)) sink.add('bans', key, ban);
        at = 1;
    }
    // Past BACKUP_PAGE_BYTES the page ends after the record at hand (one archive or player: < 0.5 MB).
    let bytes = 0;
    const sizeFrom = (from: number): number =>
        items.slice(from).reduce((n, item) => n + JSON.stringify(item).length, 0);
    if (at <= archives.length) {
        for (let n = 0; at <= archives.length && n < BACKUP_PAGE_ARCHIVES && bytes < BACKUP_PAGE_BYTES; at++, n++) {
            const archive = ctx.store.archives.get(archives[at - 1]);
            if (archive !== undefined) items.push(['archives', archives[at - 1], archive]);
            bytes += sizeFrom(items.length - 1);
        }
    } else if (at < total) {
        const first = at - 1 - archives.length;
        for (const playerId of slotPlayers(ctx, gameId, first, Math.min(BACKUP_PAGE_PLAYERS, players - first))) {
            if (bytes >= BACKUP_PAGE_BYTES) break;
            const from = items.length;
            if (playerId !== null) stagePlayer(ctx, game, playerId, sink);
            bytes += sizeFrom(from);
            at++;
        }
    }
    return { items, next: at < total ? at : null, periods: record.boards.map((b) => b.periodStart).join(',') };
}

// ---- import: every record checked, rebuilt from its known fields --------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const bad = (i: number, problem: string): Fail => new Fail(400, `Invalid backup: record ${i} ${problem}`);

/** A time (µs) or counter: a non-negative safe integer. */
function whole(field: string, v: unknown): number {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
        throw new Fail(400, invalid(field, 'must be a non-negative integer'));
    return v;
}
const optionalWhole = (field: string, v: unknown): number | undefined =>
    v === undefined ? undefined : whole(field, v);
function count(field: string, v: unknown): number {
    const error = checkCount(field, v);
    if (error) throw new Fail(400, error);
    return v as number;
}
function flag(field: string, v: unknown): boolean {
    if (typeof v !== 'boolean') throw new Fail(400, invalid(field, 'must be true or false'));
    return v;
}
const optionalFlag = (field: string, v: unknown): boolean | undefined => (v === undefined ? undefined : flag(field, v));
function object(field: string, v: unknown): Record<string, unknown> {
    if (!isObject(v)) throw new Fail(400, invalid(field, 'must be a JSON object'));
    return v;
}
/** Metadata as stored: JSON text that POST /scores would have taken. */
function metadata(v: unknown): string | undefined {
    if (v === undefined) return undefined;
    let value: unknown;
    try {
        value = typeof v === 'string' ? JSON.parse(v) : undefined;
    } catch {
        value = undefined;
    }
    return parsed(parseMetadata(value));
}
function ban(v: unknown): BanRecord {
    const o = object('ban', v);
    return { at: whole('at', o.at), reason: optionalText('reason', o.reason, 200, '') };
}
const PERIODS = Object.keys(RETENTION) as Period[];
const AUTH_TYPE = /^[A-Za-z0-9_-]{1,32}$/;

function boardOf(v: unknown, serials: number): BoardRecord {
    const o = object('board', v);
    const idError = checkBoardId(o.scoreboardId);
    if (idError) throw new Fail(400, idError);
    const period = o.period as Period;
    if (!PERIODS.includes(period)) throw new Fail(400, invalid('period', `must be one of ${PERIODS.join(', ')}`));
    if (o.sortBy !== 'score' && o.sortBy !== 'streak')
        throw new Fail(400, invalid('sortBy', 'must be score or streak'));
    const archives = Array.isArray(o.archives) ? o.archives.map((a) => whole('archives', a)) : undefined;
    if (
        archives === undefined ||
        archives.length > RETENTION[period] ||
        archives.some((a, i) => i > 0 && a <= archives[i - 1])
    )
        throw new Fail(400, invalid('archives', `must be at most ${RETENTION[period]} period starts, oldest first`));
    const options = parsed(parseBoardOptions(o));
    const board: BoardRecord = {
        scoreboardId: o.scoreboardId as string,
        name: text('name', o.name, 1, 100),
        description: optionalText('description', o.description, 500, ''),
        period,
        sortBy: o.sortBy,
        targeted: flag('targeted', o.targeted),
        isActive: flag('isActive', o.isActive),
        ...options,
        createdAt: whole('createdAt', o.createdAt),
        periodStart: whole('periodStart', o.periodStart),
        archives,
    };
    if (o.days !== undefined) board.days = Math.floor(seconds('days', o.days, 0, 3650));
    if (o.eventTop !== undefined) board.eventTop = parsed(parseEventTop(o.eventTop));
    if (o.serial !== undefined) board.serial = whole('serial', o.serial);
    if ((board.serial ?? 0) > serials) throw new Fail(400, invalid('serial', 'must not be above the boardSerial'));
    if (o.anchor !== undefined) board.anchor = whole('anchor', o.anchor);
    return board;
}

/** The game record of a backup, rebuilt from its known fields; its key and owner come at the end. */
function gameOf(gameId: string, v: unknown): GameRecord {
    const o = object('game', v);
    if (o.gameId !== gameId) throw new Fail(400, `is not a record of game '${gameId}'`);
    const serials = whole('boardSerial', o.boardSerial ?? 0);
    if (!Array.isArray(o.boards) || o.boards.length > MAX_BOARDS + FANOUT_BOARDS.length)
        throw new Fail(400, invalid('boards', `must be a list of at most ${MAX_BOARDS} boards`));
    const boards = o.boards.map((b) => boardOf(b, serials));
    const ids = new Set(boards.map((b) => b.scoreboardId));
    if (ids.size !== boards.length) throw new Fail(400, invalid('boards', 'must not repeat a scoreboardId'));
    const standard: Record<string, Period> = { 'all-time': 'allTime', weekly: 'weekly', daily: 'daily' };
    for (const id of FANOUT_BOARDS)
        if (!boards.some((b) => b.scoreboardId === id && b.period === standard[id] && !b.targeted))
            throw new Fail(400, invalid('boards', `must hold the standard board '${id}'`));
    const tv = object('timeValidation', o.timeValidation);
    const timeValidation: TimeValidation = {
        enabled: flag('enabled', tv.enabled),
        minPlaySeconds: seconds('minPlaySeconds', tv.minPlaySeconds, 0, 86_400),
        maxScorePerSecond: seconds('maxScorePerSecond', tv.maxScorePerSecond, 0, Number.MAX_SAFE_INTEGER),
        sessionLifetimeSeconds: seconds('sessionLifetimeSeconds', tv.sessionLifetimeSeconds, 60, 86_400),
    };
    const c = object('caps', o.caps);
    const caps: Caps = {};
    for (const field of ['maxScore', 'maxStreak', 'minScore'] as const)
        if (c[field] !== undefined) caps[field] = count(field, c[field]);
    const record: GameRecord = {
        gameId,
        name: text('name', o.name, 1, 100),
        description: optionalText('description', o.description, 500, ''),
        developerId: '',
        isActive: flag('isActive', o.isActive),
        createdAt: whole('createdAt', o.createdAt),
        timeValidation,
        caps,
        apiKey: '',
        boards,
        suspicionSeq: 0,
        moderationSeq: 0,
    };
    if (serials > 0) record.boardSerial = serials;
    const pending = optionalWhole('pendingBans', o.pendingBans);
    if (pending !== undefined) record.pendingBans = pending;
    if (o.archiveWipes !== undefined) {
        if (!Array.isArray(o.archiveWipes) || o.archiveWipes.length > 100_000)
            throw new Fail(400, invalid('archiveWipes', 'must be a list'));
        record.archiveWipes = o.archiveWipes.map((w) => {
            const wipe = object('archiveWipes', w);
            return { slot: whole('slot', wipe.slot), before: whole('before', wipe.before) };
        });
    }
    if (o.standardBoards !== undefined) {
        const s = object('standardBoards', o.standardBoards);
        record.standardBoards = {
            sortOrder: parsed(parseSortOrder(s.sortOrder)),
            operator: parsed(parseOperator(s.operator)),
        };
    }
    const skip = optionalFlag('serverSkipsChecks', o.serverSkipsChecks);
    if (skip !== undefined) record.serverSkipsChecks = skip;
    return record;
}

function statsOfBackup(v: unknown): Stats {
    const o = object('stats', v);
    const players = whole('players', o.players);
    if (players > MAX_PLAYERS) throw new Fail(400, invalid('players', `must be at most ${MAX_PLAYERS}`));
    const stats: Stats = {
        players,
        plays: whole('plays', o.plays ?? 0),
        submissions: whole('submissions', o.submissions ?? 0),
        today: whole('today', o.today ?? 0),
        day: whole('day', o.day ?? 0),
    };
    const retired = optionalWhole('retired', o.retired);
    if (retired !== undefined) stats.retired = retired;
    const next = optionalWhole('nextDefaultName', o.nextDefaultName);
    if (next !== undefined) stats.nextDefaultName = next;
    return stats;
}

function best(v: unknown): { score: number; scoreAt: number; streak: number; streakAt: number } {
    const o = object('entry', v);
    return {
        score: count('score', o.score),
        scoreAt: whole('scoreAt', o.scoreAt),
        streak: count('streak', o.streak),
        streakAt: whole('streakAt', o.streakAt),
    };
}

function entryOf(v: unknown): EntryRecord {
    const o = object('entry', v);
    const entry: EntryRecord = {
        ...best(o),
        period: whole('period', o.period),
        submittedAt: whole('submittedAt', o.submittedAt),
    };
    if (o.serial !== undefined) entry.serial = whole('serial', o.serial);
    const meta = metadata(o.metadata);
    if (meta !== undefined) entry.metadata = meta;
    return entry;
}

const ACCOUNT_PLAYER = /^@[A-Za-z0-9_-]{1,100}$/;
const playerIdOk = (id: string): boolean => checkPlayerId(id) === undefined || ACCOUNT_PLAYER.test(id);

function playerOf(key: string, v: unknown, record: GameRecord, players: number): PlayerRecord {
    if (!playerIdOk(key)) throw new Fail(400, invalid('playerId', 'must be a player id'));
    const o = object('player', v);
    const slot = whole('slot', o.slot);
    if (slot >= players) throw new Fail(400, invalid('slot', `must be below the game's ${players} players`));
    const nameError = checkNickname(o.nickname);
    if (nameError) throw new Fail(400, nameError);
    if (typeof o.authType !== 'string' || !AUTH_TYPE.test(o.authType))
        throw new Fail(400, invalid('authType', `must match ${AUTH_TYPE.source}`));
    const boards = object('boards', o.boards);
    const player: PlayerRecord = {
        slot,
        nickname: o.nickname as string,
        defaultName: flag('defaultName', o.defaultName),
        authType: o.authType,
        created: whole('created', o.created),
        playCount: whole('playCount', o.playCount),
        lastPlayed: whole('lastPlayed', o.lastPlayed),
        boards: Object.create(null) as PlayerRecord['boards'],
        pace: Object.create(null) as PlayerRecord['pace'],
    };
    for (const id of Object.keys(boards)) {
        if (id === 'all-time' || !record.boards.some((b) => b.scoreboardId === id))
            throw new Fail(400, invalid('boards', `'${id}' is not a timed or targeted board of the game`));
        player.boards[id] = entryOf(boards[id]);
    }
    if (o.best !== undefined) player.best = best(o.best);
    const bestAt = optionalWhole('bestAt', o.bestAt);
    if (bestAt !== undefined) player.bestAt = bestAt;
    const meta = metadata(o.bestMetadata);
    if (meta !== undefined) player.bestMetadata = meta;
    const day = optionalWhole('activeDay', o.activeDay);
    if (day !== undefined) player.activeDay = day;
    if (o.banned !== undefined) player.banned = ban(o.banned);
    if (o.retired !== undefined) {
        const r = object('retired', o.retired);
        if (r.into !== undefined && (typeof r.into !== 'string' || !playerIdOk(r.into)))
            throw new Fail(400, invalid('retired.into', 'must be a player id'));
        player.retired = {};
        if (r.into !== undefined) player.retired.into = r.into as string;
        const intoSlot = optionalWhole('retired.intoSlot', r.intoSlot);
        if (intoSlot !== undefined) player.retired.intoSlot = intoSlot;
    }
    return player;
}

function archiveOf(key: string, v: unknown, record: GameRecord): ArchiveRecord {
    const o = object('archive', v);
    const board = record.boards.find((b) => b.scoreboardId === o.scoreboardId);
    const start = o.periodStart;
    if (
        board === undefined ||
        typeof start !== 'number' ||
        !board.archives.includes(start) ||
        key !== archiveKey(record.gameId, board.scoreboardId, start)
    )
        throw new Fail(400, 'is not an archive the game record lists');
    if (!Array.isArray(o.entries) || o.entries.length > 1000)
        throw new Fail(400, invalid('entries', 'must be a list of at most 1000'));
    if (o.sortBy !== 'score' && o.sortBy !== 'streak')
        throw new Fail(400, invalid('sortBy', 'must be score or streak'));
    const archive: ArchiveRecord = {
        gameId: record.gameId,
        scoreboardId: board.scoreboardId,
        name: text('name', o.name, 1, 100),
        period: board.period,
        sortBy: o.sortBy,
        periodStart: start,
        periodEnd: whole('periodEnd', o.periodEnd),
        entryCount: whole('entryCount', o.entryCount),
        entries: o.entries.map((e) => {
            const entry = object('entry', e);
            const nameError = checkNickname(entry.nickname);
            if (nameError) throw new Fail(400, nameError);
            if (typeof entry.authType !== 'string' || !AUTH_TYPE.test(entry.authType))
                throw new Fail(400, invalid('authType', `must match ${AUTH_TYPE.source}`));
            const out: ArchiveRecord['entries'][number] = {
                nickname: entry.nickname as string,
                score: count('score', entry.score),
                streak: count('streak', entry.streak),
                authType: entry.authType,
                submittedAt: whole('submittedAt', entry.submittedAt),
            };
            const slot = optionalWhole('slot', entry.slot);
            if (slot !== undefined) out.slot = slot;
            const meta = metadata(entry.metadata);
            if (meta !== undefined) out.metadata = meta;
            return out;
        }),
    };
    const options = parsed(parseBoardOptions({ sortOrder: o.sortOrder, operator: o.operator }));
    if (options.sortOrder !== undefined) archive.sortOrder = options.sortOrder;
    if (options.operator !== undefined) archive.operator = options.operator;
    return archive;
}

/** Slots a game's counters may claim: past a canister's ceiling (~6 million players, docs/limits.md). */
const MAX_PLAYERS = 10_000_000;

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
