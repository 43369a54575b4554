// The Webhooks tab's form actions (POST /dashboard/games/<gameId>/webhooks/...): adding an
// endpoint answers with the tab showing its secret once (never in a URL); pause, resume and
// delete go back to the tab with a notice; "send a test event" delivers one at once and answers
// with the tab showing its status and latency. A refusal shows the tab with the error by its form.
import { type Request, type Response, Router } from 'express';

import type { Result } from '../../../contract/canister';
import { perform } from '../../developer/operation';
import { addWebhook, deleteWebhook, testWebhook, updateWebhook } from '../../developer/webhooks';
import { postForm, refused, viewOf, type DashboardOptions, type Developer, type Form } from '../context';
import { showGame } from '../game-pages';
import { withNotice, type Notice } from '../notices';
import type { WebhookShown } from '../pages/view';

/** The event kinds a form ticked (one `kinds` field per box; none = an empty list the canister refuses). */
const kindsOf = (req: Request): string[] => {
    const raw = (req.body as Record<string, unknown> | undefined)?.kinds;
    return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
        (k): k is string => typeof k === 'string',
    );
};

const OPS = ['pause', 'resume', 'delete', 'test'] as const;
const DONE: Record<(typeof OPS)[number], Notice> = {
    pause: 'webhook-paused',
    resume: 'webhook-resumed',
    delete: 'webhook-deleted',
    test: 'saved', // never shown: a test answers with the tab itself
};

export function webhookActions(o: DashboardOptions): Router {
    const router = Router();
    /** The tab again, with what to show once, or the error of the form `action`. */
    const again = (
        d: Developer,
        req: Request,
        res: Response,
        status: number,
        o2: { error?: { action: string; message: string }; values?: Form; shown?: WebhookShown },
    ): Promise<void> =>
        showGame(
            o,
            req,
            res,
            d,
            String(req.params.gameId),
            'webhooks',
            { ...viewOf(req, d, o2.error, o2.values), webhook: o2.shown },
            status,
        );

    postForm(router, o, '/dashboard/games/:gameId/webhooks/add', async (d, b, req, res) => {
        const dev = { sessionHash: d.session.sessionHash, gameId: req.params.gameId };
        const kinds = kindsOf(req);
        const r = await perform(addWebhook, o, dev, { url: b.url ?? '', kinds });
        if ('err' in r) {
            const error = { action: 'webhook-add', message: r.err.message };
            return again(d, req, res, refused(r.err.status), {
                error,
                values: { url: b.url, kinds: kinds.join(',') },
            });
        }
        const { webhook, secret } = r.ok;
        res.setHeader('Cache-Control', 'no-store');
        await again(d, req, res, 201, {
            shown: { secret: { webhookId: webhook.webhookId, url: webhook.url, secret } },
        });
    });

    for (const op of OPS)
        postForm(router, o, `/dashboard/games/:gameId/webhooks/:webhookId/${op}`, async (d, b, req, res) => {
            const { gameId, webhookId } = req.params as { gameId: string; webhookId: string };
            const dev = { sessionHash: d.session.sessionHash, gameId, webhookId };
            let r: Result<unknown>;
            if (op === 'test') {
                const sent = await perform(testWebhook, o, dev, undefined);
                if ('ok' in sent) return again(d, req, res, 200, { shown: { test: { webhookId, attempt: sent.ok } } });
                r = sent;
            } else if (op === 'delete') {
                r =
                    b.confirm === 'yes'
                        ? await perform(deleteWebhook, o, dev, undefined)
                        : { err: { status: 400, message: 'Invalid confirm: tick the box to delete the endpoint' } };
            } else {
                r = await perform(updateWebhook, o, dev, { paused: op === 'pause' });
            }
            if ('err' in r)
                return again(d, req, res, refused(r.err.status), {
                    error: { action: `webhook-${op}-${webhookId}`, message: r.err.message },
                });
            res.redirect(303, withNotice(`/dashboard/games/${encodeURIComponent(gameId)}/webhooks`, DONE[op]));
        });
    return router;
}
