// Players' reports of board entries and the developer's queue of them (docs/reports.md). A player
// names an entry as a board read shows it (board and nickname; the rank they saw finds default
// names); one report per (reporter, entry) counts, and one per client address when the gateway
// knows a public one; a banned reporter's reports are answered alike and kept nowhere. The queue
// is one record per game in queue order (distinct reporters, then latest), so a page is one read.
import type { RequestOf } from '../../contract/canister';
import type { Message } from '../../contract/schemas';
import { checkNickname, clampLimit, invalid } from '../../contract/rules';
import {
    REPORT_ACTIONS,
    REPORT_LIMITS,
    checkReason,
    checkReportText,
    checkSeenRank,
    type ReportDetail,
    type ReportItemView,
    type ReportQueuePage,
    type ReportReason,
    type ReportedEntry,
} from '../../contract/reports';
import { Fail } from '../domain/fail';
import { ns } from '../domain/json';
import { tokenHash } from '../domain/sha256';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { nameHolder } from '../state/names';
import type { BoardRecord, ReportItemRecord, ReportQueueRecord, ReporterDayRecord } from '../state/records';
import { slotPlayer } from '../state/slots';
import { entryOf, metadataOf, nicknameOf, rankIndex, type BoardTable } from '../state/tables';
import { isBanned, playerBanned } from './bans';
import { refuseRetired, requirePlayerRef, resolveWriter } from './credentials';
import { recordEvent } from './events';
import { MODERATION_KEEP, ban, logModeration, moderationLog, removeBoardEntry } from './moderation';
import { findPlayer, findSlot } from './players';
import { rankOf, tiesOf } from './ranks';
import { boardOf, liveTable } from './reads';
import { suspicionLog } from './scores';

const DAY_US = 86_400_000_000;
/** Places either side of the rank a reporter saw that are searched for the nickname (entries move). */
const RANK_SLACK = 25;
/** Lines of each log a report's detail shows. */
const DETAIL_LINES = 20;

/** What every accepted report is answered with, counted or not (a banned reporter cannot tell). */
const RECEIVED: Message = { message: 'Report received. Thank you.' };

/** `<playerId>/<boardId>`: an item of a game's queue. */
const itemOf = (playerId: string, boardId: string): string => `${playerId}/${boardId}`;
const itemKey = (gameId: string, item: string): string => `${gameId}/${item}`;
/** `~` starts no player id: no item's key is a reporter's. */
const dayKey = (gameId: string, playerId: string): string => `${gameId}/~${playerId}`;

function getItem(ctx: Ctx, gameId: string, item: string): ReportItemRecord | undefined {
    return ctx.store.reports.get(itemKey(gameId, item)) as ReportItemRecord | undefined;
}

const queueOf = (ctx: Ctx, gameId: string): ReportQueueRecord => ctx.store.reportQueues.get(gameId) ?? { items: [] };

/** Puts an item at its place: more reporters first, then the latest report first (ahead of its equals). */
function place(queue: ReportQueueRecord, item: string, reporters: number, at: number): void {
    const rest = queue.items.filter(([k]) => k !== item);
    const i = rest.findIndex(([, n, t]) => n < reporters || (n === reporters && t <= at));
    rest.splice(i < 0 ? rest.length : i, 0, [item, reporters, at]);
    queue.items = rest;
}

/**
 * The player whose entry on the board has this nickname: the holder of a chosen name, or an
 * entry of that name within RANK_SLACK places of the rank the reporter saw (default names
 * `Player_<n>` have no holder record). 404 when the board has no such entry now.
 */
