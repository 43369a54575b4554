// The directory's answers: where a game lives (locate_game), the shard list, and locationOf.
import { listShards, locateGame, locationOf } from '../../../canister/service/directory';
import { failure, harness, withGame } from './harness';

const SELF = 'aaaaa-aa';
const SHARD = 'ryjl3-tyaaa-aaaaa-aaaba-cai';

test('a single canister (no role, no shards) holds its games and places new ones itself', () => {
    const h = harness();
    withGame(h, 'local-game');
    expect(locateGame(h, SELF, { gameId: 'local-game' })).toEqual({ gameId: 'local-game', canisterId: SELF });
    expect(failure(() => locateGame(h, SELF, { gameId: 'nope' }))).toEqual({ status: 404, message: 'Game not found' });
    expect(failure(() => locateGame(h, SELF, { gameId: 7 }))).toEqual({
        status: 400,
        message: 'Invalid gameId: must be a string',
    });
    expect(locationOf(h, 'local-game')).toBeUndefined();
    expect(listShards(h, SELF)).toEqual({ shards: [{ canisterId: SELF, role: 'directory', placing: true }] });
});

test('a directory with shards sends a placed game to its shard and stops placing games itself', () => {
    const h = harness();
    h.store.meta.set('shards', [{ canisterId: SHARD, createdAt: 0 }]);
    h.store.locations.set('far-game', SHARD);
    expect(locateGame(h, SELF, { gameId: 'far-game' })).toEqual({ gameId: 'far-game', canisterId: SHARD });
    expect(locationOf(h, 'far-game')).toBe(SHARD);
    expect(listShards(h, SELF).shards).toEqual([
        { canisterId: SELF, role: 'directory', placing: false },
        { canisterId: SHARD, role: 'shard', placing: true },
    ]);
    h.store.meta.set('shards', [{ canisterId: SHARD, createdAt: 0, full: true }]);
    expect(listShards(h, SELF).shards[1]!.placing).toBe(false);
});

test('a shard answers for its own games and says moved for any other', () => {
    const h = harness();
    h.store.meta.set('role', 'shard');
    withGame(h, 'here');
    expect(locateGame(h, SELF, { gameId: 'here' })).toEqual({ gameId: 'here', canisterId: SELF });
    let err: unknown;
    try {
        locateGame(h, SELF, { gameId: 'elsewhere' });
    } catch (e) {
        err = e;
    }
    expect((err as { toApiError(): unknown }).toApiError()).toEqual({
        status: 404,
        message: 'This game is not on this canister',
        moved: true,
    });
    expect(listShards(h, SELF).shards).toEqual([{ canisterId: SELF, role: 'shard', placing: false }]);
});
