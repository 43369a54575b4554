// A player's record as its stored arrays (the compact layout of player-codec.ts, parsed), and
// what the submit path reads and changes in them: a submit works on the parsed arrays instead
// of turning them into objects and back (~190 K instructions a submit in the canister). Times
// stay distances back from the row's lastPlayed, so a value read or written here is converted
// against it; `rebase` moves lastPlayed and every distance at once. The tuple types name each
// position: a wrong index or a value of the wrong type does not compile.
import type { Best } from '../domain/bests';
import { PLAY_DEDUPE_US, submitMessage, type LastSubmit } from '../domain/throttle';
import type { BoardRecord, PlayerRecord } from './records';

/** The first element of a compact record: its layout. */
export const LAYOUT = 1;

/** tiebreak: only when the best has one (a board with the option): records without stay as they were. */
export type RowBest = [score: number, scoreAgo: number, streak: number, streakAgo: number, tiebreak?: number];
export type RowEntry = [
    board: string,
    score: number,
    scoreAgo: number,
    streak: number,
    streakAgo: number,
    periodAgo: number,
    submittedAgo: number,
    /** null when absent and metadata follows. */
    serial?: number | null,
    /** null when absent and a tiebreak follows. */
    metadata?: string | null,
    /** Only entries that have one (boards with the option). */
    tiebreak?: number,
];
/** message: a code for the service's own messages (see messageCode), else the text. */
export type RowPace = [
    key: string,
    ago: number,
    score: number,
    streak: number,
    message: number | string,
    nickname?: string,
];
export type PlayerRow = [
    layout: typeof LAYOUT,
    slot: number,
    nickname: string,
    defaultName: 0 | 1,
    authType: string,
    lastPlayed: number,
    createdAgo: number,
    playCount: number,
    best: RowBest | 0,
    bestAgo: number | null,
    boards: RowEntry[],
    pace: RowPace[],
    activeDay: number | null,
    banned: PlayerRecord['banned'] | 0,
    retired: PlayerRecord['retired'] | 0,
    /** Only when the all-time entry has metadata: records without any stay as short as they can. */
    bestMetadata?: string,
];

// Positions in a PlayerRow.
export const SLOT = 1;
export const NICKNAME = 2;
export const DEFAULT_NAME = 3;
export const AUTH_TYPE = 4;
export const LAST_PLAYED = 5;
export const CREATED_AGO = 6;
export const PLAY_COUNT = 7;
export const BEST = 8;
export const BEST_AGO = 9;
export const BOARDS = 10;
export const PACE = 11;
export const ACTIVE_DAY = 12;
export const BANNED = 13;
export const RETIRED = 14;
export const BEST_METADATA = 15;

// Positions in a RowEntry (a RowBest shares the first four values, one place earlier).
const E_SCORE = 1;
const E_SCORE_AGO = 2;
const E_STREAK = 3;
const E_STREAK_AGO = 4;
const E_PERIOD_AGO = 5;
const E_SUBMITTED_AGO = 6;
const E_SERIAL = 7;
const E_METADATA = 8;
const E_TIEBREAK = 9;

// Positions in a RowPace.
const P_AGO = 1;
const P_SCORE = 2;
const P_STREAK = 3;
const P_MESSAGE = 4;
const P_NICKNAME = 5;

const SUBMITTED = submitMessage({ created: false, improved: false });
const IMPROVED = submitMessage({ created: false, improved: true });

/** The pace messages kept as codes: 0 and 1 as they read, 2 the welcome with the player's current name. */
export function messageCode(message: string, nickname: string): number | string {
    if (message === SUBMITTED) return 0;
    if (message === IMPROVED) return 1;
    if (message === submitMessage({ created: true, improved: false, nickname })) return 2;
    return message;
}

export function messageOf(code: number | string, nickname: string): string {
    if (typeof code === 'string') return code;
    if (code === 2) return submitMessage({ created: true, improved: false, nickname });
    return code === 1 ? IMPROVED : SUBMITTED;
}

