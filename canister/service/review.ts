// Review of implausible scores, per board (BoardConfig.review, docs/boards.md): the rule's one
// descent of the board's rank index at a submit, the game's review queue of flagged entries and
// held scores (a ring of REVIEW_KEEP), and the developer's verdicts on them.
import { REVIEW, implausible } from '../../contract/board-options';
import {
    REVIEW_ACTIONS,
    type ModerationAction,
    type RequestOf,
    type ReviewAction,
    type ReviewEntry,
} from '../../contract/canister';
import { boardNotFound } from '../../contract/messages';
import { checkBoardId, invalid } from '../../contract/rules';
import type { Best } from '../domain/bests';
import { Fail } from '../domain/fail';
import { ns } from '../domain/json';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { saveGame } from '../state/game-state';
import type { BoardRecord, ReviewRecord } from '../state/records';
import { rankIndex, type BoardTable } from '../state/tables';
import { requirePlayerRef } from './credentials';
import { recordEvent, type EventCause } from './events';
import { ban, logModeration, takeEntry } from './moderation';
import { findPlayer } from './players';
import { rollover } from './rollover';
import { writeHeld } from './scores';

const REVIEW_KEEP = REVIEW.queue;

const reviewKey = (gameId: string, boardId: string, playerId: string): string => `${gameId}/${boardId}/${playerId}`;
const ringKey = (gameId: string, seq: number): string => `${gameId}/${seq % REVIEW_KEEP}`;

/**
 * The board's first (its ranked value) when `value` is implausible against it, else undefined.
 * Called before the entry is written (the first is someone's best before this submit): one
 * select of rank 1, O(log n); only boards with review on call it.
 */
export function implausibleAgainst(
    table: BoardTable,
    board: BoardRecord,
    factor: number,
    value: number,
): number | undefined {
    const index = rankIndex(table, board.sortBy);
    const entries = index.size();
    const id = index.select(1);
    if (id === undefined) return undefined;
    const first = board.sortBy === 'streak' ? table.streak[id]! : table.score[id]!;
    return implausible(value, first, entries, index.order === 'asc', factor) ? first : undefined;
}

/** Puts a written entry in the game's review queue (replacing the same entry's older flag) and records `score_flagged`. */
export function flagEntry(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    best: Best,
    first: number,
    cause: EventCause,
): void {
    const { score, streak } = best;
    enqueue(ctx, game, board, playerId, { kind: 'flagged', score, streak, first });
    const event = { kind: 'score_flagged', scoreboardId: board.scoreboardId, playerId, score, streak, first } as const;
    recordEvent(ctx, game, event, cause);
}

/**
 * Keeps an implausible submit off a `hold` board (scores.ts writeEntry) in the game's review
 * queue and records `score_held`: one held score per player and board, a better one replaces it.
 */
export function holdScore(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    held: { score: number; streak: number; tiebreak: number | undefined; metadata: string | undefined },
    first: number,
    cause: EventCause,
): void {
    const { score, streak, tiebreak, metadata } = held;
    const old = heldRecord(ctx, game, board, playerId);
    if (old !== undefined && old.period === board.periodStart) {
        const streaks = board.sortBy === 'streak';
        const [now, then] = streaks ? [streak, old.streak] : [score, old.score];
        const better = streaks || board.sortOrder !== 'asc' ? now > then : now < then;
        if (!better) return;
    }
    enqueue(ctx, game, board, playerId, { kind: 'held', score, streak, first, metadata, tiebreak });
    const event = { kind: 'score_held', scoreboardId: board.scoreboardId, playerId, score, streak, first } as const;
    recordEvent(ctx, game, event, cause);
}

