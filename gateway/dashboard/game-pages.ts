// The signed-in pages: the games list, a game's tabs and a board's page, each read from the
// canister and rendered by its file in ./pages (a failed read is a page with the error).
import { Router, type Request, type Response } from 'express';

import type { GameView } from '../../contract/canister';
import { ApiFailure } from '../errors';
import { developer, render, viewOf, type DashboardOptions, type Developer } from './context';
import { html, type Html } from './layout';
import { analyticsTab } from './pages/analytics';
import { boardPage } from './pages/board';
import { boardsTab } from './pages/boards';
import { gameFrame, TABS, type Tab } from './pages/frame';
import { gamesPage } from './pages/games';
import { keyTab } from './pages/key';
import { moderationTab } from './pages/moderation';
import { securityTab } from './pages/security';
import { settingsTab } from './pages/settings';
import { webhooksTab } from './pages/webhooks';
import type { View } from './pages/view';

const CHART_JS = '/dashboard/assets/chart.umd.min.js';
const DASHBOARD_JS = '/dashboard/assets/dashboard.js';

/** What a tab is rendered from. */
interface TabInput {
    o: DashboardOptions;
    req: Request;
    game: GameView;
    /** The developer's session and the game, as every per-game method takes them. */
    dev: { sessionHash: string; gameId: string };
    view: View;
}

/** A tab's contents (inside the game's frame) and the scripts it needs. */
type TabPage = (t: TabInput) => Promise<{ body: Html; scripts?: string[] }>;

const TAB_PAGES: Record<Tab, TabPage> = {
    settings: async ({ game, view }) => ({ body: settingsTab(game, view) }),
    key: async ({ o, game, view }) => ({ body: keyTab(game, o.signIn.publicUrl, view), scripts: [DASHBOARD_JS] }),
    boards: async ({ o, game, view }) => ({
        body: boardsTab(game, await o.canister.ok('list_boards', { gameId: game.gameId }), view),
    }),
    security: async ({ o, req, game, dev, view }) => {
        const player = typeof req.query.player === 'string' ? req.query.player.trim() : '';
        const log = await o.canister.ok('dev_suspicion_log', {
            ...dev,
            playerId: player === '' ? undefined : player,
            limit: 200,
        });
        return { body: securityTab(game, log, player, view), scripts: [DASHBOARD_JS] };
    },
    moderation: async ({ o, game, dev, view }) => ({
        body: moderationTab(game, await o.canister.ok('dev_moderation_log', { ...dev, limit: 200 }), view),
    }),
    webhooks: async ({ o, game, dev, view }) => ({
        body: webhooksTab(game, await o.canister.ok('dev_list_webhooks', dev), view, view.webhook),
        scripts: [DASHBOARD_JS],
    }),
    analytics: async ({ o, req, game, dev }) => {
        const days = req.query.days === '90' ? 90 : 30;
        return {
            body: analyticsTab(game, await o.canister.ok('dev_analytics', { ...dev, days }), days),
            scripts: [CHART_JS, DASHBOARD_JS],
        };
    },
};

/** A board's page: a page of entries, the archives, and the archive the query names. */
async function boardBody({ o, req, game, dev, view }: TabInput, boardId: string): Promise<Html> {
    const offset = Math.max(0, Math.floor(Number(req.query.offset ?? 0)) || 0);
    const page = await o.canister.ok('dev_read_board', { ...dev, boardId, offset, limit: 50 });
    const archives = await o.canister.ok('list_archives', { gameId: game.gameId, boardId });
    const archiveId = typeof req.query.archive === 'string' ? req.query.archive : undefined;
    const archive =
        archiveId === undefined
            ? undefined
            : await o.canister.ok('read_archive', { gameId: game.gameId, archiveId, limit: 100 });
    return boardPage(game, page, archives, archive, view);
}

/** Shows a game's tab (or a board's page) with `view`: also the page a failed form goes back to. */
export async function showGame(
    o: DashboardOptions,
    req: Request,
    res: Response,
    d: Developer,
    gameId: string,
    tab: Tab | { board: string },
    view: View,
    status = 200,
): Promise<void> {
    const game = d.me.games.find((g) => g.gameId === gameId);
    if (game === undefined) {
        render(
            o,
            res,
            404,
            d,
            'Not found',
            html`<h1>Game not found among your games</h1>
                <p><a href="/dashboard">Your games</a></p>`,
        );
        return;
    }
    const input: TabInput = { o, req, game, dev: { sessionHash: d.session.sessionHash, gameId }, view };
    try {
        if (typeof tab === 'object') {
            const body = gameFrame(game, 'boards', await boardBody(input, tab.board));
            render(o, res, status, d, `${tab.board} · ${game.name}`, body);
        } else {
            const { body, scripts } = await TAB_PAGES[tab](input);
            render(o, res, status, d, game.name, gameFrame(game, tab, body), scripts);
        }
    } catch (e) {
        const message = e instanceof ApiFailure ? e.message : 'The service is busy. Try again shortly.';
        const code = e instanceof ApiFailure && e.status < 500 ? e.status : 503;
        render(
            o,
            res,
            code,
            d,
            'Problem',
            html`<p class="muted"><a href="/dashboard/games/${gameId}">← ${game.name}</a></p>
                <p class="error" role="alert">${message}</p>`,
        );
    }
}

export function gamePages(o: DashboardOptions): Router {
    const router = Router();
    router.get('/dashboard', async (req, res) => {
        const d = await developer(o, req, res);
        if (d === undefined) return;
        render(o, res, 200, d, 'Your games', gamesPage(d.me, viewOf(req, d)));
    });
    router.get(
        '/dashboard/games/:gameId',
        (req, res) => void res.redirect(303, `/dashboard/games/${encodeURIComponent(req.params.gameId)}/settings`),
    );
    router.get('/dashboard/games/:gameId/boards/:boardId', async (req, res) => {
        const d = await developer(o, req, res);
        if (d !== undefined)
            await showGame(o, req, res, d, req.params.gameId, { board: req.params.boardId }, viewOf(req, d));
    });
    router.get('/dashboard/games/:gameId/:tab', async (req, res, next) => {
        const tab = TABS.find((t) => t === req.params.tab);
        if (tab === undefined) return next();
        const d = await developer(o, req, res);
        if (d !== undefined) await showGame(o, req, res, d, req.params.gameId, tab, viewOf(req, d));
    });
    return router;
}
