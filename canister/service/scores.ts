// The score pipeline (POST /scores): the API key checked in the same call, validation, the 2 s
// rate limit with retries (before anything else), time validation and caps (failures go to
// the paced, per-player suspicion log; players see a generic message), rule N1 for nicknames,
// profile creation, fan-out or targeted writes by each board's order and operator, play counting. A
// rejected submit changes no player data; a batch is a list of independent submits.
import type { RequestOf, Result, SubmitRequest, SuspicionEntry } from '../../contract/canister';
import { MESSAGES, boardNotFound } from '../../contract/messages';
import type { SubmitReply } from '../../contract/schemas';
import { checkSubmit } from '../domain/anti-cheat';
import { ns } from '../domain/json';
import { applySubmit, type Best } from '../domain/bests';
import { PLAY_DEDUPE_US, RATE_WINDOW_US, countsAsPlay, pace, submitMessage } from '../domain/throttle';
import { MAX_SUBMITS_PER_CALL, checkCount, checkNickname, invalid, isFanout } from '../../contract/rules';
import { createPlayerRow, renameIfFree } from './players';
import { refuseClientWrite, refuseRetired, requirePlayerRef, resolveWriter } from './credentials';
import type { BoardRecord, PlayerRecord, SuspicionRecord } from '../state/records';
import { rowOfPlayer } from '../state/player-codec';
import {
    ACTIVE_DAY,
    AUTH_TYPE,
    BANNED,
    BOARDS,
    DEFAULT_NAME,
    NICKNAME,
    PLAY_COUNT,
    RETIRED,
    SLOT,
    bestMetadataOf,
    bestOf,
    dropDeadEntries,
    dropPaces,
    currentEntry,
    entryIndex,
    entryMetadata,
    lastSubmitOf,
    rebase,
    renameRow,
    setBest,
    setBestMetadata,
    setEntry,
    setPace,
    type PlayerRow,
} from '../state/player-row';
import { rollover } from './rollover';
import { consumeSession, sessionOf } from './play-sessions';
import { playerKey } from '../state/store';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { refuseWrite } from './move-gate';
import { Fail } from '../domain/fail';
import { requireGame, saveGame } from '../state/game-state';
import { countSubmitStats } from '../state/stats';
import { countSubmit } from './analytics';
import { refuseBanned } from './bans';
import { putEntry, setEntryMetadata, type BoardTable } from '../state/tables';
import { flagEntry, holdScore, implausibleAgainst } from './review';
import { optionsOf, parseMetadata } from '../../contract/board-options';
import { keepsMetadata } from '../domain/metadata';
import { boardEvents } from './board-events';
import { recordEvent, type EventCause } from './events';
import { assertRoomForNewPlayer } from './capacity';
import { joinDivision } from './leagues';

export const SUSPICION_KEEP = 1000;

/** What server submits are checked against when the game lets them skip caps and time validation. */
const UNCHECKED = {
    caps: {},
    timeValidation: { enabled: false, minPlaySeconds: 0, maxScorePerSecond: 0, sessionLifetimeSeconds: 0 },
} as const;

export function submitBatch(ctx: Ctx, req: Untrusted<RequestOf<'submit_scores'>>): Array<Result<SubmitReply>> {
    const submits = req.submits;
    if (!Array.isArray(submits)) throw new Fail(400, invalid('submits', 'must be a list'));
    if (submits.length > MAX_SUBMITS_PER_CALL)
        throw new Fail(400, invalid('submits', `may hold at most ${MAX_SUBMITS_PER_CALL} submits`));
    const results = submits.map((s: unknown): Result<SubmitReply> => {
        try {
            return { ok: submitOne(ctx, s as Untrusted<SubmitRequest>) };
        } catch (e) {
            if (e instanceof Fail) return { err: e.toApiError() };
            throw e;
        }
    });
    return results;
}

