// A game's Security settings: its server key (made or rotated, shown once; revoked), server-only
// submits, caps on scores and streaks, and time validation of play sessions.
import { ServerSettingsBody } from '../../contract/dashboard-schemas';
import { gameSetting } from './games';
import { method } from './operation';

export const rotateServerKey = method('dev_rotate_server_key');
export const revokeServerKey = method('dev_revoke_server_key');
/** Fields left out stay; null clears a cap. */
export const setCaps = method('dev_set_caps');
export const setTimeValidation = method('dev_set_time_validation');

/** Server-only submits and whether server submits skip the checks, as they stand after the change. */
export const serverSettings = gameSetting(
    ServerSettingsBody,
    (settings) => settings,
    (game) => ({ serverOnly: game.serverOnly ?? false, serverSkipsChecks: game.serverSkipsChecks ?? false }),
);
