// A board's form actions (POST /dashboard/games/<gameId>/boards/<boardId>/<name>): saving its
// name and description, resetting its period, deleting it (after its ID is typed to confirm);
// a refusal shows the board's page again with the error by its form.
import { Router } from 'express';

import type { Result } from '../../../contract/canister';
import { deleteBoard, resetBoard, updateBoard, type DevBoard } from '../../developer/boards';
import { perform } from '../../developer/operation';
import { postActions, viewOf, type DashboardOptions, type Form } from '../context';
import { showGame } from '../game-pages';
import { withNotice, type Notice } from '../notices';
import { formOptions } from '../pages/board-options';
import { formPrizes } from '../pages/board-prizes';

interface BoardAction {
    run(o: DashboardOptions, dev: DevBoard, b: Form): Promise<Result<unknown>>;
    done: Notice;
}

const BOARD_ACTIONS: ReadonlyMap<string, BoardAction> = new Map<string, BoardAction>([
    [
        'update',
        {
            run: (o, dev, b) =>
                perform(updateBoard, o, dev, {
                    name: b.name,
                    description: b.description ?? '',
                    ...formOptions(b),
                    prizes: formPrizes(b),
                }),
            done: 'board-saved',
        },
    ],
    ['reset', { run: (o, dev) => perform(resetBoard, o, dev, undefined), done: 'board-reset' }],
    ['delete', { run: (o, dev) => perform(deleteBoard, o, dev, undefined), done: 'board-deleted' }],
]);

export function boardActions(o: DashboardOptions): Router {
    const router = Router();
    postActions(
        router,
        o,
        '/dashboard/games/:gameId/boards/:boardId/:action',
        BOARD_ACTIONS,
        async (d, action, b, req, res) => {
            const { gameId, boardId, action: name } = req.params;
            if (name === 'delete' && b.confirm !== boardId) {
                const view = viewOf(req, d, { action: 'delete-board', message: 'Type the board ID to confirm.' });
                return showGame(o, req, res, d, gameId, { board: boardId }, view, 400);
            }
            const r = await action.run(o, { sessionHash: d.session.sessionHash, gameId, scoreboardId: boardId }, b);
            if ('err' in r) {
                const view = viewOf(req, d, { action: `${name}-board`, message: r.err.message }, b);
                return showGame(o, req, res, d, gameId, { board: boardId }, view, r.err.status);
            }
            const back =
                name === 'delete'
                    ? `/dashboard/games/${encodeURIComponent(gameId)}/boards`
                    : `/dashboard/games/${encodeURIComponent(gameId)}/boards/${encodeURIComponent(boardId)}`;
            res.redirect(303, withNotice(back, action.done));
        },
    );
    return router;
}
