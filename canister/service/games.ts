// Developers' side of games: registration with API keys and the standard boards, settings
// (time validation, caps), extra boards, key rotation, allowances, and key lookup.
import type {
    BoardConfig,
    BoardView,
    Caps,
    GameView,
    KeyInfo,
    RequestOf,
    TimeValidation,
} from '../../contract/canister';
import { parseEventTop } from '../../contract/event-log';
import { MESSAGES, boardNotFound } from '../../contract/messages';
import {
    DEFAULT_STANDARD_BOARDS,
    parseBoardOptions,
    parseOperator,
    parseSortOrder,
    type BoardOptionsChange,
    type StandardBoards,
} from '../../contract/board-options';
import { checkBoardId, checkCount, checkGameId, gameOfApiKey, invalid, isFanout } from '../../contract/rules';
import type { Period, SortBy } from '../../contract/schemas';
import { ns } from '../domain/json';
import { periodStart } from '../domain/periods';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { refuseMovedKey } from './move-gate';
import { Fail } from '../domain/fail';
import { emptyGameState, newBoardTable, newGlobalTable, requireGame } from '../state/game-state';
import { declareFilters } from '../state/filters';
import { entryCount } from '../state/tables';
import type { BoardRecord, DeveloperRecord, GameRecord } from '../state/records';
import { flushStats, updateStats } from '../state/stats';
import { applyServerSettings, parseServerSettings, serverSettingsView } from './server-keys';
import { assertRoomForNewGame, recount } from './capacity';
import { saveView } from './view-push';
import { leagueChange, purgeLater } from './leagues';
import { dropBoardGrants, parseClaimsSetting } from './rewards';

const DEFAULT_ALLOWANCE = 3;
export const MAX_BOARDS = 100;
const DEFAULT_TIME_VALIDATION: TimeValidation = {
    enabled: false,
    minPlaySeconds: 0,
    maxScorePerSecond: 0,
    sessionLifetimeSeconds: 1800,
};

// Control characters (and lone surrogates) have no place in names, and replies rely on it.
const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function text(field: string, value: unknown, min: number, max: number): string {
    if (typeof value !== 'string' || value.length < min || value.length > max) {
        throw new Fail(400, invalid(field, `must be ${min}-${max} characters`));
    }
    if (UNPRINTABLE.test(value)) throw new Fail(400, invalid(field, 'must not contain control characters'));
    return value;
}

export function optionalText(field: string, value: unknown, max: number, fallback: string): string {
    return value === undefined || value === null ? fallback : text(field, value, 0, max);
}

/** `key_<gameId>_<32 random digits>`: the digits make it unguessable (CSPRNG after raw_rand). */
export function newApiKey(ctx: Ctx, gameId: string): string {
    const bytes = ctx.env.random(32);
    let digits = '';
    for (let i = 0; i < 32; i++) digits += String(bytes[i] % 10);
    return `key_${gameId}_${digits}`;
}

function board(id: string, name: string, period: Period, now: number, extra: Partial<BoardConfig> = {}): BoardRecord {
    const config: BoardConfig = {
        scoreboardId: id,
        name,
        description: '',
        period,
        sortBy: 'score',
        targeted: false,
        isActive: true,
        ...extra,
    };
    return {
        ...config,
        createdAt: now,
        periodStart: periodStart({ period: config.period, days: config.days, anchor: now }, now),
        archives: [],
    };
}

/** A game record as the developer methods show it: times in ns like every reply. */
export function gameView(record: GameRecord): GameView {
    const { gameId, name, description, developerId, isActive, timeValidation, caps, apiKey } = record;
    return {
        gameId,
        name,
        description,
        developerId,
        isActive,
        createdAt: ns(record.createdAt),
        timeValidation,
        caps,
        apiKey,
        ...(record.standardBoards === undefined ? {} : { standardBoards: record.standardBoards }),
        ...(record.everySubmitEvents === undefined ? {} : { everySubmitEvents: record.everySubmitEvents }),
        boards: record.boards.map(boardView),
        ...serverSettingsView(record),
        ...(record.rewardClaims === undefined ? {} : { rewardClaims: record.rewardClaims }),
    };
}

