// The signed-in pages: the games list, a game's tabs and a board's page, each read from the
// canister (a game's page: the game as its canister has it now) and rendered by its file in
// ./pages (a failed read is a page with the error).
import { Router, type Request, type Response } from 'express';

import type { GameView } from '../../contract/canister';
import { REPORT_LIMITS } from '../../contract/reports';
import { boardNotFound } from '../../contract/messages';
import { readBoard } from '../developer/boards';
import { grants as grantsOp } from '../developer/rewards';
import { analytics } from '../developer/games';
import { moderationLog, report, reports, reviewQueue, suspicionLog } from '../developer/moderation';
import { replyOf, type DevGame } from '../developer/operation';
import { listWebhooks } from '../developer/webhooks';
import { ApiFailure, failureOf } from '../http/errors';
import { developer, render, viewOf, type DashboardOptions, type Developer } from './context';
import { html, type Html } from './layout';
import { analyticsTab } from './pages/analytics';
import { boardPage } from './pages/board';
import { boardsTab } from './pages/boards';
import { gameFrame, TABS, type Tab } from './pages/frame';
import { gamesPage } from './pages/games';
import { keyTab } from './pages/key';
import { LEAGUE_PAGE, leaguePage } from './pages/league';
import { moderationTab } from './pages/moderation';
import type { ReportsShown } from './pages/reports';
import { securityTab } from './pages/security';
import { settingsTab } from './pages/settings';
import { webhooksTab } from './pages/webhooks';
import type { View } from './pages/view';

const CHART_JS = '/dashboard/assets/chart.umd.min.js';
const DASHBOARD_JS = '/dashboard/assets/dashboard.js';

/** What a tab reads from besides the game: the request, the developer's session and the game's id. */
interface TabInput {
    o: DashboardOptions;
    req: Request;
    dev: DevGame;
    view: View;
}

/** A tab's contents (inside the game's frame) and the scripts it needs. */
interface Shown {
    body: Html;
    scripts?: string[];
}

/**
 * A tab: what it reads, read while the game itself is (dev_game, where the game lives), and its
 * contents from both.
 */
type TabPage = (t: TabInput, game: Promise<GameView>) => Promise<{ game: GameView; shown: Shown }>;

function tabPage<D>(load: (t: TabInput) => Promise<D>, page: (game: GameView, data: D, t: TabInput) => Shown): TabPage {
    return async (t, game) => {
        const [current, data] = await Promise.all([game, load(t)]);
        return { game: current, shown: page(current, data, t) };
    };
}

const nothing = async (): Promise<undefined> => undefined;

/** The report queue's first page, and the item `?report=<boardId>/<playerId>` names (its error shown in its place). */
async function reportsShown(o: DashboardOptions, req: Request, dev: DevGame): Promise<ReportsShown> {
    const wanted = typeof req.query.report === 'string' ? req.query.report : undefined;
    const at = wanted?.indexOf('/') ?? -1;
    const [queue, detail] = await Promise.all([
        replyOf(reports.run(o, dev, { limit: REPORT_LIMITS.page.max })),
        wanted === undefined
            ? undefined
            : report
                  .run(o, { ...dev, scoreboardId: wanted.slice(0, at), playerId: wanted.slice(at + 1) }, {})
                  .then((r) => ('err' in r ? { error: r.err.message } : r.ok)),
    ]);
    return { queue, detail };
}

const TAB_PAGES: Record<Tab, TabPage> = {
    settings: tabPage(nothing, (game, _, { view }) => ({ body: settingsTab(game, view) })),
    key: tabPage(nothing, (game, _, { o, view }) => ({
        body: keyTab(game, o.signIn.publicUrl, view),
        scripts: [DASHBOARD_JS],
    })),
    boards: tabPage(
        ({ o, dev }) => o.canister.ok('list_boards', { gameId: dev.gameId }),
        (game, list, { view }) => ({ body: boardsTab(game, list, view) }),
    ),
    security: tabPage(
        async ({ o, req, dev }) => {
            const player = typeof req.query.player === 'string' ? req.query.player.trim() : '';
            const log = await replyOf(
                suspicionLog.run(o, dev, { playerId: player === '' ? undefined : player, limit: 200 }),
            );
            return { log, player };
        },
        (game, { log, player }, { view }) => ({
            body: securityTab(game, log, player, view),
            scripts: [DASHBOARD_JS],
        }),
    ),
    moderation: tabPage(
        async ({ o, req, dev }) => {
            const [log, queue, reports] = await Promise.all([
                replyOf(moderationLog.run(o, dev, { limit: 200 })),
                replyOf(reviewQueue.run(o, dev, { limit: 200 })),
                reportsShown(o, req, dev),
            ]);
            return { log, queue, reports };
        },
        (game, data, { view }) => ({ body: moderationTab(game, data, view) }),
    ),
    webhooks: tabPage(
        ({ o, dev }) => replyOf(listWebhooks.run(o, dev, {})),
        (game, hooks, { view }) => ({ body: webhooksTab(game, hooks, view, view.webhook), scripts: [DASHBOARD_JS] }),
    ),
    analytics: tabPage(
        async ({ o, req, dev }) => {
            const days = req.query.days === '90' ? 90 : 30;
            return { days, data: await replyOf(analytics.run(o, dev, { days })) };
        },
        (game, { days, data }) => ({ body: analyticsTab(game, data, days), scripts: [CHART_JS, DASHBOARD_JS] }),
    ),
};

