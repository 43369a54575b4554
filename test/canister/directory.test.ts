// The directory through the real wasm: where games live and the shard list, on a single
// canister (no shards: everything as before) and on a directory with shards.
import { startLeaderboard, type TestCanister } from '../support/canister';

let c: TestCanister;

beforeAll(async () => {
    c = await startLeaderboard();
    await c.ok('admin_register_game', { developerId: 'dev-1', gameId: 'home-game', name: 'Home' });
});
afterAll(() => c.replica.stop());

test('a single canister locates its own games, 404 for others, and lists itself as the placing directory', async () => {
    const self = c.canisterId.toText();
    expect(await c.call('locate_game', { gameId: 'home-game' })).toEqual({
        ok: { gameId: 'home-game', canisterId: self },
    });
    expect(await c.call('locate_game', { gameId: 'no-such-game' })).toEqual({
        err: { status: 404, message: 'Game not found' },
    });
    expect(await c.call('list_shards', {})).toEqual({
        ok: { shards: [{ canisterId: self, role: 'directory', placing: true }] },
    });
});
