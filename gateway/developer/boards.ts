// A game's boards: creating one, changing its name, description and options, resetting its
// period, deleting it, a page of its entries, and removing a player's entry from it.
import { CreateBoardBody, UpdateBoardBody } from '../../contract/dashboard-schemas';
import { method, type DevGame } from './operation';

/** The developer's session, the game and one of its boards, as every board method takes them. */
export type DevBoard = DevGame & { scoreboardId: string };

export const createBoard = method('dev_create_board', CreateBoardBody);
/** Fields left out stay; order and operator change only while the board has no entries. */
export const updateBoard = method<'dev_update_board', DevBoard>('dev_update_board', UpdateBoardBody);
/** Its current period archived, a new one begun. */
export const resetBoard = method<'dev_reset_board', DevBoard>('dev_reset_board');
export const deleteBoard = method<'dev_delete_board', DevBoard>('dev_delete_board');
/** A page of its current period, with player ids and bans. */
export const readBoard = method('dev_read_board');
export const removeEntry = method('dev_remove_entry');
