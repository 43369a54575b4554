// The service's state: the stable store (truth), the clock and randomness, and the heap
// tables of every game; how the heap is rebuilt at start, saved before an upgrade and
// restored after it.
import type { SortBy } from '../api';
import { periodStart, type PeriodRule } from '../domain/periods';
import { isCurrentEntry, type BoardRecord, type GameRecord, type PlayerRecord, type Stats } from './records';
import { playerKey, type Store } from './store';
import {
    boardTableImage, createBoardTable, createPlayerTable, playerTableImage, putEntry, restoreBoardTable, restorePlayerTable,
    setPlayer, type BoardTable, type PlayerTable, type TableImage,
} from './tables';

export interface Env {
    /** Current time, µs since the epoch (exact in a double; replies show ns). */
    now(): number;
    /** Random bytes from a CSPRNG (seeded by the IC's raw_rand in the canister). */
    random(n: number): Uint8Array;
}

/** A game with its heap tables. */
export interface GameState {
    record: GameRecord;
    players: PlayerTable;
    /** Profile bests: the all-time board and the global leaderboard (ranked by score and by streak). */
    global: BoardTable;
    /** Every other board's current period. */
    boards: Map<string, BoardTable>;
    /** When each board's current period ends (ns), so the rollover check is one comparison. */
    periodEnds: Map<string, number>;
}

export interface Ctx {
    store: Store;
    env: Env;
    games: Map<string, GameState>;
    /** Counters, read once from the store and written back by flushStats (once per call). */
    stats: Map<string, Stats>;
    dirtyStats: Set<string>;
    /** Games whose heap tables are still being rebuilt from records: the next slot to read. */
    rebuilding: Map<string, number>;
}

export class Fail extends Error {
    constructor(readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 503, message: string) {
        super(message);
    }
}

export const SNAPSHOT_VERSION = 1;

export function ruleOf(board: BoardRecord): PeriodRule {
    return { period: board.period, days: board.days, anchor: board.createdAt };
}

export function boardRanks(board: BoardRecord): SortBy[] {
    return [board.sortBy];
}

export function newBoardTable(board: BoardRecord, period = board.periodStart): BoardTable {
    return createBoardTable(period, boardRanks(board));
}

export function emptyGameState(record: GameRecord): GameState {
    const boards = new Map<string, BoardTable>();
    for (const b of record.boards) if (b.scoreboardId !== 'all-time') boards.set(b.scoreboardId, newBoardTable(b));
    return { record, players: createPlayerTable(), global: createBoardTable(0, ['score', 'streak']), boards, periodEnds: new Map() };
}

export function gameOf(ctx: Ctx, gameId: string): GameState {
    const game = ctx.games.get(gameId);
    if (game === undefined) throw new Fail(404, 'Game not found');
    return game;
}

export function saveGame(ctx: Ctx, game: GameState): void {
    ctx.store.games.set(game.record.gameId, game.record);
}

/** A game's counters ('*' for the platform), with `today` starting over each UTC day. */
export function statsOf(ctx: Ctx, key: string): Stats {
    const day = Math.floor(ctx.env.now() / 86_400_000_000) * 86_400_000;
    let stats = ctx.stats.get(key);
    if (stats === undefined) {
        stats = ctx.store.stats.get(key) ?? { players: 0, plays: 0, submissions: 0, today: 0, day };
        ctx.stats.set(key, stats);
    }
    return stats.day === day ? stats : { ...stats, today: 0, day };
}

export function updateStats(ctx: Ctx, key: string, change: (stats: Stats) => Stats): void {
    ctx.stats.set(key, change(statsOf(ctx, key)));
    ctx.dirtyStats.add(key);
}

/** Writes the counters changed since the last flush (each mutating call ends with this). */
export function flushStats(ctx: Ctx): void {
    for (const key of ctx.dirtyStats) ctx.store.stats.set(key, ctx.stats.get(key)!);
    ctx.dirtyStats.clear();
}

// ---- start-up --------------------------------------------------------------------------------

/**
 * Loads every game: from the pre-upgrade snapshot when there is a valid one, else from the
 * records. Rebuilding from records costs ~1 M instructions per player, so at most
 * `rebuildNow` players are read here; the rest is left to `rebuildSome` (a timer), while
 * the service already answers (boards fill up as the rebuild goes).
 */
export function loadGames(ctx: Ctx, rebuildNow = Infinity): 'snapshot' | 'records' {
    ctx.games.clear();
    ctx.stats.clear();
    ctx.dirtyStats.clear();
    ctx.rebuilding.clear();
    const records = ctx.store.games.first(ctx.store.games.size()).map(([, r]) => r);
    const restored = restoreSnapshot(ctx, records);
    // A snapshot is only good for the state it was taken from: drop it once used (or stale).
    clearSnapshot(ctx);
    if (restored) return 'snapshot';
    for (const record of records) {
        ctx.games.set(record.gameId, emptyGameState(record));
        ctx.rebuilding.set(record.gameId, 0);
    }
    rebuildSome(ctx, rebuildNow);
    return 'records';
}

