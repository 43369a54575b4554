// A league board's state: players' tiers (by slot), the current period's divisions and the one
// being closed, in the heap as the service uses them and in stable maps 46-48 as they are kept;
// loaded from those maps at start and after an upgrade (service/leagues.ts has the rules).
import type { League } from '../../contract/board-options';
import type { Ctx, GameState } from './context';
import type { BoardRecord } from './records';
import type { BoardTable } from './tables';

/** Slots per tier chunk (map 46): a chunk is a string of one digit per slot. */
export const TIER_CHUNK = 256;

/** A division of a period not yet closed (map 47). */
export interface DivisionRecord {
    tier: number;
    /** Slots, in the order they joined. */
    members: number[];
    /** When it last became full (the league's fill counter): the most recently filled one splits. */
    filled?: number;
}

/** A league's index (map 47 under the league's key): what its records are, to load and remove them. */
export interface LeagueIndexRecord {
    /** The current period (µs) and how many divisions it has. */
    period: number;
    divisions: number;
    /** The last period, while some of its divisions are not closed yet. */
    pending?: { period: number; end: number; divisions: number };
    /** Archived periods, oldest first: [periodStart, divisions]. */
    archives: Array<[number, number]>;
    /** Tier chunks written (0..chunks-1). */
    chunks: number;
    /** The fill counter (DivisionRecord.filled). */
    fills: number;
}

/** A closed division's final table (map 48). */
export interface DivisionArchiveRecord {
    periodStart: number;
    periodEnd: number;
    tier: number;
    division: number;
    entries: Array<{
        slot: number;
        rank: number;
        nickname: string;
        score: number;
        streak: number;
        outcome: Outcome;
        tierAfter: number;
    }>;
}

export type Outcome = 'promoted' | 'stayed' | 'demoted';

/** A league whose records are being removed, a batch per tick (its index says which keys). */
export interface LeaguePurge {
    key: string;
    index: LeagueIndexRecord;
    /** How many of its keys are removed so far (in leagueRecordKeys' order). */
    done: number;
    /** Only an old period's archives: the league (and its index) stays. */
    archivesOnly?: true;
}

/** One period's divisions in the heap (index d - 1 holds division d; a closed one is undefined). */
export interface LeaguePeriod {
    period: number;
    divisions: Array<DivisionRecord | undefined>;
    /**
     * Slot -> its division this period (0: none). A typed array: filling it at load costs a
     * fraction of a Map's (~70 K instructions a Map.set in the canister's interpreter).
     */
    bySlot: Int32Array;
}

/** A slot's division in a period (undefined: none). */
export function divisionOf(p: LeaguePeriod, slot: number): number | undefined {
    const d = slot < p.bySlot.length ? p.bySlot[slot] : 0;
    return d === 0 ? undefined : d;
}

export function placeInDivision(p: LeaguePeriod, slot: number, division: number): void {
    if (slot >= p.bySlot.length) {
        const grown = new Int32Array(Math.max(slot + 1, Math.ceil(p.bySlot.length * 1.5), TIER_CHUNK));
        grown.set(p.bySlot);
        p.bySlot = grown;
    }
    p.bySlot[slot] = division;
}

/** Where a tier's next player goes: its divisions not full (at most two at a time) and the last filled. */
export interface TierDivisions {
    open: number[];
    lastFilled: number;
    count: number;
}

export interface LeagueState {
    key: string;
    /** Slot -> tier (0 where never written). */
    tiers: Uint8Array;
    current: LeaguePeriod;
    byTier: TierDivisions[];
    /** The last period while it closes; `table` its board table (heap only: after an upgrade, players' records). */
    pending?: LeaguePeriod & { end: number; table?: BoardTable; left: number };
    index: LeagueIndexRecord;
    /** Tier chunks changed and not yet written. */
    dirty: Set<number>;
}

/** Contexts where some league may have divisions left to close (heap only: set again at load). */
export const closing = new WeakSet<Ctx>();

/** The league records' prefix: the board, and when its league was turned on (a new league never meets an old one's records). */
export const leagueKey = (gameId: string, board: BoardRecord): string =>
    `${gameId}/${board.scoreboardId}/${board.leagueSince ?? 0}`;

export const divisionKey = (key: string, period: number, division: number): string => `${key}/${period}/${division}`;

export function newPeriod(period: number): LeaguePeriod {
    return { period, divisions: [], bySlot: new Int32Array(0) };
}

export function emptyIndex(period: number): LeagueIndexRecord {
    return { period, divisions: 0, archives: [], chunks: 0, fills: 0 };
}

/** The league of a board (undefined: not a league board). */
export function leagueOf(game: GameState, board: BoardRecord): LeagueState | undefined {
    return board.league === undefined ? undefined : game.leagues.get(board.scoreboardId);
}

/** A slot's tier, within the league's tiers (a league with fewer tiers now clamps it). */
export function tierOf(state: LeagueState, league: League, slot: number): number {
    const t = slot < state.tiers.length ? state.tiers[slot] : 0;
    return Math.min(t, league.tiers.length - 1);
}

export function setTier(state: LeagueState, slot: number, tier: number): void {
    if (slot >= state.tiers.length) {
        const grown = new Uint8Array(Math.max(slot + 1, Math.ceil(state.tiers.length * 1.5), TIER_CHUNK));
        grown.set(state.tiers);
        state.tiers = grown;
    }
    if (state.tiers[slot] === tier) return;
    state.tiers[slot] = tier;
    state.dirty.add(Math.floor(slot / TIER_CHUNK));
}