export function boardView(board: BoardRecord): BoardView {
    const { anchor: _anchor, leagueSince: _leagueSince, ...shown } = board;
    return {
        ...shown,
        createdAt: ns(board.createdAt),
        periodStart: ns(board.periodStart),
        archives: board.archives.map(ns),
    };
}

export function developerOf(ctx: Ctx, developerId: string): DeveloperRecord {
    return ctx.store.developers.get(developerId) ?? { developerId, allowance: DEFAULT_ALLOWANCE, gameIds: [] };
}

export function registerGame(
    ctx: Ctx,
    req: Untrusted<RequestOf<'admin_register_game'>>,
): { game: GameRecord; apiKey: string } {
    const developerId = text('developerId', req.developerId, 1, 200);
    const idError = checkGameId(req.gameId);
    if (idError) throw new Fail(400, idError);
    const gameId = req.gameId as string;
    const name = text('name', req.name, 1, 100);
    const description = optionalText('description', req.description, 500, '');
    if (ctx.store.games.get(gameId) !== undefined) throw new Fail(409, `Game ID '${gameId}' is already taken.`);
    if (
        ctx.store.meta.get('role') === 'shard' &&
        (ctx.store.meta.get('purging') ?? []).some((p) => p.gameId === gameId)
    )
        throw new Fail(409, `Game ID '${gameId}' is still being deleted: try again in a few minutes.`);
    const developer = developerOf(ctx, developerId);
    // A shard's games are placed by its directory, which holds the allowances and checked it.
    if (ctx.store.meta.get('role') !== 'shard' && developer.gameIds.length >= developer.allowance) {
        throw new Fail(
            403,
            `Game limit reached: this account may register ${developer.allowance} games. Request more from the dashboard.`,
        );
    }
    assertRoomForNewGame(ctx);
    const now = ctx.env.now();
    const apiKey = newApiKey(ctx, gameId);
    const record: GameRecord = {
        gameId,
        name,
        description,
        developerId,
        isActive: true,
        createdAt: now,
        timeValidation: { ...DEFAULT_TIME_VALIDATION },
        caps: {},
        apiKey,
        suspicionSeq: 0,
        boards: [
            board('all-time', 'All-time', 'allTime', now),
            board('weekly', 'Weekly', 'weekly', now),
            board('daily', 'Daily', 'daily', now),
        ],
    };
    ctx.store.games.set(gameId, record);
    ctx.store.apiKeys.set(apiKey, gameId);
    ctx.store.developers.set(developerId, { ...developer, gameIds: [...developer.gameIds, gameId] });
    // No player of the game has chosen a name of the default shape (allocateDefault): unless a
    // game of this id is still being deleted, its names not all gone yet.
    const purging = (ctx.store.meta.get('purging') ?? []).some((p) => p.gameId === gameId);
    updateStats(ctx, gameId, (s) => (purging ? s : { ...s, chosenDefaultMax: 0 }));
    flushStats(ctx);
    ctx.games.set(gameId, emptyGameState(record));
    recount(ctx);
    return { game: record, apiKey };
}

/** The game of an API key; 401 for unknown or revoked keys, as the contract says. */
export function resolveKey(ctx: Ctx, apiKey: unknown): KeyInfo {
    if (typeof apiKey !== 'string' || gameOfApiKey(apiKey) === undefined) throw new Fail(401, MESSAGES.invalidApiKey);
    const gameId = ctx.store.apiKeys.get(apiKey);
    const game = gameId === undefined ? undefined : ctx.games.get(gameId);
    if (game === undefined) refuseMovedKey(ctx, apiKey);
    if (game === undefined || game.record.apiKey !== apiKey) throw new Fail(401, MESSAGES.invalidApiKey);
    return { gameId: game.record.gameId, isActive: game.record.isActive };
}

export function rotateKey(ctx: Ctx, req: Untrusted<RequestOf<'admin_rotate_key'>>): string {
    const game = requireGame(ctx, req.gameId);
    const gameId = game.record.gameId;
    ctx.store.apiKeys.delete(game.record.apiKey);
    game.record.apiKey = newApiKey(ctx, gameId);
    ctx.store.apiKeys.set(game.record.apiKey, gameId);
    saveView(ctx, game);
    return game.record.apiKey;
}

