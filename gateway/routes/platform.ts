// GET /stats (platform submission counts, no auth) and GET /health (no headers).
import { Router } from 'express';

import { handle, type RouteContext } from '../context';

export const API_VERSION = '1.8.0';

export function platformRoutes(ctx: RouteContext): Router {
    const router = Router();
    router.get('/stats', handle(async () => ctx.canister.ok('platform_stats', {})));
    router.get('/health', handle(async () => {
        // Healthy means requests can be served: the canister answers.
        await ctx.canister.ok('platform_stats', {});
        return { status: 'healthy', version: API_VERSION };
    }));
    return router;
}