/** Moves the row's lastPlayed to `now`, every time in it kept (each distance grows by as much). */
export function rebase(row: PlayerRow, now: number): void {
    const shift = now - row[LAST_PLAYED];
    if (shift === 0) return;
    row[LAST_PLAYED] = now;
    row[CREATED_AGO] += shift;
    const best = row[BEST];
    if (best !== 0) {
        best[1] += shift;
        best[3] += shift;
    }
    const bestAgo = row[BEST_AGO];
    if (bestAgo !== null) row[BEST_AGO] = bestAgo + shift;
    const entries = row[BOARDS];
    for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        e[E_SCORE_AGO] += shift;
        e[E_STREAK_AGO] += shift;
        e[E_PERIOD_AGO] += shift;
        e[E_SUBMITTED_AGO] += shift;
    }
    const paces = row[PACE];
    for (let i = 0; i < paces.length; i++) paces[i][P_AGO] += shift;
}

/** The all-time best, as the bests' rules take it (undefined: none yet). */
export function bestOf(row: PlayerRow): Best | undefined {
    const b = row[BEST];
    if (b === 0) return undefined;
    const last = row[LAST_PLAYED];
    const best: Best = { score: b[0], scoreAt: last - b[1], streak: b[2], streakAt: last - b[3] };
    if (b.length > 4) best.tiebreak = b[4];
    return best;
}

/** Writes the all-time best, reached at `at`. */
export function setBest(row: PlayerRow, best: Best, at: number): void {
    const last = row[LAST_PLAYED];
    const b: RowBest = [best.score, last - best.scoreAt, best.streak, last - best.streakAt];
    if (best.tiebreak !== undefined) b.push(best.tiebreak);
    row[BEST] = b;
    row[BEST_AGO] = last - at;
}

/** The all-time entry's metadata (JSON text), if any. */
export const bestMetadataOf = (row: PlayerRow): string | undefined =>
    row.length > BEST_METADATA ? row[BEST_METADATA] : undefined;

/** Sets or (undefined) removes the all-time entry's metadata: the last, optional, element. */
export function setBestMetadata(row: PlayerRow, metadata: string | undefined): void {
    if (metadata !== undefined) row[BEST_METADATA] = metadata;
    else if (row.length > BEST_METADATA) row.length = BEST_METADATA;
}

/** Where the entry of board `boardId` is in the row's entries (-1: none). */
export function entryIndex(row: PlayerRow, boardId: string): number {
    const entries = row[BOARDS];
    for (let i = 0; i < entries.length; i++) if (entries[i][0] === boardId) return i;
    return -1;
}

/** Forgets entries of boards that were deleted (or deleted and created again since: another serial). */
export function dropDeadEntries(row: PlayerRow, boards: readonly BoardRecord[]): void {
    const entries = row[BOARDS];
    let kept = 0;
    for (let e = 0; e < entries.length; e++) {
        const entry = entries[e];
        const id = entry[0];
        for (let i = 0; i < boards.length; i++) {
            const board = boards[i];
            if (board.scoreboardId === id) {
                if ((board.serial ?? 0) === (entry[E_SERIAL] ?? 0)) entries[kept++] = entry;
                break;
            }
        }
    }
    entries.length = kept;
}

/**
 * The entry at `at` as the bests' rules take it, when it belongs to the board's current period
 * and incarnation (records.ts isCurrentEntry); undefined for an entry of a past one.
 */
export function currentEntry(row: PlayerRow, at: number, board: BoardRecord): Best | undefined {
    const e = row[BOARDS][at];
    const last = row[LAST_PLAYED];
    if (last - e[E_PERIOD_AGO] !== board.periodStart || (e[E_SERIAL] ?? 0) !== (board.serial ?? 0)) return undefined;
    const best: Best = {
        score: e[E_SCORE],
        scoreAt: last - e[E_SCORE_AGO],
        streak: e[E_STREAK],
        streakAt: last - e[E_STREAK_AGO],
    };
    if (e.length > E_TIEBREAK) best.tiebreak = e[E_TIEBREAK];
    return best;
}

/** An entry's metadata (JSON text), if any. */
export function entryMetadata(e: RowEntry): string | undefined {
    const m = e[E_METADATA];
    return m === null ? undefined : m;
}

/**
 * Writes board `boardId`'s entry at `at` (its index; -1 adds it last), in the form the codec
 * writes: serial, metadata and tiebreak only as far as one of them is present.
 */
