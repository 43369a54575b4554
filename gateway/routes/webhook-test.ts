// "Send a test event": the dashboard API route that asks the canister for a test lease of one of
// the developer's endpoints, delivers it from this gateway at once and answers the attempt.
import { PATH_ID } from '../../contract/rules';
import { DeliveryAttempt, WEBHOOK_ID } from '../../contract/webhook-schemas';
import { ApiFailure } from '../http/errors';
import { route } from './route';
import { deliverLease } from '../webhooks/worker';

export default route({
    method: 'post',
    path: '/dashboard/api/games/{gameId}/webhooks/{webhookId}/test',
    id: 'dashboard-webhook-test',
    summary: 'Send a test event to an endpoint now, and answer the attempt',
    description:
        'Delivers one event of kind `test` (seq 0, a new id each time), signed like every delivery, ' +
        'from this gateway, with the same address policy, timeouts and no redirects. The attempt ' +
        "joins the endpoint's delivery log; it never moves its cursor and works on a paused endpoint too. " +
        'The answer is 200 whatever the endpoint answered: read `status` and `error`.',
    auth: 'developer',
    params: {
        gameId: { pattern: PATH_ID, description: 'one of your games' },
        webhookId: { pattern: WEBHOOK_ID, description: 'an endpoint of the game (whk_...)' },
    },
    data: DeliveryAttempt,
    errors: {
        404: 'not one of your games (every game of another developer is the same 404), or no such endpoint',
    },
    async handle(ctx, { caller, params }) {
        const lease = await ctx.canister.ok('dev_test_webhook', {
            sessionHash: caller.sessionHash,
            gameId: params.gameId!,
            webhookId: params.webhookId!,
        });
        const report = await deliverLease(lease, ctx.webhookDelivery);
        await ctx.canister.ok('webhook_work', { reports: [report], want: 0 });
        const attempt = report.attempts[0];
        if (attempt === undefined) throw new ApiFailure(503, 'The test event could not be sent; try again.');
        return attempt;
    },
});
