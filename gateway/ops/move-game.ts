// Moving a game to another canister (`npm run admin -- move-game`): the source stages the
// export (its writes paused), the chunks go over in order, the target activates the game, the
// directory learns where it is, the source drops its copy. Re-running after a crash goes on
// from where it stopped: staging resumes, the target tells which chunk comes next. `moveGames`
// (`move-games`, `deploy --move-games`) moves every game a directory holds to its shards.
import { Principal } from '@dfinity/principal';

import type { Method, Relayed, ReplyOf } from '../../contract/canister';
import type { CanisterClient } from '../ic/canister';
import { canisterFailure } from '../http/errors';

export interface MoveReport {
    gameId: string;
    from: string;
    to: string;
    players: number;
    chunks: number;
    bytes: number;
    seconds: number;
    /** Whether the directory was told (admin_set_location). */
    located: boolean;
}

/** A call's `ok`, or its `{err}` thrown as the client's failure. */
export async function ok<M extends Method>(
    client: CanisterClient,
    method: M,
    request: Relayed<M>,
): Promise<ReplyOf<M>> {
    const reply = await client.relay(method, request);
    if ('err' in reply) throw canisterFailure(reply.err);
    return reply.ok;
}

/**
 * Moves `gameId` from `source` to `target`; `directory` (when the source is not it) is told the
 * new location through `admin_set_location` when it has that method. Progress goes to `log`.
 */
export async function moveGame(
    gameId: string,
    source: CanisterClient,
    target: CanisterClient,
    log: (line: string) => void,
    directory: CanisterClient = source,
): Promise<MoveReport> {
    const started = Date.now();
    const to = target.canisterId.toText();
    if (to === source.canisterId.toText()) throw new Error('The game is on that canister already');
    const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    // A directory with shards places games on them only: the target must be one of its canisters
    // (checked before anything moves), and it learns the new location. Without shards (canisters
    // side by side) there is no location to keep.
    const shards = await ok(directory, 'list_shards', {});
    const sharded = shards.shards.length > 1;
    if (sharded && !shards.shards.some((s) => s.canisterId === to))
        throw new Error(`${to} is not a canister of this directory (list_shards)`);
    let begun = await ok(source, 'move_out_begin', { gameId });
    log(`staging ${gameId}: ${begun.players} players, writes paused`);
    while (!begun.ready) {
        begun = await ok(source, 'move_out_begin', { gameId });
        log(`staged ${begun.chunks} chunks, ${begun.bytes} bytes (${elapsed()})`);
    }
    // The target says which chunk it needs (a move that stopped half-way goes on from there).
    let next = 0;
    for (let index = 0; index < begun.chunks; index = Math.max(index + 1, next)) {
        if (index < next) continue;
        const { data } = await ok(source, 'move_out_chunk', { gameId, index });
        ({ next } = await ok(target, 'move_in_chunk', { gameId, index, data }));
        if (next % 10 === 0 || next === begun.chunks) log(`sent ${next}/${begun.chunks} chunks (${elapsed()})`);
    }
    await ok(target, 'move_in_end', { gameId, chunks: begun.chunks, checksum: begun.checksum });
    log(`${gameId} is active on ${to} (${elapsed()})`);
    if (sharded) await ok(directory, 'admin_set_location', { gameId, canisterId: to });
    await ok(source, 'move_out_end', { gameId, to });
    const report: MoveReport = {
        gameId,
        from: source.canisterId.toText(),
        to,
        players: begun.players,
        chunks: begun.chunks,
        bytes: begun.bytes,
        seconds: (Date.now() - started) / 1000,
        located: sharded,
    };
    log(`moved ${gameId}: ${report.chunks} chunks, ${report.bytes} bytes in ${elapsed()}`);
    return report;
}

// ---- every game the directory holds, to its shards (`move-games`, `deploy --move-games`) -------------------

export interface MoveGamesOptions {
    /** The shard every game goes to; default: for each game, the shard taking new games that holds the fewest. */
    to?: string;
    /** Aborts the interrupted moves instead (their writes resume on the directory); nothing else moves. */
    abort?: boolean;
    log: (line: string) => void;
}

export interface MoveGamesReport {
    /** The games moved by this run, in order. */
    moved: MoveReport[];
    /** Interrupted moves completed: a shard had activated the game; the directory now points there and dropped its copy. */
    finished: string[];
    /** Interrupted moves aborted (`abort`). */
    aborted: string[];
    /** The games the directory still holds after the run. */
    remaining: string[];
}

/** The `ok` of a call, or undefined for an `{err}` of `status` (what the caller expects may be absent). */
async function unless<M extends Method>(
    status: number,
    client: CanisterClient,
    method: M,
    request: Relayed<M>,
): Promise<ReplyOf<M> | undefined> {
    const reply = await client.relay(method, request);
    if ('ok' in reply) return reply.ok;
    if (reply.err.status === status) return undefined;
    throw canisterFailure(reply.err);
}

