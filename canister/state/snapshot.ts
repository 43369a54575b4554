// The heap tables as raw bytes in stable memory: written by pre_upgrade, read back by
// post_upgrade, then dropped (a snapshot is only good for the state it was taken from).
// Filter indexes are not in it: a restored table fills them again from its metadata map
// (filters.ts declareFilters), one pass over the entries with metadata.
import type { Ctx } from './context';
import { allTimeBoard, emptyGameState, scoreOrderOf, withFilters } from './game-state';
import type { BoardRecord, GameRecord, SnapshotManifest } from './records';
import type { SortOrder } from '../../contract/board-options';
import {
    boardTableImage,
    playerTableImage,
    restoreBoardTable,
    restorePlayerTable,
    type BoardTable,
    type TableImage,
} from './tables';

/**
 * The layout of the table snapshot this release writes, and the ones it reads (2: a board's slot
 * map as keys and values); a snapshot of another version is ignored (tables are rebuilt).
 */
const TABLES_SNAPSHOT_VERSION = 3;
const READABLE_VERSIONS: readonly number[] = [2, TABLES_SNAPSHOT_VERSION];

type Manifest = SnapshotManifest;

/**
 * Writes every game's heap tables to stable memory (pre_upgrade). One table's image at a time:
 * an image copies the table's arrays (not its rank indexes), and it is garbage once written, so
 * the heap needs room for the largest table's copy only (~60 B a player), not a whole game's
 * (canister/service/capacity.ts: what the heap line leaves room for).
 */
export function writeSnapshot(ctx: Ctx): number {
    clearSnapshot(ctx);
    const manifest: Manifest = { version: TABLES_SNAPSHOT_VERSION, games: [] };
    let n = 0;
    for (const game of ctx.games.values()) {
        const images: Array<[string, () => TableImage]> = [
            ['players', () => playerTableImage(game.players)],
            ['global', () => boardTableImage(game.global)],
            ...[...game.boards].map(([id, table]): [string, () => TableImage] => [
                `board:${id}`,
                () => boardTableImage(table),
            ]),
        ];
        const parts = images.map(([name, imageOf]) => {
            const image = imageOf();
            image.chunks.forEach((chunk, i) => ctx.store.snapshot.set(`${n}/${i}`, chunk));
            n++;
            return { name, meta: image.meta, chunks: image.chunks.length };
        });
        manifest.games.push({ gameId: game.record.gameId, parts, retired: [...game.retired] });
    }
    ctx.store.meta.set('snapshot', manifest);
    return n;
}

export function restoreSnapshot(ctx: Ctx, records: GameRecord[]): boolean {
    const manifest = ctx.store.meta.get('snapshot');
    if (manifest === undefined || !READABLE_VERSIONS.includes(manifest.version)) return false;
    const version = manifest.version;
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
                else if (part.name === 'global')
                    game.global = withFilters(
                        ordered(restoreBoardTable(image, version), scoreOrderOf(record.standardBoards ?? {})),
                        allTimeBoard(record),
                    );
                else {
                    const board = record.boards.find((b) => b.scoreboardId === part.name.slice(6));
                    if (board !== undefined && game.boards.has(board.scoreboardId))
                        game.boards.set(
                            board.scoreboardId,
                            withFilters(
                                withTiebreak(ordered(restoreBoardTable(image, version), scoreOrderOf(board)), board),
                                board,
                            ),
                        );
                }
            }
            game.retired = new Map(entry.retired ?? []);
            ctx.games.set(record.gameId, game);
        }
        return true;
    } catch {
        ctx.games.clear();
        return false;
    }
}

/** A restored table whose score index ranks the other way than its board (never expected) is not used: rebuild. */
function ordered(table: BoardTable, order: SortOrder): BoardTable {
    if (table.byScore !== undefined && table.byScore.order !== order)
        throw new Error('snapshot: a score index is ordered unlike its board');
    return table;
}

/**
 * A restored board table takes its board's tiebreak (the snapshot holds the index with its fourth
 * field, not the option); an index made for another tiebreak setting is not used: rebuild.
 */
function withTiebreak(table: BoardTable, board: BoardRecord): BoardTable {
    const tiebreak = board.sortBy === 'score' ? board.tiebreak : undefined;
    if (table.byScore !== undefined && table.byScore.withSub !== (tiebreak !== undefined))
        throw new Error('snapshot: a score index does not match its board tiebreak');
    if (tiebreak !== undefined) table.tiebreak = tiebreak;
    return table;
}

export function clearSnapshot(ctx: Ctx): void {
    ctx.store.meta.delete('snapshot');
    for (;;) {
        const batch = ctx.store.snapshot.first(100);
        if (batch.length === 0) break;
        for (const [key] of batch) ctx.store.snapshot.delete(key);
    }
}
