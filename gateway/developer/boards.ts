// A game's boards: creating one, changing its name, description and options, resetting its
// period, deleting it, and removing a player's entry from it.
import { CreateBoardBody, UpdateBoardBody } from '../../contract/dashboard-schemas';
import { operation, type DevGame } from './operation';

/** The developer's session, the game and one of its boards, as every board method takes them. */
export type DevBoard = DevGame & { scoreboardId: string };

export const createBoard = operation({
    input: CreateBoardBody,
    run: ({ canister }, dev: DevGame, input) => canister.call('dev_create_board', { ...input, ...dev }),
});

/** Fields left out stay; order and operator change only while the board has no entries. */
export const updateBoard = operation({
    input: UpdateBoardBody,
    run: ({ canister }, dev: DevBoard, input) => canister.call('dev_update_board', { ...input, ...dev }),
});

/** Its current period archived, a new one begun. */
export const resetBoard = operation({
    run: ({ canister }, dev: DevBoard) => canister.call('dev_reset_board', dev),
});

export const deleteBoard = operation({
    run: ({ canister }, dev: DevBoard) => canister.call('dev_delete_board', dev),
});

export const removeEntry = operation({
    run: ({ canister }, dev: DevGame, input: { scoreboardId?: unknown; playerId?: unknown }) =>
        canister.relay('dev_remove_entry', { ...dev, ...input }),
});
