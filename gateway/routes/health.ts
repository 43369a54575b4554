// GET /health (no headers): healthy means requests can be served, i.e. the canister answers.
import { API_VERSION } from '../../contract/http';
import { Health } from '../../contract/schemas';
import { route } from './route';

export default route({
    method: 'get',
    path: '/health',
    id: 'get-health',
    summary: 'Service health',
    description: '503 when the canister cannot be reached.',
    auth: 'none',
    data: Health,
    errors: { 503: 'the canister cannot be reached' },
    async handle(ctx) {
        await ctx.canister.ok('platform_stats', {});
        return { status: 'healthy' as const, version: API_VERSION };
    },
});
