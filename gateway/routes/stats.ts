// GET /stats: platform submission counts (no auth).
import { PlatformStats } from '../../contract/schemas';
import { route } from './route';

export default route({
    method: 'get',
    path: '/stats',
    id: 'get-stats',
    summary: 'Platform statistics',
    description: 'Submissions across all games: in total and today (UTC).',
    auth: 'none',
    data: PlatformStats,
    async handle(ctx) {
        return ctx.canister.ok('platform_stats', {});
    },
});