export function updateGame(ctx: Ctx, req: Untrusted<RequestOf<'admin_update_game'>>): GameRecord {
    const game = requireGame(ctx, req.gameId);
    // Checked before anything changes.
    const everySubmitEvents =
        req.everySubmitEvents === undefined ? undefined : boolean('everySubmitEvents', req.everySubmitEvents);
    const server = parseServerSettings(req);
    const rewardClaims = parseClaimsSetting(req.rewardClaims);
    if (req.name !== undefined) game.record.name = text('name', req.name, 1, 100);
    if (req.description !== undefined) game.record.description = text('description', req.description, 0, 500);
    if (req.isActive !== undefined) {
        game.record.isActive = boolean('isActive', req.isActive);
    }
    if (req.standardBoards !== undefined) setStandardBoards(ctx, game, req.standardBoards);
    if (everySubmitEvents !== undefined) game.record.everySubmitEvents = everySubmitEvents;
    if (rewardClaims !== undefined) game.record.rewardClaims = rewardClaims;
    applyServerSettings(game, server);
    saveView(ctx, game);
    return game.record;
}

/**
 * The standard boards' order and operator (a game setting, copied onto the three board records
 * that rank by it). Refused while any of them has entries in its current period: their kept
 * values were chosen by the old rule (a best under higher-first is not a best under lower-first).
 */
function setStandardBoards(ctx: Ctx, game: GameState, value: unknown): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new Fail(400, invalid('standardBoards', 'must be an object with sortOrder and/or operator'));
    const given = value as { sortOrder?: unknown; operator?: unknown };
    const next: StandardBoards = { ...(game.record.standardBoards ?? DEFAULT_STANDARD_BOARDS) };
    if (given.sortOrder !== undefined) next.sortOrder = parsed(parseSortOrder(given.sortOrder));
    if (given.operator !== undefined) next.operator = parsed(parseOperator(given.operator));
    const standard = game.record.boards.filter((b) => isFanout(b.scoreboardId));
    const changes = standard.some(
        (b) => (b.sortOrder ?? 'desc') !== next.sortOrder || (b.operator ?? 'best') !== next.operator,
    );
    if (!changes) return;
    refuseWhileLoading(ctx, game);
    const busy = standard.find((b) => entriesOf(game, b) > 0);
    if (busy !== undefined)
        throw new Fail(
            409,
            `The standard boards' order and operator cannot change while '${busy.scoreboardId}' has entries: ` +
                'their kept scores were chosen by the old rule. Reset the boards first, or use a new board.',
        );
    game.record.standardBoards = next;
    for (const b of standard) {
        b.sortOrder = next.sortOrder;
        b.operator = next.operator;
    }
    // The (empty) tables are made again in the new order: the global one (all-time and profile
    // bests) and the timed ones.
    game.global = newGlobalTable(game.record);
    for (const b of standard) if (b.scoreboardId !== 'all-time') renewTable(game, b);
}

/** An empty board's table made again by its record (its order may have changed), same period. */
function renewTable(game: GameState, board: BoardRecord): void {
    const table = game.boards.get(board.scoreboardId);
    game.boards.set(board.scoreboardId, newBoardTable(board, table?.period ?? board.periodStart));
}

/**
 * While the tables are still being filled from the records (after an upgrade without a
 * snapshot), a board may look empty while it is not: order and operator wait until it is done.
 */
function refuseWhileLoading(ctx: Ctx, game: GameState): void {
    if (ctx.rebuilding.has(game.record.gameId))
        throw new Fail(
            409,
            'The boards are still loading after an upgrade: order and operator can change once they are loaded (in a few minutes).',
        );
}

/** Entries in a board's current period. */
function entriesOf(game: GameState, board: BoardRecord): number {
    const table = board.scoreboardId === 'all-time' ? game.global : game.boards.get(board.scoreboardId);
    return table === undefined ? 0 : entryCount(table);
}

export function parsed<T>(result: { ok: T } | { error: string }): T {
    if ('error' in result) throw new Fail(400, result.error);
    return result.ok;
}

export function seconds(field: string, value: unknown, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
        throw new Fail(400, invalid(field, `must be a number from ${min} to ${max}`));
    }
    return value;
}