function submitOne(ctx: Ctx, req: Untrusted<SubmitRequest>): SubmitReply {
    if (req === null || typeof req !== 'object')
        throw new Fail(400, invalid('submits', 'each submit must be an object'));
    refuseWrite(ctx, req.gameId);
    const writer = resolveWriter(ctx, req);
    refuseClientWrite(writer);
    const { game, playerId, authType, account } = writer;
    const gameId = game.record.gameId;
    // Spelled out: a loop over the two names costs an array and its iterator per submit.
    const scoreError = checkCount('score', req.score);
    if (scoreError) throw new Fail(400, scoreError);
    const streakError = checkCount('streak', req.streak);
    if (streakError) throw new Fail(400, streakError);
    if (req.nickname !== undefined) {
        const error = checkNickname(req.nickname);
        if (error) throw new Fail(400, error);
    }
    if (req.playSessionToken !== undefined && typeof req.playSessionToken !== 'string')
        throw new Fail(400, invalid('playSessionToken', 'must be a string'));
    let metadata: string | undefined;
    if (req.metadata !== undefined) {
        const parsed = parseMetadata(req.metadata);
        if ('error' in parsed) throw new Fail(400, parsed.error);
        metadata = parsed.ok;
    }
    // A count like scores (safe integers: exact in a double, as every engine parses them); kept
    // only by boards with the option.
    const tiebreak = req.tiebreak as number | undefined;
    if (tiebreak !== undefined) {
        const error = checkCount('tiebreak', tiebreak);
        if (error) throw new Fail(400, error);
    }
    const score = req.score as number;
    const streak = req.streak as number;
    const nickname = req.nickname as string | undefined;

    // Which boards: a targeted one (S2-S4), or the fan-out set (S1).
    let target: BoardRecord | undefined;
    if (req.scoreboardId !== undefined) {
        if (typeof req.scoreboardId !== 'string') throw new Fail(400, invalid('scoreboardId', 'must be a string'));
        if (isFanout(req.scoreboardId)) {
            throw new Fail(400, `'${req.scoreboardId}' is a standard board: submit without scoreboardId to update it.`);
        }
        target = game.record.boards.find((b) => b.scoreboardId === req.scoreboardId && b.targeted && b.isActive);
        if (target === undefined) throw new Fail(404, boardNotFound(req.scoreboardId));
    }

    // Pacing comes first: an exact retry gets its answer again (its token was used by the
    // original), and anything else inside the window is refused before any other check.
    const now = ctx.env.now();
    // The record as its stored arrays (player-row.ts): read and changed without objects between.
    const existing = ctx.store.players.row(playerKey(gameId, playerId));
    const retired = existing === undefined ? 0 : existing[RETIRED];
    if (retired !== 0) refuseRetired({ retired });
    const banned = existing === undefined ? 0 : existing[BANNED];
    const bannedAs = banned === 0 ? undefined : { banned };
    refuseBanned(ctx, game, playerId, bannedAs, account, account !== undefined && !writer.server);
    const paceKey = target?.scoreboardId ?? '*';
    const last = existing === undefined ? undefined : lastSubmitOf(existing, paceKey, now);
    const submitted = { score, streak, nickname };
    const step = pace(last, submitted, now);
    if (step.kind === 'retry') return { message: step.message };
    if (step.kind === 'limited') throw new Fail(400, MESSAGES.rateLimited);
    // A new player on a full canister: refused before anything is written (suspicion log included).
    if (existing === undefined) assertRoomForNewPlayer(ctx);

    // The events this submit makes are its client's (bounded, CLIENT_OVERTAKEN) or its server's.
    const cause: EventCause = writer.server === true ? 'server' : 'client';
    const token = req.playSessionToken as string | undefined;
    const session = sessionOf(ctx, token);
    // A game may let its server skip caps and time validation (its play-session token is then ignored).
    const skips = writer.server === true && game.record.serverSkipsChecks === true;
    const verdict = checkSubmit(
        skips ? UNCHECKED : game.record,
        { gameId, playerId, score, streak, playSessionToken: token },
        session,
        now,
    );
    if (!verdict.ok) {
        if (verdict.kind === 'rules') {
            const logged = logSuspicion(ctx, game, paceKey, {
                playerId,
                scoreboardId: target?.scoreboardId,
                score,
                streak,
                reason: verdict.reason,
            });
            if (!logged) throw new Fail(400, MESSAGES.rateLimited);
            recordEvent(
                ctx,
                game,
                {
                    kind: 'submit_rejected',
                    ...(target === undefined ? {} : { scoreboardId: target.scoreboardId }),
                    playerId,
                    score,
                    streak,
                    reason: verdict.reason,
                },
                cause,
            );
        }
        throw new Fail(400, verdict.message);
    }

    // Accepted: from here on nothing fails on user input.
    const created = existing === undefined;
    const player = existing ?? createPlayerRow(ctx, game, playerId, nickname, authType);
    // Every time in the record from now on is a distance back from this submit.
    rebase(player, now);
    if (!created && nickname !== undefined && nickname !== player[NICKNAME])
        rename(ctx, game, playerId, player, nickname);
    const boards = target !== undefined ? [target] : fanoutBoards(game);
    let improved = false;
    // An exact repeat within the play window is the same play: it counts once and adds once (S5).
    const counted = countsAsPlay(last, submitted, now);
    if (wantsEverySubmit(game)) {
        recordEvent(
            ctx,
            game,
            {
                kind: 'score_submitted',
                ...(target === undefined ? {} : { scoreboardId: target.scoreboardId }),
                playerId,
                score,
                streak,
                ...(metadata === undefined ? {} : { metadata: JSON.parse(metadata) as Record<string, unknown> }),
            },
            cause,
        );
    }
    for (const board of boards) {
        // (The all-time board has no periods: no call for it.)
        if (board.scoreboardId !== 'all-time') rollover(ctx, game, board, now);
        improved =
            writeEntry(ctx, game, playerId, player, board, score, streak, tiebreak, metadata, now, !counted, cause) ||
            improved;
    }
    if (counted) player[PLAY_COUNT] += 1;
    const message = submitMessage({ created, improved, nickname: player[NICKNAME] });
    // The paces that still matter (throttle.ts stillPacing), then this submit's. (A new player's
    // paces and entries are all this submit's: nothing to drop.)
    if (!created) dropPaces(player, PLAY_DEDUPE_US);
    setPace(player, paceKey, { score, streak, nickname, message });
    if (!created) dropDeadEntries(player, game.record.boards);
    player[ACTIVE_DAY] = countSubmit(ctx, game, player[ACTIVE_DAY], player[AUTH_TYPE], created, counted, boards, now);
    if (session !== undefined && game.record.timeValidation.enabled && !skips) consumeSession(ctx, session);
    ctx.store.players.setRow(playerKey(gameId, playerId), player);
    countSubmitStats(ctx, gameId, counted, now);
    return { message };
}

