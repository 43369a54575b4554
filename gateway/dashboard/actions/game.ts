// A game's form actions, by name (POST /dashboard/games/<gameId>/<name>): each one canister
// call from the form's fields (passed on as sent: the canister checks them), a notice and the
// tab to go back to; a refusal shows that tab again with the error by its form. Deleting the
// game goes back to the games list.
import { Router } from 'express';

import type { Result } from '../../../contract/canister';
import type { CanisterClient } from '../../ic/canister';
import { formOf, forms, num, postForm, viewOf, writer, type DashboardOptions, type Form } from '../context';
import { showGame } from '../game-pages';
import { withNotice, type Notice } from '../notices';
import { formOptions } from '../pages/board-options';
import type { Tab } from '../pages/frame';

/** The developer's session and the game, as every per-game method takes them. */
type DevGame = { sessionHash: string; gameId: string };

interface GameAction {
    call(canister: CanisterClient, dev: DevGame, b: Form): Promise<Result<unknown>>;
    done: Notice;
    /** The page of the form: a tab, or the page of the board the form names. */
    back: Tab | 'board of the form';
}

const GAME_ACTIONS: ReadonlyMap<string, GameAction> = new Map<string, GameAction>([
    // Settings
    [
        'update',
        {
            call: (c, dev, b) => c.relay('dev_update_game', { ...dev, name: b.name, description: b.description ?? '' }),
            done: 'saved',
            back: 'settings',
        },
    ],
    [
        'standard-boards',
        {
            call: (c, dev, b) =>
                c.relay('dev_update_game', {
                    ...dev,
                    standardBoards: { sortOrder: b.sortOrder, operator: b.operator },
                }),
            done: 'standard-boards-saved',
            back: 'settings',
        },
    ],
    [
        'active',
        {
            call: (c, dev, b) => c.call('dev_update_game', { ...dev, isActive: b.isActive === 'true' }),
            done: 'saved',
            back: 'settings',
        },
    ],
    // API key
    ['rotate', { call: (c, dev) => c.call('dev_rotate_key', dev), done: 'key-rotated', back: 'key' }],
    // Security
    [
        'server-key-revoke',
        { call: (c, dev) => c.call('dev_revoke_server_key', dev), done: 'server-key-revoked', back: 'security' },
    ],
    [
        'server-settings',
        {
            call: (c, dev, b) =>
                c.call('dev_update_game', {
                    ...dev,
                    serverOnly: b.serverOnly === 'true',
                    serverSkipsChecks: b.serverSkipsChecks === 'true',
                }),
            done: 'server-settings-saved',
            back: 'security',
        },
    ],
    [
        'caps',
        {
            call: (c, dev, b) =>
                c.call('dev_set_caps', {
                    ...dev,
                    maxScore: num(b.maxScore) ?? null,
                    maxStreak: num(b.maxStreak) ?? null,
                    minScore: num(b.minScore) ?? null,
                }),
            done: 'caps-saved',
            back: 'security',
        },
    ],
    [
        'time-validation',
        {
            call: (c, dev, b) =>
                c.call('dev_set_time_validation', {
                    ...dev,
                    enabled: b.enabled === 'true',
                    minPlaySeconds: num(b.minPlaySeconds),
                    maxScorePerSecond: num(b.maxScorePerSecond),
                    sessionLifetimeSeconds: num(b.sessionLifetimeSeconds),
                }),
            done: 'time-validation-saved',
            back: 'security',
        },
    ],
    // Boards
    [
        'boards',
        {
            call: (c, dev, b) =>
                c.relay('dev_create_board', {
                    ...dev,
                    scoreboardId: b.scoreboardId,
                    name: b.name === '' ? undefined : b.name,
                    description: b.description,
                    type: b.type,
                    period: b.type === 'targeted' ? b.period : undefined,
                    days: b.type === 'custom' || b.period === 'custom' ? num(b.days) : undefined,
                    sortBy: b.sortBy,
                    ...formOptions(b),
                }),
            done: 'board-created',
            back: 'boards',
        },
    ],
    [
        'remove-entry',
        {
            call: (c, dev, b) =>
                c.relay('dev_remove_entry', { ...dev, scoreboardId: b.scoreboardId, playerId: b.playerId }),
            done: 'entry-removed',
            back: 'board of the form',
        },
    ],
    // Moderation
    [
        'wipe',
        {
            call: (c, dev, b) =>
                c.relay('dev_wipe_player', { ...dev, playerId: b.playerId, archives: b.archives === 'true' }),
            done: 'player-wiped',
            back: 'moderation',
        },
    ],
    [
        'ban',
        {
            call: (c, dev, b) => c.relay('dev_ban', { ...dev, playerId: b.playerId, reason: b.reason ?? '' }),
            done: 'player-banned',
            back: 'moderation',
        },
    ],
    [
        'unban',
        {
            call: (c, dev, b) => c.relay('dev_unban', { ...dev, playerId: b.playerId }),
            done: 'ban-lifted',
            back: 'moderation',
        },
    ],
]);

export function gameActions(o: DashboardOptions): Router {
    const router = Router();
    postForm(router, o, '/dashboard/games/:gameId/delete', async (d, b, req, res) => {
        const gameId = req.params.gameId;
        const r = await o.canister.relay('dev_delete_game', {
            sessionHash: d.session.sessionHash,
            gameId,
            confirm: b.confirm ?? '',
        });
        if ('err' in r) {
            const view = viewOf(req, d, { action: 'delete', message: r.err.message });
            return showGame(o, req, res, d, gameId, 'settings', view, r.err.status);
        }
        res.redirect(303, withNotice('/dashboard', 'game-deleted'));
    });

    // A new server key is shown on the answer itself (never in a URL, never again): no redirect.
    postForm(router, o, '/dashboard/games/:gameId/server-key', async (d, _b, req, res) => {
        const gameId = req.params.gameId;
        const dev = { sessionHash: d.session.sessionHash, gameId };
        const r = await o.canister.call('dev_rotate_server_key', dev);
        if ('err' in r) {
            const view = viewOf(req, d, { action: 'server-key', message: r.err.message });
            return showGame(o, req, res, d, gameId, 'security', view, r.err.status < 500 ? r.err.status : 503);
        }
        res.set('Cache-Control', 'no-store');
        await showGame(o, req, res, d, gameId, 'security', { ...viewOf(req, d), serverKey: r.ok.serverKey });
    });

    router.post('/dashboard/games/:gameId/:action', forms, async (req, res, next) => {
        const name = req.params.action;
        const action = GAME_ACTIONS.get(name);
        if (action === undefined) return next();
        const d = await writer(o, req, res);
        if (d === undefined) return;
        const gameId = req.params.gameId;
        const b = formOf(req);
        const r = await action.call(o.canister, { sessionHash: d.session.sessionHash, gameId }, b);
        const back = action.back === 'board of the form' ? { board: b.scoreboardId ?? '' } : action.back;
        if ('err' in r) {
            // A game the developer does not own is the same 404 whatever the action.
            const view = viewOf(req, d, { action: name, message: r.err.message }, b);
            return showGame(o, req, res, d, gameId, back, view, r.err.status < 500 ? r.err.status : 503);
        }
        const where = typeof back === 'object' ? `boards/${encodeURIComponent(back.board)}` : back;
        res.redirect(303, withNotice(`/dashboard/games/${encodeURIComponent(gameId)}/${where}`, action.done));
    });
    return router;
}
