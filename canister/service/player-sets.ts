// A set of players on a board (friends, a clan): the ids asked for, each once, ranked among
// themselves in board order, each with their rank on the whole board and its percentile. Costs
// O(k log n): per id one player lookup and a few descents of the board's rank index.
import { percentile, parsePlayerSet } from '../../contract/board-options';
import type { RequestOf } from '../../contract/canister';
import { FIELD } from '../../contract/messages';
import type { PlayerSet } from '../../contract/schemas';
import { Fail } from '../domain/fail';
import type { Ctx, Untrusted } from '../state/context';
import { requireGame } from '../state/game-state';
import { entryCount, entryOf, rankIndex } from '../state/tables';
import { isPlayerRef } from './credentials';
import { findSlot } from './players';
import { tiesOf } from './ranks';
import { boardOf, entryAt, liveTable } from './reads';

export function boardPlayers(ctx: Ctx, req: Untrusted<RequestOf<'board_players'>>): PlayerSet {
    const game = requireGame(ctx, req.gameId);
    const board = boardOf(game, req.boardId);
    const parsed = parsePlayerSet(req.playerIds, isPlayerRef, FIELD.playerId);
    if ('error' in parsed) throw new Fail(400, parsed.error);
    const table = liveTable(ctx, game, board);
    const totalEntries = table === undefined ? 0 : entryCount(table);
    const found: Array<{ playerId: string; id: number; place: number }> = [];
    const missing: string[] = [];
    for (const playerId of parsed.ok) {
        const slot = table === undefined ? undefined : findSlot(ctx, game.record.gameId, playerId);
        const id = slot === undefined ? undefined : entryOf(table!, slot);
        const place = id === undefined ? undefined : rankIndex(table!, board.sortBy).rank(id);
        if (place === undefined) missing.push(playerId);
        else found.push({ playerId, id: id!, place });
    }
    if (table === undefined) return { scoreboardId: board.scoreboardId, entries: [], missing, totalEntries };
    found.sort((a, b) => a.place - b.place);
    const ties = tiesOf(board);
    const values = board.sortBy === 'streak' ? table.streak : table.score;
    let rank = 0;
    const entries = found.map(({ playerId, id, place }, i) => {
        // Among the set: a new value starts at its place in the set; an equal one shares the rank above it.
        if (ties === 'distinct' || i === 0 || values[id] !== values[found[i - 1].id]) rank = i + 1;
        const { rank: globalRank, ...entry } = entryAt(game, table, board.sortBy, place, ties);
        return { playerId, rank, globalRank, percentile: percentile(globalRank, totalEntries), ...entry };
    });
    return { scoreboardId: board.scoreboardId, entries, missing, totalEntries };
}
