// Prizes paid at a timed board's close (docs/rewards.md): the rows of its prize table each ranked
// player matches become grants (one per player and row, with a deterministic id, so a close run
// twice grants once), kept per player for PRIZES.keepDays, listed per close for the dashboard,
// read and claimed by the player as the game's `rewardClaims` allows, and a `reward_granted`
// event each.
import { MESSAGES } from '../../contract/messages';
import {
    PRIZES,
    grantIdOf,
    parseRewardClaims,
    rankSpans,
    rowMatches,
    type PrizeRow,
    type RewardClaims,
} from '../../contract/rewards';
import { invalid } from '../../contract/rules';
import type { Grant } from '../../contract/schemas';
import type { GrantsPage, RequestOf } from '../../contract/canister';
import { Fail } from '../domain/fail';
import { ns } from '../domain/json';
import type { Ctx, GameState, Untrusted } from '../state/context';
import type { BoardGrants, BoardRecord, GameRecord, GrantRecord, GrantRef, PlayerGrants } from '../state/records';
import { playerKey } from '../state/store';
import { entryCount, rankIndex } from '../state/tables';
import { playerOfSlot } from './board-events';
import { resolveWriter } from './credentials';
import { recordEvent } from './events';
import { refuseBanned } from './bans';
import { sharedRanker, tiesOf } from './ranks';

const DAY_US = 86_400_000_000;
/** Refs per chunk of a close's list (Store.grantIndex). */
export const GRANT_CHUNK = 100;

/** A closed division or board, ranked: who matches rows, and what their grants say. */
export interface RankedClose {
    periodStart: number; // µs
    periodEnd: number; // µs
    /** Entries ranked in this close (topPercent is of this many). */
    total: number;
    ranked: ReadonlyArray<{ slot: number; rank: number }>;
    /** League boards: the division's tier and number. */
    tier?: { index: number; name: string };
    division?: number;
}

const headKey = (gameId: string, boardId: string): string => `${gameId}/${boardId}`;
const chunkKey = (gameId: string, boardId: string, start: number, chunk: number): string =>
    `${gameId}/${boardId}/${start}/${chunk}`;

/**
 * The grants of a board's close (rollover.ts archivePeriod, before the period's table goes), on a
 * board with prizes that is not a league board (those grant per division: league-prizes.ts): the
 * rank index walked over the ranks the rows can match (rankSpans), each span from its first
 * position on as long as entries rank within it (with shared ties an entry past the span's end
 * may share its last rank), each entry's rank as the board shows it; at most PRIZES.perClose
 * entries (each is at least one grant).
 */
export function grantBoardPrizes(ctx: Ctx, game: GameState, board: BoardRecord, periodEnd: number): number {
    const rows = board.prizes;
    const table = game.boards.get(board.scoreboardId);
    if (rows === undefined || rows.length === 0 || board.league !== undefined || table === undefined) return 0;
    const total = entryCount(table);
    const index = rankIndex(table, board.sortBy);
    const ranked: Array<{ slot: number; rank: number }> = [];
    let next = 1; // the first position not walked yet (spans may meet through ties)
    for (const [from, to] of rankSpans(rows, total)) {
        const start = Math.max(from, next);
        const ranker = sharedRanker(table, board.sortBy, start, tiesOf(board));
        let position = start;
        walk: while (position <= total && ranked.length < PRIZES.perClose) {
            const ids = index.range(position, GRANT_CHUNK);
            for (let i = 0; i < ids.length; i++) {
                const id = ids[i]!;
                const rank = ranker === undefined ? position : ranker(id, position - start);
                if (rank > to) break walk;
                // Ranked above the span (tied with an entry before it): that entry's span paid it.
                if (rank >= from) ranked.push({ slot: table.slot[id]!, rank });
                position++;
                if (ranked.length >= PRIZES.perClose) break walk;
            }
            if (ids.length < GRANT_CHUNK) break;
        }
        next = position;
    }
    if (ranked.length === 0) return 0;
    return grantRanked(ctx, game, board, rows, { periodStart: board.periodStart, periodEnd, total, ranked });
}

/**
 * Grants the rows each ranked entry matches (rows with a `tier` only in divisions of that tier),
 * within PRIZES.perClose: what is left of the board's close (counted in its list of closes, as a
 * retried close would find it), or each league division's own; returns the grants made.
 */
