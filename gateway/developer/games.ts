// A developer's games and their settings: registering one, asking for more slots, its name,
// description and on/off switch, the standard boards, a new API key, deleting it, its analytics.
import type { z } from 'zod';

import { DEFAULT_STANDARD_BOARDS } from '../../contract/board-options';
import type { GameView, Relayed, Result } from '../../contract/canister';
import { StandardBoardsBody } from '../../contract/dashboard-schemas';
import { method, operation, type DevGame } from './operation';

/** The developer's session alone (methods not about one game). */
type Dev = { sessionHash: string };

export const registerGame = method<'dev_register_game', Dev>('dev_register_game');
export const requestGames = method<'dev_request_games', Dev>('dev_request_games');
/** Name, description, isActive (fields left out stay). */
export const updateGame = method('dev_update_game');
export const rotateKey = method('dev_rotate_key');
/** The game and every piece of its data, once `confirm` is its id. */
export const deleteGame = method('dev_delete_game');
/** The day counters, providers and boards of the last `days` days. */
export const analytics = method('dev_analytics');

/** A setting of the game: dev_update_game with the checked input, and the setting as it stands after. */
export const gameSetting = <I, R>(
    input: z.ZodType<I>,
    update: (input: I) => Relayed<'dev_update_game'>,
    read: (game: GameView) => R,
) =>
    operation({
        input,
        async run({ canister }, dev: DevGame, i: I): Promise<Result<R>> {
            const r = await canister.relay('dev_update_game', { ...update(i), ...dev });
            return 'err' in r ? r : { ok: read(r.ok) };
        },
    });

/** How the all-time, weekly and daily boards rank and keep: the game's setting, or the default. */
export const standardBoards = gameSetting(
    StandardBoardsBody,
    (standardBoards) => ({ standardBoards }),
    (game) => game.standardBoards ?? DEFAULT_STANDARD_BOARDS,
);
