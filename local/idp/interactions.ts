// The provider's interaction pages: sign in and create an account. oidc-provider sends the
// browser to <mount>/interaction/<uid> whenever the end-user must sign in; these routes show the
// forms and, on success, hand the result back to oidc-provider (interactionFinished), which
// resumes the authorization request and redirects to the client with a code.
//
// CSRF: every POST must carry the interaction's token, an HMAC of its uid under a key kept in the
// data directory, in a hidden field; and oidc-provider's interaction cookie (SameSite=Lax,
// signed, scoped to this interaction's path) must name the same uid as the URL.
import { createHmac, timingSafeEqual } from 'node:crypto';

import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { default as Provider, InteractionResults } from 'oidc-provider';

import { clientAddress } from '../../gateway/http/client-address';
import { MIN_PASSWORD_LENGTH, validateSignUp, type AccountStore, type LoginThrottle } from './accounts';
import { messagePage, PAGE_HEADERS, signInPage, signUpPage } from './pages';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

export interface InteractionDeps {
    provider: Provider;
    accounts: AccountStore;
    throttle: LoginThrottle;
    csrfKey: string;
    /** Where the provider is mounted: '' or a path like /idp. */
    mountPath: string;
    log: (line: string) => void;
}

const WRONG_CREDENTIALS = 'The email or password is incorrect.';
const TAKEN = 'An account with this email already exists. Sign in instead, or use another email.';

