// GET /leaderboard: the game's players by best score or best streak (cached ~30 s).
import { Router } from 'express';

import type { LeaderboardEntry } from '../../canister/api';
import { cachedRead, handle, type RouteContext } from '../context';
import { limitParam, sortParam } from '../validation';

export function leaderboardRoutes(ctx: RouteContext): Router {
    const router = Router();
    router.get('/leaderboard', handle(async (req) => {
        const gameId = await ctx.keys.gameOf(req);
        const sort = sortParam(req.query.sort);
        const limit = limitParam(req.query.limit);
        return cachedRead(ctx, `leaderboard/${gameId}/${sort}/${limit}`, () =>
            ctx.canister.ok<{ leaderboard: LeaderboardEntry[]; total: number }>('leaderboard', { gameId, sort, limit }));
    }));
    return router;
}
