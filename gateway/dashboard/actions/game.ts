// A game's form actions, by name (POST /dashboard/games/<gameId>/<name>): each one developer
// operation (gateway/developer/) on the form's fields, a notice and the tab to go back to; a
// refusal shows that tab again with the error by its form. Deleting the game goes back to the
// games list.
import { Router } from 'express';

import type { Result } from '../../../contract/canister';
import { createBoard, removeEntry } from '../../developer/boards';
import { deleteGame, rotateKey, standardBoards, updateGame } from '../../developer/games';
import { rewardClaims } from '../../developer/rewards';
import { actOnReport, ban, settleReview, unban, wipePlayer } from '../../developer/moderation';
import { perform, type DevGame, type Operation } from '../../developer/operation';
import { revokeServerKey, rotateServerKey, serverSettings, setCaps, setTimeValidation } from '../../developer/security';
import { num, postActions, postForm, refused, viewOf, type DashboardOptions, type Form } from '../context';
import { showGame } from '../game-pages';
import { withNotice, type Notice } from '../notices';
import { formOptions } from '../pages/board-options';
import type { Tab } from '../pages/frame';

interface GameAction {
    run(o: DashboardOptions, dev: DevGame, b: Form): Promise<Result<unknown>>;
    done: Notice;
    /** The page of the form: a tab, or the page of the board the form names. */
    back: Tab | 'board of the form';
}

/** An action running `op` on what `fields` reads from the form (the player of the form with `dev`). */
function action<I, R>(
    op: Operation<I, DevGame & { playerId?: unknown }, R>,
    fields: (b: Form) => unknown,
    done: Notice,
    back: GameAction['back'],
    player = false,
): GameAction {
    return {
        run: (o, dev, b) => perform(op, o, player ? { ...dev, playerId: b.playerId } : dev, fields(b)),
        done,
        back,
    };
}

const none = (): undefined => undefined;

const GAME_ACTIONS: ReadonlyMap<string, GameAction> = new Map<string, GameAction>([
    // Settings
    ['update', action(updateGame, (b) => ({ name: b.name, description: b.description ?? '' }), 'saved', 'settings')],
    [
        'standard-boards',
        action(
            standardBoards,
            (b) => ({ sortOrder: b.sortOrder, operator: b.operator }),
            'standard-boards-saved',
            'settings',
        ),
    ],
    [
        'reward-claims',
        action(rewardClaims, (b) => ({ rewardClaims: b.rewardClaims }), 'reward-claims-saved', 'settings'),
    ],
    ['active', action(updateGame, (b) => ({ isActive: b.isActive === 'true' }), 'saved', 'settings')],
    // API key
    ['rotate', action(rotateKey, none, 'key-rotated', 'key')],
    // Security
    ['server-key-revoke', action(revokeServerKey, none, 'server-key-revoked', 'security')],
    [
        'server-settings',
        action(
            serverSettings,
            (b) => ({ serverOnly: b.serverOnly === 'true', serverSkipsChecks: b.serverSkipsChecks === 'true' }),
            'server-settings-saved',
            'security',
        ),
    ],
    [
        'caps',
        action(
            setCaps,
            (b) => ({
                maxScore: num(b.maxScore) ?? null,
                maxStreak: num(b.maxStreak) ?? null,
                minScore: num(b.minScore) ?? null,
            }),
            'caps-saved',
            'security',
        ),
    ],
    [
        'time-validation',
        action(
            setTimeValidation,
            (b) => ({
                enabled: b.enabled === 'true',
                minPlaySeconds: num(b.minPlaySeconds),
                maxScorePerSecond: num(b.maxScorePerSecond),
                sessionLifetimeSeconds: num(b.sessionLifetimeSeconds),
            }),
            'time-validation-saved',
            'security',
        ),
    ],
    // Boards
    [
        'boards',
        action(
            createBoard,
            (b) => ({
                scoreboardId: b.scoreboardId,
                name: b.name === '' ? undefined : b.name,
                description: b.description,
                type: b.type,
                period: b.type === 'targeted' ? b.period : undefined,
                days: b.type === 'custom' || b.period === 'custom' ? num(b.days) : undefined,
                sortBy: b.sortBy,
                ...formOptions(b),
            }),
            'board-created',
            'boards',
        ),
    ],
    [
        'remove-entry',
        action(
            removeEntry,
            (b) => ({ scoreboardId: b.scoreboardId, playerId: b.playerId }),
            'entry-removed',
            'board of the form',
        ),
    ],
    // Moderation
    ['wipe', action(wipePlayer, (b) => ({ archives: b.archives === 'true' }), 'player-wiped', 'moderation', true)],
    ['ban', action(ban, (b) => ({ reason: b.reason ?? '' }), 'player-banned', 'moderation', true)],
    ['unban', action(unban, none, 'ban-lifted', 'moderation', true)],
    [
        'report',
        {
            run: (o, dev, b) =>
                perform(
                    actOnReport,
                    o,
                    { ...dev, playerId: b.playerId, scoreboardId: b.scoreboardId },
                    { action: b.action, reason: b.reason === '' ? undefined : b.reason },
                ),
            done: 'report-handled',
            back: 'moderation',
        },
    ],
    [
        'review',
        {
            run: (o, dev, b) =>
                perform(
                    settleReview,
                    o,
                    { ...dev, scoreboardId: b.scoreboardId, playerId: b.playerId },
                    { action: b.verdict },
                ),
            done: 'review-settled',
            back: 'moderation',
        },
    ],
]);

