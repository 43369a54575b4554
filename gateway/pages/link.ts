// The link page ({link_url} = <public URL>/link): a player enters or confirms the code their
// game shows (RFC 8628 §5.4: a prefilled code is shown and confirmed, never approved blindly),
// sees which game asks (its name and ID: names are not unique), signs in with an identity
// provider, and is told to return to the game.
// Wrong codes are limited by the canister; forms carry a CSRF token (../csrf.ts); the sign-in
// runs the flow of ../sign-in/oidc-flow.ts, its state in a sealed cookie used once.
import express, { type Request, type Response, Router } from 'express';

import { formatUserCode } from '../../contract/user-codes';
import { clientAddress } from '../http/client-address';
import { csrfAllowed, csrfToken, setCsrfCookie } from '../http/csrf';
import { ApiFailure } from '../http/errors';
import { countSignInStep } from '../ops/metrics';
import { signInFlow, type FlowFailure } from '../sign-in/oidc-flow';
import type { CanisterClient } from '../ic/canister';
import type { Provider, SignInConfig } from '../sign-in/providers';
import { clearCookie, cookie } from '../sign-in/sealed-cookie';
import { html, page, sendPage, type Html } from './layout';

const CSRF_COOKIE = 'lb_link_csrf';
/** How long the code's page stays good for its form. */
const FORM_SECONDS = 600;

export interface LinkPagesOptions {
    canister: CanisterClient;
    signIn: SignInConfig;
    providerNamed(name: string): Provider | undefined;
}

/** What the player reads when the provider's callback cannot sign them in. */
const FLOW_FAILED: Record<FlowFailure, string> = {
    expired: 'This sign-in link expired or was already used. Enter your code again.',
    withdrawn: 'That sign-in method is no longer offered.',
    unverified: 'The sign-in was not completed or could not be verified. Enter your code again.',
};

/** A game as the page names it: names are not unique, so a rival's copy shows its own ID. */
const gameLabel = (g: { gameName: string; gameId: string }): string => `${g.gameName} (${g.gameId})`;

function frame(title: string, body: Html): string {
    return page(
        title,
        html`<div class="card">
                <p class="brand">Leaderboard sign-in</p>
                ${body}
            </div>
            <footer>Signing in links your game progress to your account. Nothing is posted anywhere.</footer>`,
    );
}

function codeForm(error?: string, value = ''): Html {
    return html`<h1>Sign in to your game</h1>
        ${error === undefined ? '' : html`<p class="error" role="alert">${error}</p>`}
        <form method="get" action="/link">
            <div class="field">
                <label for="code">Code shown in your game</label>
                <input
                    class="code-input"
                    id="code"
                    name="code"
                    type="text"
                    inputmode="text"
                    autocomplete="one-time-code"
                    autocapitalize="characters"
                    spellcheck="false"
                    maxlength="32"
                    required
                    value="${value}"
                    placeholder="XXXX-XXXX"
                    aria-describedby="code-hint"
                />
                <p class="hint" id="code-hint">
                    8 letters, like BCDF-GHJK (or 16 when your game shows 16). Dashes and case do not matter.
                </p>
            </div>
            <button type="submit">Continue</button>
        </form>`;
}

