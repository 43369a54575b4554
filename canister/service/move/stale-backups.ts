// An operator's backup staged on the source: its writes pause only while it is staged, and a stale one is dropped.
import type { Ctx } from '../../state/context';
import { dropStaged, outMoves, saveOut } from './records';

/**
 * A backup's staging that stopped (its operator's tool died) pauses the game's writes for at most
 * this long (µs); a staged backup nobody dropped goes after BACKUP_KEEP_US.
 */
export const BACKUP_STAGE_US = 10 * 60 * 1e6;
export const BACKUP_KEEP_US = 24 * 3600 * 1e6;

/** Drops backups staged too long ago (the timer's tick): their writes go on, their chunks go. */
export function dropStaleBackups(ctx: Ctx): void {
    const moves = outMoves(ctx);
    const now = ctx.env.now();
    let dropped = false;
    for (const move of Object.values(moves)) {
        if (move.backup !== true) continue;
        if (now - move.startedAt < (move.ready ? BACKUP_KEEP_US : BACKUP_STAGE_US)) continue;
        dropStaged(ctx, move);
        delete moves[move.gameId];
        dropped = true;
    }
    if (dropped) saveOut(ctx, moves);
}
