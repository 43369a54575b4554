// The developer dashboard at /dashboard: sign-in with the configured OpenID providers (the
// flow state in a sealed cookie, like the link page), the pages of ./pages.ts, their form
// actions (each one canister call, CSRF-checked, answered with a redirect or the page with
// the error next to its form), the charts' scripts, and an error page for whatever fails. The
// JSON API for developers' tools is in ../routes/dashboard-api.ts, with the rest of the API.
import * as path from 'node:path';

import express, { type NextFunction, type Request, type Response, Router } from 'express';

import type { Identity, Method, RequestOf } from '../../contract/canister';
import { unknownEndpoint } from '../../contract/messages';
import type { CanisterClient } from '../canister';
import { ApiFailure, failureOf } from '../errors';
import type { Provider, SignInConfig } from '../sign-in/providers';
import { beginFlow, finishFlow } from '../sign-in/oidc-flow';
import { clearCookie, readSealed, sealKey, setSealed } from '../sign-in/sealed-cookie';
import { sendPage } from '../pages/layout';
import { dashboardPage, html, type Html } from './layout';
import {
    analyticsTab,
    boardPage,
    boardsTab,
    gameFrame,
    gamesPage,
    keyTab,
    moderationTab,
    securityTab,
    settingsTab,
    TABS,
    type Tab,
    type View,
} from './pages';
import {
    clearSessionCookie,
    secureCookies,
    sessionOf,
    setSessionCookie,
    writeAllowed,
    type DeveloperSession,
} from './session';

const FLOW_COOKIE = 'lb_dev_flow';
const FLOW_SECONDS = 600;
const CHART_JS = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');

export interface DashboardOptions {
    canister: CanisterClient;
    signIn: SignInConfig;
    providerNamed(name: string): Provider | undefined;
}

type Body = Record<string, string | undefined>;

/**
 * The notices a page shows after an action (`?done=<key>`): only these texts, so a link
 * cannot put its own words on the dashboard; an unknown key shows nothing.
 */
const NOTICE_TEXT = {
    saved: 'Saved.',
    'key-rotated': 'A new key is active; the old one no longer works.',
    'caps-saved': 'Caps saved.',
    'time-validation-saved': 'Time validation saved.',
    'board-created': 'Board created.',
    'entry-removed': 'Entry removed.',
    'player-wiped': 'Player wiped.',
    'player-banned': 'Player banned.',
    'ban-lifted': 'Ban lifted.',
    'board-saved': 'Board saved.',
    'board-reset': 'Board reset: the period was archived.',
    'board-deleted': 'Board deleted.',
    'game-registered': 'Game registered. Here is its API key.',
    'request-sent': 'Request sent to the operators.',
    'game-deleted': 'The game and all of its data were deleted.',
} as const;
type Notice = keyof typeof NOTICE_TEXT;
const NOTICES: ReadonlyMap<string, string> = new Map(Object.entries(NOTICE_TEXT));

/** `path?done=<notice>`. */
const withNotice = (path: string, notice: Notice): string => `${path}?done=${notice}`;

/** A number field of a form: empty = undefined (the canister keeps or clears the value). */
const num = (v: string | undefined): number | undefined => (v === undefined || v.trim() === '' ? undefined : Number(v));

/**
 * The form actions of a game's pages: which canister method, the request built from the form,
 * the message on success, and the page to go back to (a path under the game).
 */
const GAME_ACTIONS: Record<
    string,
    { method: Method; request(b: Body, params: Record<string, string>): object; done: Notice; back: string }
