// The dashboard API's webhook endpoints (/dashboard/api/games/{gameId}/webhooks) as zod schemas:
// the bodies of add and update, and the endpoint's view and delivery log as ./webhooks.ts says.
import { z } from 'zod';

import { CLIENT_OVERTAKEN, EVENT_KINDS, HELD_KEEP } from './event-log';
import { invalid } from './rules';
import { Nanoseconds, optional } from './schemas';
import { ATTEMPTS_KEPT, LEASE_SECONDS, WEBHOOK_URL_MAX } from './webhooks';

/** An endpoint's id as the canister makes them. */
export const WEBHOOK_ID = /^whk_[0-9a-f]{16}$/;

const KINDS_PROBLEM = `must be a non-empty list of event kinds (${EVENT_KINDS.join(', ')})`;
const UrlField = z
    .string({ error: invalid('url', `must be an https:// URL of at most ${WEBHOOK_URL_MAX} characters`) })
    .meta({ description: `https:// URL the events are POSTed to (at most ${WEBHOOK_URL_MAX} characters)` });
const KindsField = z
    .array(z.enum(EVENT_KINDS, { error: invalid('kinds', KINDS_PROBLEM) }), { error: invalid('kinds', KINDS_PROBLEM) })
    .min(1, { error: invalid('kinds', KINDS_PROBLEM) })
    .max(EVENT_KINDS.length * 2, { error: invalid('kinds', KINDS_PROBLEM) })
    .meta({ description: 'the event kinds delivered to it' });

export const AddWebhookBody = z.object({ url: UrlField, kinds: KindsField });
export const UpdateWebhookBody = z.object({
    url: optional(UrlField),
    kinds: optional(KindsField),
    paused: optional(
        z.boolean({ error: invalid('paused', 'must be true or false') }).meta({
            description: 'true pauses it (by the developer); false resumes it: failures reset, due at once',
        }),
    ),
});

export const DeliveryAttempt = z.object({
    at: Nanoseconds,
    eventId: z.string(),
    kind: z.enum([...EVENT_KINDS, 'test']),
    status: z.number().int().optional().meta({ description: 'absent when no HTTP answer came' }),
    error: z.string().optional().meta({ description: 'what went wrong (absent on a 2xx)' }),
    latencyMs: z.number(),
});

export const WebhookView = z.object({
    webhookId: z.string(),
    url: z.string(),
    kinds: z.array(z.enum(EVENT_KINDS)),
    createdAt: Nanoseconds,
    state: z.enum(['active', 'failing', 'paused']),
    pausedReason: z
        .string()
        .optional()
        .meta({ description: "'by the developer', or the last error when it gave up after 24 hours of failures" }),
    delivered: z.number().int().meta({ description: 'the last event seq delivered (or skipped: not of its kinds)' }),
    pending: z.number().int().meta({ description: 'events recorded after `delivered`' }),
    failures: z.number().int().meta({ description: 'failed deliveries in a row' }),
    failingSince: Nanoseconds.optional(),
    nextAttemptAt: Nanoseconds.optional().meta({ description: 'the next retry (while failing)' }),
    lost: z
        .object({
            count: z.number().int().optional().meta({ description: 'how many (absent: not counted)' }),
            from: z.number().int().meta({ description: 'the first seq among them' }),
            to: z.number().int().meta({ description: 'the last seq among them' }),
            at: Nanoseconds,
            reason: z.enum(['held-full', 'paused']).meta({
                description: `held-full: it fell behind by more than the log and the ${HELD_KEEP.toLocaleString('en-US')} events held for the game's endpoints; paused: they left the log while it was paused`,
            }),
        })
        .optional()
        .meta({ description: 'events of its kinds it will never get (absent: none)' }),
    overtakenSkipped: z
        .number()
        .int()
        .optional()
        .meta({
            description: `overtaken events the game did not record: clients' submits passed players faster than ${CLIENT_OVERTAKEN.perMinute} a minute (absent: none; only for endpoints subscribed to overtaken)`,
        }),
    attempts: z.array(DeliveryAttempt).meta({
        description: `the last ${ATTEMPTS_KEPT} delivery attempts, newest first (a delivery in progress shows within ${LEASE_SECONDS} s)`,
    }),
});
export const WebhookList = z.array(WebhookView);
export const WebhookCreated = z.object({
    webhook: WebhookView,
    secret: z.string().meta({ description: 'whsec_...: signs every delivery (X-Signature); shown only in this reply' }),
});
