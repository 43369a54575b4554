// POST /scores: a score submit, batched with concurrent ones into one canister call.
import { Router } from 'express';
import { z } from 'zod';

import { sameGame } from '../auth';
import { handle, jsonBody, type RouteContext } from '../context';
import { ApiFailure, type Status } from '../errors';
import { count, optional, parse, pathId, playerId } from '../validation';

const SubmitBody = z.object({
    playerId,
    gameId: optional(z.string({ error: 'must be a string' })),
    score: count,
    streak: count,
    nickname: optional(z.string({ error: 'must be a string' })),
    playSessionToken: optional(z.string({ error: 'must be a string' }).max(200, { error: 'is too long' })),
    scoreboardId: optional(pathId),
});

export function scoreRoutes(ctx: RouteContext): Router {
    const router = Router();
    router.post('/scores', jsonBody, handle(async (req) => {
        const gameId = await ctx.keys.gameOf(req);
        const body = parse(SubmitBody, req.body);
        sameGame(gameId, body.gameId, 'gameId');
        const reply = await ctx.submit({ ...body, gameId });
        if ('err' in reply) throw new ApiFailure(reply.err.status as Status, reply.err.message);
        return reply.ok;
    }));
    return router;
}
