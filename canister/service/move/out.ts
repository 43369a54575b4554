// The source of a move or a backup: it freezes the game's writes, stages its export, hands out the chunks, forgets it.
import { purgeGameLeagues } from '../leagues';
import type { RequestOf } from '../../../contract/canister';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import type { MoveOutRecord } from '../../state/records';
import { slotPlayers } from '../../state/slots';
import { statsOf } from '../../state/stats';
import { forgetPlayerIds } from '../board-events';
import { recount } from '../capacity';
import { forgetCodesOfGame } from '../device-codes';
import { eventSlots } from '../events';
import { refuseMoved } from '../move-gate';
import { checksumOf, chunkKey, dropStaged, gameIdOf, outMoves, purgeLater, saveOut } from './records';
import { Packer, stageGame, stagePlayer } from './stage';

/** Players staged per move_out_begin call (measured: see docs; far inside the 40 B update limit). */
export const STAGE_PLAYERS_PER_CALL = 5_000;

/**
 * Freezes the game's writes (first call) and stages its export, STAGE_PLAYERS_PER_CALL players
 * a call; call again until `ready`. Idempotent: a ready export is answered again as it is.
 */
export function moveOutBegin(
    ctx: Ctx,
    req: Untrusted<RequestOf<'move_out_begin'>>,
): { bytes: number; chunks: number; checksum: string; ready: boolean; players: number } {
    const gameId = gameIdOf(req);
    const backup = req.backup === true;
    if (req.backup !== undefined && typeof req.backup !== 'boolean')
        throw new Fail(400, 'Invalid backup: must be true or false');
    const moves = outMoves(ctx);
    let move: MoveOutRecord | undefined = moves[gameId];
    if (move !== undefined && (move.backup === true) !== backup)
        throw new Fail(
            409,
            move.backup
                ? `A backup of '${gameId}' is being taken: move it once that is done (or move_abort drops the backup)`
                : `'${gameId}' is moving: back it up once the move is done`,
        );
    // A backup staged earlier is not taken again: a new one starts from now.
    if (move !== undefined && backup && move.ready) {
        dropStaged(ctx, move);
        delete moves[gameId];
        move = undefined;
    }
    if (move === undefined) {
        refuseMoved(ctx, gameId);
        const game = ctx.games.get(gameId);
        if (game === undefined) throw new Fail(404, 'Game not found');
        if (ctx.rebuilding.has(gameId))
            throw new Fail(503, 'This game is still loading after an upgrade: move it once that is done', {
                retryAfter: 30,
            });
        move = {
            gameId,
            startedAt: ctx.env.now(),
            next: 0,
            players: statsOf(ctx, gameId).players,
            chunks: 0,
            bytes: 0,
            hashes: [],
            ready: false,
        };
        if (backup) move.backup = true;
        moves[gameId] = move;
        saveOut(ctx, moves); // frozen from here on
        // Stage the game's record and everything not kept per player; this call's work ends here.
        const packer = new Packer(ctx, move);
        stageGame(ctx, game, packer);
        packer.flush();
        saveOut(ctx, moves);
    } else if (!move.ready) {
        const game = ctx.games.get(gameId)!;
        const packer = new Packer(ctx, move);
        const count = Math.max(0, Math.min(STAGE_PLAYERS_PER_CALL, move.players - move.next));
        const ids = slotPlayers(ctx, gameId, move.next, count);
        for (const playerId of ids) if (playerId !== null) stagePlayer(ctx, game, playerId, packer);
        move.next += ids.length;
        packer.flush();
        if (move.next >= move.players) move.ready = true;
        saveOut(ctx, moves);
    }
    return {
        bytes: move.bytes,
        chunks: move.chunks,
        checksum: move.ready ? checksumOf(move.hashes) : '',
        ready: move.ready,
        players: move.players,
    };
}

/** One staged chunk (a query: reads go on). */
export function moveOutChunk(ctx: Ctx, req: Untrusted<RequestOf<'move_out_chunk'>>): { data: string } {
    const gameId = gameIdOf(req);
    const move = outMoves(ctx)[gameId];
    // Staged chunks never change: they may be read while the rest is staged.
    if (move === undefined) throw new Fail(409, `'${gameId}' is not moving: call move_out_begin`);
    const index = req.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= move.chunks)
        throw new Fail(400, `Invalid index: must be an integer from 0 to ${move.chunks - 1}`);
    const data = ctx.store.moveChunks.get(chunkKey(gameId, index));
    if (data === undefined) throw new Fail(409, `Chunk ${index} of '${gameId}' is missing: abort and move again`);
    return { data };
}

/**
 * After the target activated the game (and the directory points to it): the source forgets it
 * in bounded steps (the deleted-game purge) and answers `moved` for it from now on.
 */
export function moveOutEnd(ctx: Ctx, req: Untrusted<RequestOf<'move_out_end'>>): { message: string } {
    const gameId = gameIdOf(req);
    if (typeof req.to !== 'string' || !PRINCIPAL.test(req.to))
        throw new Fail(400, 'Invalid to: must be the principal text of the canister that holds the game now');
    const moves = outMoves(ctx);
    const move = moves[gameId];
    if (move === undefined) {
        if (ctx.movedTo.get(gameId) === req.to) return { message: `Game '${gameId}' moved to ${req.to}.` };
        throw new Fail(409, `'${gameId}' is not moving: call move_out_begin first`);
    }
    if (!move.ready) throw new Fail(409, `The export of '${gameId}' is not complete yet`);
    if (move.backup) throw new Fail(409, `'${gameId}' is being backed up, not moved: its copy here stays`);
    const game = ctx.games.get(gameId)!;
    const record = game.record;
    ctx.store.apiKeys.delete(record.apiKey);
    purgeGameLeagues(ctx, game);
    forgetPlayerIds(ctx, game);
    forgetCodesOfGame(ctx, gameId);
    ctx.store.games.delete(gameId);
    ctx.games.delete(gameId);
    ctx.rebuilding.delete(gameId);
    purgeLater(ctx, gameId, record, statsOf(ctx, gameId).players, eventSlots(ctx, gameId));
    dropStaged(ctx, move);
    delete moves[gameId];
    ctx.store.meta.set('movedGames', { ...(ctx.store.meta.get('movedGames') ?? {}), [gameId]: req.to });
    saveOut(ctx, moves);
    recount(ctx);
    return { message: `Game '${gameId}' moved to ${req.to}.` };
}

const PRINCIPAL = /^[a-z0-9]{5}(-[a-z0-9]{5}){0,9}(-[a-z0-9]{1,5})?$/;
