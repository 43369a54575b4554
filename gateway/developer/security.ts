// A game's Security settings: its server key (made or rotated, shown once; revoked), server-only
// submits, caps on scores and streaks, and time validation of play sessions.
import type { CapsUpdate, TimeValidation } from '../../contract/canister';
import { ServerSettingsBody } from '../../contract/dashboard-schemas';
import { operation, type DevGame } from './operation';

export const rotateServerKey = operation({
    run: ({ canister }, dev: DevGame) => canister.call('dev_rotate_server_key', dev),
});

export const revokeServerKey = operation({
    run: ({ canister }, dev: DevGame) => canister.call('dev_revoke_server_key', dev),
});

/** Server-only submits and whether server submits skip the checks, as they stand after the change. */
export const serverSettings = operation({
    input: ServerSettingsBody,
    async run({ canister }, dev: DevGame, input) {
        const r = await canister.call('dev_update_game', { ...dev, ...input });
        return 'err' in r
            ? r
            : { ok: { serverOnly: r.ok.serverOnly ?? false, serverSkipsChecks: r.ok.serverSkipsChecks ?? false } };
    },
});

export const setCaps = operation({
    run: ({ canister }, dev: DevGame, input: CapsUpdate) => canister.call('dev_set_caps', { ...dev, ...input }),
});

export const setTimeValidation = operation({
    run: ({ canister }, dev: DevGame, input: Partial<TimeValidation>) =>
        canister.call('dev_set_time_validation', { ...dev, ...input }),
});
