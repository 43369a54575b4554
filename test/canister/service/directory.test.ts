// The directory's answers: where a game lives (locate_game), the shard list, and locationOf; the
// shard wasm's upload into the IC's chunk store and its install.
import { createHash } from 'node:crypto';

import { fromBase64 } from '../../../canister/domain/bytes';
import { Fail } from '../../../canister/domain/fail';
import {
    PLACE_BELOW,
    chooseShard,
    createShard,
    listShards,
    locateGame,
    locationOf,
    shardWasm,
    upgradeShards,
    uploadShardWasm,
    type Remote,
} from '../../../canister/service/directory';
import { LOST_AFTER_US } from '../../../canister/service/directory/shard-wasm';
import { SHARD_CYCLES } from '../../../canister/service/directory/shards';
import { S, failure, harness, withGame } from './harness';

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
    // A shard created but not installed yet is not listed (and the directory still places games).
    h.store.meta.set('shards', [{ canisterId: SHARD, createdAt: 0, ready: false }]);
    expect(listShards(h, SELF).shards).toEqual([{ canisterId: SELF, role: 'directory', placing: true }]);
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

/** A Remote with the IC's chunk store of the directory (as the replica keeps it), and the installs it made. */
function chunkStoreRemote() {
    const store = new Map<string, Uint8Array>();
    const installed: Array<{ canisterId: string; mode: string }> = [];
    const hashOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    let hold: Promise<void> | undefined;
    const remote: Remote = {
        self: SELF,
        call: () => Promise.reject(new Error('not here')),
        async uploadChunk(chunk) {
            await hold;
            store.set(hashOf(chunk), chunk.slice());
            return hashOf(chunk);
        },
        async clearChunkStore() {
            store.clear();
        },
        async installChunkedCode(canisterId, mode, wasm) {
            const parts = wasm.chunks.map((hash) => store.get(hash));
            if (parts.some((p) => p === undefined)) throw new Fail(503, 'a chunk is not in the store');
            if (hashOf(Buffer.concat(parts as Uint8Array[])) !== wasm.sha256) return 'hash mismatch';
            installed.push({ canisterId, mode });
            return 'installed';
        },
        createCanister: async () => SHARD,
        cycles: () => SHARD_CYCLES * 10n,
        setRunning: () => Promise.reject(new Error('not here')),
        takeSnapshot: () => Promise.reject(new Error('not here')),
        loadSnapshot: () => Promise.reject(new Error('not here')),
    };
    /** Holds every upload_chunk until the returned function is called. */
    const pause = (): (() => void) => {
        let release = (): void => undefined;
        hold = new Promise((resolve) => (release = resolve));
        return () => {
            hold = undefined;
            release();
        };
    };
    return { remote, store, installed, pause };
}

