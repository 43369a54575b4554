// The rules of league boards (docs/leagues.md): turning a league on, changing and removing it;
// a player joining a division of their tier at their first entry of a period (splitting a full
// one); ranking a division by the board's order; the zones; and the close (promotion,
// demotion, archives, events, prizes), spread over timer ticks for big leagues.
import type { League } from '../../contract/board-options';
import { invalid } from '../../contract/rules';
import { ns } from '../domain/json';
import { Fail } from '../domain/fail';
import type { Ctx, GameState } from '../state/context';
import { newBoardTable } from '../state/game-state';
import {
    closing,
    divisionKey,
    divisionOf,
    placeInDivision,
    emptyIndex,
    flushTiers,
    leagueRecordKeys,
    loadLeague,
    newPeriod,
    saveDivision,
    saveIndex,
    setTier,
    tierDivisions,
    tierOf,
    type DivisionArchiveRecord,
    type DivisionRecord,
    type LeagueIndexRecord,
    type LeaguePeriod,
    type LeagueState,
    type Outcome,
} from '../state/leagues';
import type { BoardRecord } from '../state/records';
import { playerKey } from '../state/store';
import { entryCount, entryOf, nicknameOf, putEntry, rankIndex, tiebreakOf, type BoardTable } from '../state/tables';
import { playerOfSlot } from './board-events';
import { hasEventReader, recordEvent } from './events';
import { grantDivisionPrizes } from './league-prizes';
import { PRIZES } from '../../contract/rewards';
import { listRanks, tiesOf } from './ranks';

/** Closed periods whose division archives are kept per league board (the oldest goes first). */
export const DIVISION_ARCHIVES_KEPT = 4;
/** Players' places a timer tick closes at most (whole divisions; measured in test/bench/canister.bench.ts). */
export const CLOSE_PER_TICK = 10_000;

export type Zone = 'promotion' | 'stay' | 'demotion';

/** Daily, weekly, monthly, or custom with a length: the boards a league can be on. */
export function isTimed(board: { period: string; days?: number }): boolean {
    return (
        board.period === 'daily' ||
        board.period === 'weekly' ||
        board.period === 'monthly' ||
        (board.period === 'custom' && (board.days ?? 0) > 0)
    );
}

// ---- the option --------------------------------------------------------------------------------

/**
 * Checks a create or update's `league` (undefined: unchanged, null: off) against the board and
 * returns what applies it, so that nothing changes when any check fails. On, off, divisionSize
 * and the number of tiers only while the board's period has no entries and no close is running.
 */
export function leagueChange(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    league: League | null | undefined,
    entries: number,
): (() => void) | undefined {
    if (league === undefined) return undefined;
    const before = board.league;
    if (league !== null && !isTimed(board))
        throw new Fail(
            400,
            invalid('league', 'is only for timed boards (daily, weekly, monthly, or custom with days above 0)'),
        );
    if (league === null && before === undefined) return undefined;
    const reshapes =
        before === undefined ||
        league === null ||
        league.divisionSize !== before.divisionSize ||
        league.tiers.length !== before.tiers.length;
    if (reshapes) {
        if (ctx.rebuilding.has(game.record.gameId))
            throw new Fail(
                409,
                'The boards are still loading after an upgrade: try the league change in a few minutes.',
            );
        if (entries > 0)
            throw new Fail(
                409,
                `Board '${board.scoreboardId}' has entries this period: a league is turned on or off, and its divisionSize ` +
                    'or number of tiers changed, only at the start of a period or after Reset now.',
            );
        if (game.leagues.get(board.scoreboardId)?.pending !== undefined)
            throw new Fail(
                409,
                `Board '${board.scoreboardId}' is still closing its last period: try again in a few minutes.`,
            );
    }
    return () => {
        const state = game.leagues.get(board.scoreboardId);
        if (league === null) {
            if (state !== undefined) purgeLater(ctx, state.key, state.index);
            delete board.league;
            delete board.leagueSince;
            game.leagues.delete(board.scoreboardId);
            return;
        }
        board.league = league;
        if (before === undefined || state === undefined) {
            board.leagueSince = ctx.env.now();
            game.leagues.set(board.scoreboardId, loadLeague(ctx, game.record.gameId, board));
        } else if (reshapes) state.byTier = tierDivisions(state.current, league);
    };
}

// ---- joining -----------------------------------------------------------------------------------

/**
 * Puts a player in a division of their tier at their first entry of the period (a submit's
 * write): the least-filled division of the tier that is not full; when all are full, the most
 * recently filled one splits in two (its later-joined half moves to a new division, which the
 * player joins). O(1) lookups plus the division's size when it splits.
 */
