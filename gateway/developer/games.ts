// A developer's games and their settings: registering one, asking for more slots, its name and
// description, the standard boards, turning it on or off, a new API key, deleting it.
import { DEFAULT_STANDARD_BOARDS } from '../../contract/board-options';
import { StandardBoardsBody } from '../../contract/dashboard-schemas';
import { operation, type DevGame } from './operation';

/** The developer's session alone (methods not about one game). */
type Dev = { sessionHash: string };

export const registerGame = operation({
    run: ({ canister }, dev: Dev, input: { gameId?: unknown; name?: unknown; description?: unknown }) =>
        canister.relay('dev_register_game', { ...dev, ...input }),
});

export const requestGames = operation({
    run: ({ canister }, dev: Dev, input: { games?: unknown; message?: unknown }) =>
        canister.relay('dev_request_games', { ...dev, ...input }),
});

export const updateGame = operation({
    run: ({ canister }, dev: DevGame, input: { name?: unknown; description?: unknown; isActive?: unknown }) =>
        canister.relay('dev_update_game', { ...dev, ...input }),
});

/** How the all-time, weekly and daily boards rank and keep: the game's setting, or the default. */
export const standardBoards = operation({
    input: StandardBoardsBody,
    async run({ canister }, dev: DevGame, input) {
        const r = await canister.call('dev_update_game', { ...dev, standardBoards: input });
        return 'err' in r ? r : { ok: r.ok.standardBoards ?? DEFAULT_STANDARD_BOARDS };
    },
});

export const rotateKey = operation({
    run: ({ canister }, dev: DevGame) => canister.call('dev_rotate_key', dev),
});

/** The game and every piece of its data, once `confirm` is its id. */
export const deleteGame = operation({
    run: ({ canister }, dev: DevGame, input: { confirm: string }) =>
        canister.call('dev_delete_game', { ...dev, confirm: input.confirm }),
});