export function grantRanked(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    rows: readonly PrizeRow[],
    close: RankedClose,
): number {
    const gameId = game.record.gameId;
    const boardId = board.scoreboardId;
    const now = ctx.env.now();
    const head = boardGrants(ctx, gameId, boardId);
    let period = head.periods.find((p) => p.start === close.periodStart);
    const left = close.division !== undefined ? PRIZES.perClose : PRIZES.perClose - (period?.count ?? 0);
    if (left <= 0) return 0;
    const made: Array<{ playerId: string; grant: GrantRecord }> = [];
    const byPlayer = new Map<string, PlayerGrants>();
    for (const entry of close.ranked) {
        if (made.length >= left) break;
        let playerId: string | undefined;
        let grants: PlayerGrants | undefined;
        for (let row = 0; row < rows.length && made.length < left; row++) {
            const prize = rows[row]!;
            // `tier` counts on league boards only (a board's own close has no tier).
            if (prize.tier !== undefined && close.tier !== undefined && prize.tier !== close.tier.index) continue;
            if (!rowMatches(prize, entry.rank, close.total)) continue;
            playerId ??= playerOfSlot(ctx, game, entry.slot);
            if (playerId === '') break;
            grants ??= byPlayer.get(playerId) ?? playerGrants(ctx, gameId, playerId, now);
            byPlayer.set(playerId, grants);
            const grantId = grantIdOf(boardId, close.periodStart, row, entry.slot);
            if (grants.grants.some((g) => g.grantId === grantId)) continue;
            const grant: GrantRecord = {
                grantId,
                scoreboardId: boardId,
                periodStart: close.periodStart,
                periodEnd: close.periodEnd,
                rank: entry.rank,
                reward: prize.reward,
                amount: prize.amount,
                grantedAt: now,
            };
            if (close.tier !== undefined) grant.tier = close.tier;
            if (close.division !== undefined) grant.division = close.division;
            grants.grants.push(grant);
            made.push({ playerId, grant });
        }
    }
    if (made.length === 0) return 0;
    for (const [playerId, grants] of byPlayer) {
        // The newest PRIZES.perPlayer: a player flooded with grants loses their oldest first.
        if (grants.grants.length > PRIZES.perPlayer) grants.grants.splice(0, grants.grants.length - PRIZES.perPlayer);
        ctx.store.grants.set(playerKey(gameId, playerId), grants);
    }
    if (period === undefined) {
        period = { start: close.periodStart, end: close.periodEnd, count: 0 };
        head.periods.push(period);
        dropOldCloses(ctx, gameId, boardId, head, now);
    }
    appendRefs(ctx, gameId, boardId, period, made);
    ctx.store.grantIndex.set(headKey(gameId, boardId), head);
    for (const { playerId, grant } of made)
        recordEvent(ctx, game, {
            kind: 'reward_granted',
            grantId: grant.grantId,
            playerId,
            scoreboardId: boardId,
            periodStart: ns(grant.periodStart),
            periodEnd: ns(grant.periodEnd),
            rank: grant.rank,
            ...(grant.tier === undefined ? {} : { tier: grant.tier }),
            ...(grant.division === undefined ? {} : { division: grant.division }),
            reward: grant.reward,
            amount: grant.amount,
        });
    return made.length;
}

/** A player's grants still kept (older than PRIZES.keepDays dropped). */
function playerGrants(ctx: Ctx, gameId: string, playerId: string, now: number): PlayerGrants {
    const kept = ctx.store.grants.get(playerKey(gameId, playerId));
    if (kept === undefined) return { grants: [] };
    const cut = now - PRIZES.keepDays * DAY_US;
    return { grants: kept.grants.filter((g) => g.periodEnd >= cut) };
}

function boardGrants(ctx: Ctx, gameId: string, boardId: string): BoardGrants {
    const head = ctx.store.grantIndex.get(headKey(gameId, boardId));
    return head === undefined || Array.isArray(head) ? { periods: [] } : head;
}

/** Adds a close's refs to its list, filling its last chunk first. */
function appendRefs(
    ctx: Ctx,
    gameId: string,
    boardId: string,
    period: BoardGrants['periods'][number],
    made: ReadonlyArray<{ playerId: string; grant: GrantRecord }>,
): void {
    let i = 0;
    while (i < made.length) {
        const chunk = Math.floor(period.count / GRANT_CHUNK);
        const key = chunkKey(gameId, boardId, period.start, chunk);
        const kept = period.count % GRANT_CHUNK === 0 ? [] : ((ctx.store.grantIndex.get(key) as GrantRef[]) ?? []);
        const take = Math.min(GRANT_CHUNK - kept.length, made.length - i);
        for (let k = 0; k < take; k++, i++) kept.push([made[i]!.playerId, made[i]!.grant.grantId]);
        ctx.store.grantIndex.set(key, kept);
        period.count += take;
    }
}