function reportedEntry(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    nickname: string,
    rank: number | undefined,
): { playerId: string; table: BoardTable } {
    const gameId = game.record.gameId;
    const table = liveTable(ctx, game, board);
    if (table !== undefined) {
        const holder = nameHolder(ctx, gameId, nickname);
        const playerId = holder?.slice(gameId.length + 1);
        const slot = playerId === undefined ? undefined : findSlot(ctx, gameId, playerId);
        if (
            playerId !== undefined &&
            slot !== undefined &&
            entryOf(table, slot) !== undefined &&
            nicknameOf(game.players, slot) === nickname
        )
            return { playerId, table };
        if (rank !== undefined)
            for (const id of rankIndex(table, board.sortBy).range(Math.max(1, rank - RANK_SLACK), 2 * RANK_SLACK + 1)) {
                const s = table.slot[id];
                if (nicknameOf(game.players, s) !== nickname) continue;
                const found = slotPlayer(ctx, gameId, s);
                if (found !== undefined) return { playerId: found, table };
            }
    }
    throw new Fail(404, `No entry named '${nickname}' on this board`);
}

/** A player's report of an entry they saw on a board. */
export function reportEntry(ctx: Ctx, req: Untrusted<RequestOf<'report_entry'>>): Message {
    const writer = resolveWriter(ctx, req);
    const { game, playerId: by } = writer;
    const gameId = game.record.gameId;
    const board = boardOf(game, req.scoreboardId);
    const error =
        checkNickname(req.nickname) ?? checkReason(req.reason) ?? checkReportText(req.text) ?? checkSeenRank(req.rank);
    if (error) throw new Fail(400, error);
    const nickname = req.nickname as string;
    const reason = req.reason as ReportReason;
    const text = req.text === undefined || req.text === '' ? undefined : (req.text as string);
    const reporter = findPlayer(ctx, gameId, by);
    if (reporter === undefined)
        throw new Fail(404, 'Player not found: a player reports once they have played this game');
    refuseRetired(reporter);
    const { playerId } = reportedEntry(ctx, game, board, nickname, req.rank as number | undefined);
    if (playerId === by) throw new Fail(400, 'A player cannot report their own entry');
    if (isBanned(ctx, game, by, reporter, writer.account)) return RECEIVED;

    const now = ctx.env.now();
    const item = itemOf(playerId, board.scoreboardId);
    const stored = getItem(ctx, gameId, item);
    const client = typeof req.client === 'string' && req.client !== '' ? tokenHash(req.client).slice(0, 16) : undefined;
    const repeat = stored?.reports.find((r) => r.by === by || (client !== undefined && r.client === client));
    if (repeat !== undefined) {
        // The reporter's own report takes the new reason and text; another id of the same client changes nothing.
        if (repeat.by === by && (repeat.reason !== reason || repeat.text !== text)) {
            repeat.reason = reason;
            repeat.text = text;
            ctx.store.reports.set(itemKey(gameId, item), stored!);
        }
        return RECEIVED;
    }
    if (stored !== undefined && stored.reports.length >= REPORT_LIMITS.reportersPerItem) return RECEIVED;

    const day = Math.floor(now / DAY_US);
    const today = ctx.store.reports.get(dayKey(gameId, by)) as ReporterDayRecord | undefined;
    const count = today?.day === day ? today.count : 0;
    if (count >= REPORT_LIMITS.perReporterPerDay)
        throw new Fail(429, `A player may report at most ${REPORT_LIMITS.perReporterPerDay} entries a day`, {
            retryAfter: Math.ceil(((day + 1) * DAY_US - now) / 1e6),
        });
    const queue = queueOf(ctx, gameId);
    if (stored === undefined && queue.items.length >= REPORT_LIMITS.openPerGame) {
        // Full: the oldest item of a single reporter makes room (a flood of single reports cannot
        // shut others out); when every item has more reporters, further entries wait.
        const [last, reporters] = queue.items[queue.items.length - 1]!;
        if (reporters > 1)
            throw new Fail(
                429,
                "This game's report queue is full: reports of further entries wait for its moderators",
                {
                    retryAfter: 3600,
                },
            );
        ctx.store.reports.delete(itemKey(gameId, last));
        queue.items.pop();
    }
    const record: ReportItemRecord = stored ?? {
        playerId,
        scoreboardId: board.scoreboardId,
        nickname,
        reports: [],
        firstAt: now,
        lastAt: now,
    };
    record.reports.push(client === undefined ? { by, reason, text, at: now } : { by, client, reason, text, at: now });
    record.nickname = nickname;
    record.lastAt = now;
    ctx.store.reports.set(itemKey(gameId, item), record);
    ctx.store.reports.set(dayKey(gameId, by), { day, count: count + 1 } satisfies ReporterDayRecord);
    place(queue, item, record.reports.length, now);
    ctx.store.reportQueues.set(gameId, queue);
    recordEvent(
        ctx,
        game,
        {
            kind: 'entry_reported',
            scoreboardId: board.scoreboardId,
            playerId,
            nickname,
            reportedBy: by,
            reason,
            reporters: record.reports.length,
        },
        writer.server ? 'server' : 'client',
    );
    return RECEIVED;
}

