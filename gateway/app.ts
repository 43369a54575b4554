// The HTTP/JSON API ({base_url}) as an Express app: CORS and the API version on every
// response, JSON bodies up to 64 KB, one router per resource, and the contract's answers for
// everything else (unknown endpoints, bad JSON, oversized bodies, preflight).
import express, { type NextFunction, type Request, type Response } from 'express';

import { keyResolver } from './auth';
import { batcher, type BatcherOptions } from './batcher';
import { ttlCache } from './cache';
import type { CanisterClient } from './canister';
import { MAX_BODY, type RouteContext } from './context';
import { ApiFailure, sendError } from './errors';
import { achievementRoutes } from './routes/achievements';
import { gameRoutes } from './routes/game';
import { leaderboardRoutes } from './routes/leaderboard';
import { playSessionRoutes } from './routes/play-sessions';
import { playerRoutes } from './routes/players';
import { API_VERSION, platformRoutes } from './routes/platform';
import { scoreboardRoutes } from './routes/scoreboards';
import { scoreRoutes } from './routes/scores';
import type { SubmitReply, SubmitRequest } from '../canister/api';
import type { Reply } from '../canister/interface';

export interface GatewayOptions {
    canister: CanisterClient;
    /** How long board reads are cached (R2: about 30 s); 0 turns the cache off. */
    readCacheTtlSeconds: number;
    batch?: BatcherOptions;
    /** The clock of the caches (ms); tests pass their own so that no test waits for real time. */
    clock?: () => number;
}

const CORS = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'X-API-Version': API_VERSION,
};

export function createApp(o: GatewayOptions): express.Express {
    const submit = batcher<SubmitRequest, SubmitReply>(
        async (submits) => o.canister.ok<Array<Reply<SubmitReply>>>('submit_scores', { submits }),
        o.batch ?? { maxBatch: 100, maxWaitMs: 2 },
    );
    const ctx: RouteContext = {
        canister: o.canister,
        keys: keyResolver(o.canister, undefined, o.clock),
        reads: ttlCache(o.readCacheTtlSeconds * 1000, undefined, o.clock),
        submit,
    };
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use((req: Request, res: Response, next: NextFunction) => {
        res.set(CORS);
        if (req.method === 'OPTIONS') {
            res.status(200).json({});
            return;
        }
        next();
    });
    for (const routes of [scoreRoutes, leaderboardRoutes, scoreboardRoutes, playerRoutes, playSessionRoutes, achievementRoutes, gameRoutes, platformRoutes]) {
        app.use(routes(ctx));
    }
    app.use((req: Request, res: Response) => {
        res.status(404).json({ ok: false, error: `Unknown endpoint: ${req.method} ${req.path}` });
    });
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
        const type = (error as { type?: string }).type;
        if (type === 'entity.parse.failed') return sendError(res, new ApiFailure(400, 'Invalid JSON body'));
        if (type === 'entity.too.large') return sendError(res, new ApiFailure(413, `Request body is larger than ${MAX_BODY}`));
        if (type !== undefined) return sendError(res, new ApiFailure(400, 'Invalid request body'));
        // Express marks input it cannot decode (e.g. bad %-encoding in the path) with status 400.
        if ((error as { status?: number }).status === 400) return sendError(res, new ApiFailure(400, 'Invalid request: malformed URL encoding'));
        sendError(res, error);
    });
    return app;
}
