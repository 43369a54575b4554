// `npm run admin -- import-game <file>`: a game's backup file (docs/backups.md) into this
// service. The whole file is checked first (format, version, every line against the trailer);
// its records go to the directory in chunks (the canister checks each record), the game becomes
// the named developer's under a new API key, and on a directory with shards it then moves to
// the shard taking new games that holds the fewest, as move-games places games. Any failure
// drops the half import: nothing changes.
import { readFileSync } from 'node:fs';

import type { ReplyOf } from '../../contract/canister';
import { gamesOn, serviceOf } from './folder';
import { chunksOf, readBackup } from './game-file';
import type { CanisterClient } from '../ic/canister';
import { moveGame, ok } from '../ops/move-game';

export interface ImportReport {
    gameId: string;
    apiKey: string;
    developerId: string;
    players: number;
    /** The canister that holds the game now. */
    canisterId: string;
}

/** The placing shard holding the fewest games, or undefined on a single canister. */
async function shardFor(directory: CanisterClient): Promise<CanisterClient | undefined> {
    if (directory.forCanister === undefined) return undefined;
    const { placing, client } = await serviceOf(directory);
    const [fewest] = [...(await gamesOn(placing, client))].sort((a, b) => a[1] - b[1]);
    return fewest === undefined ? undefined : client(fewest[0]);
}

/** Imports the backup file at `path` for `developerId`; progress goes to `log`. */
export async function importGame(
    path: string,
    directory: CanisterClient,
    developerId: string,
    log: (line: string) => void,
): Promise<ImportReport> {
    const { header, records } = readBackup(readFileSync(path, 'utf8'));
    const gameId = header.gameId;
    const chunks = chunksOf(records);
    log(`${gameId}: ${records.length} records in ${chunks.length} chunk(s), exported ${header.exportedAt}`);
    let imported: ReplyOf<'admin_import_end'>;
    let started = false;
    try {
        for (let index = 0; index < chunks.length; index++) {
            await ok(directory, 'admin_import_chunk', { gameId, index, data: chunks[index] });
            started = true;
        }
        imported = await ok(directory, 'admin_import_end', { gameId, chunks: chunks.length, developerId });
    } catch (e) {
        // This import's half goes (never anything of a game of that id that was there before).
        if (started) await directory.relay('move_abort', { gameId }).catch(() => undefined);
        throw e;
    }
    let canisterId = directory.canisterId.toText();
    const shard = await shardFor(directory);
    if (shard !== undefined) {
        const moved = await moveGame(gameId, directory, shard, log, directory);
        canisterId = moved.to;
    }
    return { gameId, apiKey: imported.apiKey, developerId, players: imported.players, canisterId };
}
