// The dashboard's sign-in and sign-out: the sign-in page, the start of the OpenID flow with the
// chosen provider, its callback (the canister opens a developer session, kept in a cookie),
// and signing out.
import { Router, type Request, type Response } from 'express';

import { signInFlow, type FlowFailure } from '../sign-in/oidc-flow';
import { formOf, forms, postForm, showSignIn, type DashboardOptions } from './context';
import { clearSessionCookie, setSessionCookie } from '../developer/session';

/** What the developer reads when the provider's callback cannot sign them in. */
const FLOW_FAILED: Record<FlowFailure, string> = {
    expired: 'This sign-in expired or was already used. Sign in again.',
    withdrawn: 'That sign-in method is no longer offered.',
    unverified: 'The sign-in was not completed or could not be verified. Try again.',
};

export function signInRoutes(o: DashboardOptions): Router {
    const router = Router();
    const flow = signInFlow(o.signIn, { cookie: 'lb_dev_flow', purpose: 'dashboard flow', path: '/dashboard' });

    router.get('/dashboard/sign-in', (_req, res) => showSignIn(o, res));

    router.post('/dashboard/sign-in', forms, async (req, res) => {
        const name = formOf(req).provider;
        const p = name === undefined ? undefined : o.providerNamed(name);
        if (p === undefined) return showSignIn(o, res, 400, 'Choose one of the sign-in methods.');
        try {
            res.redirect(303, (await flow.start(res, p)).href);
        } catch {
            showSignIn(o, res, 503, 'The sign-in service could not be reached. Try again shortly.');
        }
    });

    async function callback(req: Request, res: Response): Promise<void> {
        const signedIn = await flow.finish(req, res, o.providerNamed);
        if ('failed' in signedIn) return showSignIn(o, res, 400, FLOW_FAILED[signedIn.failed]);
        const session = await o.canister.call('dev_sign_in', { identity: signedIn.identity });
        if ('err' in session) return showSignIn(o, res, 503, session.err.message);
        setSessionCookie(res, o.signIn, session.ok.sessionToken);
        res.redirect(303, '/dashboard');
    }
    router.get('/dashboard/callback', callback);
    router.post('/dashboard/callback', forms, callback);

    postForm(router, o, '/dashboard/sign-out', async (d, _b, _req, res) => {
        await o.canister.call('dev_sign_out', { sessionHash: d.session.sessionHash });
        clearSessionCookie(res, o.signIn);
        res.redirect(303, '/dashboard/sign-in');
    });
    return router;
}