export function setEntry(
    row: PlayerRow,
    at: number,
    boardId: string,
    best: Best,
    period: number,
    submittedAt: number,
    serial: number | undefined,
    metadata: string | undefined,
): void {
    const last = row[LAST_PLAYED];
    const tiebreak = best.tiebreak;
    // An entry without extras is written over in place (~2 K less than a new array).
    if (at >= 0 && serial === undefined && metadata === undefined && tiebreak === undefined) {
        const old = row[BOARDS][at];
        old[E_SCORE] = best.score;
        old[E_SCORE_AGO] = last - best.scoreAt;
        old[E_STREAK] = best.streak;
        old[E_STREAK_AGO] = last - best.streakAt;
        old[E_PERIOD_AGO] = last - period;
        old[E_SUBMITTED_AGO] = last - submittedAt;
        if (old.length > E_SERIAL) old.length = E_SERIAL;
        return;
    }
    const e: RowEntry = [
        boardId,
        best.score,
        last - best.scoreAt,
        best.streak,
        last - best.streakAt,
        last - period,
        last - submittedAt,
    ];
    if (serial !== undefined || metadata !== undefined || tiebreak !== undefined) e.push(serial ?? null);
    if (metadata !== undefined || tiebreak !== undefined) e.push(metadata ?? null);
    if (tiebreak !== undefined) e.push(tiebreak);
    if (at < 0) row[BOARDS].push(e);
    else row[BOARDS][at] = e;
}

/** Where the pace of board key `key` is in the row (-1: none). */
export function paceIndex(row: PlayerRow, key: string): number {
    const paces = row[PACE];
    for (let i = 0; i < paces.length; i++) if (paces[i][0] === key) return i;
    return -1;
}

/**
 * The last submit on board key `key` as the throttle's rules take it, while it still decides
 * anything at `now`: past PLAY_DEDUPE_US (and so past the rate window, which it covers:
 * player-row.test.ts) pace and countsAsPlay answer for it as for none (throttle.ts), so it is
 * not made.
 */
export function lastSubmitOf(row: PlayerRow, key: string, now: number): LastSubmit | undefined {
    const at = paceIndex(row, key);
    if (at < 0) return undefined;
    const l = row[PACE][at];
    const time = row[LAST_PLAYED] - l[P_AGO];
    if (now - time >= PLAY_DEDUPE_US) return undefined;
    const last: LastSubmit = {
        at: time,
        score: l[P_SCORE],
        streak: l[P_STREAK],
        message: messageOf(l[P_MESSAGE], row[NICKNAME]),
    };
    if (l.length > P_NICKNAME) last.nickname = l[P_NICKNAME];
    return last;
}

/** Drops the paces older than `keepUs` before the row's lastPlayed (in order, as the codec keeps them). */
export function dropPaces(row: PlayerRow, keepUs: number): void {
    const paces = row[PACE];
    let kept = 0;
    for (let i = 0; i < paces.length; i++) if (paces[i][P_AGO] < keepUs) paces[kept++] = paces[i];
    paces.length = kept;
}

/** Writes the pace of board key `key` at the row's lastPlayed (in place, or last when new). */
export function setPace(row: PlayerRow, key: string, last: Omit<LastSubmit, 'at'>): void {
    const l: RowPace = [key, 0, last.score, last.streak, messageCode(last.message, row[NICKNAME])];
    if (last.nickname !== undefined) l.push(last.nickname);
    const at = paceIndex(row, key);
    if (at < 0) row[PACE].push(l);
    else row[PACE][at] = l;
}

/**
 * Renames the row's player (a name they chose). A welcome kept as a code reads with the current
 * name, so each message is coded again for the new one, as the codec would write it.
 */
export function renameRow(row: PlayerRow, nickname: string): void {
    const paces = row[PACE];
    const old = row[NICKNAME];
    for (let i = 0; i < paces.length; i++)
        paces[i][P_MESSAGE] = messageCode(messageOf(paces[i][P_MESSAGE], old), nickname);
    row[NICKNAME] = nickname;
    row[DEFAULT_NAME] = 0;
}