/** Writes a review record at the head of the game's queue ring (its slot's older occupant leaves the queue). */
function enqueue(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    what: Pick<ReviewRecord, 'kind' | 'score' | 'streak' | 'first' | 'metadata' | 'tiebreak'>,
): void {
    const gameId = game.record.gameId;
    const seq = game.record.reviewSeq ?? 0;
    // The slot's occupant (a flag REVIEW_KEEP older) leaves the queue, unless it was flagged again since.
    const evicted = ctx.store.reviewQueue.get(ringKey(gameId, seq));
    if (evicted !== undefined && ctx.store.reviews.get(`${gameId}/${evicted}`)?.seq === seq - REVIEW_KEEP)
        ctx.store.reviews.delete(`${gameId}/${evicted}`);
    const record: ReviewRecord = {
        seq,
        kind: what.kind,
        score: what.score,
        streak: what.streak,
        first: what.first,
        at: ctx.env.now(),
        period: board.periodStart,
        serial: board.serial ?? 0,
    };
    if (what.metadata !== undefined) record.metadata = what.metadata;
    if (what.tiebreak !== undefined) record.tiebreak = what.tiebreak;
    ctx.store.reviews.set(reviewKey(gameId, board.scoreboardId, playerId), record);
    ctx.store.reviewQueue.set(ringKey(gameId, seq), `${board.scoreboardId}/${playerId}`);
    game.record.reviewSeq = seq + 1;
    saveGame(ctx, game);
}

/** The player's held score on the board (its current serial), if any: the caller checks the board holds. */
export function heldRecord(ctx: Ctx, game: GameState, board: BoardRecord, playerId: string): ReviewRecord | undefined {
    const record = ctx.store.reviews.get(reviewKey(game.record.gameId, board.scoreboardId, playerId));
    return record?.kind === 'held' && record.serial === (board.serial ?? 0) ? record : undefined;
}

/** The board a review names, when it is still the board it was flagged on (not deleted and made again). */
function boardOf(game: GameState, boardId: string, record: ReviewRecord): BoardRecord | undefined {
    const board = game.record.boards.find((b) => b.scoreboardId === boardId);
    return board !== undefined && (board.serial ?? 0) === record.serial ? board : undefined;
}

/** The game's review queue, newest first (entries of deleted boards are left out). */
export function reviewQueue(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_review_queue'>>): ReviewEntry[] {
    const limit =
        typeof req.limit === 'number' && Number.isFinite(req.limit)
            ? Math.max(1, Math.min(REVIEW_KEEP, Math.floor(req.limit)))
            : 100;
    const gameId = game.record.gameId;
    const end = game.record.reviewSeq ?? 0;
    const out: ReviewEntry[] = [];
    for (let seq = end - 1; seq >= Math.max(0, end - REVIEW_KEEP) && out.length < limit; seq--) {
        const at = ctx.store.reviewQueue.get(ringKey(gameId, seq));
        if (at === undefined) continue;
        const record = ctx.store.reviews.get(`${gameId}/${at}`);
        if (record === undefined || record.seq !== seq) continue;
        const slash = at.indexOf('/');
        const scoreboardId = at.slice(0, slash);
        const playerId = at.slice(slash + 1);
        if (boardOf(game, scoreboardId, record) === undefined) continue;
        const { score, streak, first, kind } = record;
        const nickname = findPlayer(ctx, gameId, playerId)?.nickname ?? '';
        out.push({ scoreboardId, playerId, nickname, kind, score, streak, first, at: ns(record.at) });
    }
    return out;
}

const VERDICT = {
    dismiss: 'dismissed',
    remove: 'removed',
    ban: 'banned',
    approve: 'approved',
    reject: 'rejected',
} as const;
/** The actions each kind of record takes (ban takes both). */
const ACTIONS_OF = { flagged: ['dismiss', 'remove', 'ban'], held: ['approve', 'reject', 'ban'] } as const;

/**
 * Settles a queued entry. Flagged: `dismiss` keeps it, `remove` takes it off the board (if it is
 * still there this period), `ban` removes it and bans the player (moderation.ts ban). Held:
 * `approve` writes it to its board as if submitted then (scores.ts writeHeld; its period closed
 * since: nothing is written), `reject` drops it, `ban` drops it and bans. Each leaves the queue,
 * goes to the moderation log and records `score_reviewed`.
 */
