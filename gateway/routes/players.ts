// A player's profile, global rank and nickname (rule N2: a taken name gets a suffix).
import { Router, type Request } from 'express';
import { z } from 'zod';

import { handle, jsonBody, type RouteContext } from '../context';
import { PLAYER_ID, checkPathId, parse, sortParam } from '../validation';

const NicknameBody = z.object({ nickname: z.string({ error: 'must be a string' }) });

export function playerRoutes(ctx: RouteContext): Router {
    const router = Router();
    const playerOf = (req: Request): string => checkPathId(String(req.params.playerId), 'playerId', PLAYER_ID);

    router.get('/players/:playerId/profile', handle(async (req) => {
        const gameId = await ctx.keys.gameOf(req);
        return ctx.canister.ok('profile', { gameId, playerId: playerOf(req) });
    }));
    router.get('/players/:playerId/rank', handle(async (req) => {
        const gameId = await ctx.keys.gameOf(req);
        return ctx.canister.ok('player_rank', { gameId, playerId: playerOf(req), sort: sortParam(req.query.sort) });
    }));
    router.put('/players/:playerId/nickname', jsonBody, handle(async (req) => {
        const { gameId, apiKey } = await ctx.keys.resolve(req);
        const playerId = playerOf(req);
        const { nickname } = parse(NicknameBody, req.body);
        return ctx.canister.ok('set_nickname', { apiKey, gameId, playerId, nickname });
    }));
    return router;
}
