// A player record as compact JSON for stable memory: positional arrays instead of named
// fields, times as distances back from `lastPlayed` (small numbers; most are 0), and the pace
// messages the service writes as codes. A player costs ~200 bytes instead of ~700 (every game's
// every player is one such record, so this is most of the canister's memory per player), and
// the shorter text is cheaper to parse and to write through the B-tree. Records written before
// (JSON objects) are still read; they take this form when next written.
import {
    LAYOUT,
    messageCode,
    messageOf,
    type PlayerRow,
    type RowBest,
    type RowEntry,
    type RowPace,
} from './player-row';
import type { Best } from '../domain/bests';
import type { LastSubmit } from '../domain/throttle';
import { dict, revivePlayer, type EntryRecord, type PlayerRecord } from './records';

/** The fields encodePlayer writes: a field added to PlayerRecord fails to compile until it is listed here and kept. */
type Kept =
    | 'slot'
    | 'nickname'
    | 'defaultName'
    | 'authType'
    | 'created'
    | 'best'
    | 'bestAt'
    | 'playCount'
    | 'lastPlayed'
    | 'boards'
    | 'pace'
    | 'activeDay'
    | 'banned'
    | 'retired'
    | 'bestMetadata';
const EVERY_FIELD_KEPT: [Exclude<keyof PlayerRecord, Kept>] extends [never] ? true : never = true;
void EVERY_FIELD_KEPT;

// Both directions index arrays and write fields one by one, in loops over indexes: this runs
// for every submit and every rank read, and in the canister's interpreter array destructuring,
// for...of, object rest and closures each cost several times a plain indexed read.

/** A record's compact arrays (player-row.ts), as encodePlayer writes them. */
export function rowOfPlayer(p: PlayerRecord): PlayerRow {
    const lastPlayed = p.lastPlayed;
    const nickname = p.nickname;
    const boards = p.boards;
    const boardIds = Object.keys(boards);
    const entries: RowEntry[] = [];
    for (let i = 0; i < boardIds.length; i++) {
        const id = boardIds[i];
        const e = boards[id]!;
        const row: RowEntry = [
            id,
            e.score,
            lastPlayed - e.scoreAt,
            e.streak,
            lastPlayed - e.streakAt,
            lastPlayed - e.period,
            lastPlayed - e.submittedAt,
        ];
        const tiebreak = e.tiebreak;
        if (e.serial !== undefined || e.metadata !== undefined || tiebreak !== undefined) row.push(e.serial ?? null);
        if (e.metadata !== undefined || tiebreak !== undefined) row.push(e.metadata ?? null);
        if (tiebreak !== undefined) row.push(tiebreak);
        entries.push(row);
    }
    const pace = p.pace;
    const paceKeys = Object.keys(pace);
    const paces: RowPace[] = [];
    for (let i = 0; i < paceKeys.length; i++) {
        const key = paceKeys[i];
        const l = pace[key]!;
        const row: RowPace = [key, lastPlayed - l.at, l.score, l.streak, messageCode(l.message, nickname)];
        if (l.nickname !== undefined) row.push(l.nickname);
        paces.push(row);
    }
    const best = p.best;
    let compactBest: RowBest | 0 = 0;
    if (best !== undefined) {
        compactBest = [best.score, lastPlayed - best.scoreAt, best.streak, lastPlayed - best.streakAt];
        if (best.tiebreak !== undefined) compactBest.push(best.tiebreak);
    }
    const compact: PlayerRow = [
        LAYOUT,
        p.slot,
        nickname,
        p.defaultName ? 1 : 0,
        p.authType,
        lastPlayed,
        lastPlayed - p.created,
        p.playCount,
        compactBest,
        p.bestAt === undefined ? null : lastPlayed - p.bestAt,
        entries,
        paces,
        p.activeDay ?? null,
        p.banned ?? 0,
        p.retired ?? 0,
    ];
    if (p.bestMetadata !== undefined) compact.push(p.bestMetadata);
    return compact;
}

export const encodePlayer = (p: PlayerRecord): string => JSON.stringify(rowOfPlayer(p));

/** A stored record's arrays; a record of the older object form is brought to them. */
export function parseRow(text: string): PlayerRow {
    const parsed = JSON.parse(text) as PlayerRow | PlayerRecord;
    return Array.isArray(parsed) ? parsed : rowOfPlayer(revivePlayer(parsed));
}