function boolean(field: string, value: unknown): boolean {
    if (typeof value !== 'boolean') throw new Fail(400, invalid(field, 'must be true or false'));
    return value;
}

export function setTimeValidation(ctx: Ctx, req: Untrusted<RequestOf<'admin_set_time_validation'>>): TimeValidation {
    const game = requireGame(ctx, req.gameId);
    const tv = { ...game.record.timeValidation };
    if (req.enabled !== undefined) tv.enabled = boolean('enabled', req.enabled);
    if (req.minPlaySeconds !== undefined) tv.minPlaySeconds = seconds('minPlaySeconds', req.minPlaySeconds, 0, 86_400);
    if (req.maxScorePerSecond !== undefined)
        tv.maxScorePerSecond = seconds('maxScorePerSecond', req.maxScorePerSecond, 0, Number.MAX_SAFE_INTEGER);
    if (req.sessionLifetimeSeconds !== undefined)
        tv.sessionLifetimeSeconds = seconds('sessionLifetimeSeconds', req.sessionLifetimeSeconds, 60, 86_400);
    game.record.timeValidation = tv;
    saveView(ctx, game);
    return tv;
}

/** Sets or clears (null) the caps; fields left out stay as they are. */
export function setCaps(ctx: Ctx, req: Untrusted<RequestOf<'admin_set_caps'>>): Caps {
    const game = requireGame(ctx, req.gameId);
    const caps = { ...game.record.caps };
    for (const field of ['maxScore', 'maxStreak', 'minScore'] as const) {
        const value = req[field];
        if (value === undefined) continue;
        if (value === null) delete caps[field];
        else {
            const error = checkCount(field, value);
            if (error) throw new Fail(400, error);
            caps[field] = value as number;
        }
    }
    if (caps.minScore !== undefined && caps.maxScore !== undefined && caps.minScore > caps.maxScore)
        throw new Fail(400, invalid('minScore', `must not be above maxScore (${caps.maxScore})`));
    game.record.caps = caps;
    saveView(ctx, game);
    return caps;
}

export function createBoard(ctx: Ctx, req: Untrusted<RequestOf<'admin_create_board'>>): BoardRecord {
    const game = requireGame(ctx, req.gameId);
    const idError = checkBoardId(req.scoreboardId);
    if (idError) throw new Fail(400, idError);
    const id = req.scoreboardId as string;
    if (isFanout(id)) throw new Fail(400, `'${id}' is a standard board and cannot be created.`);
    if (game.record.boards.some((b) => b.scoreboardId === id))
        throw new Fail(409, `Scoreboard '${id}' already exists for this game.`);
    if (game.record.boards.length >= MAX_BOARDS) throw new Fail(403, `A game may have at most ${MAX_BOARDS} boards.`);
    const sortBy: SortBy =
        req.sortBy === undefined
            ? 'score'
            : req.sortBy === 'score' || req.sortBy === 'streak'
              ? req.sortBy
              : fail(invalid('sortBy', 'must be score or streak'));
    const name = optionalText('name', req.name, 100, id);
    const description = optionalText('description', req.description, 500, '');
    const { review, league, prizes, ...options } = parsed(parseBoardOptions(req));
    if (options.filters?.length === 0) delete options.filters;
    if (options.tiebreak !== undefined && sortBy !== 'score')
        throw new Fail(400, invalid('tiebreak', 'is only for boards ranked by score'));
    const eventTop = req.eventTop === undefined ? undefined : parsed(parseEventTop(req.eventTop));
    let period: Period;
    let days: number | undefined;
    let targeted = false;
    switch (req.type) {
        case 'monthly':
            period = 'monthly';
            break;
        case 'custom':
            period = 'custom';
            days = Math.floor(seconds('days', req.days ?? 0, 0, 3650));
            break;
        case 'targeted': {
            targeted = true;
            const allowed: Period[] = ['allTime', 'daily', 'weekly', 'monthly', 'custom'];
            period =
                req.period === undefined
                    ? 'allTime'
                    : allowed.includes(req.period as Period)
                      ? (req.period as Period)
                      : fail(invalid('period', 'must be allTime, daily, weekly, monthly or custom'));
            if (period === 'custom') days = Math.floor(seconds('days', req.days ?? 0, 0, 3650));
            break;
        }
        default:
            throw new Fail(400, invalid('type', 'must be targeted, monthly or custom'));
    }
    const now = ctx.env.now();
    if (prizes !== undefined && prizes !== null) refuseUntimedPrizes({ scoreboardId: id, period, days });
    const made = board(id, name, period, now, { description, sortBy, targeted, days, ...options });
    // A new board has no entries: the league's checks are only whether it is timed.
    const withLeague = leagueChange(ctx, game, made, league ?? undefined, 0);
    const serial = (game.record.boardSerial ?? 0) + 1;
    game.record.boardSerial = serial;
    const record = made;
    if (prizes !== undefined && prizes !== null) record.prizes = prizes;
    record.serial = serial;
    if (eventTop !== undefined) record.eventTop = eventTop;
    if (review) record.review = review;
    game.record.boards.push(record);
    game.boards.set(id, newBoardTable(record));
    withLeague?.();
    saveView(ctx, game);
    return record;
}