export function joinDivision(ctx: Ctx, game: GameState, board: BoardRecord, slot: number): void {
    const state = game.leagues.get(board.scoreboardId);
    const league = board.league;
    if (state === undefined || league === undefined) return;
    startPeriod(ctx, game, board, state);
    if (divisionOf(state.current, slot) !== undefined) return;
    // Their last period's division closes first, so that they join in the tier it gives them.
    const pending = state.pending;
    if (pending !== undefined) {
        const old = divisionOf(pending, slot);
        if (old !== undefined && pending.divisions[old - 1] !== undefined) {
            closeDivision(ctx, game, board, state, old);
            finishClose(ctx, state);
        }
    }
    const tier = tierOf(state, league, slot);
    const current = state.current;
    const where = state.byTier[tier]!;
    let division: number;
    if (where.open.length > 0) {
        division = where.open[0]!;
        for (const d of where.open)
            if (current.divisions[d - 1]!.members.length < current.divisions[division - 1]!.members.length)
                division = d;
    } else {
        division = current.divisions.length + 1;
        const moved: number[] = [];
        const full = where.lastFilled > 0 ? current.divisions[where.lastFilled - 1] : undefined;
        if (full !== undefined) {
            moved.push(...full.members.splice(Math.ceil(full.members.length / 2)));
            delete full.filled;
            where.open.push(where.lastFilled);
            saveDivision(ctx, state, current, where.lastFilled);
            where.lastFilled = 0;
            for (const s of moved) placeInDivision(current, s, division);
        }
        current.divisions.push({ tier, members: moved });
        where.open.push(division);
        where.count++;
        state.index.divisions = current.divisions.length;
        saveIndex(ctx, state);
    }
    const record = current.divisions[division - 1]!;
    record.members.push(slot);
    placeInDivision(current, slot, division);
    if (record.members.length >= league.divisionSize) {
        record.filled = ++state.index.fills;
        where.open = where.open.filter((d) => d !== division);
        where.lastFilled = division;
        saveIndex(ctx, state);
    }
    saveDivision(ctx, state, current, division);
}

/** The league's current period is the board's: a board that moved on starts its divisions anew. */
function startPeriod(ctx: Ctx, game: GameState, board: BoardRecord, state: LeagueState): void {
    if (state.current.period === board.periodStart) return;
    // (Never expected: a rollover starts the close. The new period's start is the old one's end.)
    if (state.current.divisions.length > 0) beginClose(ctx, game, board, state, board.periodStart);
    state.current = newPeriod(board.periodStart);
    state.byTier = tierDivisions(state.current, board.league!);
    state.index.period = board.periodStart;
    state.index.divisions = 0;
    saveIndex(ctx, state);
}

// ---- the close ---------------------------------------------------------------------------------

/**
 * The board's period is archived (its rollover, or Reset now) and ended at `end`: its divisions
 * wait to be closed (a batch per timer tick, or a player's own when they join the next period).
 * Its table is kept in the heap until then; a close still running from the period before
 * finishes first.
 */
export function beginClose(ctx: Ctx, game: GameState, board: BoardRecord, state: LeagueState, end: number): void {
    const current = state.current;
    if (current.divisions.length === 0) return;
    if (state.pending !== undefined) closeAll(ctx, game, board, state);
    const table = game.boards.get(board.scoreboardId);
    const loading = ctx.rebuilding.has(game.record.gameId);
    state.pending = {
        ...current,
        end,
        // While the tables are still loading, the board's table may lack entries: records then.
        table: loading || table?.period !== current.period ? undefined : table,
        left: current.divisions.length,
    };
    state.index.pending = { period: current.period, end, divisions: current.divisions.length };
    closing.add(ctx);
    state.current = newPeriod(NaN);
    state.byTier = tierDivisions(state.current, board.league!);
    state.index.divisions = 0;
    saveIndex(ctx, state);
}

/** Called where a board's period is archived: starts its league's close (nothing for other boards). */
export function closePeriod(ctx: Ctx, game: GameState, board: BoardRecord, end: number): void {
    const state = board.league === undefined ? undefined : game.leagues.get(board.scoreboardId);
    if (state === undefined) return;
    if (state.current.period === board.periodStart) beginClose(ctx, game, board, state, end);
}

/** Closes every division left of the league's last period. */
function closeAll(ctx: Ctx, game: GameState, board: BoardRecord, state: LeagueState): void {
    const pending = state.pending!;
    for (let d = 1; d <= pending.divisions.length; d++)
        if (pending.divisions[d - 1] !== undefined) closeDivision(ctx, game, board, state, d);
    finishClose(ctx, state);
}

/**
 * Closes divisions of leagues' last periods, whole divisions of at most `budget` players'
 * places in all (the timer's tick); returns how many divisions are left to close.
 */