/**
 * The slot of a stored record (its text, as decodePlayer takes it), without decoding the rest:
 * a rank or an around-me read needs nothing else. Compact records start `[1,<slot>,`, behind
 * the stored text's mark when it has one; records of another form are decoded in full.
 */
export function slotOfPlayer(text: string): number {
    const at = text.charCodeAt(0) === 0x20 ? 1 : 0;
    if (text.startsWith('[1,', at)) {
        const slot = Number(text.slice(at + 3, text.indexOf(',', at + 3)));
        if (Number.isSafeInteger(slot) && slot >= 0) return slot;
    }
    return decodePlayer(text).slot;
}

/**
 * The slot of a stored record read from its Candid bytes: marked compact text starts
 * ` [1,<slot>,`, and the digits are read where they lie (a text made of the whole record costs
 * ~300 instructions a byte). Undefined for any other form, which the caller reads as text.
 */
export function storedSlot(bytes: Uint8Array): number | undefined {
    // Every value of the players' map is one Candid text (written by codecs.ts: `DIDL 00 01 71`,
    // its length, its bytes), so the header is not read again (~7 K a read): only the length's
    // size, one or two LEB128 bytes (a longer record is read as text), then ` [1,`: the mark,
    // then the compact layout's first element.
    const size = bytes.length;
    if (size < 13) return undefined;
    let at = 8;
    if (bytes[7] >= 0x80) {
        if (bytes[8] >= 0x80) return undefined;
        at = 9;
    }
    if (bytes[at] !== 0x20 || bytes[at + 1] !== 0x5b || bytes[at + 2] !== 0x31 || bytes[at + 3] !== 0x2c)
        return undefined;
    const first = at + 4;
    let slot = 0;
    for (at = first; at < size; at++) {
        const c = bytes[at];
        // At most 16 digits, exact while safe (a larger value rounds to at least 2^53).
        if (c === 0x2c) return at > first && at - first <= 16 && slot <= Number.MAX_SAFE_INTEGER ? slot : undefined;
        if (c < 0x30 || c > 0x39) return undefined;
        slot = slot * 10 + (c - 0x30);
    }
    return undefined;
}

export function decodePlayer(text: string): PlayerRecord {
    const parsed = JSON.parse(text) as PlayerRow | PlayerRecord;
    return Array.isArray(parsed) ? playerOfRow(parsed) : revivePlayer(parsed);
}

/** The record of a row's arrays (player-row.ts). */
export function playerOfRow(c: PlayerRow): PlayerRecord {
    const nickname = c[2];
    const lastPlayed = c[5];
    const entries = c[10];
    const boards = dict<EntryRecord>();
    for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        const entry: EntryRecord = {
            score: e[1],
            scoreAt: lastPlayed - e[2],
            streak: e[3],
            streakAt: lastPlayed - e[4],
            period: lastPlayed - e[5],
            submittedAt: lastPlayed - e[6],
        };
        const serial = e[7];
        if (serial !== undefined && serial !== null) entry.serial = serial;
        if (e.length > 8) {
            const metadata = e[8];
            if (metadata !== null && metadata !== undefined) entry.metadata = metadata;
            if (e.length > 9) entry.tiebreak = e[9];
        }
        boards[e[0]] = entry;
    }
    const paces = c[11];
    const pace = dict<LastSubmit>();
    for (let i = 0; i < paces.length; i++) {
        const l = paces[i];
        const last: LastSubmit = {
            at: lastPlayed - l[1],
            score: l[2],
            streak: l[3],
            message: messageOf(l[4], nickname),
        };
        if (l.length > 5) last.nickname = l[5];
        pace[l[0]] = last;
    }
    const player: PlayerRecord = {
        slot: c[1],
        nickname,
        defaultName: c[3] === 1,
        authType: c[4],
        created: lastPlayed - c[6],
        playCount: c[7],
        lastPlayed,
        boards,
        pace,
    };
    const best = c[8];
    if (best !== 0) {
        player.best = {
            score: best[0],
            scoreAt: lastPlayed - best[1],
            streak: best[2],
            streakAt: lastPlayed - best[3],
        } as Best;
        if (best.length > 4) player.best.tiebreak = best[4];
    }
    if (c[9] !== null) player.bestAt = lastPlayed - c[9];
    if (c[12] !== null) player.activeDay = c[12];
    if (c[13] !== 0) player.banned = c[13];
    if (c[14] !== 0) player.retired = c[14];
    if (c.length > 15) player.bestMetadata = c[15];
    return player;
}
