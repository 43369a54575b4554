// The gate of moving games (service/move/): a moving game's writes wait (503 gameMoving +
// Retry-After), and any call for a game that moved away answers 503 gameMoved with `moved`.
import { MESSAGES } from '../../contract/messages';
import { gameOfApiKey, gameOfServerKey } from '../../contract/rules';
import { MOVE_RETRY_AFTER_SECONDS } from '../../contract/shards';
import { Fail } from '../domain/fail';
import type { Ctx } from '../state/context';

/** Fills ctx.moving / ctx.movedTo from meta (start and upgrade). */
export function loadMoves(ctx: Ctx): void {
    ctx.moving.clear();
    ctx.movedTo.clear();
    // A backup pauses its game's writes only while it is staged (service/move/stale-backups.ts).
    const out = ctx.store.meta.get('moveOut') ?? {};
    for (const id of Object.keys(out)) if (!(out[id]!.backup === true && out[id]!.ready)) ctx.moving.add(id);
    const moved = ctx.store.meta.get('movedGames') ?? {};
    for (const id of Object.keys(moved)) ctx.movedTo.set(id, moved[id]!);
}

const movedFail = (): Fail => new Fail(503, MESSAGES.gameMoved, { moved: true });
const movingFail = (): Fail => new Fail(503, MESSAGES.gameMoving, { retryAfter: MOVE_RETRY_AFTER_SECONDS });

/** Any call for a game that moved away: 503 `moved` (the gateway asks the directory again). */
export function refuseMoved(ctx: Ctx, gameId: unknown): void {
    if (ctx.movedTo.size > 0 && typeof gameId === 'string' && ctx.movedTo.has(gameId) && !ctx.games.has(gameId))
        throw movedFail();
}

/** A write to a game: 503 gameMoving while it moves, 503 moved once it is gone. */
export function refuseWrite(ctx: Ctx, gameId: unknown): void {
    refuseMoved(ctx, gameId);
    if (ctx.moving.size > 0 && typeof gameId === 'string' && ctx.moving.has(gameId)) throw movingFail();
}

/** Writes that may touch any game of an account (delete_account, migrate_account) wait out every move. */
export function refuseWhileMoving(ctx: Ctx): void {
    if (ctx.moving.size > 0) throw movingFail();
}

/** An API key or server key of a game that moved away answers `moved`, not "Invalid API key". */
export function refuseMovedKey(ctx: Ctx, key: unknown): void {
    if (ctx.movedTo.size === 0 || typeof key !== 'string') return;
    refuseMoved(ctx, gameOfApiKey(key) ?? gameOfServerKey(key));
}
