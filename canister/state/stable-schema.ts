// The version of the stable layout (the records in the Store and their shapes) and the path
// from any older version to this one. post_upgrade runs it before anything reads the store;
// a store written by a newer version is refused, so installing an older wasm over newer data
// traps and the IC rolls the upgrade back with the data untouched. (The heap-table snapshot
// has its own version in snapshot.ts: one of another version is ignored and the tables rebuilt.)
import type { Store } from './store';

/** Bump with a migration whenever a stored record's shape or a key's meaning changes. */
export const STABLE_SCHEMA_VERSION = 9;

/**
 * MIGRATIONS[v] turns a version-v store into version v + 1, in place. Each runs once, in
 * post_upgrade (so within its instruction limit: one that rewrites every record must instead
 * mark the work and let timers finish it, like the table rebuild in startup.ts).
 */
export type Migration = (store: Store) => void;
export const MIGRATIONS: Readonly<Record<number, Migration>> = {
    // 2: player records in the compact form of player-codec.ts. Nothing to rewrite here: this
    // version reads both forms and a record takes the new one when next written; the bump
    // keeps an older wasm (which reads only objects) from being installed over such records.
    1: () => undefined,
    // 3: slots kept 16 to a value (slots.ts). Slots written one entry each are still read,
    // so nothing moves; an older wasm would not see the new slots, hence the bump.
    2: () => undefined,
    // 4: nicknames keyed by their skeleton (case and look-alikes folded) in a new map (memory 29).
    // The lower-cased keys stay where they were (memory 6, `legacyNicknames`) and move over in
    // bounded steps on timers (names.ts rekeySome), looked up as well until then; an older wasm
    // would not see the new map, hence the bump.
    3: () => undefined,
    // 5: nicknames unique per game, keyed `<gameId>/<skeleton>` in a new map (memory 40). The
    // service-wide keys stay where they were (memory 29 `skeletonNicknames`, memory 6
    // `legacyNicknames`) and move over in bounded steps (names.ts rekeySome: post_upgrade, then
    // timers), looked up as well until then; an older wasm would not see the new map.
    4: () => undefined,
    // 6: players' reports (memories 42-43), the review queue (44-45), and tiebreaks kept as
    // optional trailing fields of player records. Nothing to rewrite; an older wasm would not see
    // the new maps, would drop tiebreaks from records it rewrites, and would read an entry with a
    // tiebreak but no metadata as `metadata: null`, hence the bump (installing it is refused).
    5: () => undefined,
    // 7: leagues (memories 46-48: tiers, divisions, division archives; meta `leaguePurges`) and
    // rewards (49-50: players' grants, each close's list). Nothing to rewrite; an older wasm
    // would not see them: it would close league boards as plain ones (tiers frozen, no
    // division_closed) and pay no prizes, hence the bump (installing it is refused).
    6: () => undefined,
    // 8: a game's counters keep `chosenDefaultMax`, the highest <n> of a `Player_<n>`-shaped name
    // its players chose; a default name above it skips the nickname map's read. Nothing to
    // rewrite (games without it read the map as before); an older wasm would let players choose
    // such names without raising it, and a later return to this one could hand out a default
    // name already taken, hence the bump (installing an older wasm is refused).
    7: () => undefined,
    // 9: a call that creates players writes no game counters (they wait for the tick); the slot
    // chunk it writes carries the game's next default-name number, and post_upgrade takes the
    // player count and that number back from the chunks. Nothing to rewrite (older chunks read as
    // before); an older wasm after a skipped pre_upgrade would trust the lagging counters and hand
    // out slots and default names again, hence the bump (installing an older wasm is refused).
    8: () => undefined,
};

const KEY = 'schemaVersion';

/**
 * Brings the store to `current`; returns the version it found. A store without a version is
 * version 1 (the layout before versions were recorded, which is version 1's).
 */
export function migrateStore(
    store: Store,
    migrations: Readonly<Record<number, Migration>> = MIGRATIONS,
    current: number = STABLE_SCHEMA_VERSION,
): number {
    const stored = store.meta.get(KEY);
    const found = typeof stored === 'number' ? stored : 1;
    if (found > current)
        throw new Error(
            `The stable data is schema version ${found}, newer than this wasm's ${current}: install a release that knows it (the upgrade is refused, nothing was changed)`,
        );
    for (let v = found; v < current; v++) {
        const step = migrations[v];
        if (step === undefined) throw new Error(`No migration from stable schema version ${v} to ${v + 1}`);
        step(store);
        store.meta.set(KEY, v + 1);
    }
    store.meta.set(KEY, current);
    return found;
}
