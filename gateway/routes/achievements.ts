// POST /achievements: unlock one or up to 100 achievement ids (idempotent). Bodies from the
// official SDKs carry no gameId: the game comes from the API key.
import { Router } from 'express';
import { z } from 'zod';

import { sameGame } from '../auth';
import { handle, jsonBody, type RouteContext } from '../context';
import { ApiFailure } from '../errors';
import { optional, parse, playerId } from '../validation';

const id = z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(64, { error: 'must be at most 64 characters' });
const AchievementBody = z.object({
    playerId,
    gameId: optional(z.string({ error: 'must be a string' })),
    achievementId: optional(id),
    achievementIds: optional(z.array(id, { error: 'must be a list of strings' }).min(1, { error: 'must not be empty' }).max(100, { error: 'may hold at most 100 ids' })),
});

export function achievementRoutes(ctx: RouteContext): Router {
    const router = Router();
    router.post('/achievements', jsonBody, handle(async (req) => {
        const { gameId, apiKey } = await ctx.keys.resolve(req);
        const body = parse(AchievementBody, req.body);
        sameGame(gameId, body.gameId, 'gameId');
        const ids = body.achievementIds ?? (body.achievementId === undefined ? undefined : [body.achievementId]);
        if (ids === undefined) throw new ApiFailure(400, 'Invalid achievementId: send achievementId or achievementIds');
        return ctx.canister.ok('unlock_achievements', { apiKey, gameId, playerId: body.playerId, achievementIds: ids });
    }));
    return router;
}
