// The games list's form actions: registering a game (then its API key tab) and asking the
// operators for more game slots; a refusal shows the list again with the error by its form.
import { Router } from 'express';

import { registerGame, requestGames } from '../../developer/games';
import { perform } from '../../developer/operation';
import { num, postForm, refused, render, viewOf, type DashboardOptions } from '../context';
import { withNotice } from '../notices';
import { gamesPage } from '../pages/games';

export function accountActions(o: DashboardOptions): Router {
    const router = Router();
    postForm(router, o, '/dashboard/games', async (d, b, req, res) => {
        const r = await perform(
            registerGame,
            o,
            { sessionHash: d.session.sessionHash },
            { gameId: b.gameId, name: b.name, description: b.description ?? '' },
        );
        if ('err' in r) {
            const view = viewOf(req, d, { action: 'register', message: r.err.message }, b);
            render(o, res, refused(r.err.status), d, 'Your games', gamesPage(d.me, view));
            return;
        }
        res.redirect(
            303,
            withNotice(`/dashboard/games/${encodeURIComponent(r.ok.game.gameId)}/key`, 'game-registered'),
        );
    });

    postForm(router, o, '/dashboard/request', async (d, b, req, res) => {
        const r = await perform(
            requestGames,
            o,
            { sessionHash: d.session.sessionHash },
            { games: num(b.games), message: b.message ?? '' },
        );
        if ('err' in r) {
            const view = viewOf(req, d, { action: 'request', message: r.err.message }, b);
            render(o, res, 400, d, 'Your games', gamesPage(d.me, view));
            return;
        }
        res.redirect(303, withNotice('/dashboard', 'request-sent'));
    });
    return router;
}