function boardOf(game: GameState, boardId: unknown): BoardRecord {
    const record = game.record.boards.find((b) => b.scoreboardId === boardId);
    if (record === undefined) throw new Fail(404, boardNotFound(String(boardId)));
    return record;
}

export function updateBoard(ctx: Ctx, req: Untrusted<RequestOf<'admin_update_board'>>): BoardRecord {
    const game = requireGame(ctx, req.gameId);
    const record = boardOf(game, req.scoreboardId);
    const eventTop = req.eventTop === undefined ? undefined : parsed(parseEventTop(req.eventTop));
    // Every option is checked before anything changes (a refused update changes nothing).
    const options = parsed(parseBoardOptions({ ...req, tiebreak: req.tiebreak ?? undefined }));
    const withLeague = leagueChange(ctx, game, record, options.league, entriesOf(game, record));
    if (req.name !== undefined) record.name = text('name', req.name, 1, 100);
    if (req.description !== undefined) record.description = text('description', req.description, 0, 500);
    if (req.isActive !== undefined) record.isActive = boolean('isActive', req.isActive);
    const clearTiebreak = req.tiebreak === null;
    setBoardOptions(ctx, game, record, options, clearTiebreak);
    withLeague?.();
    if (eventTop !== undefined) record.eventTop = eventTop;
    saveView(ctx, game);
    return record;
}

/**
 * Ties and format change any time (they only change how entries read). Order, operator and
 * tiebreak change only while the board has no entries in its current period (refused with 409:
 * kept values were chosen by the old rule); the standard boards take theirs from the game
 * setting (which has no tiebreak). `tiebreak` only on boards ranked by score, and `null` (only
 * on an update) takes it off.
 */
function setBoardOptions(
    ctx: Ctx,
    game: GameState,
    record: BoardRecord,
    options: BoardOptionsChange,
    clearTiebreak = false,
): void {
    const { sortOrder, operator, ties, format, review, filters, tiebreak, prizes } = options;
    // (`league` is applied by leagueChange.)
    if (prizes !== undefined && prizes !== null) refuseUntimedPrizes(record);
    const tiebreakChanges = clearTiebreak ? record.tiebreak !== undefined : tiebreak !== record.tiebreak;
    const ruleChanges =
        (sortOrder !== undefined && sortOrder !== (record.sortOrder ?? 'desc')) ||
        (operator !== undefined && operator !== (record.operator ?? 'best')) ||
        ((tiebreak !== undefined || clearTiebreak) && tiebreakChanges);
    if (ruleChanges && isFanout(record.scoreboardId))
        throw new Fail(
            400,
            `'${record.scoreboardId}' follows the game's standardBoards setting for order, operator and tiebreak (none).`,
        );
    if (tiebreak !== undefined && record.sortBy !== 'score')
        throw new Fail(400, invalid('tiebreak', 'is only for boards ranked by score'));
    if (ruleChanges) refuseWhileLoading(ctx, game);
    if (ruleChanges && entriesOf(game, record) > 0)
        throw new Fail(
            409,
            `Board '${record.scoreboardId}' has entries: its order and operator cannot change until it is reset ` +
                '(its kept scores were chosen by the old rule). Reset it, or create a new board.',
        );
    const reorders =
        (sortOrder !== undefined && sortOrder !== (record.sortOrder ?? 'desc')) ||
        ((tiebreak !== undefined || clearTiebreak) && tiebreakChanges);
    if (sortOrder !== undefined) record.sortOrder = sortOrder;
    if (operator !== undefined) record.operator = operator;
    if (tiebreak !== undefined) record.tiebreak = tiebreak;
    else if (clearTiebreak) delete record.tiebreak;
    if (reorders) renewTable(game, record);
    if (ties !== undefined) record.ties = ties;
    if (format !== undefined) record.format = format;
    // Review changes any time: it decides only about submits from now on.
    if (review === null) delete record.review;
    else if (review !== undefined) record.review = review;
    if (filters !== undefined) setFilters(game, record, filters);
    // Prizes change any time: the table at a close is the one paid.
    if (prizes === null) delete record.prizes;
    else if (prizes !== undefined) record.prizes = prizes;
}

