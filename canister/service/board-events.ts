// The events of a board's top: `new_leader` and `overtaken` when a submit moves an entry up
// inside the board's top N (BoardConfig.eventTop), by the board's order, operator, sortBy and
// ties. The common case costs one comparison: a value strictly worse than the board's cached
// N-th value (BoardTable.eventCut) enters no top N. Clients' submits record at most
// CLIENT_OVERTAKEN `overtaken` events a game (a flood of rising scores would make ten a board).
import { CLIENT_OVERTAKEN, EVENT_TOP } from '../../contract/event-log';
import type { EventEntry } from '../../contract/events';
import type { Best } from '../domain/bests';
import type { RankIndex, RankKey } from '../domain/rank-index';
import type { Ctx, GameState } from '../state/context';
import type { BoardRecord } from '../state/records';
import { slotPlayer } from '../state/slots';
import { updateStats } from '../state/stats';
import { entryOf, nicknameOf, rankIndex, tiebreakKey, type BoardTable } from '../state/tables';
import { hasEventReader, recordEvent, type EventCause } from './events';
import { sharedRanker, tiesOf } from './ranks';

/**
 * Player ids by slot of the players events name (the tops of boards: the same few again and
 * again), per game: a slot's player never changes in a game, so the heap keeps what a stable
 * read of its slot chunk found (at most ID_CACHE ids a game; then it starts over; a deleted
 * game's are dropped, and a game made again under its id has another createdAt).
 */
const ids = new WeakMap<Ctx, Map<string, Map<number, string>>>();
const ID_CACHE = 1024;

/** The player id of a slot of the game (cached: see `ids`). */
export function playerOfSlot(ctx: Ctx, game: GameState, slot: number): string {
    const key = `${game.record.gameId}/${game.record.createdAt}`;
    let games = ids.get(ctx);
    if (games === undefined) ids.set(ctx, (games = new Map()));
    let known = games.get(key);
    if (known === undefined) games.set(key, (known = new Map()));
    let id = known.get(slot);
    if (id === undefined) {
        id = slotPlayer(ctx, game.record.gameId, slot) ?? '';
        if (known.size >= ID_CACHE) known.clear();
        if (id !== '') known.set(slot, id);
    }
    return id;
}

/** Forgets a deleted game's cached ids. */
export function forgetPlayerIds(ctx: Ctx, game: GameState): void {
    ids.get(ctx)?.delete(`${game.record.gameId}/${game.record.createdAt}`);
}

/** How many of the board's top entries its events watch (0: none). */
export const eventTopOf = (board: BoardRecord): number => board.eventTop ?? EVENT_TOP.default;

/** Whether `a` ranks strictly ahead of `b` by value alone. */
const ahead = (a: number, b: number, asc: boolean): boolean => (asc ? a < b : a > b);

/** Whether lower values rank higher on the board's ranked field (streaks: always higher first). */
const asc = (table: BoardTable, board: BoardRecord): boolean =>
    board.sortBy === 'score' && table.byScore !== undefined && table.byScore.order === 'asc';

/** Remembers the value at rank n (or nothing while the board has fewer entries). */
function refreshCut(table: BoardTable, index: RankIndex, board: BoardRecord, n: number): void {
    const id = index.size() >= n ? index.select(n) : undefined;
    table.eventCut =
        id === undefined
            ? undefined
            : {
                  n,
                  sortBy: board.sortBy,
                  asc: index.order === 'asc',
                  value: board.sortBy === 'streak' ? table.streak[id] : table.score[id],
              };
}

/**
 * Records the events of a written entry of the board: `before` is the player's entry of this
 * period before the submit (undefined: a new entry), `after` as written to `table` (putEntry done).
 */