/**
 * Whether the game records `score_submitted`: it asked for it (everySubmitEvents), or one of its
 * webhooks that is not paused subscribes to it.
 */
function wantsEverySubmit(game: GameState): boolean {
    const record = game.record;
    if (record.everySubmitEvents === true) return true;
    const webhooks = record.webhooks;
    if (webhooks === undefined) return false;
    for (const w of webhooks) if (!w.paused && w.kinds.includes('score_submitted')) return true;
    return false;
}

/** The boards a submit without scoreboardId updates (S1): the active ones not targeted. */
function fanoutBoards(game: GameState): BoardRecord[] {
    const out: BoardRecord[] = [];
    const all = game.record.boards;
    for (let i = 0; i < all.length; i++) {
        const b = all[i]!;
        if (!b.targeted && b.isActive) out.push(b);
    }
    return out;
}

/** Rule N1 on an existing profile (players.ts renameIfFree), on the record's arrays. */
function rename(ctx: Ctx, game: GameState, playerId: string, player: PlayerRow, nickname: string): void {
    const named = {
        slot: player[SLOT],
        nickname: player[NICKNAME],
        defaultName: player[DEFAULT_NAME] === 1,
        authType: player[AUTH_TYPE],
    };
    if (renameIfFree(ctx, game, playerId, named, nickname)) renameRow(player, nickname);
}