/** Prizes are paid at a period's close: boards that never close have none. */
function refuseUntimedPrizes(board: { scoreboardId: string; period: Period; days?: number }): void {
    if (board.period === 'allTime' || (board.period === 'custom' && (board.days ?? 0) === 0))
        throw new Fail(
            400,
            invalid(
                'prizes',
                `are only for boards with periods (daily, weekly, monthly, custom of 1+ days): '${board.scoreboardId}' never closes`,
            ),
        );
}

/**
 * A board's filter keys (`[]`: none). Its filter indexes are built again from its current
 * period's entries with metadata: one pass over them, each parsed once when its text names a
 * key, O(m log m) for m such entries (measured in test/bench/canister.bench.ts).
 */
function setFilters(game: GameState, record: BoardRecord, filters: string[]): void {
    if (filters.length === 0) delete record.filters;
    else record.filters = filters;
    const table = record.scoreboardId === 'all-time' ? game.global : game.boards.get(record.scoreboardId);
    if (table !== undefined) declareFilters(table, record.filters);
}

/**
 * Removes an extra board with its archives (the standard boards stay). Players' entries on it
 * are dead from here on everywhere (reads, submits, rebuilds): they carry the board's serial,
 * which a board created later under the same id never has; submits drop them as they go.
 */
export function deleteBoard(ctx: Ctx, req: Untrusted<RequestOf<'admin_delete_board'>>): null {
    const game = requireGame(ctx, req.gameId);
    const record = boardOf(game, req.scoreboardId);
    if (isFanout(record.scoreboardId)) throw new Fail(400, 'The standard boards cannot be deleted.');
    for (const start of record.archives)
        ctx.store.archives.delete(`${game.record.gameId}/${record.scoreboardId}/${start}`);
    const league = game.leagues.get(record.scoreboardId);
    if (league !== undefined) purgeLater(ctx, league.key, league.index);
    game.leagues.delete(record.scoreboardId);
    dropBoardGrants(ctx, game.record.gameId, record.scoreboardId);
    game.record.boards = game.record.boards.filter((b) => b !== record);
    game.boards.delete(record.scoreboardId);
    game.periodEnds.delete(record.scoreboardId);
    saveView(ctx, game);
    return null;
}

export function setAllowance(ctx: Ctx, req: Untrusted<RequestOf<'admin_set_allowance'>>): DeveloperRecord {
    const developerId = text('developerId', req.developerId, 1, 200);
    const error = checkCount('allowance', req.allowance);
    if (error || (req.allowance as number) > 10_000)
        throw new Fail(400, invalid('allowance', 'must be an integer from 0 to 10000'));
    const developer = { ...developerOf(ctx, developerId), allowance: req.allowance as number };
    ctx.store.developers.set(developerId, developer);
    return developer;
}

export function listGames(ctx: Ctx, req: Untrusted<RequestOf<'admin_list_games'>>): GameRecord[] {
    const developerId = req.developerId;
    if (developerId !== undefined) {
        if (typeof developerId !== 'string') throw new Fail(400, invalid('developerId', 'must be a string'));
        return developerOf(ctx, developerId)
            .gameIds.map((id) => ctx.games.get(id)?.record)
            .filter((r): r is GameRecord => r !== undefined);
    }
    return [...ctx.games.values()].map((g) => g.record);
}

function fail(message: string): never {
    throw new Fail(400, message);
}