function view(record: ReportItemRecord): ReportItemView {
    const reasons: ReportItemView['reasons'] = {};
    for (const r of record.reports) reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
    return {
        playerId: record.playerId,
        scoreboardId: record.scoreboardId,
        nickname: record.nickname,
        reporters: record.reports.length,
        reasons,
        firstAt: ns(record.firstAt),
        lastAt: ns(record.lastAt),
    };
}

/** A page of the game's queue: most distinct reporters first, then the latest report. */
export function reportQueue(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_reports'>>): ReportQueuePage {
    const gameId = game.record.gameId;
    const offset = typeof req.offset === 'number' && Number.isInteger(req.offset) && req.offset > 0 ? req.offset : 0;
    const limit = Math.min(clampLimit(req.limit, REPORT_LIMITS.page.default), REPORT_LIMITS.page.max);
    const { items } = queueOf(ctx, gameId);
    const page = items
        .slice(offset, offset + limit)
        .map(([item]) => getItem(ctx, gameId, item))
        .filter((r): r is ReportItemRecord => r !== undefined)
        .map(view);
    return { total: items.length, offset, items: page };
}

/** The item a developer method names: 404 when the entry has no open reports. */
function requireItem(
    ctx: Ctx,
    game: GameState,
    req: Untrusted<{ playerId: string; scoreboardId: string }>,
): { item: string; record: ReportItemRecord } {
    const playerId = requirePlayerRef(req.playerId);
    const board = boardOf(game, req.scoreboardId);
    const item = itemOf(playerId, board.scoreboardId);
    const record = getItem(ctx, game.record.gameId, item);
    if (record === undefined) throw new Fail(404, `No open reports of '${playerId}' on ${board.scoreboardId}`);
    return { item, record };
}

/** A player's entries on every board of the game now. */
function entriesOf(ctx: Ctx, game: GameState, playerId: string): ReportedEntry[] {
    const slot = findSlot(ctx, game.record.gameId, playerId);
    if (slot === undefined) return [];
    const out: ReportedEntry[] = [];
    for (const board of game.record.boards) {
        const table = liveTable(ctx, game, board);
        const id = table === undefined ? undefined : entryOf(table, slot);
        if (table === undefined || id === undefined) continue;
        const rank = rankOf(table, board.sortBy, id, tiesOf(board));
        if (rank === undefined) continue;
        const entry: ReportedEntry = {
            scoreboardId: board.scoreboardId,
            rank,
            score: table.score[id],
            streak: table.streak[id],
        };
        const metadata = metadataOf(table, id);
        if (metadata !== undefined) entry.metadata = JSON.parse(metadata) as Record<string, unknown>;
        out.push(entry);
    }
    return out;
}

