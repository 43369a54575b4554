// A game's webhook endpoints: listing them, adding one (its secret answered once), changing its
// url or kinds, pausing or resuming it, deleting it, and sending it a test event now. A URL is
// checked against this gateway's address policy where it is saved (https, no private IP literal)
// and again at every delivery (gateway/webhooks/).
import type { Result } from '../../contract/canister';
import type { DeliveryAttempt } from '../../contract/webhooks';
import { AddWebhookBody, UpdateWebhookBody } from '../../contract/webhook-schemas';
import type { AddressPolicy } from '../webhooks/address-policy';
import { urlProblem } from '../webhooks/address-policy';
import { deliverLease } from '../webhooks/worker';
import { method, operation, type DevGame } from './operation';

/** The developer's session, the game and one of its endpoints. */
export type DevWebhook = DevGame & { webhookId: string };

/** The address policy's refusal of a URL about to be saved (the canister checks its shape again). */
const refusal = (url: string | undefined, policy: AddressPolicy): Result<never> | undefined => {
    const problem = url === undefined ? undefined : urlProblem(url, policy);
    return problem === undefined ? undefined : { err: { status: 400, message: problem } };
};

export const listWebhooks = method('dev_list_webhooks');

export const addWebhook = operation({
    input: AddWebhookBody,
    run: async ({ canister, webhookDelivery }, dev: DevGame, input) =>
        refusal(input.url, webhookDelivery.policy) ??
        canister.call('dev_add_webhook', { ...dev, url: input.url, kinds: input.kinds }),
});

/** Fields left out stay; `paused` false resumes it (failures reset, due at once). */
export const updateWebhook = operation({
    input: UpdateWebhookBody,
    run: async ({ canister, webhookDelivery }, dev: DevWebhook, input) =>
        refusal(input.url, webhookDelivery.policy) ?? canister.call('dev_update_webhook', { ...input, ...dev }),
});

export const deleteWebhook = method<'dev_delete_webhook', DevWebhook>('dev_delete_webhook');

/**
 * "Send a test event": the canister leases one test event of the endpoint (dev_test_webhook
 * checks the owner), this gateway delivers it at once under its address policy and reports the
 * attempt (the endpoint's delivery log keeps it; a test never moves the endpoint's cursor).
 */
export const testWebhook = operation({
    async run({ canister, webhookDelivery }, dev: DevWebhook): Promise<Result<DeliveryAttempt>> {
        const lease = await canister.call('dev_test_webhook', dev);
        if ('err' in lease) return lease;
        const report = await deliverLease(lease.ok, webhookDelivery);
        // A lost report only loses the log line, never the answer.
        await canister.call('webhook_work', { reports: [report], want: 0 }).catch(() => undefined);
        const attempt = report.attempts[0];
        return attempt === undefined
            ? { err: { status: 503, message: 'The test event could not be sent; try again.' } }
            : { ok: attempt };
    },
});
