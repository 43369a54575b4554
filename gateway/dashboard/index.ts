// The developer dashboard at /dashboard, wired from its parts: sign-in (./sign-in.ts), the
// pages (./game-pages.ts, rendered by ./pages/), the form actions (./actions/), the scripts
// (./assets.ts), and a page for whatever is not found or fails. Its JSON API for developers'
// tools is in ../routes/dashboard-*.ts, with the rest of the API; both run the developer
// operations of ../developer/.
import { type NextFunction, type Request, type Response, Router } from 'express';

import { unknownEndpoint } from '../../contract/messages';
import { failureOf } from '../http/errors';
import { accountActions } from './actions/account';
import { boardActions } from './actions/board';
import { gameActions } from './actions/game';
import { webhookActions } from './actions/webhooks';
import { assets } from './assets';
import { send, type DashboardOptions } from './context';
import { gamePages } from './game-pages';
import { dashboardPage, html } from './layout';
import { signInRoutes } from './sign-in';

export type { DashboardOptions };

export function dashboard(o: DashboardOptions): Router {
    const router = Router();
    router.use(
        signInRoutes(o),
        gamePages(o),
        accountActions(o),
        gameActions(o),
        boardActions(o),
        webhookActions(o),
        assets(),
    );

    // The JSON API's routes are served before this router: any other path under it is unknown.
    router.use(
        '/dashboard/api',
        (req, res) =>
            void res.status(404).json({ ok: false, error: unknownEndpoint(req.method, req.originalUrl.split('?')[0]) }),
    );

    router.get('/dashboard/*rest', (_req, res) =>
        send(
            o,
            res,
            404,
            dashboardPage(
                { title: 'Not found' },
                html`<h1>Not found</h1>
                    <p><a href="/dashboard">Your games</a></p>`,
            ),
        ),
    );
    // Whatever a page or form could not finish (the canister unreachable, a body too large) is a page too.
    router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
        if (res.headersSent) return next(error);
        const failure = failureOf(error);
        send(
            o,
            res,
            failure.status,
            dashboardPage(
                { title: 'Problem' },
                html`<h1>That did not work</h1>
                    <p class="error" role="alert">${failure.message}</p>
                    <p><a href="/dashboard">Your games</a></p>`,
            ),
        );
    });
    return router;
}
