// "Send a test event" for the dashboard's form: the canister leases one test event of the
// developer's endpoint (dev_test_webhook checks the owner), this gateway delivers it at once under
// its address policy, and reports the attempt (it goes to the endpoint's delivery log).
import type { Result } from '../../contract/canister';
import type { DeliveryAttempt } from '../../contract/webhooks';
import type { CanisterClient } from '../canister';
import { deliverEvent, type DeliveryOptions } from '../webhooks/deliver';

export async function sendTestEvent(
    canister: CanisterClient,
    dev: { sessionHash: string; gameId: string; webhookId: string },
    delivery: DeliveryOptions,
): Promise<Result<DeliveryAttempt>> {
    const lease = await canister.call('dev_test_webhook', dev);
    if ('err' in lease) return lease;
    const event = lease.ok.events[0];
    if (event === undefined) return { err: { status: 503, message: 'The service is busy. Try again shortly.' } };
    const attempt = await deliverEvent(lease.ok.url, lease.ok.secret, event, delivery);
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    // The log keeps it; a failed report only loses the log line, never the answer shown.
    await canister
        .call('webhook_work', {
            reports: [{ leaseId: lease.ok.leaseId, delivered: ok ? 1 : 0, attempts: [attempt] }],
            want: 0,
        })
        .catch(() => undefined);
    return { ok: attempt };
}
