// Moving a game to another canister (`npm run admin -- move-game`): the source stages the
// export (its writes paused), the chunks go over in order, the target activates the game, the
// directory learns where it is, the source drops its copy. Re-running after a crash goes on
// from where it stopped: staging resumes, the target tells which chunk comes next.
import { METHODS, type Method, type Relayed, type ReplyOf } from '../contract/canister';
import type { CanisterClient } from './canister';
import { canisterFailure } from './errors';

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

async function ok<M extends Method>(client: CanisterClient, method: M, request: Relayed<M>): Promise<ReplyOf<M>> {
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
    let located = false;
    // The directory part's method (issue 27): only where the canister has it.
    const setLocation = 'admin_set_location' as Method;
    if (setLocation in METHODS) {
        const reply = await directory.relay(setLocation, { gameId, canisterId: to } as never);
        if ('err' in reply) throw canisterFailure(reply.err);
        located = true;
    }
    await ok(source, 'move_out_end', { gameId, to });
    const report: MoveReport = {
        gameId,
        from: source.canisterId.toText(),
        to,
        players: begun.players,
        chunks: begun.chunks,
        bytes: begun.bytes,
        seconds: (Date.now() - started) / 1000,
        located,
    };
    log(`moved ${gameId}: ${report.chunks} chunks, ${report.bytes} bytes in ${elapsed()}`);
    return report;
}