export function gameActions(o: DashboardOptions): Router {
    const router = Router();
    postForm(router, o, '/dashboard/games/:gameId/delete', async (d, b, req, res) => {
        const gameId = req.params.gameId;
        const dev = { sessionHash: d.session.sessionHash, gameId };
        const r = await perform(deleteGame, o, dev, { confirm: b.confirm ?? '' });
        if ('err' in r) {
            const view = viewOf(req, d, { action: 'delete', message: r.err.message });
            return showGame(o, req, res, d, gameId, 'settings', view, r.err.status);
        }
        res.redirect(303, withNotice('/dashboard', 'game-deleted'));
    });

    // A new server key is shown on the answer itself (never in a URL, never again): no redirect.
    postForm(router, o, '/dashboard/games/:gameId/server-key', async (d, _b, req, res) => {
        const gameId = req.params.gameId;
        const r = await perform(rotateServerKey, o, { sessionHash: d.session.sessionHash, gameId }, undefined);
        if ('err' in r) {
            const view = viewOf(req, d, { action: 'server-key', message: r.err.message });
            return showGame(o, req, res, d, gameId, 'security', view, refused(r.err.status));
        }
        res.set('Cache-Control', 'no-store');
        await showGame(o, req, res, d, gameId, 'security', { ...viewOf(req, d), serverKey: r.ok.serverKey });
    });

    postActions(router, o, '/dashboard/games/:gameId/:action', GAME_ACTIONS, async (d, action, b, req, res) => {
        const { gameId, action: name } = req.params;
        const r = await action.run(o, { sessionHash: d.session.sessionHash, gameId }, b);
        const back = action.back === 'board of the form' ? { board: b.scoreboardId ?? '' } : action.back;
        if ('err' in r) {
            // A game the developer does not own is the same 404 whatever the action.
            const view = viewOf(req, d, { action: name, message: r.err.message }, b);
            return showGame(o, req, res, d, gameId, back, view, refused(r.err.status));
        }
        const where = typeof back === 'object' ? `boards/${encodeURIComponent(back.board)}` : back;
        res.redirect(303, withNotice(`/dashboard/games/${encodeURIComponent(gameId)}/${where}`, action.done));
    });
    return router;
}
