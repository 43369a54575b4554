// "Send a test event": the dashboard API route of gateway/developer/webhooks.ts testWebhook (the
// canister leases a test event of the developer's endpoint, this gateway delivers it at once).
import { DeliveryAttempt } from '../../contract/webhook-schemas';
import { NOT_OWNED, gameId, operationRoute, webhookId } from './dashboard-route';
import { testWebhook } from '../developer/webhooks';

export default operationRoute({
    op: testWebhook,
    dev: ({ params }) => ({ webhookId: params.webhookId }),
    method: 'post',
    path: '/dashboard/api/games/{gameId}/webhooks/{webhookId}/test',
    id: 'dashboard-webhook-test',
    summary: 'Send a test event to an endpoint now, and answer the attempt',
    description:
        'Delivers one event of kind `test` (seq 0, a new id each time), signed like every delivery, ' +
        'from this gateway, with the same address policy, timeouts and no redirects. The attempt ' +
        "joins the endpoint's delivery log; it never moves its cursor and works on a paused endpoint too. " +
        'The answer is 200 whatever the endpoint answered: read `status` and `error`.',
    params: { gameId, webhookId },
    data: DeliveryAttempt,
    errors: { 404: `${NOT_OWNED}, or no such endpoint` },
});
