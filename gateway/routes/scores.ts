// POST /scores: a score submit, batched with concurrent ones into one canister call.
import { Router } from 'express';
import { z } from 'zod';

import { sameGame } from '../auth';
import { handle, jsonBody, type RouteContext } from '../context';
import { ApiFailure, type Status } from '../errors';
import { MAX_PLAY_SESSION_TOKEN, checkNickname } from '../../canister/domain/validate';
import { count, optional, parse, pathId, playerId } from '../validation';

const SubmitBody = z.object({
    playerId,
    gameId: optional(z.string({ error: 'must be a string' })),
    score: count,
    streak: count,
    nickname: optional(z.string({ error: 'must be a string' })),
    playSessionToken: optional(z.string({ error: 'must be a string' })),
    scoreboardId: optional(pathId),
});

/**
 * A token longer than any play-session token can never be valid; with time validation off any
 * token is accepted and ignored (decisions.md). So it is cut to one character more than the
 * longest: the canister still calls it unknown, and a batch carries no more than that.
 */
function boundedToken(token: string | undefined): string | undefined {
    return token === undefined || token.length <= MAX_PLAY_SESSION_TOKEN ? token : token.slice(0, MAX_PLAY_SESSION_TOKEN + 1);
}

export function scoreRoutes(ctx: RouteContext): Router {
    const router = Router();
    router.post('/scores', jsonBody, handle(async (req) => {
        const { gameId, apiKey } = await ctx.keys.resolve(req);
        const body = parse(SubmitBody, req.body);
        sameGame(gameId, body.gameId, 'gameId');
        // Rule N3 here already: a submit the canister would refuse never joins a batch.
        const nicknameError = body.nickname === undefined ? undefined : checkNickname(body.nickname);
        if (nicknameError !== undefined) throw new ApiFailure(400, nicknameError);
        const reply = await ctx.submit({ ...body, playSessionToken: boundedToken(body.playSessionToken), gameId, apiKey });
        if ('err' in reply) throw new ApiFailure(reply.err.status as Status, reply.err.message);
        return reply.ok;
    }));
    return router;
}
