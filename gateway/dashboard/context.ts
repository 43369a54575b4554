// What the dashboard's routes share: their options, sending a page, the signed-in developer
// (or the sign-in page instead), a checked write, and the view a page gets of its request.
import express, { type Request, type Response, type Router } from 'express';
import type { RouteParameters } from 'express-serve-static-core';

import type { ReplyOf } from '../../contract/canister';
import type { CyclesStatus } from '../../contract/cycles';
import type { CanisterClient } from '../ic/canister';
import { sendPage } from '../pages/layout';
import type { Provider, SignInConfig } from '../sign-in/providers';
import type { DeliveryOptions } from '../webhooks/deliver';
import { cyclesNotice } from './cycles-notice';
import { dashboardPage, html, type Html } from './layout';
import { noticeText } from './notices';
import { signInPage } from './pages/sign-in';
import type { View } from './pages/view';
import { clearSessionCookie, sessionOf, writeAllowed, type DeveloperSession } from '../developer/session';

export interface DashboardOptions {
    canister: CanisterClient;
    signIn: SignInConfig;
    providerNamed(name: string): Provider | undefined;
    /** How this gateway reaches webhook endpoints: the URL check on saving, and "send a test event". */
    webhookDelivery: DeliveryOptions;
    /** The service's cycles as this gateway last read them (its cycles watch), for the banner. */
    cyclesStatus?: () => CyclesStatus | undefined;
}

/** A form's fields as the browser sent them. */
export type Form = Record<string, string | undefined>;

/** A signed-in developer: the session, and who they are with their games. */
export interface Developer {
    session: DeveloperSession;
    me: ReplyOf<'dev_me'>;
}

/** The body parser of the dashboard's forms. */
export const forms = express.urlencoded({ extended: false, limit: '16kb' });

/** A form's fields (none when the body was not a form). */
export const formOf = (req: Request): Form => (req.body ?? {}) as Form;

/** A number field of a form: empty = undefined (the canister keeps or clears the value). */
export const num = (v: string | undefined): number | undefined =>
    v === undefined || v.trim() === '' ? undefined : Number(v);

/** The status of a page answering a refused form: the canister's, or 503 when it failed itself. */
export const refused = (status: number): number => (status < 500 ? status : 503);

export const send = (o: DashboardOptions, res: Response, status: number, body: string): void =>
    sendPage(res, status, o.signIn.providers, body, { scripts: true });

export const showSignIn = (o: DashboardOptions, res: Response, status = 200, message?: string): void =>
    send(o, res, status, signInPage(o.signIn.providers, message));

/** A page of a signed-in developer (their email and sign-out form in the top bar). */
export function render(
    o: DashboardOptions,
    res: Response,
    status: number,
    d: Developer,
    title: string,
    body: Html,
    scripts: string[] = [],
): void {
    send(
        o,
        res,
        status,
        dashboardPage(
            {
                title,
                email: d.me.developer.email ?? '',
                csrf: d.session.csrf,
                notice: cyclesNotice(o.cyclesStatus?.()),
            },
            body,
            scripts,
        ),
    );
}

/** The live session and the developer's view, or undefined once the sign-in page (or an error) is sent. */
export async function developer(o: DashboardOptions, req: Request, res: Response): Promise<Developer | undefined> {
    const session = sessionOf(req, o.signIn);
    const me =
        session === undefined ? undefined : await o.canister.call('dev_me', { sessionHash: session.sessionHash });
    if (session === undefined || me === undefined || 'err' in me) {
        if (me !== undefined && 'err' in me && me.err.status !== 401) {
            send(o, res, 503, dashboardPage({ title: 'Unavailable' }, html`<p class="error">${me.err.message}</p>`));
            return undefined;
        }
        clearSessionCookie(res, o.signIn);
        showSignIn(
            o,
            res,
            session === undefined ? 200 : 401,
            session === undefined ? undefined : 'Your session has ended: sign in again.',
        );
        return undefined;
    }
    return { session, me: me.ok };
}

/** A checked write: the session must be live and the form must carry its CSRF token. */
export async function writer(o: DashboardOptions, req: Request, res: Response): Promise<Developer | undefined> {
    const d = await developer(o, req, res);
    if (d === undefined) return undefined;
    if (!writeAllowed(req, d.session, o.signIn)) {
        render(
            o,
            res,
            403,
            d,
            'Form expired',
            html`<h1>This form expired</h1>
                <p class="error" role="alert">
                    This form expired or did not come from this dashboard. Nothing was changed.
                </p>
                <p><a href="/dashboard">Back to your games</a></p>`,
        );
        return undefined;
    }
    return d;
}

/** What a page shows besides its data: the notice of `?done=`, and a failed form's error and fields. */
export const viewOf = (req: Request, d: Developer, error?: View['error'], values?: Form): View => ({
    csrf: d.session.csrf,
    done: noticeText(req.query.done),
    error,
    values,
});

/** A form's route (POST `path`): a checked write, then `handle` with the developer and the form's fields. */
export function postForm<P extends string>(
    router: Router,
    o: DashboardOptions,
    path: P,
    handle: (d: Developer, b: Form, req: Request<RouteParameters<P>>, res: Response) => Promise<void>,
): void {
    router.post(path, forms, async (req, res) => {
        const d = await writer(o, req, res);
        if (d !== undefined) await handle(d, formOf(req), req, res);
    });
}

/**
 * Named form routes (POST `path`, its last parameter `:action`): a checked write, then `handle`
 * with the action `actions` has of that name; a name it has not passes on to the next route.
 */
export function postActions<P extends string, A>(
    router: Router,
    o: DashboardOptions,
    path: P,
    actions: ReadonlyMap<string, A>,
    handle: (d: Developer, action: A, b: Form, req: Request<RouteParameters<P>>, res: Response) => Promise<void>,
): void {
    router.post(path, forms, async (req, res, next) => {
        const action = actions.get(String((req.params as Record<string, string>).action));
        if (action === undefined) return next();
        const d = await writer(o, req, res);
        if (d !== undefined) await handle(d, action, formOf(req), req, res);
    });
}
