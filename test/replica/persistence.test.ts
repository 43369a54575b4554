// The write-ahead log and checkpoints: state comes back from log + images, a torn last
// record is dropped, a checkpoint cut short by a crash is recovered by replaying the log.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';

import { createStableMemory, STABLE_PAGE } from '../../replica/execution/stable-memory';
import { openStore, type CanisterDelta, type RoundRecord } from '../../replica/persistence';
import type { SystemState } from '../../replica/canister-state';
import { tempDir } from '../support/replica';

const ID = Principal.fromText('5v3p4-iyaaa-aaaaa-qaaaa-cai').toText();
const system = (): SystemState => ({
    controllers: [],
    certifiedData: new Uint8Array(),
    globalTimer: 0n,
    version: 1n,
    status: 'running',
    cycles: 0n,
    callContexts: new Map(),
    callbacks: new Map(),
    nextId: 1,
});

function delta(heap: Array<[number, number[]]>, stable: Array<[number, number[]]>, heapReset = false): CanisterDelta {
    return {
        id: ID,
        system: system(),
        pages: 1,
        globals: [1],
        stableSize: 1n,
        heapReset,
        stableReset: false,
        heap: heap.map(([o, b]) => [o, new Uint8Array(b)]),
        stable: stable.map(([o, b]) => [o, new Uint8Array(b)]),
    };
}

function record(time: bigint, canister: CanisterDelta): RoundRecord {
    return {
        time,
        nextCanisterIndex: 5n,
        queue: [],
        statuses: [[`s${time}`, null]],
        canisters: [canister],
        deleted: [],
    };
}

/** A canister's memories for a checkpoint: one stable page holding 7 at 0, a heap page holding 1 at 0. */
function oneCanister() {
    const stable = createStableMemory(100n);
    stable.grow(1n);
    stable.write(0n, new Uint8Array([7]));
    const heap = new Uint8Array(65536);
    heap[0] = 1;
    return { stable, heap, meta: { id: ID, system: system(), pages: 1, globals: [1], stableSize: 1n } };
}

test('rounds replayed from the log rebuild heap, stable memory and meta', () => {
    const dir = tempDir('store');
    const store = openStore(dir, { fsync: false });
    expect(store.load(100n)).toBeUndefined();
    store.append(record(1n, delta([[0, [1, 2, 3]]], [[0, [4]]], true)));
    store.append(record(2n, delta([[1, [9]]], [[STABLE_PAGE - 1, [5]]])));
    store.close();
    const again = openStore(dir, { fsync: false });
    const state = again.load(100n)!;
    const c = state.canisters.get(ID)!;
    expect(state.time).toBe(2n);
    expect([...c.heap.subarray(0, 4)]).toEqual([1, 9, 3, 0]);
    const b = new Uint8Array(1);
    c.stable.read(BigInt(STABLE_PAGE - 1), 1, b);
    expect(b[0]).toBe(5);
    again.close();
});

test('a torn last record (crash mid-write) is dropped and the log cut back', () => {
    const dir = tempDir('store');
    const store = openStore(dir, { fsync: false });
    store.append(record(1n, delta([[0, [1]]], [], true)));
    store.append(record(2n, delta([[0, [2]]], [])));
    store.close();
    const log = fs.readdirSync(dir).find((f) => f.startsWith('wal-'))!;
    const bytes = fs.readFileSync(path.join(dir, log));
    fs.writeFileSync(path.join(dir, log), bytes.subarray(0, bytes.length - 3));
    const again = openStore(dir, { fsync: false });
    const state = again.load(100n)!;
    expect(state.time).toBe(1n);
    expect(state.canisters.get(ID)!.heap[0]).toBe(1);
    again.append(record(3n, delta([[0, [3]]], [])));
    again.close();
    const third = openStore(dir, { fsync: false });
    expect(third.load(100n)!.canisters.get(ID)!.heap[0]).toBe(3);
    third.close();
});

test('a checkpoint replaces the log; images plus a newer log give the latest state', () => {
    const dir = tempDir('store');
    const store = openStore(dir, { fsync: false });
    store.append(record(1n, delta([[0, [1]]], [[0, [7]]], true)));
    const { stable, heap, meta } = oneCanister();
    store.checkpoint({ time: 1n, nextCanisterIndex: 5n, queue: [], canisters: [], extra: { a: 1 } }, new Map(), [
        { meta, heap, stable, stableChanged: 'all' },
    ]);
    expect(store.logSize()).toBe(0);
    store.append(record(2n, delta([[0, [2]]], [])));
    store.close();
    const again = openStore(dir, { fsync: false });
    const state = again.load(100n)!;
    expect(state.extra).toEqual({ a: 1 });
    expect(state.canisters.get(ID)!.heap[0]).toBe(2);
    const b = new Uint8Array(1);
    state.canisters.get(ID)!.stable.read(0n, 1, b);
    expect(b[0]).toBe(7);
    again.close();
});

test('a checkpoint never writes through a hard link: images shared with a copy stay as they were', () => {
    const dir = tempDir('store');
    const store = openStore(dir, { fsync: false });
    const { stable, heap, meta } = oneCanister();
    const at = (time: bigint) => ({ time, nextCanisterIndex: 5n, queue: [], canisters: [], extra: {} });
    store.checkpoint(at(1n), new Map(), [{ meta, heap, stable, stableChanged: 'all' }]);
    // A second directory's images are links to the first's (as test templates copy them).
    const images = path.join(dir, 'canisters', ID);
    const copy = path.join(tempDir('linked'), 'heap-and-stable');
    fs.mkdirSync(copy);
    for (const name of ['heap.img', 'stable.img']) fs.linkSync(path.join(images, name), path.join(copy, name));
    const before = ['heap.img', 'stable.img'].map((name) => fs.readFileSync(path.join(copy, name)));
    heap[0] = 2;
    stable.write(0n, new Uint8Array([8]));
    store.checkpoint(at(2n), new Map(), [{ meta, heap, stable, stableChanged: [[0, 1]] }]);
    store.close();
    expect(['heap.img', 'stable.img'].map((name) => fs.readFileSync(path.join(copy, name)))).toEqual(before);
    const again = openStore(dir, { fsync: false });
    const state = again.load(100n)!;
    const b = new Uint8Array(1);
    state.canisters.get(ID)!.stable.read(0n, 1, b);
    expect([state.canisters.get(ID)!.heap[0], b[0]]).toEqual([2, 8]);
    again.close();
});

test('a second replica on the same data directory is refused', () => {
    const dir = tempDir('store');
    const store = openStore(dir, { fsync: false });
    expect(() => openStore(dir, { fsync: false })).toThrow(/in use/);
    store.close();
    openStore(dir, { fsync: false }).close();
});
