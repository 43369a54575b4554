// A backup's records rebuilt from their known fields: the game, its boards, counters, players, archives, bans.
import { isTimed } from '../leagues';
import { parseBoardOptions, parseOperator, parseSortOrder } from '../../../contract/board-options';
import type { Caps, TimeValidation } from '../../../contract/canister';
import { parseEventTop } from '../../../contract/event-log';
import { FANOUT_BOARDS, checkBoardId, checkNickname, checkPlayerId, invalid, isFanout } from '../../../contract/rules';
import type { Period } from '../../../contract/schemas';
import { Fail } from '../../domain/fail';
import type { Best } from '../../domain/bests';
import { RETENTION } from '../../domain/periods';
import type {
    ArchiveRecord,
    BanRecord,
    BoardRecord,
    EntryRecord,
    GameRecord,
    PlayerRecord,
    Stats,
} from '../../state/records';
import { MAX_BOARDS, optionalText, parsed, seconds, text } from '../games';
import { archiveKey } from '../rollover';
import { count, flag, metadata, object, optionalFlag, optionalWhole, whole } from './fields';

/** Slots a game's counters may claim: past a canister's ceiling (~6 million players, docs/limits.md). */
const MAX_PLAYERS = 10_000_000;

export function ban(v: unknown): BanRecord {
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
    const { review, league, prizes, ...options } = parsed(parseBoardOptions(o));
    // As the board methods allow it: boards of their own ranked by score (the standard ones have none).
    if (options.tiebreak !== undefined && (o.sortBy !== 'score' || isFanout(o.scoreboardId as string)))
        throw new Fail(400, invalid('tiebreak', 'is only for boards of their own ranked by score'));
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
    if (review) board.review = review;
    // A league comes over as its option: its tiers and divisions start anew (docs/leagues.md).
    if (league) {
        if (!isTimed(board)) throw new Fail(400, invalid('league', 'is only for timed boards'));
        board.league = league;
        board.leagueSince = board.createdAt;
    }
    if (prizes) board.prizes = prizes;
    return board;
}

/** The game record of a backup, rebuilt from its known fields; its key and owner come at the end. */
export function gameOf(gameId: string, v: unknown): GameRecord {
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

export function statsOfBackup(v: unknown): Stats {
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

function best(v: unknown): Best {
    const o = object('entry', v);
    const kept: Best = {
        score: count('score', o.score),
        scoreAt: whole('scoreAt', o.scoreAt),
        streak: count('streak', o.streak),
        streakAt: whole('streakAt', o.streakAt),
    };
    if (o.tiebreak !== undefined) kept.tiebreak = count('tiebreak', o.tiebreak);
    return kept;
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
export const playerIdOk = (id: string): boolean => checkPlayerId(id) === undefined || ACCOUNT_PLAYER.test(id);

export function playerOf(key: string, v: unknown, record: GameRecord, players: number): PlayerRecord {
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

export function archiveOf(key: string, v: unknown, record: GameRecord): ArchiveRecord {
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
            if (entry.tiebreak !== undefined) out.tiebreak = count('tiebreak', entry.tiebreak);
            return out;
        }),
    };
    const options = parsed(parseBoardOptions({ sortOrder: o.sortOrder, operator: o.operator, tiebreak: o.tiebreak }));
    if (options.sortOrder !== undefined) archive.sortOrder = options.sortOrder;
    if (options.operator !== undefined) archive.operator = options.operator;
    if (options.tiebreak !== undefined) archive.tiebreak = options.tiebreak;
    return archive;
}
