// The stable layout's version: recorded, migrated step by step, and a newer one refused.
import { STABLE_SCHEMA_VERSION, migrateStore, type Migration } from '../../../canister/state/stable-schema';
import { memoryStore } from '../../../canister/state/store';

test('a store gets the current version; one from before versions were recorded counts as version 1', () => {
    const fresh = memoryStore();
    expect(migrateStore(fresh)).toBe(1);
    expect(fresh.meta.get('schemaVersion')).toBe(STABLE_SCHEMA_VERSION);
    expect(migrateStore(fresh)).toBe(STABLE_SCHEMA_VERSION); // idempotent
});

test('migrations run once each, in order, from the stored version to the current one', () => {
    const store = memoryStore();
    store.games.set('g', { gameId: 'g', name: 'old shape' } as never);
    const ran: number[] = [];
    const migrations: Record<number, Migration> = {
        1: (s) => {
            ran.push(1);
            const g = s.games.get('g') as unknown as { name: string };
            s.games.set('g', { ...g, title: g.name } as never);
        },
        2: () => ran.push(2),
    };
    expect(migrateStore(store, migrations, 3)).toBe(1);
    expect(ran).toEqual([1, 2]);
    expect(store.games.get('g')).toMatchObject({ title: 'old shape' });
    expect(store.meta.get('schemaVersion')).toBe(3);
    migrateStore(store, migrations, 3);
    expect(ran).toEqual([1, 2]);
});

test('a store written by a newer version is refused untouched, and a missing step is an error', () => {
    const newer = memoryStore();
    newer.meta.set('schemaVersion', STABLE_SCHEMA_VERSION + 1);
    expect(() => migrateStore(newer)).toThrow(/newer than this wasm's/);
    expect(newer.meta.get('schemaVersion')).toBe(STABLE_SCHEMA_VERSION + 1);
    const gap = memoryStore();
    expect(() => migrateStore(gap, {}, 2)).toThrow('No migration from stable schema version 1 to 2');
    expect(gap.meta.get('schemaVersion')).toBeUndefined();
});