export function linkPages(o: LinkPagesOptions): Router {
    const router = Router();
    const flow = signInFlow(o.signIn, { cookie: 'lb_link_flow', purpose: 'link flow', path: '/link' });
    const cookieOptions = flow.cookieOptions;
    const providerNamed = o.providerNamed;

    const send = (res: Response, status: number, title: string, body: Html): void =>
        sendPage(res, status, o.signIn.providers, frame(title, body));

    const fail = (res: Response, status: number, message: string): void =>
        send(
            res,
            status,
            'Sign-in problem',
            html`<h1>That did not work</h1>
                <p class="error" role="alert">${message}</p>
                <a class="button" href="/link">Start again</a>`,
        );

    /** The pending code a player typed (the canister counts wrong ones per client). */
    async function lookup(req: Request, code: string) {
        return o.canister.call('device_code_lookup', { userCode: code, client: clientAddress(req.ip) });
    }

    router.get('/link', async (req, res) => {
        const code = typeof req.query.code === 'string' ? req.query.code.trim() : '';
        if (code === '') return send(res, 200, 'Sign in to your game', codeForm());
        try {
            const found = await lookup(req, code);
            if ('err' in found)
                return send(
                    res,
                    found.err.status === 429 ? 429 : 404,
                    'Sign in to your game',
                    codeForm(found.err.message, code),
                );
            const bound = setCsrfCookie(res, CSRF_COOKIE, { ...cookieOptions(), maxAgeSeconds: FORM_SECONDS });
            const csrf = csrfToken(o.signIn.secret, 'link', bound);
            const buttons = o.signIn.providers.map(
                (p, i) =>
                    html`<form method="post" action="/link/start">
                        <input type="hidden" name="code" value="${found.ok.userCode}" /><input
                            type="hidden"
                            name="provider"
                            value="${p.name}"
                        /><input type="hidden" name="csrf" value="${csrf}" />
                        <button type="submit" class="${i === 0 ? '' : 'secondary'}">${p.label}</button>
                    </form>`,
            );
            send(
                res,
                200,
                `Sign in to ${gameLabel(found.ok)}`,
                html`<h1>Sign in to ${gameLabel(found.ok)}</h1>
                    <p>Does this match the code on your game screen?</p>
                    <div class="code" aria-label="Code">${formatUserCode(found.ok.userCode)}</div>
                    <p class="muted">
                        If it does, choose how to sign in. The code stops working in
                        ${Math.max(1, Math.round(found.ok.expiresIn / 60))} minutes.
                    </p>
                    ${buttons.length === 0 ? html`<p class="error">No sign-in method is configured on this server.</p>` : buttons}
                    <a class="button secondary" href="/link">No, it doesn't match</a>`,
            );
        } catch (e) {
            fail(res, 503, e instanceof ApiFailure ? e.message : 'The service is busy. Try again shortly.');
        }
    });

    router.post('/link/start', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
        const { code, provider: name } = (req.body ?? {}) as Record<string, unknown>;
        const bound = cookie(req, CSRF_COOKIE);
        const expected = bound === undefined ? undefined : csrfToken(o.signIn.secret, 'link', bound);
        if (!csrfAllowed(req, expected, o.signIn.publicUrl))
            return fail(res, 403, 'This form expired or did not come from this page. Enter your code again.');
        const p = typeof name === 'string' ? providerNamed(name) : undefined;
        if (p === undefined || typeof code !== 'string')
            return fail(res, 400, 'Choose one of the sign-in methods on the page.');
        try {
            const found = await lookup(req, code);
            if ('err' in found) return fail(res, found.err.status === 429 ? 429 : 404, found.err.message);
            const url = await flow.start(res, p, { code: found.ok.userCode });
            clearCookie(res, CSRF_COOKIE, cookieOptions());
            res.redirect(303, url.href);
        } catch (e) {
            fail(
                res,
                503,
                e instanceof ApiFailure ? e.message : 'The sign-in service could not be reached. Try again shortly.',
            );
        }
    });

    async function callback(req: Request, res: Response): Promise<void> {
        countSignInStep(res, 'link_approve');
        const signedIn = await flow.finish(req, res, providerNamed);
        if ('failed' in signedIn) return fail(res, 400, FLOW_FAILED[signedIn.failed]);
        const { identity, carried } = signedIn;
        try {
            const approved = await o.canister.call('device_code_approve', {
                userCode: String(carried.code),
                client: clientAddress(req.ip),
                identity,
            });
            if ('err' in approved) return fail(res, approved.err.status === 429 ? 429 : 404, approved.err.message);
            const who = identity.email !== '' ? identity.email : 'your account';
            send(
                res,
                200,
                'You are signed in',
                html`<p class="ok" aria-hidden="true">✓</p>
                    <h1>You're signed in</h1>
                    <p>Signed in as <strong>${who}</strong>.</p>
                    <p>
                        You can return to <strong>${gameLabel(approved.ok)}</strong> now: it continues on its own in a
                        few seconds.
                    </p>
                    <p class="muted">You can close this page.</p>`,
            );
        } catch (e) {
            fail(res, 503, e instanceof ApiFailure ? e.message : 'The service is busy. Try again shortly.');
        }
    }

    // The promise goes to Express: whatever rejects becomes an error page, never an unhandled rejection.
    router.get('/link/callback', callback);
    router.post('/link/callback', express.urlencoded({ extended: false, limit: '16kb' }), callback);
    return router;
}