export function closeSome(ctx: Ctx, budget = CLOSE_PER_TICK): number {
    if (!closing.has(ctx)) return 0;
    let left = 0;
    for (const game of ctx.games.values()) {
        if (game.leagues.size === 0) continue;
        if (ctx.moving.size > 0 && ctx.moving.has(game.record.gameId)) continue;
        for (const [boardId, state] of game.leagues) {
            const pending = state.pending;
            const board = game.record.boards.find((b) => b.scoreboardId === boardId);
            if (pending === undefined || board === undefined) continue;
            for (let d = 1; d <= pending.divisions.length && budget > 0; d++) {
                const division = pending.divisions[d - 1];
                if (division === undefined) continue;
                // Ranked from players' records (after an upgrade): ten times the work of the heap table.
                budget -= division.members.length * (pending.table === undefined ? 10 : 1);
                budget -= closeDivision(ctx, game, board, state, d) * PRIZES.grantPlaces;
            }
            finishClose(ctx, state);
            left += state.pending?.left ?? 0;
        }
    }
    if (left === 0) closing.delete(ctx);
    return left;
}

/** Writes what closing divisions changed; once none is left, the period's close is done. */
function finishClose(ctx: Ctx, state: LeagueState): void {
    flushTiers(ctx, state);
    const pending = state.pending;
    if (pending === undefined || pending.left > 0) {
        saveIndex(ctx, state);
        return;
    }
    state.index.archives.push([pending.period, pending.divisions.length]);
    delete state.index.pending;
    state.pending = undefined;
    while (state.index.archives.length > DIVISION_ARCHIVES_KEPT) {
        const archive = state.index.archives.shift()!;
        purgeLater(ctx, state.key, { ...emptyIndex(0), archives: [archive] }, true);
    }
    saveIndex(ctx, state);
}

/** A division's entries in its order: the board's rank order among its members (absent entries: not ranked). */
export function rankDivision(
    table: BoardTable,
    board: BoardRecord,
    members: readonly number[],
): Array<{ slot: number; id: number; rank: number }> {
    const index = rankIndex(table, board.sortBy);
    const placed: Array<{ slot: number; id: number; place: number }> = [];
    for (const slot of members) {
        const id = entryOf(table, slot);
        const place = id === undefined ? undefined : index.rank(id);
        if (id !== undefined && place !== undefined) placed.push({ slot, id, place });
    }
    placed.sort((a, b) => a.place - b.place);
    const values = placed.map((p) => (board.sortBy === 'streak' ? table.streak[p.id] : table.score[p.id]));
    const tiebreaks =
        table.tiebreak === undefined || board.sortBy !== 'score'
            ? undefined
            : placed.map((p) => tiebreakOf(table, p.id));
    const ranks = listRanks(values, tiesOf(board), tiebreaks);
    return placed.map((p, i) => ({ slot: p.slot, id: p.id, rank: ranks[i]! }));
}

/** How many of a division of `n` ranked entries in `tier` are promoted and demoted (never overlapping). */
export function zoneSizes(league: League, tier: number, n: number): { promote: number; demote: number } {
    const promote = tier < league.tiers.length - 1 ? Math.min(league.promote, n) : 0;
    const demote = tier > 0 ? Math.min(league.demote, n - promote) : 0;
    return { promote, demote };
}

export function zoneAt(position: number, n: number, sizes: { promote: number; demote: number }): Zone {
    return position < sizes.promote ? 'promotion' : position >= n - sizes.demote ? 'demotion' : 'stay';
}

/**
 * Closes one division of the league's last period: ranks it, grants its prizes, moves its
 * promotion zone up and its demotion zone down a tier, archives it and records its event;
 * returns the grants it made.
 */
