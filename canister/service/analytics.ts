// A game's activity per UTC day for its developer: submissions, plays, active, new and
// returning players, active players by sign-in provider and submissions per board. Kept as a
// ring of KEEP_DAYS daily records per game (bounded), counted in the heap and written on the
// tick and before an upgrade, like the counts of submits (service/flush.ts); reads prefer the heap.
import type { Analytics, RequestOf } from '../../contract/canister';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { dict, type BoardRecord, type DailyRecord } from '../state/records';

export const KEEP_DAYS = 90;
const DAY_US = 86_400_000_000;
/** Per day: at most this many boards and providers are counted by name (the rest are summed). */
const MAX_NAMED = 100;
const OTHER = '(other)';

const dayOf = (us: number): number => Math.floor(us / DAY_US);
const dailyKey = (gameId: string, day: number): string => `${gameId}/${day % KEEP_DAYS}`;

function emptyDay(day: number): DailyRecord {
    return {
        day,
        submissions: 0,
        plays: 0,
        activePlayers: 0,
        newPlayers: 0,
        boards: dict(),
        providers: dict(),
    };
}

/** Today's record of a game (read from the store once a day), to be written on the tick. */
function today(ctx: Ctx, gameId: string, now: number): DailyRecord {
    const day = dayOf(now);
    const key = dailyKey(gameId, day);
    let record = ctx.daily.get(key);
    if (record === undefined || record.day !== day) {
        const stored = ctx.store.daily.get(key);
        record = stored !== undefined && stored.day === day ? reviveDay(stored) : emptyDay(day);
        ctx.daily.set(key, record);
    }
    ctx.dirtyDaily.add(key);
    return record;
}

function reviveDay(d: DailyRecord): DailyRecord {
    return { ...d, boards: dict(d.boards), providers: dict(d.providers) };
}

function bump(counts: DailyRecord['boards'], name: string): void {
    const n = counts[name];
    if (n !== undefined) counts[name] = n + 1;
    else if (Object.keys(counts).length < MAX_NAMED) counts[name] = 1;
    else counts[OTHER] = (counts[OTHER] ?? 0) + 1;
}

/**
 * Counts one accepted submit to `boards` at `now` by a player last active on `activeDay`;
 * returns the player's active day now (the caller writes it to their record). Arguments, not
 * an object: this runs for every submit.
 */
export function countSubmit(
    ctx: Ctx,
    game: GameState,
    activeDay: number | null,
    authType: string,
    created: boolean,
    play: boolean,
    boards: readonly BoardRecord[],
    now: number,
): number {
    const day = today(ctx, game.record.gameId, now);
    day.submissions += 1;
    if (play) day.plays += 1;
    if (created) day.newPlayers += 1;
    if (activeDay !== day.day) {
        day.activePlayers += 1;
        bump(day.providers, authType);
    }
    for (let i = 0; i < boards.length; i++) bump(day.boards, boards[i]!.scoreboardId);
    return day.day;
}

/** Writes the days counted since the last flush (the tick and pre_upgrade: service/flush.ts). */
export function flushDaily(ctx: Ctx): void {
    for (const key of ctx.dirtyDaily) ctx.store.daily.set(key, ctx.daily.get(key)!);
    ctx.dirtyDaily.clear();
}

/** The last `days` days (30 by default, at most KEEP_DAYS), oldest first, with totals by provider and board. */
export function analytics(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_analytics'>>): Analytics {
    const days =
        typeof req.days === 'number' && Number.isFinite(req.days)
            ? Math.max(1, Math.min(KEEP_DAYS, Math.floor(req.days)))
            : 30;
    const last = dayOf(ctx.env.now());
    const out: Analytics = { days: [], providers: [], boards: [] };
    const providers = new Map<string, number>();
    const boards = new Map<string, number>();
    for (let day = last - days + 1; day <= last; day++) {
        const key = dailyKey(game.record.gameId, day);
        const cached = ctx.daily.get(key);
        const stored = cached?.day === day ? cached : ctx.store.daily.get(key);
        const d = stored !== undefined && stored.day === day ? stored : emptyDay(day);
        out.days.push({
            day: new Date(day * 86_400_000).toISOString().slice(0, 10),
            submissions: d.submissions,
            plays: d.plays,
            activePlayers: d.activePlayers,
            newPlayers: d.newPlayers,
            returningPlayers: Math.max(0, d.activePlayers - d.newPlayers),
        });
        for (const [name, n] of Object.entries(d.providers ?? {})) providers.set(name, (providers.get(name) ?? 0) + n!);
        for (const [name, n] of Object.entries(d.boards)) boards.set(name, (boards.get(name) ?? 0) + n!);
    }
    out.providers = [...providers].map(([provider, players]) => ({ provider, players }));
    out.providers.sort((a, b) => b.players - a.players);
    out.boards = [...boards].map(([scoreboardId, submissions]) => ({ scoreboardId, submissions }));
    out.boards.sort((a, b) => b.submissions - a.submissions);
    return out;
}

/** Removes a deleted game's days. */
export function dropDays(ctx: Ctx, gameId: string): void {
    for (let i = 0; i < KEEP_DAYS; i++) {
        ctx.store.daily.delete(`${gameId}/${i}`);
        ctx.daily.delete(`${gameId}/${i}`);
        ctx.dirtyDaily.delete(`${gameId}/${i}`);
    }
}