> = {
    update: {
        method: 'dev_update_game',
        request: (b) => ({ name: b.name, description: b.description ?? '' }),
        done: 'saved',
        back: 'settings',
    },
    active: {
        method: 'dev_update_game',
        request: (b) => ({ isActive: b.isActive === 'true' }),
        done: 'saved',
        back: 'settings',
    },
    rotate: {
        method: 'dev_rotate_key',
        request: () => ({}),
        done: 'key-rotated',
        back: 'key',
    },
    caps: {
        method: 'dev_set_caps',
        request: (b) => ({ maxScore: num(b.maxScore) ?? null, maxStreak: num(b.maxStreak) ?? null }),
        done: 'caps-saved',
        back: 'security',
    },
    'time-validation': {
        method: 'dev_set_time_validation',
        request: (b) => ({
            enabled: b.enabled === 'true',
            minPlaySeconds: num(b.minPlaySeconds),
            maxScorePerSecond: num(b.maxScorePerSecond),
            sessionLifetimeSeconds: num(b.sessionLifetimeSeconds),
        }),
        done: 'time-validation-saved',
        back: 'security',
    },
    boards: {
        method: 'dev_create_board',
        request: (b) => ({
            scoreboardId: b.scoreboardId,
            name: b.name === '' ? undefined : b.name,
            description: b.description,
            type: b.type,
            period: b.type === 'targeted' ? b.period : undefined,
            days: b.type === 'custom' || b.period === 'custom' ? num(b.days) : undefined,
            sortBy: b.sortBy,
        }),
        done: 'board-created',
        back: 'boards',
    },
    'remove-entry': {
        method: 'dev_remove_entry',
        request: (b) => ({ scoreboardId: b.scoreboardId, playerId: b.playerId }),
        done: 'entry-removed',
        back: 'boards/:scoreboardId',
    },
    wipe: {
        method: 'dev_wipe_player',
        request: (b) => ({ playerId: b.playerId, archives: b.archives === 'true' }),
        done: 'player-wiped',
        back: 'moderation',
    },
    ban: {
        method: 'dev_ban',
        request: (b) => ({ playerId: b.playerId, reason: b.reason ?? '' }),
        done: 'player-banned',
        back: 'moderation',
    },
    unban: { method: 'dev_unban', request: (b) => ({ playerId: b.playerId }), done: 'ban-lifted', back: 'moderation' },
};

const BOARD_ACTIONS: Record<string, { method: Method; request(b: Body): object; done: Notice }> = {
    update: {
        method: 'dev_update_board',
        request: (b) => ({ name: b.name, description: b.description ?? '' }),
        done: 'board-saved',
    },
    reset: { method: 'dev_reset_board', request: () => ({}), done: 'board-reset' },
    delete: { method: 'dev_delete_board', request: () => ({}), done: 'board-deleted' },
};