/** A board's page: a page of entries, the archives, and the archive the query names. */
function boardTab(boardId: string): TabPage {
    return tabPage(
        async ({ o, req, dev }) => {
            const offset = Math.max(0, Math.floor(Number(req.query.offset ?? 0)) || 0);
            const archiveId = typeof req.query.archive === 'string' ? req.query.archive : undefined;
            const filter =
                typeof req.query.filter === 'string' && req.query.filter !== '' ? req.query.filter : undefined;
            const shown =
                typeof req.query.grants === 'string' && /^[0-9]{1,20}$/.test(req.query.grants)
                    ? req.query.grants
                    : undefined;
            const [page, archives, archive, grants] = await Promise.all([
                replyOf(
                    readBoard.run(o, dev, { boardId, offset, limit: 50, ...(filter === undefined ? {} : { filter }) }),
                ),
                o.canister.ok('list_archives', { gameId: dev.gameId, boardId }),
                archiveId === undefined
                    ? undefined
                    : o.canister.ok('read_archive', { gameId: dev.gameId, archiveId, limit: 100 }),
                // The grants of a close (the newest, or the one the query names): boards that close only.
                boardId === 'all-time'
                    ? undefined
                    : replyOf(
                          grantsOp.run(o, dev, {
                              boardId,
                              limit: 100,
                              ...(shown === undefined ? {} : { periodStart: Number(shown) }),
                          }),
                      ),
            ]);
            return { page, archives, archive, filter, grants };
        },
        (game, { page, archives, archive, filter, grants }, { view }) => {
            // Read side by side with the board: a board made or deleted in between is not there yet, or any more.
            if (!game.boards.some((b) => b.scoreboardId === boardId)) throw new ApiFailure(404, boardNotFound(boardId));
            return { body: boardPage(game, page, archives, archive, view, filter, grants) };
        },
    );
}

/** A league board's League view: one tier's divisions, a page of them (`?tier=&offset=`). */
function leagueTab(boardId: string): TabPage {
    const whole = (text: unknown): number => Math.max(0, Math.floor(Number(text ?? 0)) || 0);
    return tabPage(
        async ({ o, req, dev }) => {
            const tier = whole(req.query.tier);
            const offset = whole(req.query.offset);
            const data = await o.canister.ok('dev_league', { ...dev, boardId, tier, offset, limit: LEAGUE_PAGE });
            return { data, tier, offset };
        },
        (game, { data, tier, offset }) => {
            const board = game.boards.find((b) => b.scoreboardId === boardId);
            if (board === undefined) throw new ApiFailure(404, boardNotFound(boardId));
            return { body: leaguePage(game, board, data, tier, offset) };
        },
    );
}

/**
 * Shows a game's tab (or a board's page) with `view`: also the page a failed form goes back to.
 * The game is read where it lives (dev_game) with what the tab reads, never taken from the
 * games list (dev_me), which may not have heard of an operator's change yet. When the game's
 * canister does not answer, the page says so in the game's frame; the rest of the dashboard works.
 */
export async function showGame(
    o: DashboardOptions,
    req: Request,
    res: Response,
    d: Developer,
    gameId: string,
    tab: Tab | { board: string; league?: true },
    view: View,
    status = 200,
): Promise<void> {
    const listed = d.me.games.find((g) => g.gameId === gameId);
    if (listed === undefined) {
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
    const dev = { sessionHash: d.session.sessionHash, gameId };
    const frameTab = typeof tab === 'object' ? 'boards' : tab;
    const page =
        typeof tab !== 'object' ? TAB_PAGES[tab] : tab.league === true ? leagueTab(tab.board) : boardTab(tab.board);
    try {
        const { game, shown } = await page({ o, req, dev, view }, o.canister.ok('dev_game', dev));
        const title =
            typeof tab !== 'object'
                ? game.name
                : `${tab.league === true ? 'League · ' : ''}${tab.board} · ${game.name}`;
        render(o, res, status, d, title, gameFrame(game, frameTab, shown.body), shown.scripts);
    } catch (e) {
        const failure = failureOf(e);
        if (failure.retryAfter !== undefined) res.setHeader('Retry-After', String(failure.retryAfter));
        const body =
            failure.status === 503
                ? html`<p class="error" role="alert">
                          This game's canister did not answer just now: try again in a few seconds. Your other games are
                          on <a href="/dashboard">Your games</a>.
                      </p>
                      <p class="muted">${failure.message}</p>`
                : html`<p class="error" role="alert">${failure.message}</p>`;
        render(o, res, failure.status, d, 'Problem', gameFrame(listed, frameTab, body));
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
    router.get('/dashboard/games/:gameId/boards/:boardId/league', async (req, res) => {
        const d = await developer(o, req, res);
        if (d !== undefined)
            await showGame(
                o,
                req,
                res,
                d,
                req.params.gameId,
                { board: req.params.boardId, league: true },
                viewOf(req, d),
            );
    });
    router.get('/dashboard/games/:gameId/:tab', async (req, res, next) => {
        const tab = TABS.find((t) => t === req.params.tab);
        if (tab === undefined) return next();
        const d = await developer(o, req, res);
        if (d !== undefined) await showGame(o, req, res, d, req.params.gameId, tab, viewOf(req, d));
    });
    return router;
}