/** Drops the lists of closes past PRIZES.keepDays (their grants are gone from players' lists too). */
function dropOldCloses(ctx: Ctx, gameId: string, boardId: string, head: BoardGrants, now: number): void {
    const cut = now - PRIZES.keepDays * DAY_US;
    while (head.periods.length > 0 && head.periods[0]!.end < cut)
        dropClose(ctx, gameId, boardId, head.periods.shift()!);
}

function dropClose(ctx: Ctx, gameId: string, boardId: string, period: BoardGrants['periods'][number]): void {
    for (let c = 0; c * GRANT_CHUNK < period.count; c++)
        ctx.store.grantIndex.delete(chunkKey(gameId, boardId, period.start, c));
}

/**
 * Removes a board's lists of closes (the board deleted, or its game purged); players keep their
 * grants until they expire.
 */
export function dropBoardGrants(ctx: Ctx, gameId: string, boardId: string): void {
    const head = ctx.store.grantIndex.get(headKey(gameId, boardId));
    if (head === undefined || Array.isArray(head)) return;
    for (const period of head.periods) dropClose(ctx, gameId, boardId, period);
    ctx.store.grantIndex.delete(headKey(gameId, boardId));
}

/** The boards of a game that have lists of grants (a purge's or a move's to-do). */
export const boardsWithGrants = (ctx: Ctx, record: GameRecord): string[] =>
    record.boards
        .filter((b) => ctx.store.grantIndex.get(headKey(record.gameId, b.scoreboardId)) !== undefined)
        .map((b) => b.scoreboardId);

/** A game's lists of grants as stored (heads and chunks), for a move. */
export function grantLists(ctx: Ctx, record: GameRecord): Array<[string, BoardGrants | GrantRef[]]> {
    const out: Array<[string, BoardGrants | GrantRef[]]> = [];
    for (const boardId of boardsWithGrants(ctx, record)) {
        const head = ctx.store.grantIndex.get(headKey(record.gameId, boardId));
        if (head === undefined || Array.isArray(head)) continue;
        out.push([headKey(record.gameId, boardId), head]);
        for (const period of head.periods)
            for (let c = 0; c * GRANT_CHUNK < period.count; c++) {
                const key = chunkKey(record.gameId, boardId, period.start, c);
                const chunk = ctx.store.grantIndex.get(key);
                if (chunk !== undefined) out.push([key, chunk]);
            }
    }
    return out;
}

/**
 * A purge's step over a deleted game's lists of grants: boards without any are passed over, and
 * the step ends after one board that had some (up to PRIZES.keepDays of closes). Returns whether
 * any are left.
 */
export function dropSomeBoardGrants(ctx: Ctx, gameId: string, boards: string[]): boolean {
    while (boards.length > 0) {
        const boardId = boards.shift()!;
        if (ctx.store.grantIndex.get(headKey(gameId, boardId)) === undefined) continue;
        dropBoardGrants(ctx, gameId, boardId);
        break;
    }
    return boards.length > 0;
}

// ---- the player's reads and claims -----------------------------------------------------------------

const grantView = (g: GrantRecord): Grant => {
    const view: Grant = {
        grantId: g.grantId,
        scoreboardId: g.scoreboardId,
        periodStart: ns(g.periodStart),
        periodEnd: ns(g.periodEnd),
        rank: g.rank,
        reward: g.reward,
        amount: g.amount,
        grantedAt: ns(g.grantedAt),
    };
    if (g.tier !== undefined) view.tier = g.tier;
    if (g.division !== undefined) view.division = g.division;
    if (g.claimedAt !== undefined) view.claimedAt = ns(g.claimedAt);
    return view;
};

/** Unclaimed first, then newest first (by close, then row). */
function listed(grants: readonly GrantRecord[]): GrantRecord[] {
    return [...grants].reverse().sort((a, b) => Number(a.claimedAt !== undefined) - Number(b.claimedAt !== undefined));
}

/** The player's grants still kept, as the credential names them (API key + id, session, server key + id). */
export function playerRewards(ctx: Ctx, req: Untrusted<RequestOf<'player_rewards'>>): { rewards: Grant[] } {
    const { game, playerId } = resolveWriter(ctx, req);
    return { rewards: listed(playerGrants(ctx, game.record.gameId, playerId, ctx.env.now()).grants).map(grantView) };
}

/**
 * Claims one of the player's grants, once: a second claim changes nothing and says so. The
 * game's `rewardClaims` decides which credentials may (403 otherwise); 404 for a grant the
 * player does not have (another player's included).
 */
