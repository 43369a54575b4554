// GET /games/{gameId}/scoreboards[/{boardId}[/archives[/latest|/{archiveId}]]]: the game's
// boards, one board, its archives (cached ~30 s; the canister serves the same paths directly).
import { Router, type Request } from 'express';

import { sameGame } from '../auth';
import { cachedRead, handle, type RouteContext } from '../context';
import { ApiFailure } from '../errors';
import { checkPathId, limitParam } from '../validation';

export function scoreboardRoutes(ctx: RouteContext): Router {
    const router = Router();

    /** The path's game, checked against the key; the board id checked if present. */
    async function target(req: Request): Promise<{ gameId: string; boardId: string }> {
        const gameId = checkPathId(String(req.params.gameId), 'gameId');
        const boardId = req.params.boardId === undefined ? '' : checkPathId(String(req.params.boardId), 'scoreboardId');
        sameGame(await ctx.keys.gameOf(req), gameId, 'Game');
        return { gameId, boardId };
    }

    router.get('/games/:gameId/scoreboards', handle(async (req) => {
        const { gameId } = await target(req);
        return cachedRead(ctx, `boards/${gameId}`, () => ctx.canister.ok('list_boards', { gameId }));
    }));
    router.get('/games/:gameId/scoreboards/:boardId', handle(async (req) => {
        const { gameId, boardId } = await target(req);
        const limit = limitParam(req.query.limit);
        return cachedRead(ctx, `board/${gameId}/${boardId}/${limit}`, () => ctx.canister.ok('read_board', { gameId, boardId, limit }));
    }));
    router.get('/games/:gameId/scoreboards/:boardId/rank', handle(async () => {
        // Session-only: an API key is not a signed-in player.
        throw new ApiFailure(401, 'This endpoint needs a signed-in player (X-Session-Token)');
    }));
    router.get('/games/:gameId/scoreboards/:boardId/archives', handle(async (req) => {
        const { gameId, boardId } = await target(req);
        return cachedRead(ctx, `archives/${gameId}/${boardId}`, () => ctx.canister.ok('list_archives', { gameId, boardId }));
    }));
    // decisions.md: archives are also read by id alone (the id names game and board).
    router.get('/archives/:archiveId', handle(async (req) => {
        const archiveId = String(req.params.archiveId);
        const gameId = await ctx.keys.gameOf(req);
        sameGame(gameId, archiveId.split(':')[0], 'Archive game');
        const limit = limitParam(req.query.limit);
        return cachedRead(ctx, `archive/${archiveId}/${limit}`, () => ctx.canister.ok('read_archive', { gameId, archiveId, limit }));
    }));
    router.get('/games/:gameId/scoreboards/:boardId/archives/:archive', handle(async (req) => {
        const { gameId, boardId } = await target(req);
        const limit = limitParam(req.query.limit);
        const archive = String(req.params.archive);
        const request = archive === 'latest' ? { gameId, boardId, limit } : { gameId, archiveId: archive, limit };
        return cachedRead(ctx, `archive/${gameId}/${boardId}/${archive}/${limit}`, () => ctx.canister.ok('read_archive', request));
    }));
    return router;
}
