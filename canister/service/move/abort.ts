// Aborting a move on either side: the source unfreezes the game, the target drops a half import.
import type { RequestOf } from '../../../contract/canister';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import { forgetImport } from './in';
import { dropStaged, gameIdOf, inMoves, outMoves, purgeLater, saveIn, saveOut } from './records';

/** Either side: the source unfreezes the game (its export dropped); the target drops a half import. */
export function moveAbort(ctx: Ctx, req: Untrusted<RequestOf<'move_abort'>>): { message: string } {
    const gameId = gameIdOf(req);
    const moves = outMoves(ctx);
    const out = moves[gameId];
    if (out !== undefined) {
        dropStaged(ctx, out);
        delete moves[gameId];
        saveOut(ctx, moves);
        if (out.backup) return { message: `The backup of '${gameId}' staged here was dropped.` };
        return { message: `The move of '${gameId}' was aborted: its writes go on here.` };
    }
    const ins = inMoves(ctx);
    const move = ins[gameId];
    if (move !== undefined) {
        forgetImport(gameId);
        delete ins[gameId];
        saveIn(ctx, ins);
        // What was written goes like a deleted game's records.
        if (move.next > 0) purgeLater(ctx, gameId, move.record, move.players, move.events);
        return { message: `The import of '${gameId}' was dropped.` };
    }
    throw new Fail(404, `'${gameId}' is not moving here`);
}