export function claimReward(
    ctx: Ctx,
    req: Untrusted<RequestOf<'claim_reward'>>,
): { grant: Grant; claimed: true; alreadyClaimed: boolean } {
    const writer = resolveWriter(ctx, req);
    const claims = writer.game.record.rewardClaims ?? 'client';
    const allowed =
        writer.server === true || (claims === 'client' ? true : claims === 'session' && writer.account !== undefined);
    if (!allowed)
        throw new Fail(
            403,
            claims === 'server'
                ? "This game's rewards are claimed by its server (the server key) only."
                : "This game's rewards are claimed by a signed-in player (X-Session-Token) or its server only.",
        );
    const gameId = writer.game.record.gameId;
    // A banned player's grants stay listed (the developer sees what was earned) but are not paid.
    const player = ctx.store.players.get(playerKey(gameId, writer.playerId));
    refuseBanned(
        ctx,
        writer.game,
        writer.playerId,
        player,
        writer.account,
        writer.account !== undefined && !writer.server,
    );
    const now = ctx.env.now();
    const grants = playerGrants(ctx, gameId, writer.playerId, now);
    const grant = typeof req.grantId === 'string' ? grants.grants.find((g) => g.grantId === req.grantId) : undefined;
    if (grant === undefined) throw new Fail(404, MESSAGES.grantNotFound);
    if (grant.claimedAt !== undefined) return { grant: grantView(grant), claimed: true, alreadyClaimed: true };
    grant.claimedAt = now;
    ctx.store.grants.set(playerKey(gameId, writer.playerId), grants);
    return { grant: grantView(grant), claimed: true, alreadyClaimed: false };
}

/** The game setting `rewardClaims`, checked (before anything changes), or undefined when not sent. */
export function parseClaimsSetting(value: unknown): RewardClaims | undefined {
    if (value === undefined) return undefined;
    const parsed = parseRewardClaims(value);
    if ('error' in parsed) throw new Fail(400, parsed.error);
    return parsed.ok;
}

// ---- the developer's list ---------------------------------------------------------------------------

/** A page of one close's grants (`periodStart` absent: the newest close), each with its player and claim. */
export function devGrants(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_grants'>>): GrantsPage {
    const gameId = game.record.gameId;
    const board = game.record.boards.find((b) => b.scoreboardId === req.boardId);
    if (board === undefined) throw new Fail(404, `Scoreboard '${String(req.boardId)}' not found`);
    const head = boardGrants(ctx, gameId, board.scoreboardId);
    const offset = wholeOr(req.offset, 'offset', 0, PRIZES.listed, 0);
    const limit = wholeOr(req.limit, 'limit', 1, PRIZES.page.max, PRIZES.page.default);
    // Nanoseconds, as replies give them (a double above 2^53: rounded to the µs kept).
    const wanted =
        req.periodStart === undefined
            ? undefined
            : Math.round(wholeOr(req.periodStart, 'periodStart', 0, 9e18, 0) / 1000);
    const period =
        wanted === undefined ? head.periods[head.periods.length - 1] : head.periods.find((p) => p.start === wanted);
    if (wanted !== undefined && period === undefined) throw new Fail(404, 'No grants for that period of this board.');
    const page: GrantsPage = {
        scoreboardId: board.scoreboardId,
        periods: [...head.periods]
            .reverse()
            .map((p) => ({ periodStart: ns(p.start), periodEnd: ns(p.end), count: p.count })),
        offset,
        grants: [],
    };
    if (period === undefined) return page;
    page.periodStart = ns(period.start);
    const now = ctx.env.now();
    for (let at = offset; at < Math.min(period.count, offset + limit);) {
        const chunk = (ctx.store.grantIndex.get(
            chunkKey(gameId, board.scoreboardId, period.start, Math.floor(at / GRANT_CHUNK)),
        ) ?? []) as GrantRef[];
        for (let i = at % GRANT_CHUNK; i < chunk.length && at < offset + limit && at < period.count; i++, at++) {
            const [playerId, grantId] = chunk[i]!;
            const grant = playerGrants(ctx, gameId, playerId, now).grants.find((g) => g.grantId === grantId);
            if (grant !== undefined) page.grants.push({ ...grantView(grant), playerId });
        }
        if (chunk.length === 0) break;
    }
    return page;
}

function wholeOr(value: unknown, field: string, min: number, max: number, fallback: number): number {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
        throw new Fail(400, invalid(field, `must be a whole number from ${min} to ${max}`));
    return value;
}
