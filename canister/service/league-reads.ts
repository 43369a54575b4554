// The reads of league boards: a player's division with its zones (the `division` query and its
// uncertified direct read), and a league's tiers and divisions for its developer (dev_league).
import type { LeagueView, RequestOf } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import type { Division, DivisionEntry } from '../../contract/schemas';
import { invalid } from '../../contract/rules';
import { ns } from '../domain/json';
import { periodEnd } from '../domain/periods';
import { Fail } from '../domain/fail';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { currentPeriod, requireGame, ruleOf } from '../state/game-state';
import { divisionOf, tierOf } from '../state/leagues';
import type { BoardRecord } from '../state/records';
import { authTypeOf, metadataOf, nicknameOf, tiebreakOf, type BoardTable } from '../state/tables';
import { requirePlayerRef } from './credentials';
import { ownedGame } from './developers';
import { rankDivision, requireLeague, zoneAt, zoneSizes } from './leagues';
import { findSlot } from './players';
import { boardOf, liveTable } from './reads';
import { playerOfSlot } from './board-events';

/** Dashboard pages of divisions: at most this many. */
const DIVISIONS_PER_PAGE = 20;

/** A division's entries in rank order, with zones (`you`: the slot of the player asking). */
function divisionEntries(
    game: GameState,
    board: BoardRecord,
    table: BoardTable | undefined,
    members: readonly number[],
    tier: number,
    you?: number,
): Array<DivisionEntry & { slot: number }> {
    if (table === undefined) return [];
    const ranked = rankDivision(table, board, members);
    const sizes = zoneSizes(board.league!, tier, ranked.length);
    return ranked.map((r, i) => {
        const entry: DivisionEntry & { slot: number } = {
            rank: r.rank,
            nickname: nicknameOf(game.players, r.slot),
            score: table.score[r.id],
            streak: table.streak[r.id],
            authType: authTypeOf(game.players, r.slot),
            submittedAt: ns(table.submittedAt[r.id]),
            zone: zoneAt(i, ranked.length, sizes),
            slot: r.slot,
        };
        const metadata = metadataOf(table, r.id);
        if (metadata !== undefined) entry.metadata = JSON.parse(metadata) as DivisionEntry['metadata'];
        const tiebreak = tiebreakOf(table, r.id);
        if (tiebreak !== undefined) entry.tiebreak = tiebreak;
        if (r.slot === you) entry.you = true;
        return entry;
    });
}

/** The board's current period (start and end, µs), as reads see it at `now`. */
function periodNow(ctx: Ctx, board: BoardRecord): { start: number; end: number } {
    const start = currentPeriod(board, ctx.env.now());
    return { start, end: periodEnd(ruleOf(board), start) };
}

/** A player's division this period on a league board, ranked with zones; 404 for other boards or an unknown player. */
export function division(ctx: Ctx, req: Untrusted<RequestOf<'division'>>): Division {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const playerId = requirePlayerRef(req.playerId);
    const state = requireLeague(game, board);
    const slot = findSlot(ctx, game.record.gameId, playerId);
    if (slot === undefined) throw new Fail(404, MESSAGES.playerNotFound);
    const league = board.league!;
    const { start, end } = periodNow(ctx, board);
    const d = state.current.period === start ? divisionOf(state.current, slot) : undefined;
    const record = d === undefined ? undefined : state.current.divisions[d - 1];
    const tier = record === undefined ? tierOf(state, league, slot) : Math.min(record.tier, league.tiers.length - 1);
    const all = divisionEntries(game, board, liveTable(ctx, game, board), record?.members ?? [], tier, slot);
    const sizes = zoneSizes(league, tier, league.divisionSize);
    const own = all.find((e) => e.you === true);
    return {
        scoreboardId: board.scoreboardId,
        periodStart: ns(start),
        periodEnd: ns(end),
        tier: { index: tier, name: league.tiers[tier]! },
        tiers: league.tiers.length,
        division: record === undefined ? null : d!,
        promote: sizes.promote,
        demote: sizes.demote,
        entries: all.map(({ slot: _slot, ...e }) => e),
        player: own === undefined ? null : { rank: own.rank, zone: own.zone },
    };
}

/** A league board's tiers and a page of one tier's divisions (default tier 0), with player ids, for its developer. */
export function devLeague(ctx: Ctx, req: Untrusted<RequestOf<'dev_league'>>): LeagueView {
    const { game } = ownedGame(ctx, req, false);
    const board = boardOf(game, req.boardId);
    const state = requireLeague(game, board);
    const league = board.league!;
    const tier = req.tier === undefined ? 0 : req.tier;
    if (typeof tier !== 'number' || !Number.isInteger(tier) || tier < 0 || tier >= league.tiers.length)
        throw new Fail(400, invalid('tier', `must be a tier index from 0 to ${league.tiers.length - 1}`));
    const offset = typeof req.offset === 'number' && Number.isInteger(req.offset) && req.offset >= 0 ? req.offset : 0;
    const limit =
        typeof req.limit === 'number' && Number.isFinite(req.limit)
            ? Math.max(1, Math.min(DIVISIONS_PER_PAGE, Math.floor(req.limit)))
            : DIVISIONS_PER_PAGE;
    const { start, end } = periodNow(ctx, board);
    const live = state.current.period === start;
    const tiers = league.tiers.map((name, index) => ({ index, name, players: 0, divisions: 0 }));
    const ofTier: number[] = [];
    if (live)
        state.current.divisions.forEach((d, i) => {
            if (d === undefined) return;
            const t = tiers[Math.min(d.tier, tiers.length - 1)]!;
            t.players += d.members.length;
            t.divisions++;
            if (t.index === tier) ofTier.push(i + 1);
        });
    const table = liveTable(ctx, game, board);
    const divisions = ofTier.slice(offset, offset + limit).map((n) => {
        const d = state.current.divisions[n - 1]!;
        const entries = divisionEntries(game, board, table, d.members, tier).map(({ slot, ...e }) => ({
            ...e,
            playerId: playerOfSlot(ctx, game, slot),
        }));
        return { division: n, tier, size: d.members.length, entries };
    });
    return {
        tiers,
        periodStart: ns(start),
        periodEnd: ns(end),
        closing: state.pending?.left ?? 0,
        divisions,
    };
}
