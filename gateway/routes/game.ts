// GET /game (metadata with timeValidationEnabled and the boards) and GET /game/stats.
import { Router } from 'express';

import { handle, type RouteContext } from '../context';

export function gameRoutes(ctx: RouteContext): Router {
    const router = Router();
    router.get('/game', handle(async (req) => ctx.canister.ok('game_info', { gameId: await ctx.keys.gameOf(req) })));
    router.get('/game/stats', handle(async (req) => ctx.canister.ok('game_stats', { gameId: await ctx.keys.gameOf(req) })));
    return router;
}
