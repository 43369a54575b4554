// A player record as compact JSON for stable memory: positional arrays instead of named
// fields, times as distances back from `lastPlayed` (small numbers; most are 0), and the pace
// messages the service writes as codes. A player costs ~200 bytes instead of ~700 (every game's
// every player is one such record, so this is most of the canister's memory per player), and
// the shorter text is cheaper to parse and to write through the B-tree. Records written before
// (JSON objects) are still read; they take this form when next written.
import type { Best } from '../domain/bests';
import { submitMessage } from '../domain/throttle';
import type { LastSubmit } from '../domain/throttle';
import { dict, revivePlayer, type EntryRecord, type PlayerRecord } from './records';

/** The first element of a compact record: its layout. */
const LAYOUT = 1;

type CompactBest = [score: number, scoreAgo: number, streak: number, streakAgo: number];
type CompactEntry = [
    board: string,
    score: number,
    scoreAgo: number,
    streak: number,
    streakAgo: number,
    periodAgo: number,
    submittedAgo: number,
    /** null when absent and metadata follows. */
    serial?: number | null,
    metadata?: string,
];
/** message: a code for the service's own messages (see MESSAGE_CODES), else the text. */
type CompactPace = [
    key: string,
    ago: number,
    score: number,
    streak: number,
    message: number | string,
    nickname?: string,
];
type Compact = [
    layout: typeof LAYOUT,
    slot: number,
    nickname: string,
    defaultName: 0 | 1,
    authType: string,
    lastPlayed: number,
    createdAgo: number,
    playCount: number,
    best: CompactBest | 0,
    bestAgo: number | null,
    boards: CompactEntry[],
    pace: CompactPace[],
    activeDay: number | null,
    banned: PlayerRecord['banned'] | 0,
    retired: PlayerRecord['retired'] | 0,
    /** Only when the all-time entry has metadata: records without any stay as short as they can. */
    bestMetadata?: string,
];

/** The pace messages kept as codes: 0 and 1 as they read, 2 the welcome with the player's current name. */
function messageCode(message: string, nickname: string): number | string {
    if (message === submitMessage({ created: false, improved: false })) return 0;
    if (message === submitMessage({ created: false, improved: true })) return 1;
    if (message === submitMessage({ created: true, improved: false, nickname })) return 2;
    return message;
}

function messageOf(code: number | string, nickname: string): string {
    if (typeof code === 'string') return code;
    return submitMessage({ created: code === 2, improved: code === 1, nickname });
}

export function encodePlayer(p: PlayerRecord): string {
    // Every field is named here: a field added to PlayerRecord fails to compile until it is kept.
    const {
        slot,
        nickname,
        defaultName,
        authType,
        created,
        best,
        bestAt,
        playCount,
        lastPlayed,
        boards,
        pace,
        activeDay,
        banned,
        retired,
        bestMetadata,
        ...rest
    } = p;
    const unknown: Record<string, never> = rest;
    void unknown;
    const ago = (t: number): number => lastPlayed - t;
    const entries: CompactEntry[] = [];
    for (const id of Object.keys(boards)) {
        const e = boards[id]!;
        const row: CompactEntry = [
            id,
            e.score,
            ago(e.scoreAt),
            e.streak,
            ago(e.streakAt),
            ago(e.period),
            ago(e.submittedAt),
        ];
        if (e.serial !== undefined || e.metadata !== undefined) row.push(e.serial ?? null);
        if (e.metadata !== undefined) row.push(e.metadata);
        entries.push(row);
    }
    const paces: CompactPace[] = [];
    for (const key of Object.keys(pace)) {
        const l = pace[key]!;
        const row: CompactPace = [key, ago(l.at), l.score, l.streak, messageCode(l.message, nickname)];
        if (l.nickname !== undefined) row.push(l.nickname);
        paces.push(row);
    }
    const compact: Compact = [
        LAYOUT,
        slot,
        nickname,
        defaultName ? 1 : 0,
        authType,
        lastPlayed,
        ago(created),
        playCount,
        best === undefined ? 0 : [best.score, ago(best.scoreAt), best.streak, ago(best.streakAt)],
        bestAt === undefined ? null : ago(bestAt),
        entries,
        paces,
        activeDay ?? null,
        banned ?? 0,
        retired ?? 0,
    ];
    if (bestMetadata !== undefined) compact.push(bestMetadata);
    return JSON.stringify(compact);
}

export function decodePlayer(text: string): PlayerRecord {
    const parsed = JSON.parse(text) as Compact | PlayerRecord;
    if (!Array.isArray(parsed)) return revivePlayer(parsed);
    const [, slot, nickname, defaultName, authType, lastPlayed, createdAgo, playCount, best, bestAgo] = parsed;
    const [entries, paces, activeDay, banned, retired, bestMetadata] = parsed.slice(10) as [
        CompactEntry[],
        CompactPace[],
        number | null,
        PlayerRecord['banned'] | 0,
        PlayerRecord['retired'] | 0,
        string | undefined,
    ];
    const at = (ago: number): number => lastPlayed - ago;
    const boards = dict<EntryRecord>();
    for (const [id, score, scoreAgo, streak, streakAgo, periodAgo, submittedAgo, serial, metadata] of entries) {
        const entry: EntryRecord = {
            score,
            scoreAt: at(scoreAgo),
            streak,
            streakAt: at(streakAgo),
            period: at(periodAgo),
            submittedAt: at(submittedAgo),
        };
        if (serial !== undefined && serial !== null) entry.serial = serial;
        if (metadata !== undefined) entry.metadata = metadata;
        boards[id] = entry;
    }
    const pace = dict<LastSubmit>();
    for (const [key, ago, score, streak, message, submittedName] of paces) {
        const last: LastSubmit = { at: at(ago), score, streak, message: messageOf(message, nickname) };
        if (submittedName !== undefined) last.nickname = submittedName;
        pace[key] = last;
    }
    const player: PlayerRecord = {
        slot,
        nickname,
        defaultName: defaultName === 1,
        authType,
        created: at(createdAgo),
        playCount,
        lastPlayed,
        boards,
        pace,
    };
    if (best !== 0)
        player.best = { score: best[0], scoreAt: at(best[1]), streak: best[2], streakAt: at(best[3]) } as Best;
    if (bestAgo !== null) player.bestAt = at(bestAgo);
    if (activeDay !== null) player.activeDay = activeDay;
    if (banned !== 0) player.banned = banned;
    if (retired !== 0) player.retired = retired;
    if (bestMetadata !== undefined) player.bestMetadata = bestMetadata;
    return player;
}
