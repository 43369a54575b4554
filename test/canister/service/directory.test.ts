// The directory's answers: where a game lives (locate_game), the shard list, and locationOf.
import { createHash } from 'node:crypto';

import { fromBase64 } from '../../../canister/domain/bytes';
import {
    PLACE_BELOW,
    chooseShard,
    listShards,
    locateGame,
    locationOf,
    shardWasm,
    uploadShardWasm,
} from '../../../canister/service/directory';
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

test('placement prefers the shard with the most heap room, then the least busy; skips full ones and those past 80 %', () => {
    const status = (heapBytes: number, instructionsPerMinute = 0, full = false) => ({
        canisterId: 'x',
        role: 'shard' as const,
        games: 0,
        players: 0,
        heapBytes,
        heapLimitBytes: 1000,
        stableBytes: 0,
        instructionsPerMinute,
        full,
    });
    expect(
        chooseShard([
            { canisterId: 'a', status: status(500) },
            { canisterId: 'b', status: status(200) },
            { canisterId: 'c', status: status(100, 0, true) },
        ]),
    ).toBe('b');
    expect(
        chooseShard([
            { canisterId: 'a', status: status(200, 9e9) },
            { canisterId: 'b', status: status(200, 1e9) },
        ]),
    ).toBe('b');
    // Past PLACE_BELOW everywhere: none (the directory creates a shard).
    expect(chooseShard([{ canisterId: 'a', status: status(PLACE_BELOW * 1000) }])).toBeUndefined();
    // A shard that did not answer is taken only when no answering one has room: fewest games first.
    expect(
        chooseShard([
            { canisterId: 'a', games: 3 },
            { canisterId: 'b', status: status(900) },
            { canisterId: 'c', games: 1 },
        ]),
    ).toBe('c');
});

test('the shard wasm uploads in order and is checked whole; a forged one is dropped', () => {
    const h = harness();
    const wasm = new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7]);
    const sha = createHash('sha256').update(wasm).digest('hex');
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const up = (offset: number, bytes: Uint8Array, hash = sha) =>
        uploadShardWasm(h, { offset, total: wasm.length, sha256: hash, chunk: b64(bytes) });
    expect(up(0, wasm.subarray(0, 4))).toEqual({ received: 4, total: 9, complete: false });
    expect(failure(() => up(2, wasm.subarray(4)))).toEqual({
        status: 409,
        message: 'Invalid offset: the upload continues at 4',
    });
    expect(failure(() => shardWasm(h)).status).toBe(409);
    expect(up(4, wasm.subarray(4))).toEqual({ received: 9, total: 9, complete: true });
    expect(shardWasm(h)).toEqual(wasm);
    // A new upload replaces it; a wrong hash drops it.
    up(0, wasm.subarray(0, 4), 'a'.repeat(64));
    expect(failure(() => up(4, wasm.subarray(4), 'a'.repeat(64))).message).toMatch(/^Invalid sha256/);
    expect(h.store.shardWasm.size()).toBe(0);
    expect(failure(() => uploadShardWasm(h, { offset: 0, total: 9, sha256: sha, chunk: 'not base64!' })).message).toBe(
        'Invalid chunk: must be base64 of 1 to 1048576 bytes',
    );
});

test('base64 decodes with and without padding and refuses anything else', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 100]) {
        const bytes = new Uint8Array(createHash('sha512').update(String(n)).digest()).subarray(0, n);
        const text = Buffer.from(bytes).toString('base64');
        expect(fromBase64(text)).toEqual(bytes);
        expect(fromBase64(text.replace(/=+$/, ''))).toEqual(bytes);
    }
    expect(fromBase64('a')).toBeUndefined();
    expect(fromBase64('ab-_')).toBeUndefined();
    expect(fromBase64('ab=c')).toBeUndefined();
});