/** Reads up to `maxPlayers` more player records into the heap tables; true when all are in. */
export function rebuildSome(ctx: Ctx, maxPlayers: number): boolean {
    let budget = maxPlayers;
    for (const [gameId, next] of ctx.rebuilding) {
        const game = ctx.games.get(gameId);
        const players = statsOf(ctx, gameId).players;
        let slot = next;
        for (; slot < players && budget > 0; slot++, budget--) {
            const playerId = ctx.store.slots.get(`${gameId}/${slot}`);
            const player = playerId === undefined ? undefined : ctx.store.players.get(playerKey(gameId, playerId));
            // Submits since the upgrade indexed their players already; indexing again is harmless.
            if (game !== undefined && player !== undefined) indexPlayer(game, player);
        }
        if (slot >= players || game === undefined) ctx.rebuilding.delete(gameId);
        else ctx.rebuilding.set(gameId, slot);
        if (budget === 0) break;
    }
    return ctx.rebuilding.size === 0;
}

/** Puts a player's record into the game's heap tables. */
export function indexPlayer(game: GameState, player: PlayerRecord): void {
    setPlayer(game.players, player.slot, player.nickname, player.authType);
    if (player.best !== undefined) putEntry(game.global, player.slot, player.best, player.bestAt ?? player.best.scoreAt);
    for (const boardId of Object.keys(player.boards)) {
        const entry = player.boards[boardId]!;
        const board = game.record.boards.find((b) => b.scoreboardId === boardId);
        const table = game.boards.get(boardId);
        if (board !== undefined && table !== undefined && isCurrentEntry(entry, { ...board, periodStart: table.period })) {
            putEntry(table, player.slot, entry, entry.submittedAt);
        }
    }
}

// ---- snapshots -----------------------------------------------------------------------------------

interface Manifest {
    version: number;
    /** Stored as the last part, so a snapshot cut short has no manifest. */
    games: Array<{ gameId: string; parts: Array<{ name: string; meta: unknown; chunks: number }> }>;
}

/** Writes every game's heap tables to stable memory (pre_upgrade). */
export function writeSnapshot(ctx: Ctx): number {
    clearSnapshot(ctx);
    const manifest: Manifest = { version: SNAPSHOT_VERSION, games: [] };
    let n = 0;
    for (const game of ctx.games.values()) {
        const images: Array<[string, TableImage]> = [
            ['players', playerTableImage(game.players)],
            ['global', boardTableImage(game.global)],
            ...[...game.boards].map(([id, table]): [string, TableImage] => [`board:${id}`, boardTableImage(table)]),
        ];
        const parts = images.map(([name, image]) => {
            image.chunks.forEach((chunk, i) => ctx.store.snapshot.set(`${n}/${i}`, chunk));
            n++;
            return { name, meta: image.meta, chunks: image.chunks.length };
        });
        manifest.games.push({ gameId: game.record.gameId, parts });
    }
    ctx.store.meta.set('snapshot', manifest);
    return n;
}

function restoreSnapshot(ctx: Ctx, records: GameRecord[]): boolean {
    const manifest = ctx.store.meta.get('snapshot') as Manifest | undefined;
    if (manifest === undefined || manifest.version !== SNAPSHOT_VERSION) return false;
    const byId = new Map(records.map((r) => [r.gameId, r]));
    if (manifest.games.length !== byId.size || manifest.games.some((g) => !byId.has(g.gameId))) return false;
    try {
        let n = 0;
        for (const entry of manifest.games) {
            const record = byId.get(entry.gameId)!;
            const game = emptyGameState(record);
            for (const part of entry.parts) {
                const chunks: Uint8Array[] = [];
                for (let i = 0; i < part.chunks; i++) {
                    const chunk = ctx.store.snapshot.get(`${n}/${i}`);
                    if (chunk === undefined) throw new Error('missing snapshot chunk');
                    chunks.push(chunk);
                }
                n++;
                const image = { meta: part.meta, chunks };
                if (part.name === 'players') game.players = restorePlayerTable(image);
                else if (part.name === 'global') game.global = restoreBoardTable(image);
                else if (game.boards.has(part.name.slice(6))) game.boards.set(part.name.slice(6), restoreBoardTable(image));
            }
            ctx.games.set(record.gameId, game);
        }
        return true;
    } catch {
        ctx.games.clear();
        return false;
    }
}

function clearSnapshot(ctx: Ctx): void {
    ctx.store.meta.delete('snapshot');
    for (;;) {
        const batch = ctx.store.snapshot.first(100);
        if (batch.length === 0) break;
        for (const [key] of batch) ctx.store.snapshot.delete(key);
    }
}

/** The start of the board's current period at `now`. */
export function currentPeriod(board: BoardRecord, now: number): number {
    return periodStart(ruleOf(board), now);
}
