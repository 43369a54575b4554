// Review of implausible scores, per board (BoardConfig.review, docs/boards.md): the rule's one
// descent of the board's rank index at a submit, the game's review queue of flagged entries (a
// ring of REVIEW_KEEP), and the developer's verdicts on them (dismiss, remove, ban).
import { REVIEW, implausible } from '../../contract/board-options';
import { REVIEW_ACTIONS, type RequestOf, type ReviewEntry } from '../../contract/canister';
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
    const gameId = game.record.gameId;
    const seq = game.record.reviewSeq ?? 0;
    // The slot's occupant (a flag REVIEW_KEEP older) leaves the queue, unless it was flagged again since.
    const evicted = ctx.store.reviewQueue.get(ringKey(gameId, seq));
    if (evicted !== undefined && ctx.store.reviews.get(`${gameId}/${evicted}`)?.seq === seq - REVIEW_KEEP)
        ctx.store.reviews.delete(`${gameId}/${evicted}`);
    const record: ReviewRecord = {
        seq,
        kind: 'flagged',
        score: best.score,
        streak: best.streak,
        first,
        at: ctx.env.now(),
        period: board.periodStart,
        serial: board.serial ?? 0,
    };
    ctx.store.reviews.set(reviewKey(gameId, board.scoreboardId, playerId), record);
    ctx.store.reviewQueue.set(ringKey(gameId, seq), `${board.scoreboardId}/${playerId}`);
    game.record.reviewSeq = seq + 1;
    saveGame(ctx, game);
    recordEvent(
        ctx,
        game,
        {
            kind: 'score_flagged',
            scoreboardId: board.scoreboardId,
            playerId,
            score: best.score,
            streak: best.streak,
            first,
        },
        cause,
    );
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

const VERDICT = { dismiss: 'dismissed', remove: 'removed', ban: 'banned' } as const;

/**
 * Settles a flagged entry: `dismiss` keeps it, `remove` takes it off the board (if it is still
 * there this period), `ban` removes it and bans the player (moderation.ts ban). Each leaves the
 * queue, goes to the moderation log and records `score_reviewed`.
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
    const player = findPlayer(ctx, gameId, playerId);
    const name = player?.nickname ?? playerId;
    // The flagged period's entry only: a period that ended since is in its archive.
    if (action !== 'dismiss' && player !== undefined && board.periodStart === record.period)
        takeEntry(ctx, game, board, playerId, player);
    ctx.store.reviews.delete(key);
    logModeration(ctx, game, {
        action: `review-${action}` as 'review-dismiss' | 'review-remove' | 'review-ban',
        playerId,
        scoreboardId: boardId,
        detail: `flagged ${record.score} (first ${record.first}) ${verdict}`,
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
            ban(ctx, game, { playerId, reason: `flagged score ${record.score} on ${boardId}` });
        } catch (e) {
            // Already banned (409, nothing written): the entry is removed all the same.
            if (!(e instanceof Fail && e.status === 409)) throw e;
        }
    }
    return {
        message:
            action === 'dismiss'
                ? `${name}'s entry stays on ${board.name}.`
                : action === 'remove'
                  ? `Removed ${name}'s flagged entry from ${board.name}.`
                  : `Removed ${name}'s flagged entry from ${board.name} and banned them.`,
    };
}

/** Removes a deleted game's review queue (purge: once its players are gone). */
export function dropReviews(ctx: Ctx, gameId: string): void {
    for (let i = 0; i < REVIEW_KEEP; i++) {
        const at = ctx.store.reviewQueue.take(`${gameId}/${i}`);
        if (at !== undefined) ctx.store.reviews.delete(`${gameId}/${at}`);
    }
}