/**
 * Applies a submit to one board of the player by the board's order and operator (bests.ts);
 * returns whether a best improved (`best` boards only). `tiebreak`: the submit's, kept only on a
 * board with the option (bests.ts). `metadata`: the submit's (JSON text), kept by keepsMetadata's
 * rule. `repeat`: the same play again. `cause`: whose events these are. `judged` false: not judged
 * by the board's review (an approved held score).
 * (Arguments, not an object: this runs for every board of every submit.)
 */
function writeEntry(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    player: PlayerRow,
    board: BoardRecord,
    score: number,
    streak: number,
    tiebreak: number | undefined,
    metadata: string | undefined,
    now: number,
    repeat: boolean,
    cause: EventCause,
    judged = true,
): boolean {
    const slot = player[SLOT];
    if (board.scoreboardId === 'all-time') {
        const previous = bestOf(player);
        const { best, changed, improved } = applySubmit(previous, score, streak, now, board, repeat, tiebreak);
        if (!changed) return false;
        const first = judged && board.review !== undefined ? judge(game.global, board, previous, best) : undefined;
        // Held (review 'hold'): off the board and the player's record; the answer is the same.
        if (first !== undefined && board.review!.mode === 'hold') {
            holdScore(ctx, game, board, playerId, { score, streak, tiebreak, metadata }, first, cause);
            return improved;
        }
        setBest(player, best, now);
        putEntry(game.global, slot, best, now);
        boardEvents(ctx, game, board, game.global, slot, playerId, previous, best, cause);
        if (first !== undefined) flagEntry(ctx, game, board, playerId, best, first, cause);
        // (Without metadata on either side there is nothing to decide: no cost for players without.)
        if (
            (metadata !== undefined || bestMetadataOf(player) !== undefined) &&
            keepsMetadata(optionsOf(board).operator, rankedChanged(board, previous, best))
        ) {
            setBestMetadata(player, metadata);
            setEntryMetadata(game.global, slot, metadata);
        }
        return improved;
    }
    const table = game.boards.get(board.scoreboardId);
    const at = entryIndex(player, board.scoreboardId);
    const current = at < 0 ? undefined : currentEntry(player, at, board);
    const { best, changed, improved } = applySubmit(current, score, streak, now, board, repeat, tiebreak);
    if (!changed) return false;
    const first =
        judged && table !== undefined && board.review !== undefined ? judge(table, board, current, best) : undefined;
    if (first !== undefined && board.review!.mode === 'hold') {
        holdScore(ctx, game, board, playerId, { score, streak, tiebreak, metadata }, first, cause);
        return current !== undefined && improved;
    }
    const kept = current === undefined ? undefined : entryMetadata(player[BOARDS][at]);
    const note =
        metadata === kept || keepsMetadata(optionsOf(board).operator, rankedChanged(board, current, best))
            ? metadata
            : kept;
    setEntry(player, at, board.scoreboardId, best, board.periodStart, now, board.serial, note);
    if (table !== undefined) {
        putEntry(table, slot, best, now);
        if (note !== undefined || table.metadata !== undefined) setEntryMetadata(table, slot, note);
        boardEvents(ctx, game, board, table, slot, playerId, current, best, cause);
        if (first !== undefined) flagEntry(ctx, game, board, playerId, best, first, cause);
        // On a league board a player not yet in a division this period joins one (others: one check).
        if (board.league !== undefined) joinDivision(ctx, game, board, slot);
    }
    return current !== undefined && improved;
}

/**
 * Writes an approved held score (service/review.ts) to its board and its player's record as if
 * submitted at `at`, by the board's keeping rule against the player's current entry, with the
 * events a submit makes; saves the player.
 */
export function writeHeld(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    player: PlayerRecord,
    held: { score: number; streak: number; tiebreak?: number; metadata?: string; at: number },
): void {
    const row = rowOfPlayer(player);
    writeEntry(
        ctx,
        game,
        playerId,
        row,
        board,
        held.score,
        held.streak,
        held.tiebreak,
        held.metadata,
        held.at,
        false,
        'server',
        false,
    );
    ctx.store.players.setRow(playerKey(game.record.gameId, playerId), row);
}

/**
 * On a board with review: the board's first when the entry about to be written is implausible
 * against it (a new ranked value only), else undefined. Boards without review: one comparison.
 */
