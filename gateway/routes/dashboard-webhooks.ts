// The dashboard API's webhook endpoints of a game: list, add (the secret answered once), update
// (url, kinds, paused) and delete. The URL is checked against the gateway's address policy where
// it is saved (https, no private IP literal) and again at every delivery (gateway/webhooks/).
import { PATH_ID } from '../../contract/rules';
import { Message } from '../../contract/schemas';
import {
    AddWebhookBody,
    UpdateWebhookBody,
    WEBHOOK_ID,
    WebhookCreated,
    WebhookList,
    WebhookView,
} from '../../contract/webhook-schemas';
import { ApiFailure } from '../http/errors';
import { route, type PathParam, type RouteContext, type RouteInput } from './route';
import { urlProblem } from '../webhooks/address-policy';

const BASE = '/dashboard/api/games/{gameId}/webhooks';
const NOT_OWNED = 'not one of your games (every game of another developer is the same 404)';

const gameId: PathParam = { pattern: PATH_ID, description: 'one of your games' };
const webhookId: PathParam = { pattern: WEBHOOK_ID, description: 'an endpoint of the game (whk_...)' };

const own = ({ caller, params }: RouteInput<unknown, 'developer'>) => ({
    sessionHash: caller.sessionHash,
    gameId: params.gameId,
});

/** The address policy's word on a URL about to be saved (the canister checks its shape again). */
function checkUrl(ctx: RouteContext, url: string | undefined): void {
    if (url === undefined) return;
    const problem = urlProblem(url, ctx.webhookPolicy);
    if (problem !== undefined) throw new ApiFailure(400, problem);
}

const list = route({
    method: 'get',
    path: BASE,
    id: 'dashboard-webhooks',
    summary: "The game's webhook endpoints with their state and delivery log (never their secrets)",
    auth: 'developer',
    params: { gameId },
    data: WebhookList,
    errors: { 404: NOT_OWNED },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_list_webhooks', own(input));
    },
});

const add = route({
    method: 'post',
    path: BASE,
    id: 'dashboard-add-webhook',
    summary: 'Add an endpoint: events of its kinds recorded from now on are POSTed to it, signed',
    description:
        "The reply carries the endpoint's secret, which signs every delivery (X-Signature): it is shown only here. URLs must be https:// and may not name a private, loopback, link-local or metadata address (checked again after DNS at every delivery) unless the operator allows it.",
    auth: 'developer',
    params: { gameId },
    body: AddWebhookBody,
    data: WebhookCreated,
    errors: {
        400: 'the url or kinds are invalid, or the url names an address webhooks may not reach',
        404: NOT_OWNED,
        409: 'the game has the most endpoints it may have',
    },
    async handle(ctx, input) {
        checkUrl(ctx, input.body.url);
        return ctx.canister.ok('dev_add_webhook', { ...own(input), url: input.body.url, kinds: input.body.kinds });
    },
});

const update = route({
    method: 'put',
    path: `${BASE}/{webhookId}`,
    id: 'dashboard-update-webhook',
    summary: "Change an endpoint's url or kinds, pause it, or resume it (fields left out stay)",
    auth: 'developer',
    params: { gameId, webhookId },
    body: UpdateWebhookBody,
    bodyOptional: true,
    data: WebhookView,
    errors: { 400: 'a field is invalid', 404: `${NOT_OWNED}, or no such endpoint` },
    async handle(ctx, input) {
        checkUrl(ctx, input.body.url);
        return ctx.canister.ok('dev_update_webhook', {
            ...input.body,
            ...own(input),
            webhookId: input.params.webhookId,
        });
    },
});

const remove = route({
    method: 'delete',
    path: `${BASE}/{webhookId}`,
    id: 'dashboard-delete-webhook',
    summary: 'Delete an endpoint: nothing more is delivered to it',
    auth: 'developer',
    params: { gameId, webhookId },
    data: Message,
    errors: { 400: 'an id is invalid', 404: `${NOT_OWNED}, or no such endpoint` },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_delete_webhook', { ...own(input), webhookId: input.params.webhookId });
    },
});

export default [list, add, update, remove];