/** The error an async call throws: `{ status, message }`. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
    return p.then(
        () => Promise.reject(new Error('expected the call to fail')),
        (e: unknown) => {
            if (!(e instanceof Fail)) throw e;
            return { status: e.status, message: e.message };
        },
    );
}

test('the shard wasm uploads in order into the chunk store, one chunk at a time; the IC checks the whole at install', async () => {
    const h = harness();
    const { remote, store, installed, pause } = chunkStoreRemote();
    const wasm = new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7]);
    const sha = createHash('sha256').update(wasm).digest('hex');
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const up = (offset: number, bytes: Uint8Array, hash = sha) =>
        uploadShardWasm(h, remote, { offset, total: wasm.length, sha256: hash, chunk: b64(bytes) });
    // What a release before the chunk store left: a record without chunks (no wasm) and its bytes.
    h.store.meta.set('shardWasm', { total: 9, sha256: sha, received: 9, complete: true });
    h.store.shardWasm.set('000000', wasm);
    expect((await refusal(createShard(h, remote))).status).toBe(409);

    expect(await up(0, wasm.subarray(0, 4))).toEqual({ received: 4, total: 9, complete: false });
    expect(h.store.shardWasm.size()).toBe(0);
    expect(await refusal(up(2, wasm.subarray(4)))).toEqual({
        status: 409,
        message: 'Invalid offset: the upload continues at 4',
    });
    expect(failure(() => shardWasm(h)).status).toBe(409);
    // A second chunk while one is in flight is refused, and so is a shard.
    const release = pause();
    const inFlight = up(4, wasm.subarray(4));
    expect((await refusal(up(4, wasm.subarray(4)))).message).toBe(
        'A chunk is being uploaded: send the next one once it is answered',
    );
    expect((await refusal(createShard(h, remote))).status).toBe(409);
    release();
    expect(await inFlight).toEqual({ received: 9, total: 9, complete: true });
    const hashes = [wasm.subarray(0, 4), wasm.subarray(4)].map((b) => createHash('sha256').update(b).digest('hex'));
    expect(shardWasm(h)).toEqual({ chunks: hashes, sha256: sha });
    expect([...store.keys()].sort()).toEqual([...hashes].sort());
    expect(await createShard(h, remote)).toEqual({ canisterId: SHARD, role: 'shard', placing: true });
    expect(installed).toEqual([{ canisterId: SHARD, mode: 'install' }]);

    // Bad input changes nothing.
    expect(
        (await refusal(uploadShardWasm(h, remote, { offset: 0, total: 9, sha256: sha, chunk: 'not base64!' }))).message,
    ).toBe('Invalid chunk: must be base64 of 1 to 1048576 bytes');
    expect(shardWasm(h).chunks).toEqual(hashes);
});

test('a wasm that does not hash to its sha256 is refused at its first install: the upload is dropped, no shard made', async () => {
    const h = harness();
    const { remote, store, installed } = chunkStoreRemote();
    const wasm = new Uint8Array([0x1f, 0x8b, 1, 2, 3]);
    const forged = 'a'.repeat(64);
    const up = () =>
        uploadShardWasm(h, remote, {
            offset: 0,
            total: 5,
            sha256: forged,
            chunk: Buffer.from(wasm).toString('base64'),
        });
    expect(await up()).toEqual({ received: 5, total: 5, complete: true });
    const message = `Invalid sha256: the uploaded wasm does not hash to ${forged}: upload dropped, start again at offset 0`;
    expect(await refusal(createShard(h, remote))).toEqual({ status: 400, message });
    expect(h.store.meta.get('shardWasm')).toBeUndefined();
    expect(store.size).toBe(0);
    expect(installed).toEqual([]);
    // The canister made stays unready (placement skips it; the next creation installs it).
    expect(h.store.meta.get('shards')).toEqual([expect.objectContaining({ canisterId: SHARD, ready: false })]);
    expect(listShards(h, SELF).shards).toEqual([{ canisterId: SELF, role: 'directory', placing: true }]);
    // An upgrade of the shards refuses it the same way.
    h.store.meta.set('shards', [{ canisterId: SHARD, createdAt: 0 }]);
    await up();
    expect(await refusal(upgradeShards(h, remote))).toEqual({ status: 400, message });
    expect(h.store.meta.get('shardWasm')).toBeUndefined();
});

// On the IC a callback that traps never runs its `finally`: the chunk it awaited would hold every
// upload off until the next upgrade. An answer that has not come in 10 minutes counts as lost.
test('a chunk whose answer never comes holds uploads off for 10 minutes, not for good', async () => {
    const h = harness();
    const { remote, pause } = chunkStoreRemote();
    const wasm = new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4]);
    const sha = createHash('sha256').update(wasm).digest('hex');
    const up = (offset: number, bytes: Uint8Array) =>
        uploadShardWasm(h, remote, {
            offset,
            total: wasm.length,
            sha256: sha,
            chunk: Buffer.from(bytes).toString('base64'),
        });
    const release = pause();
    const lost = up(0, wasm.subarray(0, 3));
    h.advance(LOST_AFTER_US / S - 1);
    expect((await refusal(up(0, wasm.subarray(0, 3)))).status).toBe(409);
    h.advance(1);
    const again = up(0, wasm.subarray(0, 3));
    release();
    expect(await again).toEqual({ received: 3, total: 6, complete: false });
    // The lost one, answered after all, does not count: a newer upload began.
    expect(await refusal(lost)).toEqual({
        status: 409,
        message: 'The upload was interrupted: start again at offset 0',
    });
    expect(await up(3, wasm.subarray(3))).toEqual({ received: 6, total: 6, complete: true });
    expect(shardWasm(h).sha256).toBe(sha);
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