export function dashboard(o: DashboardOptions): Router {
    const router = Router();
    const flowKey = sealKey(o.signIn.secret, 'dashboard flow');
    const callbackUrl = (): string => `${o.signIn.publicUrl}/dashboard/callback`;
    const forms = express.urlencoded({ extended: false, limit: '16kb' });

    const send = (res: Response, status: number, body: string): void =>
        sendPage(res, status, o.signIn.providers, body, { scripts: true });

    const call = <M extends Method>(method: M, request: object) => o.canister.call(method, request as RequestOf<M>);

    // ---- sign-in ------------------------------------------------------------------------------

    function signInPage(res: Response, status = 200, message?: string): void {
        const buttons = o.signIn.providers.map(
            (p) =>
                html`<form method="post" action="/dashboard/sign-in">
                    <input type="hidden" name="provider" value="${p.name}" /><button type="submit">${p.label}</button>
                </form>`,
        );
        send(
            res,
            status,
            dashboardPage(
                { title: 'Sign in' },
                html`<div class="card" style="max-width:460px">
                    <h1>Sign in</h1>
                    <p class="muted">Register your games, manage their keys, boards and anti-cheat settings.</p>
                    ${message === undefined ? '' : html`<p class="error" role="alert">${message}</p>`}
                    ${buttons.length === 0 ? html`<p class="error">No sign-in method is configured on this server.</p>` : buttons}
                </div>`,
            ),
        );
    }

    router.get('/dashboard/sign-in', (_req, res) => signInPage(res));

    router.post('/dashboard/sign-in', forms, async (req, res) => {
        const name = (req.body as Body).provider;
        const p = name === undefined ? undefined : o.providerNamed(name);
        if (p === undefined) return signInPage(res, 400, 'Choose one of the sign-in methods.');
        try {
            const { url, secrets } = await beginFlow(p, callbackUrl());
            await setSealed(res, FLOW_COOKIE, flowKey, { ...secrets, provider: p.config.name }, FLOW_SECONDS, {
                secure: secureCookies(o.signIn),
                path: '/dashboard',
            });
            res.redirect(303, url.href);
        } catch {
            signInPage(res, 503, 'The sign-in service could not be reached. Try again shortly.');
        }
    });

    async function callback(req: Request, res: Response): Promise<void> {
        const flow = await readSealed(req, FLOW_COOKIE, flowKey);
        clearCookie(res, FLOW_COOKIE, { secure: secureCookies(o.signIn), path: '/dashboard' });
        if (flow === undefined) return signInPage(res, 400, 'This sign-in expired or was already used. Sign in again.');
        const p = o.providerNamed(String(flow.provider));
        if (p === undefined) return signInPage(res, 400, 'That sign-in method is no longer offered.');
        let identity: Identity;
        try {
            identity = await finishFlow(p, req, callbackUrl(), flow);
        } catch {
            return signInPage(res, 400, 'The sign-in was not completed or could not be verified. Try again.');
        }
        const signedIn = await call('dev_sign_in', { identity });
        if ('err' in signedIn) return signInPage(res, 503, signedIn.err.message);
        setSessionCookie(res, o.signIn, signedIn.ok.sessionToken);
        res.redirect(303, '/dashboard');
    }
    router.get('/dashboard/callback', callback);
    router.post('/dashboard/callback', forms, callback);

    // ---- signed-in pages ------------------------------------------------------------------------

    /** The live session and the developer's view, or a redirect to sign-in. */
    async function developer(req: Request, res: Response) {
        const session = sessionOf(req, o.signIn);
        const me = session === undefined ? undefined : await call('dev_me', { sessionHash: session.sessionHash });
        if (session === undefined || me === undefined || 'err' in me) {
            if (me !== undefined && 'err' in me && me.err.status !== 401) {
                send(res, 503, dashboardPage({ title: 'Unavailable' }, html`<p class="error">${me.err.message}</p>`));
                return undefined;
            }
            clearSessionCookie(res, o.signIn);
            signInPage(
                res,
                session === undefined ? 200 : 401,
                session === undefined ? undefined : 'Your session has ended: sign in again.',
            );
            return undefined;
        }
        return { session, me: me.ok };
    }

    function render(
        res: Response,
        status: number,
        s: DeveloperSession,
        email: string | undefined,
        title: string,
        body: Html,
        scripts: string[] = [],
    ): void {
        send(res, status, dashboardPage({ title, email: email ?? '', csrf: s.csrf }, body, scripts));
    }

    const viewOf = (req: Request, s: DeveloperSession, error?: View['error'], values?: Body): View => ({
        csrf: s.csrf,
        done: typeof req.query.done === 'string' ? NOTICES.get(req.query.done) : undefined,
        error,
        values: values as Record<string, string> | undefined,
    });

    router.get('/dashboard', async (req, res) => {
        const d = await developer(req, res);
        if (d === undefined) return;
        render(res, 200, d.session, d.me.developer.email, 'Your games', gamesPage(d.me, viewOf(req, d.session)));
    });

    /** Shows a game's tab (or a board's page) with `view`. */
    async function showGame(
        req: Request,
        res: Response,
        d: NonNullable<Awaited<ReturnType<typeof developer>>>,
        gameId: string,
        tab: Tab | { board: string },
        view: View,
        status = 200,
    ): Promise<void> {
        const game = d.me.games.find((g) => g.gameId === gameId);
        if (game === undefined) {
            render(
                res,
                404,
                d.session,
                d.me.developer.email,
                'Not found',
                html`<h1>Game not found among your games</h1>
                    <p><a href="/dashboard">Your games</a></p>`,
            );
            return;
        }
        const s = d.session;
        const dev = { sessionHash: s.sessionHash, gameId };
        const okOf = async <M extends Method>(method: M, request: object) => {
            const r = await call(method, request);
            if ('err' in r) throw new ApiFailure(r.err.status, r.err.message);
            return r.ok;
        };
        try {
            let body: Html;
            let scripts: string[] = [];
            let title = game.name;
            if (typeof tab === 'object') {
                const offset = Math.max(0, Math.floor(Number(req.query.offset ?? 0)) || 0);
                const page = await okOf('dev_read_board', { ...dev, boardId: tab.board, offset, limit: 50 });
                const archives = await okOf('list_archives', { gameId, boardId: tab.board });
                const archiveId = typeof req.query.archive === 'string' ? req.query.archive : undefined;
                const archive =
                    archiveId === undefined ? undefined : await okOf('read_archive', { gameId, archiveId, limit: 100 });
                body = gameFrame(game, 'boards', boardPage(game, page, archives, archive, view));
                title = `${tab.board} · ${game.name}`;
            } else if (tab === 'settings') body = gameFrame(game, tab, settingsTab(game, view));
            else if (tab === 'key') {
                body = gameFrame(game, tab, keyTab(game, o.signIn.publicUrl, view));
                scripts = ['/dashboard/assets/dashboard.js'];
            } else if (tab === 'boards')
                body = gameFrame(game, tab, boardsTab(game, await okOf('list_boards', { gameId }), view));
            else if (tab === 'security') {
                const player = typeof req.query.player === 'string' ? req.query.player.trim() : '';
                const log = await okOf('dev_suspicion_log', {
                    ...dev,
                    playerId: player === '' ? undefined : player,
                    limit: 200,
                });
                body = gameFrame(game, tab, securityTab(game, log, player, view));
            } else if (tab === 'moderation')
                body = gameFrame(
                    game,
                    tab,
                    moderationTab(game, await okOf('dev_moderation_log', { ...dev, limit: 200 }), view),
                );
            else {
                const days = req.query.days === '90' ? 90 : 30;
                body = gameFrame(game, tab, analyticsTab(game, await okOf('dev_analytics', { ...dev, days }), days));
                scripts = ['/dashboard/assets/chart.umd.min.js', '/dashboard/assets/dashboard.js'];
            }
            render(res, status, s, d.me.developer.email, title, body, scripts);
        } catch (e) {
            const message = e instanceof ApiFailure ? e.message : 'The service is busy. Try again shortly.';
            const code = e instanceof ApiFailure && e.status < 500 ? e.status : 503;
            render(
                res,
                code,
                s,
                d.me.developer.email,
                'Problem',
                html`<p class="muted"><a href="/dashboard/games/${gameId}">← ${game.name}</a></p>
                    <p class="error" role="alert">${message}</p>`,
            );
        }
    }

    router.get(
        '/dashboard/games/:gameId',
        (req, res) => void res.redirect(303, `/dashboard/games/${encodeURIComponent(req.params.gameId)}/settings`),
    );
    router.get('/dashboard/games/:gameId/boards/:boardId', async (req, res) => {
        const d = await developer(req, res);
        if (d !== undefined)
            await showGame(req, res, d, req.params.gameId, { board: req.params.boardId }, viewOf(req, d.session));
    });
    router.get('/dashboard/games/:gameId/:tab', async (req, res, next) => {
        const tab = TABS.find((t) => t === req.params.tab);
        if (tab === undefined) return next();
        const d = await developer(req, res);
        if (d !== undefined) await showGame(req, res, d, req.params.gameId, tab, viewOf(req, d.session));
    });

    /** A checked write: the session must be live and the form must carry its CSRF token. */
    async function writer(req: Request, res: Response) {
        const d = await developer(req, res);
        if (d === undefined) return undefined;
        if (!writeAllowed(req, d.session, o.signIn)) {
            render(
                res,
                403,
                d.session,
                d.me.developer.email,
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

    router.post('/dashboard/sign-out', forms, async (req, res) => {
        const d = await writer(req, res);
        if (d === undefined) return;
        await call('dev_sign_out', { sessionHash: d.session.sessionHash });
        clearSessionCookie(res, o.signIn);
        res.redirect(303, '/dashboard/sign-in');
    });

    router.post('/dashboard/games', forms, async (req, res) => {
        const d = await writer(req, res);
        if (d === undefined) return;
        const b = req.body as Body;
        const r = await call('dev_register_game', {
            sessionHash: d.session.sessionHash,
            gameId: b.gameId,
            name: b.name,
            description: b.description ?? '',
        });
        if ('err' in r) {
            const view = viewOf(req, d.session, { action: 'register', message: r.err.message }, b);
            return render(
                res,
                r.err.status < 500 ? r.err.status : 503,
                d.session,
                d.me.developer.email,
                'Your games',
                gamesPage(d.me, view),
            );
        }
        res.redirect(
            303,
            withNotice(`/dashboard/games/${encodeURIComponent(r.ok.game.gameId)}/key`, 'game-registered'),
        );
    });

    router.post('/dashboard/request', forms, async (req, res) => {
        const d = await writer(req, res);
        if (d === undefined) return;
        const b = req.body as Body;
        const r = await call('dev_request_games', {
            sessionHash: d.session.sessionHash,
            games: num(b.games),
            message: b.message ?? '',
        });
        if ('err' in r) {
            const view = viewOf(req, d.session, { action: 'request', message: r.err.message }, b);
            return render(res, 400, d.session, d.me.developer.email, 'Your games', gamesPage(d.me, view));
        }
        res.redirect(303, withNotice('/dashboard', 'request-sent'));
    });

    router.post('/dashboard/games/:gameId/delete', forms, async (req, res) => {
        const d = await writer(req, res);
        if (d === undefined) return;
        const gameId = req.params.gameId;
        const r = await call('dev_delete_game', {
            sessionHash: d.session.sessionHash,
            gameId,
            confirm: (req.body as Body).confirm ?? '',
        });
        if ('err' in r)
            return showGame(
                req,
                res,
                d,
                gameId,
                'settings',
                viewOf(req, d.session, { action: 'delete', message: r.err.message }),
                r.err.status,
            );
        res.redirect(303, withNotice('/dashboard', 'game-deleted'));
    });

    router.post('/dashboard/games/:gameId/boards/:boardId/:action', forms, async (req, res, next) => {
        const action = BOARD_ACTIONS[req.params.action];
        if (action === undefined || !Object.hasOwn(BOARD_ACTIONS, req.params.action)) return next();
        const d = await writer(req, res);
        if (d === undefined) return;
        const { gameId, boardId } = req.params;
        const b = req.body as Body;
        if (req.params.action === 'delete' && b.confirm !== boardId) {
            return showGame(
                req,
                res,
                d,
                gameId,
                { board: boardId },
                viewOf(req, d.session, { action: 'delete-board', message: 'Type the board ID to confirm.' }),
                400,
            );
        }
        const r = await call(action.method, {
            sessionHash: d.session.sessionHash,
            gameId,
            scoreboardId: boardId,
            ...action.request(b),
        });
        if ('err' in r)
            return showGame(
                req,
                res,
                d,
                gameId,
                { board: boardId },
                viewOf(req, d.session, { action: `${req.params.action}-board`, message: r.err.message }, b),
                r.err.status,
            );
        const back =
            req.params.action === 'delete'
                ? `/dashboard/games/${encodeURIComponent(gameId)}/boards`
                : `/dashboard/games/${encodeURIComponent(gameId)}/boards/${encodeURIComponent(boardId)}`;
        res.redirect(303, withNotice(back, action.done));
    });

    router.post('/dashboard/games/:gameId/:action', forms, async (req, res, next) => {
        const name = req.params.action;
        const action = Object.hasOwn(GAME_ACTIONS, name) ? GAME_ACTIONS[name] : undefined;
        if (action === undefined) return next();
        const d = await writer(req, res);
        if (d === undefined) return;
        const gameId = req.params.gameId;
        const b = req.body as Body;
        const r = await call(action.method, {
            sessionHash: d.session.sessionHash,
            gameId,
            ...action.request(b, req.params),
        });
        const back = action.back === 'boards/:scoreboardId' ? { board: b.scoreboardId ?? '' } : (action.back as Tab);
        if ('err' in r) {
            // A game the developer does not own is the same 404 whatever the action.
            return showGame(
                req,
                res,
                d,
                gameId,
                back,
                viewOf(req, d.session, { action: name, message: r.err.message }, b),
                r.err.status < 500 ? r.err.status : 503,
            );
        }
        const where = typeof back === 'object' ? `boards/${encodeURIComponent(back.board)}` : back;
        res.redirect(303, withNotice(`/dashboard/games/${encodeURIComponent(gameId)}/${where}`, action.done));
    });

    // ---- assets ---------------------------------------------------------------------------------

    router.get('/dashboard/assets/chart.umd.min.js', (_req, res) => {
        res.set('Cache-Control', 'public, max-age=86400').type('application/javascript').sendFile(CHART_JS);
    });
    router.get('/dashboard/assets/dashboard.js', (_req, res) => {
        res.set('Cache-Control', 'public, max-age=3600')
            .type('application/javascript')
            .sendFile(path.join(__dirname, 'browser.js'));
    });

    // The JSON API's routes are served before this router: any other path under it is unknown.
    router.use(
        '/dashboard/api',
        (req, res) =>
            void res.status(404).json({ ok: false, error: unknownEndpoint(req.method, req.originalUrl.split('?')[0]) }),
    );

    router.get('/dashboard/*rest', (_req, res) =>
        send(
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