/** Writes the changed tier chunks (and the index when the chunk count grew). */
export function flushTiers(ctx: Ctx, state: LeagueState): void {
    if (state.dirty.size === 0) return;
    for (const chunk of state.dirty) {
        const from = chunk * TIER_CHUNK;
        const digits = state.tiers.subarray(from, Math.min(from + TIER_CHUNK, state.tiers.length));
        let text = '';
        for (let i = 0; i < digits.length; i++) text += String.fromCharCode(48 + digits[i]);
        ctx.store.leagueTiers.set(`${state.key}/${chunk}`, text.replace(/0+$/, ''));
        if (chunk >= state.index.chunks) state.index.chunks = chunk + 1;
    }
    state.dirty.clear();
    saveIndex(ctx, state);
}

export function saveIndex(ctx: Ctx, state: LeagueState): void {
    ctx.store.leagueDivisions.set(state.key, state.index);
}

export function saveDivision(ctx: Ctx, state: LeagueState, period: LeaguePeriod, division: number): void {
    const record = period.divisions[division - 1];
    if (record !== undefined) ctx.store.leagueDivisions.set(divisionKey(state.key, period.period, division), record);
}

/** Where each tier's next player goes, from the current period's divisions. */
export function tierDivisions(current: LeaguePeriod, league: League): TierDivisions[] {
    const byTier: TierDivisions[] = league.tiers.map(() => ({ open: [], lastFilled: 0, count: 0 }));
    const newest = new Array<number>(byTier.length).fill(-1);
    current.divisions.forEach((d, i) => {
        if (d === undefined) return;
        const t = byTier[Math.min(d.tier, byTier.length - 1)]!;
        t.count++;
        if (d.members.length < league.divisionSize) t.open.push(i + 1);
        else if ((d.filled ?? 0) > newest[d.tier]!) {
            newest[d.tier] = d.filled ?? 0;
            t.lastFilled = i + 1;
        }
    });
    return byTier;
}

/** A league's heap state from its records (a board whose league was just turned on has none: empty). */
export function loadLeague(ctx: Ctx, gameId: string, board: BoardRecord): LeagueState {
    const league = board.league!;
    const key = leagueKey(gameId, board);
    const found = ctx.store.leagueDivisions.get(key) as LeagueIndexRecord | undefined;
    const index = found ?? emptyIndex(board.periodStart);
    const tiers = new Uint8Array(Math.max(TIER_CHUNK, index.chunks * TIER_CHUNK));
    for (let c = 0; c < index.chunks; c++) {
        const text = ctx.store.leagueTiers.get(`${key}/${c}`) ?? '';
        for (let i = 0; i < text.length; i++) tiers[c * TIER_CHUNK + i] = text.charCodeAt(i) - 48;
    }
    const read = (period: number, count: number): LeaguePeriod => {
        const p = newPeriod(period);
        for (let d = 1; d <= count; d++) {
            const record = ctx.store.leagueDivisions.get(divisionKey(key, period, d)) as DivisionRecord | undefined;
            p.divisions.push(record);
            if (record !== undefined) for (const slot of record.members) placeInDivision(p, slot, d);
        }
        return p;
    };
    const current = read(index.period, index.divisions);
    const state: LeagueState = {
        key,
        tiers,
        current,
        byTier: tierDivisions(current, league),
        index,
        dirty: new Set(),
    };
    if (index.pending !== undefined) {
        const p = read(index.pending.period, index.pending.divisions);
        const left = p.divisions.filter((d) => d !== undefined).length;
        state.pending = { ...p, end: index.pending.end, left };
        closing.add(ctx);
    }
    return state;
}

/** Loads every league board of a game (start, upgrade): bounded by its divisions and tier chunks. */
export function loadLeagues(ctx: Ctx, game: GameState): void {
    game.leagues.clear();
    for (const board of game.record.boards)
        if (board.league !== undefined)
            game.leagues.set(board.scoreboardId, loadLeague(ctx, game.record.gameId, board));
}

/** Which map a league record is in. */
export type LeagueMap = 'leagueTiers' | 'leagueDivisions' | 'leagueArchives';

/** Every key of a league's records, in the order a purge removes them (the index last). */
export function leagueRecordKeys(
    key: string,
    index: LeagueIndexRecord,
): { count: number; at: (i: number) => [LeagueMap, string] } {
    const parts: Array<[number, LeagueMap, (i: number) => string]> = [
        [index.chunks, 'leagueTiers', (i) => `${key}/${i}`],
        [index.divisions, 'leagueDivisions', (i) => divisionKey(key, index.period, i + 1)],
    ];
    if (index.pending !== undefined) {
        const { period, divisions } = index.pending;
        parts.push([divisions, 'leagueDivisions', (i) => divisionKey(key, period, i + 1)]);
    }
    for (const [start, count] of index.archives)
        parts.push([count, 'leagueArchives', (i) => divisionKey(key, start, i + 1)]);
    const count = parts.reduce((n, [c]) => n + c, 0) + 1;
    return {
        count,
        at: (i) => {
            for (const [c, map, keyAt] of parts) {
                if (i < c) return [map, keyAt(i)];
                i -= c;
            }
            return ['leagueDivisions', key];
        },
    };
}