function closeDivision(ctx: Ctx, game: GameState, board: BoardRecord, state: LeagueState, d: number): number {
    const pending = state.pending!;
    const division = pending.divisions[d - 1]!;
    const league = board.league!;
    const tier = Math.min(division.tier, league.tiers.length - 1);
    const table = pending.table ?? tableFromRecords(ctx, game, board, pending);
    const ranked = rankDivision(table, board, division.members);
    const n = ranked.length;
    const sizes = zoneSizes(league, tier, n);
    const grants = grantDivisionPrizes(ctx, game, board, {
        periodStart: pending.period,
        periodEnd: pending.end,
        tier,
        division: d,
        ranked: ranked.map((r) => ({ slot: r.slot, rank: r.rank, score: table.score[r.id] })),
    });
    const entries: DivisionArchiveRecord['entries'] = ranked.map((r, i) => {
        const zone = zoneAt(i, n, sizes);
        const outcome: Outcome = zone === 'promotion' ? 'promoted' : zone === 'demotion' ? 'demoted' : 'stayed';
        const tierAfter = tier + (zone === 'promotion' ? 1 : zone === 'demotion' ? -1 : 0);
        setTier(state, r.slot, tierAfter);
        return {
            slot: r.slot,
            rank: r.rank,
            nickname: nicknameOf(game.players, r.slot),
            score: table.score[r.id],
            streak: table.streak[r.id],
            outcome,
            tierAfter,
        };
    });
    const archive: DivisionArchiveRecord = {
        periodStart: pending.period,
        periodEnd: pending.end,
        tier,
        division: d,
        entries,
    };
    ctx.store.leagueArchives.set(divisionKey(state.key, pending.period, d), archive);
    ctx.store.leagueDivisions.delete(divisionKey(state.key, pending.period, d));
    pending.divisions[d - 1] = undefined;
    pending.left--;
    if (hasEventReader(game, 'division_closed')) {
        const tierRef = (index: number) => ({ index, name: league.tiers[index]! });
        recordEvent(ctx, game, {
            kind: 'division_closed',
            scoreboardId: board.scoreboardId,
            periodStart: ns(pending.period),
            periodEnd: ns(pending.end),
            tier: tierRef(tier),
            division: d,
            entries: entries.map((e) => ({
                rank: e.rank,
                playerId: playerOfSlot(ctx, game, e.slot),
                nickname: e.nickname,
                score: e.score,
                outcome: e.outcome,
                tierAfter: tierRef(e.tierAfter),
            })),
        });
    }
    return grants;
}

/**
 * The last period's entries of the league's pending divisions from players' records, when its
 * heap table is gone (an upgrade since): a table of those players only, made once per close.
 */
function tableFromRecords(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    pending: LeaguePeriod & { table?: BoardTable },
): BoardTable {
    const table = newBoardTable(board, pending.period);
    for (const division of pending.divisions) {
        if (division === undefined) continue;
        for (const slot of division.members) {
            const playerId = playerOfSlot(ctx, game, slot);
            const player = playerId === '' ? undefined : ctx.store.players.get(playerKey(game.record.gameId, playerId));
            const entry = player?.boards[board.scoreboardId];
            if (
                entry !== undefined &&
                player?.retired === undefined &&
                entry.period === pending.period &&
                (entry.serial ?? 0) === (board.serial ?? 0)
            )
                putEntry(table, slot, entry, entry.submittedAt);
        }
    }
    pending.table = table;
    return table;
}

// ---- removal -----------------------------------------------------------------------------------

/** Contexts with nothing queued for removal (heap only: after an upgrade the queue is read once to know). */
const noPurges = new WeakSet<Ctx>();

/** Queues a league's records for removal (`archivesOnly`: an old period's archives, the league stays). */
export function purgeLater(ctx: Ctx, key: string, index: LeagueIndexRecord, archivesOnly = false): void {
    noPurges.delete(ctx);
    const purges = ctx.store.meta.get('leaguePurges') ?? [];
    purges.push({ key, index, done: 0, ...(archivesOnly ? { archivesOnly: true } : {}) });
    ctx.store.meta.set('leaguePurges', purges);
}

/** Queues the records of every league of a game (the game is deleted). */
export function purgeGameLeagues(ctx: Ctx, game: GameState): void {
    for (const state of game.leagues.values()) purgeLater(ctx, state.key, state.index);
}

/** Removes up to `budget` queued league records; returns whether any are left. */
export function purgeSomeLeagues(ctx: Ctx, budget: number): boolean {
    if (noPurges.has(ctx)) return false;
    const purges = ctx.store.meta.get('leaguePurges') ?? [];
    if (purges.length === 0) {
        noPurges.add(ctx);
        return false;
    }
    while (budget > 0 && purges.length > 0) {
        const p = purges[0]!;
        const keys = leagueRecordKeys(p.key, p.index);
        const count = p.archivesOnly === true ? keys.count - 1 : keys.count;
        const end = Math.min(count, p.done + budget);
        for (let i = p.done; i < end; i++) {
            const [map, key] = keys.at(i);
            ctx.store[map].delete(key);
        }
        budget -= end - p.done;
        p.done = end;
        if (p.done >= count) purges.shift();
    }
    ctx.store.meta.set('leaguePurges', purges);
    return purges.length > 0;
}

/** The league state of a board, for reads (404 when the board is not a league). */
export function requireLeague(game: GameState, board: BoardRecord): LeagueState {
    const state = board.league === undefined ? undefined : game.leagues.get(board.scoreboardId);
    if (state === undefined) throw new Fail(404, `Board '${board.scoreboardId}' is not a league board.`);
    return state;
}

/** Whether the board's current period has entries (the option's checks). */
export const periodEntries = (table: BoardTable | undefined): number => (table === undefined ? 0 : entryCount(table));

export type { DivisionRecord };
