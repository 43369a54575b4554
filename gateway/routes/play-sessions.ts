// Play sessions for time validation: start (at most 3 active per player) and end (idempotent;
// unknown or ended tokens are 404, which clients ignore).
import { Router } from 'express';
import { z } from 'zod';

import { sameGame } from '../auth';
import { handle, jsonBody, type RouteContext } from '../context';
import { MAX_PLAY_SESSION_TOKEN } from '../../canister/domain/validate';
import { optional, parse, playerId } from '../validation';

const StartBody = z.object({ playerId, gameId: optional(z.string({ error: 'must be a string' })) });
const EndBody = z.object({ playSessionToken: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(MAX_PLAY_SESSION_TOKEN, { error: `must be at most ${MAX_PLAY_SESSION_TOKEN} characters` }) });

export function playSessionRoutes(ctx: RouteContext): Router {
    const router = Router();
    router.post('/play-sessions/start', jsonBody, handle(async (req) => {
        const { gameId, apiKey } = await ctx.keys.resolve(req);
        const body = parse(StartBody, req.body);
        sameGame(gameId, body.gameId, 'gameId');
        return ctx.canister.ok('start_play_session', { apiKey, gameId, playerId: body.playerId });
    }));
    router.post('/play-sessions/end', jsonBody, handle(async (req) => {
        const { gameId, apiKey } = await ctx.keys.resolve(req);
        const { playSessionToken } = parse(EndBody, req.body);
        return ctx.canister.ok('end_play_session', { apiKey, gameId, playSessionToken });
    }));
    return router;
}