/** One reported entry in full, for the developer to decide on. */
export function reportDetail(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_report'>>): ReportDetail {
    const { record } = requireItem(ctx, game, req);
    const gameId = game.record.gameId;
    const { playerId, scoreboardId } = record;
    const entries = entriesOf(ctx, game, playerId);
    return {
        item: view(record),
        entry: entries.find((e) => e.scoreboardId === scoreboardId) ?? null,
        entries,
        banned: playerBanned(ctx, game, playerId, findPlayer(ctx, gameId, playerId)),
        suspicion: suspicionLog(ctx, { gameId, playerId, limit: DETAIL_LINES }),
        moderation: moderationLog(ctx, game, { limit: MODERATION_KEEP })
            .filter((e) => e.playerId === playerId)
            .slice(0, DETAIL_LINES),
        reports: record.reports
            .map((r) => ({
                playerId: r.by,
                reason: r.reason,
                ...(r.text === undefined ? {} : { text: r.text }),
                at: ns(r.at),
            }))
            .reverse(),
    };
}

/** Takes an item off the game's queue. */
function clearItem(ctx: Ctx, gameId: string, item: string): void {
    ctx.store.reports.delete(itemKey(gameId, item));
    const queue = queueOf(ctx, gameId);
    queue.items = queue.items.filter(([k]) => k !== item);
    if (queue.items.length === 0) ctx.store.reportQueues.delete(gameId);
    else ctx.store.reportQueues.set(gameId, queue);
}

/** Dismisses a reported entry, removes it from its board, or bans its player: logged, and the item cleared. */
export function actOnReport(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_report_action'>>): Message {
    const { item, record } = requireItem(ctx, game, req);
    const { playerId, scoreboardId, nickname } = record;
    const reporters = `${record.reports.length} ${record.reports.length === 1 ? 'reporter' : 'reporters'}`;
    let answer: Message;
    switch (req.action) {
        case 'dismiss':
            logModeration(ctx, game, {
                action: 'dismiss-report',
                playerId,
                scoreboardId,
                detail: `reports of ${nickname}'s entry dismissed (${reporters})`,
            });
            answer = { message: `Dismissed the reports of ${nickname}'s entry.` };
            break;
        case 'remove':
            answer = removeBoardEntry(ctx, game, { playerId, scoreboardId });
            break;
        case 'ban': {
            const reason = req.reason === undefined || req.reason === '' ? `reported (${reporters})` : req.reason;
            answer = ban(ctx, game, { playerId, reason });
            break;
        }
        default:
            throw new Fail(400, invalid('action', `must be one of ${REPORT_ACTIONS.join(', ')}`));
    }
    clearItem(ctx, game.record.gameId, item);
    return answer;
}

/** A moving game's open items and its queue, as a move's items (its reporters' days go with each player). */
export function gameReports(ctx: Ctx, gameId: string): Array<['reports' | 'reportQueues', string, unknown]> {
    const queue = ctx.store.reportQueues.get(gameId);
    if (queue === undefined) return [];
    const out: Array<['reports' | 'reportQueues', string, unknown]> = [['reportQueues', gameId, queue]];
    for (const [item] of queue.items) {
        const record = getItem(ctx, gameId, item);
        if (record !== undefined) out.push(['reports', itemKey(gameId, item), record]);
    }
    return out;
}

/** What a moving game's player reported today, as a move's item (none when nothing). */
export function reporterDay(ctx: Ctx, gameId: string, playerId: string): ['reports', string, unknown] | undefined {
    const key = dayKey(gameId, playerId);
    const day = ctx.store.reports.get(key);
    return day === undefined ? undefined : ['reports', key, day];
}

/** A deleted game's reporter day of one player (the purge walks its players). */
export function dropReporterDay(ctx: Ctx, gameId: string, playerId: string): void {
    ctx.store.reports.delete(dayKey(gameId, playerId));
}

/** A deleted game's open items and its queue (at most REPORT_LIMITS.openPerGame). */
export function dropReports(ctx: Ctx, gameId: string): void {
    for (const [item] of queueOf(ctx, gameId).items) ctx.store.reports.delete(itemKey(gameId, item));
    ctx.store.reportQueues.delete(gameId);
}
