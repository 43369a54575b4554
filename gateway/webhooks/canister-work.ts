// The delivery loop's calls to the canister through the gateway's client: the free
// `webhook_due` query while idle, the `webhook_work` update when there is work.
import type { CanisterClient } from '../ic/canister';
import type { WebhookCanister } from './worker';

export function webhookCanister(canister: CanisterClient): WebhookCanister {
    return {
        due: () => canister.ok('webhook_due', {}),
        work: async (reports, want) => (await canister.ok('webhook_work', { reports, want })).leases,
    };
}