export function boardEvents(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    table: BoardTable,
    slot: number,
    playerId: string,
    before: Best | undefined,
    after: Best,
    cause: EventCause,
): void {
    // A game with neither a server key nor webhooks has no reader: one check for most submits.
    if (game.record.serverKey === undefined && game.record.webhooks === undefined) return;
    const n = eventTopOf(board);
    if (n === 0 || !(hasEventReader(game, 'new_leader') || hasEventReader(game, 'overtaken'))) return;
    const byStreak = board.sortBy === 'streak';
    const value = byStreak ? after.streak : after.score;
    const at = byStreak ? after.streakAt : after.scoreAt;
    const oldValue = before === undefined ? undefined : byStreak ? before.streak : before.score;
    const oldAt = before === undefined ? undefined : byStreak ? before.streakAt : before.scoreAt;
    // On a board with a tiebreak the score index ranks (score, tiebreak key, time, slot).
    const order = byStreak ? undefined : table.tiebreak;
    const tiebreak = order === undefined ? 0 : tiebreakKey(order, after.tiebreak);
    const oldTiebreak = order === undefined || before === undefined ? 0 : tiebreakKey(order, before.tiebreak);
    // Only an entry that moved up passes anyone (not one whose other field changed, nor a
    // `latest` entry that went down).
    if (
        oldValue !== undefined &&
        !ahead(value, oldValue, asc(table, board)) &&
        !(value === oldValue && (tiebreak < oldTiebreak || (tiebreak === oldTiebreak && at < oldAt!)))
    )
        return;
    const cut = table.eventCut;
    if (cut !== undefined && cut.n === n && cut.sortBy === board.sortBy && ahead(cut.value, value, cut.asc)) return;

    const index = rankIndex(table, board.sortBy);
    const lowFirst = index.order === 'asc';
    const id = entryOf(table, slot);
    const pos = id === undefined ? undefined : index.rank(id);
    if (id === undefined || pos === undefined) return;
    const ties = tiesOf(board);
    const shared = ties === 'shared';
    const rank = shared ? 1 + index.countBetter(value) : pos;
    if (rank > n) {
        refreshCut(table, index, board, n);
        return;
    }
    const values = byStreak ? table.streak : table.score;
    const entry = (x: number, xRank: number, xPlayerId?: string): EventEntry => ({
        rank: xRank,
        playerId: xPlayerId ?? playerOfSlot(ctx, game, table.slot[x]),
        nickname: nicknameOf(game.players, table.slot[x]),
        score: table.score[x],
        streak: table.streak[x],
    });
    const by = entry(id, rank, playerId);
    // Those now right below it, while they were ahead of its old entry and inside the top N
    // before: at most N (on a board with shared ranks, a tie group cut by that bound is named
    // by who reached its value first, as the board lists it).
    const below = index.range(pos + 1, n);
    const ranker = sharedRanker(table, board.sortBy, pos + 1, ties);
    const passed: EventEntry[] = [];
    for (let i = 0; i < below.length; i++) {
        const x = below[i]!;
        const xValue = values[x];
        const xRank = ranker === undefined ? pos + 1 + i : ranker(x, i);
        const key = (shared ? order !== undefined : before !== undefined) ? index.keyOf(x)! : undefined;
        if (before !== undefined) {
            if (shared) {
                // Shared ranks: strictly ahead before (a player level with it was not passed).
                const wasAhead =
                    ahead(xValue, oldValue!, lowFirst) ||
                    (key !== undefined && xValue === oldValue && key.at < oldTiebreak);
                if (!wasAhead) break;
            } else {
                const wasAhead =
                    ahead(key!.value, oldValue!, lowFirst) ||
                    (key!.value === oldValue &&
                        (order === undefined
                            ? key!.at < oldAt! || (key!.at === oldAt && key!.tie < slot)
                            : keyBefore(key!, oldTiebreak, oldAt!, slot)));
                if (!wasAhead) break;
            }
        }
        if (xRank - 1 > n) break;
        if (shared && xValue === value && (key === undefined || key.at === tiebreak)) continue;
        passed.push(entry(x, xRank));
    }
    const first = passed[0];
    if (rank === 1 && first !== undefined && first.rank === 2)
        recordEvent(
            ctx,
            game,
            { kind: 'new_leader', scoreboardId: board.scoreboardId, leader: by, previous: first },
            cause,
        );
    else if (rank === 1 && before === undefined && index.size() === 1)
        recordEvent(ctx, game, { kind: 'new_leader', scoreboardId: board.scoreboardId, leader: by }, cause);
    const recorded =
        cause === 'client' && passed.length > 0 ? clientOvertaken(ctx, game, passed.length) : passed.length;
    for (const player of passed.slice(0, recorded))
        recordEvent(ctx, game, { kind: 'overtaken', scoreboardId: board.scoreboardId, player, by }, cause);
    refreshCut(table, index, board, n);
}

/** Whether an index key (a board with a tiebreak: tiebreak key, time, slot) ranks before these. */
function keyBefore(key: RankKey, tiebreak: number, at: number, slot: number): boolean {
    return key.at < tiebreak || (key.at === tiebreak && (key.tie < at || (key.tie === at && key.sub! < slot)));
}

/** Each game's allowance of `overtaken` events from clients' submits (heap: an upgrade refills it). */
const allowances = new WeakMap<GameState, { left: number; at: number }>();

/**
 * How many of `n` overtaken events a client's submit records (CLIENT_OVERTAKEN: a burst,
 * refilled each minute); the rest are counted, never recorded. Only a game that records them spends.
 */
function clientOvertaken(ctx: Ctx, game: GameState, n: number): number {
    if (!hasEventReader(game, 'overtaken')) return n;
    const now = ctx.env.now();
    let allowance = allowances.get(game);
    if (allowance === undefined) allowances.set(game, (allowance = { left: CLIENT_OVERTAKEN.burst, at: now }));
    const refill = (Math.max(0, now - allowance.at) / 60e6) * CLIENT_OVERTAKEN.perMinute;
    allowance.left = Math.min(CLIENT_OVERTAKEN.burst, allowance.left + refill);
    allowance.at = now;
    const recorded = Math.min(n, Math.floor(allowance.left));
    allowance.left -= recorded;
    if (recorded < n)
        updateStats(ctx, game.record.gameId, (s) => ({
            ...s,
            overtakenSkipped: (s.overtakenSkipped ?? 0) + n - recorded,
        }));
    return recorded;
}
