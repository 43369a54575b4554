// The dashboard API's webhook endpoints of a game: list, add (the secret answered once), update
// (url, kinds, paused) and delete, each the developer operation of gateway/developer/webhooks.ts
// (which checks a URL against the gateway's address policy where it is saved).
import { Message } from '../../contract/schemas';
import {
    AddWebhookBody,
    UpdateWebhookBody,
    WebhookCreated,
    WebhookList,
    WebhookView,
} from '../../contract/webhook-schemas';
import { BASE as API, NOT_OWNED, gameId, operationRoute, webhookId } from './dashboard-route';
import { addWebhook, deleteWebhook, listWebhooks, updateWebhook } from '../developer/webhooks';
import type { RouteInput } from './route';

const BASE = `${API}/games/{gameId}/webhooks`;

/** The endpoint of the path. */
const endpoint = ({ params }: RouteInput<unknown, 'developer'>) => ({ webhookId: params.webhookId });

const list = operationRoute({
    op: listWebhooks,
    method: 'get',
    path: BASE,
    id: 'dashboard-webhooks',
    summary: "The game's webhook endpoints with their state and delivery log (never their secrets)",
    params: { gameId },
    data: WebhookList,
    errors: { 404: NOT_OWNED },
});

const add = operationRoute({
    op: addWebhook,
    method: 'post',
    path: BASE,
    id: 'dashboard-add-webhook',
    summary: 'Add an endpoint: events of its kinds recorded from now on are POSTed to it, signed',
    description:
        "The reply carries the endpoint's secret, which signs every delivery (X-Signature): it is shown only here. URLs must be https:// and may not name a private, loopback, link-local or metadata address (checked again after DNS at every delivery) unless the operator allows it.",
    params: { gameId },
    body: AddWebhookBody,
    data: WebhookCreated,
    errors: {
        400: 'the url or kinds are invalid, or the url names an address webhooks may not reach',
        404: NOT_OWNED,
        409: 'the game has the most endpoints it may have',
    },
});

const update = operationRoute({
    op: updateWebhook,
    dev: endpoint,
    method: 'put',
    path: `${BASE}/{webhookId}`,
    id: 'dashboard-update-webhook',
    summary: "Change an endpoint's url or kinds, pause it, or resume it (fields left out stay)",
    params: { gameId, webhookId },
    body: UpdateWebhookBody,
    bodyOptional: true,
    data: WebhookView,
    errors: { 400: 'a field is invalid', 404: `${NOT_OWNED}, or no such endpoint` },
});

const remove = operationRoute({
    op: deleteWebhook,
    dev: endpoint,
    method: 'delete',
    path: `${BASE}/{webhookId}`,
    id: 'dashboard-delete-webhook',
    summary: 'Delete an endpoint: nothing more is delivered to it',
    params: { gameId, webhookId },
    data: Message,
    errors: { 400: 'an id is invalid', 404: `${NOT_OWNED}, or no such endpoint` },
});

export default [list, add, update, remove];