export function settleReview(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_review'>>): { message: string } {
    const error = checkBoardId(req.scoreboardId);
    if (error) throw new Fail(400, error);
    const playerId = requirePlayerRef(req.playerId);
    const action = req.action;
    if (typeof action !== 'string' || !(REVIEW_ACTIONS as readonly string[]).includes(action))
        throw new Fail(400, invalid('action', `must be ${REVIEW_ACTIONS.join(', ')}`));
    const verdict = VERDICT[action as keyof typeof VERDICT];
    const gameId = game.record.gameId;
    const boardId = req.scoreboardId as string;
    const key = reviewKey(gameId, boardId, playerId);
    const record = ctx.store.reviews.get(key);
    const board = record === undefined ? undefined : boardOf(game, boardId, record);
    if (record === undefined || board === undefined) {
        if (game.record.boards.every((b) => b.scoreboardId !== boardId)) throw new Fail(404, boardNotFound(boardId));
        throw new Fail(404, `'${playerId}' has no entry waiting for review on this board`);
    }
    const actions: readonly string[] = ACTIONS_OF[record.kind];
    if (!actions.includes(action))
        throw new Fail(400, invalid('action', `a ${record.kind} score takes ${actions.join(', ')}`));
    const player = findPlayer(ctx, gameId, playerId);
    const name = player?.nickname ?? playerId;
    rollover(ctx, game, board);
    // The flagged (or held) period's entry only: a period that ended since is in its archive.
    const open = player !== undefined && board.periodStart === record.period;
    if (record.kind === 'flagged' && action !== 'dismiss' && open) takeEntry(ctx, game, board, playerId, player);
    // A player merged into an account (or removed) since has no record to write to.
    const written = action === 'approve' && open && player.retired === undefined;
    if (written) writeHeld(ctx, game, board, playerId, player, record);
    ctx.store.reviews.delete(key);
    logModeration(ctx, game, {
        action: `review-${action}` as ModerationAction,
        playerId,
        scoreboardId: boardId,
        detail: `${record.kind} ${record.score} (first ${record.first}) ${verdict}${action === 'approve' && !written ? ' (nothing written: its period closed or the player is gone)' : ''}`,
    });
    recordEvent(ctx, game, {
        kind: 'score_reviewed',
        scoreboardId: boardId,
        playerId,
        score: record.score,
        streak: record.streak,
        verdict,
    });
    if (action === 'ban') {
        try {
            ban(ctx, game, { playerId, reason: `${record.kind} score ${record.score} on ${boardId}` });
        } catch (e) {
            // Already banned (409, nothing written): the entry is removed all the same.
            if (!(e instanceof Fail && e.status === 409)) throw e;
        }
    }
    return { message: verdictMessage(action as ReviewAction, record.kind, name, board.name, written) };
}

function verdictMessage(
    action: ReviewAction,
    kind: ReviewRecord['kind'],
    name: string,
    board: string,
    written: boolean,
) {
    switch (action) {
        case 'dismiss':
            return `${name}'s entry stays on ${board}.`;
        case 'remove':
            return `Removed ${name}'s flagged entry from ${board}.`;
        case 'approve':
            return written
                ? `Approved ${name}'s held score on ${board}.`
                : `Approved ${name}'s held score, but nothing was written: its period on ${board} has closed, or the player was merged or removed.`;
        case 'reject':
            return `Rejected ${name}'s held score on ${board}.`;
        case 'ban':
            return kind === 'held'
                ? `Rejected ${name}'s held score on ${board} and banned them.`
                : `Removed ${name}'s flagged entry from ${board} and banned them.`;
    }
}

/** Removes a deleted game's review queue (purge: once its players are gone). */
export function dropReviews(ctx: Ctx, gameId: string): void {
    for (let i = 0; i < REVIEW_KEEP; i++) {
        const at = ctx.store.reviewQueue.take(`${gameId}/${i}`);
        if (at !== undefined) ctx.store.reviews.delete(`${gameId}/${at}`);
    }
}
