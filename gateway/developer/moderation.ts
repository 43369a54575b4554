// Moderating a game's players: wiping one from every board (and its archives), banning one from
// writing to the game, lifting a ban.
import { BanBody, WipeBody } from '../../contract/dashboard-schemas';
import { operation, type DevGame } from './operation';

/** The player acted on: a path's (checked there) or a form's (the canister checks it). */
type DevPlayer = DevGame & { playerId: unknown };

export const wipePlayer = operation({
    input: WipeBody,
    run: ({ canister }, dev: DevPlayer, input) =>
        canister.relay('dev_wipe_player', { ...dev, archives: input.archives }),
});

export const ban = operation({
    input: BanBody,
    run: ({ canister }, dev: DevPlayer, input) => canister.relay('dev_ban', { ...dev, reason: input.reason }),
});

export const unban = operation({
    run: ({ canister }, dev: DevPlayer) => canister.relay('dev_unban', dev),
});