export function interactionRoutes(deps: InteractionDeps): Router {
    const { provider, accounts, throttle, mountPath } = deps;
    const router = express.Router();
    const forms = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 });
    const base = (uid: string): string => `${mountPath}/interaction/${encodeURIComponent(uid)}`;
    const csrfToken = (uid: string): string =>
        createHmac('sha256', deps.csrfKey).update(`interaction-form:${uid}`).digest('base64url');

    const send = (res: Response, status: number, html: string): void => {
        res.status(status).set(PAGE_HEADERS).send(html);
    };

    /** The interaction this browser is in, if it is the one in the URL; otherwise answers with a page and returns undefined. */
    async function current(req: Request, res: Response): Promise<Interaction | undefined> {
        let interaction: Interaction;
        try {
            interaction = await provider.interactionDetails(req, res);
        } catch {
            send(
                res,
                400,
                messagePage('This sign-in page has expired', 'Go back to the app or game and start signing in again.'),
            );
            return undefined;
        }
        if (interaction.uid !== req.params.uid) {
            send(
                res,
                400,
                messagePage('This sign-in page has expired', 'Go back to the app or game and start signing in again.'),
            );
            return undefined;
        }
        return interaction;
    }

    function csrfValid(req: Request, uid: string): boolean {
        const sent = typeof req.body?.csrf === 'string' ? Buffer.from(req.body.csrf as string) : Buffer.alloc(0);
        const expected = Buffer.from(csrfToken(uid));
        return sent.length === expected.length && timingSafeEqual(sent, expected);
    }

    /** The interaction of a form POST, once its CSRF token is checked. */
    async function posted(req: Request, res: Response): Promise<Interaction | undefined> {
        const interaction = await current(req, res);
        if (interaction === undefined) return undefined;
        if (!csrfValid(req, interaction.uid)) {
            deps.log(`refused a form without a valid CSRF token (interaction ${interaction.uid})`);
            send(
                res,
                403,
                messagePage(
                    'This form has expired',
                    'For your security the form was not accepted. Go back, reload the page and try again.',
                ),
            );
            return undefined;
        }
        return interaction;
    }

    /** Hands the outcome of a sign-in form to oidc-provider (a fresh result, not merged). */
    const finish = (req: Request, res: Response, result: InteractionResults): Promise<void> =>
        provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });

    const field = (req: Request, name: string): string =>
        typeof req.body?.[name] === 'string' ? (req.body[name] as string) : '';
    const clientOf = (interaction: Interaction): string => String(interaction.params.client_id ?? 'the app');
    const signInProps = (interaction: Interaction) => ({
        client: clientOf(interaction),
        action: `${base(interaction.uid)}/login`,
        signUpUrl: `${base(interaction.uid)}/signup`,
        abortAction: `${base(interaction.uid)}/abort`,
        csrf: csrfToken(interaction.uid),
    });
    const signUpProps = (interaction: Interaction) => ({
        client: clientOf(interaction),
        action: `${base(interaction.uid)}/signup`,
        signInUrl: base(interaction.uid),
        abortAction: `${base(interaction.uid)}/abort`,
        csrf: csrfToken(interaction.uid),
        minPasswordLength: MIN_PASSWORD_LENGTH,
    });

    /** First-party clients only are configured: consent is granted without asking. */
    async function grantConsent(interaction: Interaction): Promise<string> {
        const accountId = interaction.session?.accountId;
        if (accountId === undefined) throw new Error('consent prompt without a signed-in account');
        const grant =
            interaction.grantId === undefined
                ? new provider.Grant({ accountId, clientId: clientOf(interaction) })
                : await provider.Grant.find(interaction.grantId);
        if (grant === undefined) throw new Error('the interaction names a grant that does not exist');
        grant.addOIDCScope('openid email profile');
        return grant.save();
    }

    router.get('/interaction/:uid', async (req, res) => {
        const interaction = await current(req, res);
        if (interaction === undefined) return;
        if (interaction.prompt.name === 'login') {
            send(
                res,
                200,
                signInPage({
                    ...signInProps(interaction),
                    email:
                        typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined,
                }),
            );
        } else if (interaction.prompt.name === 'consent') {
            const grantId = await grantConsent(interaction);
            await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
        } else {
            send(
                res,
                400,
                messagePage(
                    'Sign-in cannot continue',
                    'This request needs a step this server does not offer. Go back to the app and try again.',
                ),
            );
        }
    });

    router.get('/interaction/:uid/signup', async (req, res) => {
        const interaction = await current(req, res);
        if (interaction === undefined) return;
        send(res, 200, signUpPage(signUpProps(interaction)));
    });

    router.post('/interaction/:uid/login', forms, async (req, res) => {
        const interaction = await posted(req, res);
        if (interaction === undefined) return;
        const email = field(req, 'email').trim();
        const password = field(req, 'password');
        if (email === '' || password === '') {
            send(
                res,
                400,
                signInPage({
                    ...signInProps(interaction),
                    email,
                    ...(email === '' ? { emailError: 'Enter your email address.' } : { error: 'Enter your password.' }),
                }),
            );
            return;
        }
        const client = clientAddress(req.ip);
        const waitMs = throttle.retryAfterMs(client);
        if (waitMs > 0) {
            const wait =
                waitMs < 60_000
                    ? `${Math.ceil(waitMs / 1000)} seconds`
                    : `${Math.ceil(waitMs / 60_000)} minute${waitMs > 60_000 ? 's' : ''}`;
            res.set('Retry-After', String(Math.ceil(waitMs / 1000)));
            send(
                res,
                429,
                signInPage({
                    ...signInProps(interaction),
                    email,
                    error: `Too many failed attempts. For your security, sign-in from this device is paused: try again in ${wait}.`,
                }),
            );
            return;
        }
        const account = await accounts.authenticate(email, password);
        if (account === undefined) {
            throttle.recordFailure(client, email);
            send(res, 401, signInPage({ ...signInProps(interaction), email, error: WRONG_CREDENTIALS }));
            return;
        }
        await finish(req, res, { login: { accountId: account.id } });
    });

    router.post('/interaction/:uid/signup', forms, async (req, res) => {
        const interaction = await posted(req, res);
        if (interaction === undefined) return;
        const input = { email: field(req, 'email'), password: field(req, 'password'), name: field(req, 'name') };
        const again = (status: number, errors: Partial<Record<'email' | 'password' | 'name', string>>): void =>
            send(
                res,
                status,
                signUpPage({ ...signUpProps(interaction), email: input.email.trim(), name: input.name.trim(), errors }),
            );
        const problems = validateSignUp(input);
        if (!problems.some((p) => p.field === 'email') && accounts.has(input.email))
            problems.unshift({ field: 'email', message: TAKEN });
        if (problems.length > 0) {
            again(
                problems.some((p) => p.message === TAKEN) ? 409 : 400,
                Object.fromEntries(problems.map((p) => [p.field, p.message])),
            );
            return;
        }
        const account = await accounts.create(input);
        if (account === 'taken') {
            again(409, { email: TAKEN });
            return;
        }
        deps.log(`created account ${account.id}`);
        await finish(req, res, { login: { accountId: account.id } });
    });

    router.post('/interaction/:uid/abort', forms, async (req, res) => {
        const interaction = await posted(req, res);
        if (interaction === undefined) return;
        await finish(req, res, { error: 'access_denied', error_description: 'The end-user cancelled the sign-in.' });
    });

    router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
        deps.log(`interaction error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!res.headersSent)
            send(
                res,
                500,
                messagePage(
                    'Something went wrong',
                    'Sign-in could not be completed. Go back to the app or game and try again.',
                ),
            );
    });

    return router;
}
