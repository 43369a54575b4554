// A board's form actions (POST /dashboard/games/<gameId>/boards/<boardId>/<name>): saving its
// name and description, resetting its period, deleting it (after its ID is typed to confirm);
// a refusal shows the board's page again with the error by its form.
import { Router } from 'express';

import type { Result } from '../../../contract/canister';
import type { CanisterClient } from '../../ic/canister';
import { formOf, forms, viewOf, writer, type DashboardOptions, type Form } from '../context';
import { showGame } from '../game-pages';
import { withNotice, type Notice } from '../notices';
import { formOptions } from '../pages/board-options';

/** The developer's session, the game and the board, as every board method takes them. */
type DevBoard = { sessionHash: string; gameId: string; scoreboardId: string };

interface BoardAction {
    call(canister: CanisterClient, dev: DevBoard, b: Form): Promise<Result<unknown>>;
    done: Notice;
}

const BOARD_ACTIONS: ReadonlyMap<string, BoardAction> = new Map<string, BoardAction>([
    [
        'update',
        {
            call: (c, dev, b) =>
                c.relay('dev_update_board', {
                    ...dev,
                    name: b.name,
                    description: b.description ?? '',
                    ...formOptions(b),
                }),
            done: 'board-saved',
        },
    ],
    ['reset', { call: (c, dev) => c.call('dev_reset_board', dev), done: 'board-reset' }],
    ['delete', { call: (c, dev) => c.call('dev_delete_board', dev), done: 'board-deleted' }],
]);

export function boardActions(o: DashboardOptions): Router {
    const router = Router();
    router.post('/dashboard/games/:gameId/boards/:boardId/:action', forms, async (req, res, next) => {
        const name = req.params.action;
        const action = BOARD_ACTIONS.get(name);
        if (action === undefined) return next();
        const d = await writer(o, req, res);
        if (d === undefined) return;
        const { gameId, boardId } = req.params;
        const b = formOf(req);
        if (name === 'delete' && b.confirm !== boardId) {
            const view = viewOf(req, d, { action: 'delete-board', message: 'Type the board ID to confirm.' });
            return showGame(o, req, res, d, gameId, { board: boardId }, view, 400);
        }
        const r = await action.call(
            o.canister,
            { sessionHash: d.session.sessionHash, gameId, scoreboardId: boardId },
            b,
        );
        if ('err' in r) {
            const view = viewOf(req, d, { action: `${name}-board`, message: r.err.message }, b);
            return showGame(o, req, res, d, gameId, { board: boardId }, view, r.err.status);
        }
        const back =
            name === 'delete'
                ? `/dashboard/games/${encodeURIComponent(gameId)}/boards`
                : `/dashboard/games/${encodeURIComponent(gameId)}/boards/${encodeURIComponent(boardId)}`;
        res.redirect(303, withNotice(back, action.done));
    });
    return router;
}
