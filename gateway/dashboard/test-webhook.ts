// "Send a test event" for the dashboard's form, as the JSON API's route does it: the canister
// leases one test event of the developer's endpoint (dev_test_webhook checks the owner), this
// gateway delivers it at once under its address policy, and reports the attempt (the endpoint's
// delivery log keeps it; a test never moves the endpoint's cursor).
import type { Result } from '../../contract/canister';
import type { DeliveryAttempt } from '../../contract/webhooks';
import type { CanisterClient } from '../ic/canister';
import type { DeliveryOptions } from '../webhooks/deliver';
import { deliverLease } from '../webhooks/worker';

export async function sendTestEvent(
    canister: CanisterClient,
    dev: { sessionHash: string; gameId: string; webhookId: string },
    delivery: DeliveryOptions,
): Promise<Result<DeliveryAttempt>> {
    const lease = await canister.call('dev_test_webhook', dev);
    if ('err' in lease) return lease;
    const report = await deliverLease(lease.ok, delivery);
    // A lost report only loses the log line, never the answer shown.
    await canister.call('webhook_work', { reports: [report], want: 0 }).catch(() => undefined);
    const attempt = report.attempts[0];
    return attempt === undefined
        ? { err: { status: 503, message: 'The test event could not be sent; try again.' } }
        : { ok: attempt };
}