/**
 * Moves every game the directory (`directory`: an operator's client of it, reaching its shards
 * through `forCanister`) still holds to a shard, one at a time, each paused only during its own
 * move. Idempotent: a second run moves nothing. A move interrupted earlier is finished (a shard
 * had activated the game: the directory points to it and drops its copy; a half-sent one goes on
 * where it stopped) or, with `abort`, aborted on both sides.
 */
export async function moveGames(directory: CanisterClient, o: MoveGamesOptions): Promise<MoveGamesReport> {
    const self = directory.canisterId.toText();
    const listed = (await ok(directory, 'list_shards', {})).shards;
    if (listed[0]?.role !== 'directory') throw new Error(`${self} is a shard: name its directory`);
    const shards = listed.slice(1);
    if (shards.length === 0)
        throw new Error('The directory has no shards: create one first (npm run deploy -- --shards 1)');
    if (o.to !== undefined && !shards.some((s) => s.canisterId === o.to))
        throw new Error(`${o.to} is not a shard of this directory (list_shards)`);
    const forCanister = directory.forCanister;
    if (forCanister === undefined) throw new Error('This client reaches one canister only: it cannot reach the shards');
    const clients = new Map<string, CanisterClient>();
    const client = (id: string): CanisterClient => {
        if (id === self) return directory;
        let c = clients.get(id);
        if (c === undefined) clients.set(id, (c = forCanister(Principal.fromText(id))));
        return c;
    };
    // The directory lists its own games (a copy whose move was cut short too), then its views of the shards'.
    const listedGames = (await ok(directory, 'admin_list_games', {})).map((g) => g.gameId);
    const times = new Map<string, number>();
    for (const id of listedGames) times.set(id, (times.get(id) ?? 0) + 1);
    const load = new Map(shards.map((s) => [s.canisterId, 0]));
    const held: string[] = [];
    const report: MoveGamesReport = { moved: [], finished: [], aborted: [], remaining: [] };
    for (const [gameId, count] of times) {
        const location = await unless(404, directory, 'locate_game', { gameId });
        if (location === undefined) continue;
        if (location.canisterId === self) {
            held.push(gameId);
            continue;
        }
        load.set(location.canisterId, (load.get(location.canisterId) ?? 0) + 1);
        // Located on a shard and still listed here: cut short after admin_set_location.
        if (count > 1) {
            await ok(directory, 'move_out_end', { gameId, to: location.canisterId });
            o.log(`${gameId}: finished the move to ${location.canisterId} (the directory dropped its copy)`);
            report.finished.push(gameId);
        }
    }
    held.sort();
    o.log(`${held.length} game(s) on the directory${o.abort ? '' : ` to move to ${shards.length} shard(s)`}`);
    for (const gameId of held) {
        // A shard that activated the game already (cut short after move_in_end): only the last two steps remain.
        let holder: string | undefined;
        for (const s of shards) {
            const at = await unless(404, client(s.canisterId), 'locate_game', { gameId });
            if (at?.canisterId === s.canisterId) holder = s.canisterId;
        }
        if (holder !== undefined) {
            await ok(directory, 'admin_set_location', { gameId, canisterId: holder });
            await ok(directory, 'move_out_end', { gameId, to: holder });
            o.log(`${gameId}: finished the move to ${holder}`);
            report.finished.push(gameId);
            load.set(holder, (load.get(holder) ?? 0) + 1);
            continue;
        }
        if (o.abort) {
            const resumed = await unless(404, directory, 'move_abort', { gameId });
            for (const s of shards) await unless(404, client(s.canisterId), 'move_abort', { gameId });
            if (resumed !== undefined) {
                o.log(`${gameId}: move aborted, its writes go on on the directory`);
                report.aborted.push(gameId);
            }
            report.remaining.push(gameId);
            continue;
        }
        const target =
            o.to ??
            shards
                .filter((s) => s.placing)
                .sort((a, b) => (load.get(a.canisterId) ?? 0) - (load.get(b.canisterId) ?? 0))[0]?.canisterId;
        if (target === undefined)
            throw new Error('No shard takes new games: create one (npm run deploy -- --shards <n>) or name one');
        report.moved.push(await moveGame(gameId, directory, client(target), (line) => o.log(line), directory));
        load.set(target, (load.get(target) ?? 0) + 1);
        // A half import an earlier run left on another shard (placement chose another one then).
        for (const s of shards)
            if (s.canisterId !== target) await unless(404, client(s.canisterId), 'move_abort', { gameId });
    }
    return report;
}
