// The canister's one state: the context every rule runs on, its direct reads, and their certification.
import { certifiedDataSet, performanceCounter } from 'azle';

import { nowMicros } from '../azle-ic';
import { utf8Bytes } from '../codecs';
import { createDirectReads } from '../service/direct-reads';
import * as directory from '../service/directory';
import { newCtx, type Ctx } from '../state/context';
import { stableStore } from '../stable-store';

export const ctx: Ctx = newCtx(stableStore(), {
    now: nowMicros,
    // Azle seeds this CSPRNG from the management canister's raw_rand after init/upgrade.
    random: (n) => crypto.getRandomValues(new Uint8Array(n)),
});

// A board path of a game on another canister (the directory's map) answers a 302 there.
export const direct = createDirectReads(utf8Bytes, () => Number(performanceCounter(0)), directory.locationOf);

/** Sets the canister's certified data to the direct reads' tree root. */
export function certify(): void {
    certifiedDataSet(direct.rootHash());
}