function judge(table: BoardTable, board: BoardRecord, before: Best | undefined, after: Best): number | undefined {
    const review = board.review;
    if (review === undefined || !rankedChanged(board, before, after)) return undefined;
    return implausibleAgainst(table, board, review.factor, board.sortBy === 'streak' ? after.streak : after.score);
}

/**
 * Whether a written entry's ranked value (score, or streak on a streak board) is a new best: a
 * first entry, or a changed value (under `best` a value changes only when it improves; a score's
 * tiebreak is part of it).
 */
function rankedChanged(board: BoardRecord, before: Best | undefined, after: Best): boolean {
    if (before === undefined) return true;
    return board.sortBy === 'streak'
        ? after.streak !== before.streak
        : after.score !== before.score || after.tiebreak !== before.tiebreak;
}

/**
 * Records a rejected submit in the game's suspicion log (a ring of SUSPICION_KEEP entries).
 * Rejections are paced like submits: one per player and board key per 2 s (false: not logged,
 * the caller answers with the rate-limit message). A player's repeated rejections on one board
 * key are one entry with a count, moved to the front, so one player holds at most one entry
 * per board key and cannot push the others out.
 */
function logSuspicion(
    ctx: Ctx,
    game: GameState,
    paceKey: string,
    rejected: Omit<SuspicionRecord, 'at' | 'firstAt' | 'count'>,
): boolean {
    const now = ctx.env.now();
    const gameId = game.record.gameId;
    const suspectKey = `${gameId}/${rejected.playerId}/${paceKey}`;
    const known = ctx.store.suspects.get(suspectKey);
    if (known !== undefined && now - known.at < RATE_WINDOW_US) return false;
    let count = 1;
    let firstAt = now;
    if (known !== undefined) {
        const previous = ctx.store.suspicion.get(slotKey(gameId, known.seq));
        // The slot may hold someone else's entry by now (a deleted game's id used again).
        if (previous !== undefined && previous.playerId === rejected.playerId) {
            count = previous.count + 1;
            firstAt = previous.firstAt;
            ctx.store.suspicion.delete(slotKey(gameId, known.seq));
        }
    }
    const seq = game.record.suspicionSeq;
    // The slot's current occupant leaves the log: its player's pointer goes with it.
    const evicted = ctx.store.suspicion.get(slotKey(gameId, seq));
    if (evicted !== undefined) {
        const evictedKey = `${gameId}/${evicted.playerId}/${evicted.scoreboardId ?? '*'}`;
        if (ctx.store.suspects.get(evictedKey)?.seq === seq - SUSPICION_KEEP) ctx.store.suspects.delete(evictedKey);
    }
    ctx.store.suspicion.set(slotKey(gameId, seq), { ...rejected, at: now, firstAt, count });
    ctx.store.suspects.set(suspectKey, { seq, at: now });
    game.record.suspicionSeq = seq + 1;
    saveGame(ctx, game);
    return true;
}

const slotKey = (gameId: string, seq: number): string => `${gameId}/${seq % SUSPICION_KEEP}`;

/** The newest suspicion-log entries first. */
export function suspicionLog(ctx: Ctx, req: Untrusted<RequestOf<'admin_suspicion_log'>>): SuspicionEntry[] {
    const game = requireGame(ctx, req.gameId);
    const limit =
        typeof req.limit === 'number' && Number.isFinite(req.limit)
            ? Math.max(1, Math.min(SUSPICION_KEEP, Math.floor(req.limit)))
            : 100;
    const playerId = req.playerId === undefined || req.playerId === '' ? undefined : requirePlayerRef(req.playerId);
    const out: SuspicionEntry[] = [];
    for (
        let seq = game.record.suspicionSeq - 1;
        seq >= 0 && out.length < limit && seq >= game.record.suspicionSeq - SUSPICION_KEEP;
        seq--
    ) {
        const entry = ctx.store.suspicion.get(slotKey(game.record.gameId, seq));
        if (entry !== undefined && (playerId === undefined || entry.playerId === playerId))
            out.push({ ...entry, at: ns(entry.at), firstAt: ns(entry.firstAt ?? entry.at), count: entry.count ?? 1 });
    }
    return out;
}
