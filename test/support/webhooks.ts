// Webhook tests' set-up on a test service: a developer with games and endpoints, gateways with
// the delivery loop in front of the same canister, and waiting for what receivers get.
import { createHash } from 'node:crypto';

import type { EventKind } from '../../contract/event-log';
import type { WebhookView } from '../../contract/webhooks';
import type { RunningGateway } from '../../gateway/server/serve';
import type { SignInConfig } from '../../gateway/sign-in/providers';
import type { WebhookSettings } from '../../gateway/webhooks/worker';
import type { TestService } from './gateway';
import { anotherGateway, dashboardHeaders } from './gateway';

/** A developer signed in to the canister: their session hash and dashboard API headers. */
export interface Developer {
    sessionHash: string;
    /** Cookie and CSRF token for the dashboard API (with the service's sign-in secret). */
    headers: Record<string, string>;
}

export async function developer(
    s: TestService & { signIn: { secret: Uint8Array } },
    subject: string,
): Promise<Developer> {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject, email: `${subject}@test`, provider: 'test' },
    });
    return {
        sessionHash: createHash('sha256').update(sessionToken).digest('hex'),
        headers: dashboardHeaders(s.signIn.secret, sessionToken),
    };
}

/** A game of the developer's own: its API key. */
export async function ownGame(s: TestService, dev: Developer, gameId: string): Promise<string> {
    const { apiKey } = await s.canister.ok('dev_register_game', { sessionHash: dev.sessionHash, gameId, name: gameId });
    return apiKey;
}

export async function addWebhook(
    s: TestService,
    dev: Developer,
    gameId: string,
    url: string,
    kinds: EventKind[],
): Promise<{ webhookId: string; secret: string }> {
    const { webhook, secret } = await s.canister.ok('dev_add_webhook', {
        sessionHash: dev.sessionHash,
        gameId,
        url,
        kinds,
    });
    return { webhookId: webhook.webhookId, secret };
}

export async function webhookView(
    s: TestService,
    dev: Developer,
    gameId: string,
    webhookId: string,
): Promise<WebhookView> {
    const views = await s.canister.ok('dev_list_webhooks', { sessionHash: dev.sessionHash, gameId });
    const view = views.find((v) => v.webhookId === webhookId);
    if (view === undefined) throw new Error(`no webhook ${webhookId}`);
    return view;
}

/** Another gateway in front of the test service's canister, as the same gateway identity, delivering webhooks. */
export async function webhookGateway(
    s: TestService & { signIn: SignInConfig },
    webhooks: WebhookSettings,
): Promise<RunningGateway> {
    return anotherGateway(s, { webhooks });
}

/** Retries `check` (every 25 ms of real time, up to `ms`: long, a hang detector, never a speed bar) until it passes: for what a gateway does in the background. */
export async function eventually<T>(check: () => Promise<T> | T, ms = 300_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
        try {
            return await check();
        } catch (e) {
            if (Date.now() > until) throw e;
            await new Promise((resolve) => setTimeout(resolve, 25));
        }
    }
}
