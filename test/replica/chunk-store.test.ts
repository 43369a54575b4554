// The wasm chunk store on the replica, with the IC's rules: upload_chunk, stored_chunks,
// clear_chunk_store and install_chunked_code by controllers only; chunks of at most 1 MiB; a
// missing chunk or a module hash that does not match installs nothing; the store is counted as
// memory, kept across upgrades, emptied by uninstall_code, in snapshots, and survives a restart;
// the file of a chunk no store or snapshot names is removed at the next checkpoint or start.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { gzipSync } from 'node:zlib';

import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { MAX_CHUNK_BYTES } from '../../replica/chunk-store';
import { methods } from '../../replica/management';
import { OPERATOR, type Replica } from '../../replica/replica';
import { actorFor, agentFor, startTestReplica, tempDir } from '../support/replica';
import { probeIdl, probeInit, probeWasm, type Probe } from './probe';

const MANAGEMENT = Principal.fromText('aaaaa-aa');
const STRANGER = Principal.fromUint8Array(new Uint8Array([0x0a, 0x73, 0x74, 0x72, 0x61, 0x6e, 0x67, 0x65, 0x01]));

/** A management method as `caller`, in the replica's Candid types: its reply, or throws the reject with its code. */
async function call(r: Replica, method: keyof typeof methods, value: unknown, caller = OPERATOR): Promise<any> {
    const { arg, ret } = methods[method];
    const reply = await r.update(MANAGEMENT, method, new Uint8Array(IDL.encode(arg, [value])), caller);
    if ('reject' in reply) throw new Error(`${reply.reject.errorCode}: ${reply.reject.message}`);
    return IDL.decode(ret, reply.reply)[0];
}

const upload = (r: Replica, id: Principal, chunk: Uint8Array, caller = OPERATOR): Promise<Uint8Array> =>
    call(r, 'upload_chunk', { canister_id: id, chunk }, caller).then(
        (c: { hash: Uint8Array }) => new Uint8Array(c.hash),
    );
const stored = (r: Replica, id: Principal, caller = OPERATOR): Promise<string[]> =>
    call(r, 'stored_chunks', { canister_id: id }, caller).then((list: Array<{ hash: Uint8Array }>) =>
        list.map((c) => hex(c.hash)).sort(),
    );
const clear = (r: Replica, id: Principal, caller = OPERATOR) =>
    call(r, 'clear_chunk_store', { canister_id: id }, caller);
const status = (r: Replica, id: Principal) => call(r, 'canister_status', { canister_id: id });
function installChunked(
    r: Replica,
    target: Principal,
    hashes: Uint8Array[],
    moduleHash: Uint8Array,
    o: { store?: Principal; caller?: Principal; label?: string; mode?: unknown } = {},
) {
    return call(
        r,
        'install_chunked_code',
        {
            mode: o.mode ?? { install: null },
            target_canister: target,
            store_canister: o.store === undefined ? [] : [o.store],
            chunk_hashes_list: hashes.map((hash) => ({ hash })),
            wasm_module_hash: moduleHash,
            arg: probeInit(o.label ?? 'chunked'),
            sender_canister_version: [],
        },
        o.caller ?? OPERATOR,
    );
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const sha = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());
const probeOf = async (r: Replica, id: Principal): Promise<Probe> => actorFor<Probe>(await agentFor(r), probeIdl, id);

/** The probe's wasm gzipped, cut in two chunks. */
function zippedInTwo(): { zipped: Uint8Array; parts: [Uint8Array, Uint8Array] } {
    const zipped = new Uint8Array(gzipSync(probeWasm()));
    const half = Math.floor(zipped.length / 2);
    return { zipped, parts: [zipped.subarray(0, half), zipped.subarray(half)] };
}

let replica: Replica & { dataDir: string };
beforeAll(async () => {
    replica = await startTestReplica();
});
afterAll(() => replica.stop());

test('chunks go in by controllers, once each, at most 1 MiB, and count as memory', async () => {
    const store = replica.createCanister();
    const { parts } = zippedInTwo();
    const before = await status(replica, store);
    const first = await upload(replica, store, parts[0]);
    expect(hex(first)).toBe(hex(sha(parts[0])));
    await upload(replica, store, parts[0]);
    const second = await upload(replica, store, parts[1]);
    expect(await stored(replica, store)).toEqual([hex(first), hex(second)].sort());
    const after = await status(replica, store);
    const size = BigInt(parts[0].length + parts[1].length);
    expect(after.memory_metrics.wasm_chunk_store_size).toBe(size);
    expect(after.memory_size - before.memory_size).toBe(size);

    await expect(upload(replica, store, new Uint8Array(MAX_CHUNK_BYTES + 1))).rejects.toThrow(
        /IC0504: Error from Wasm chunk store: Wasm chunk size 1048577 exceeds/,
    );
    await expect(upload(replica, store, new Uint8Array([1]), STRANGER)).rejects.toThrow(
        /IC0512: Only controllers of canister .* can call ic00 method upload_chunk/,
    );
    await expect(stored(replica, store, STRANGER)).rejects.toThrow(/IC0512/);
    await expect(clear(replica, store, STRANGER)).rejects.toThrow(/IC0512/);
    expect(await stored(replica, store)).toHaveLength(2);

    await clear(replica, store);
    expect(await stored(replica, store)).toEqual([]);
    expect((await status(replica, store)).memory_metrics.wasm_chunk_store_size).toBe(0n);
});

test('install_chunked_code installs the chunks in list order; a wrong hash or a missing chunk installs nothing', async () => {
    const target = replica.createCanister();
    const { zipped, parts } = zippedInTwo();
    const hashes = [await upload(replica, target, parts[0]), await upload(replica, target, parts[1])];

    await expect(installChunked(replica, target, hashes, sha(new Uint8Array([1])))).rejects.toThrow(
        `IC0504: Error from Wasm chunk store: Wasm module hash ${hex(sha(zipped))} does not match the given hash ${hex(sha(new Uint8Array([1])))}.`,
    );
    await expect(installChunked(replica, target, [...hashes].reverse(), sha(zipped))).rejects.toThrow(/does not match/);
    await expect(installChunked(replica, target, [hashes[0], sha(new Uint8Array([9]))], sha(zipped))).rejects.toThrow(
        /IC0504: Error from Wasm chunk store: Chunk [0-9a-f]{64} is not in the chunk store/,
    );
    await expect(installChunked(replica, target, hashes, sha(zipped), { caller: STRANGER })).rejects.toThrow(/IC0512/);
    expect(replica.subnet.canisters.get(target.toText())!.module).toBeUndefined();

    await installChunked(replica, target, hashes, sha(zipped));
    expect(await (await probeOf(replica, target)).label_()).toBe('chunked:0');
    // The module hash is of the module as put together (gzipped here), as install_code's.
    expect(hex(replica.subnet.canisters.get(target.toText())!.system.moduleHash!)).toBe(hex(sha(zipped)));
    // An upgrade keeps the store; uninstall_code empties it.
    await installChunked(replica, target, hashes, sha(zipped), { mode: { upgrade: [] }, label: 'again' });
    expect(await (await probeOf(replica, target)).label_()).toBe('again:1');
    expect(await stored(replica, target)).toHaveLength(2);
    await call(replica, 'uninstall_code', { canister_id: target });
    expect(await stored(replica, target)).toEqual([]);
});

test("another canister's store: the caller must control it too", async () => {
    const store = replica.createCanister();
    const { zipped, parts } = zippedInTwo();
    const hashes = [await upload(replica, store, parts[0]), await upload(replica, store, parts[1])];
    const mine = replica.createCanister([STRANGER]);
    await expect(installChunked(replica, mine, hashes, sha(zipped), { store, caller: STRANGER })).rejects.toThrow(
        /IC0512: Only controllers of canister .* can call ic00 method install_chunked_code/,
    );
    const target = replica.createCanister();
    await installChunked(replica, target, hashes, sha(zipped), { store, label: 'other' });
    expect(await (await probeOf(replica, target)).label_()).toBe('other:0');
});

test('a snapshot holds the chunk store; chunks survive a restart', async () => {
    const dataDir = tempDir('chunks');
    const first = await startTestReplica({ dataDir });
    const id = first.createCanister();
    const { zipped, parts } = zippedInTwo();
    await first.installCode(id, probeWasm(), { arg: probeInit('plain') });
    const hashes = [await upload(first, id, parts[0]), await upload(first, id, parts[1])];
    const snapshot = await call(first, 'take_canister_snapshot', {
        canister_id: id,
        replace_snapshot: [],
        uninstall_code: [],
        sender_canister_version: [],
    });
    await clear(first, id);
    await call(first, 'load_canister_snapshot', {
        canister_id: id,
        snapshot_id: snapshot.id,
        sender_canister_version: [],
    });
    expect(await stored(first, id)).toEqual(hashes.map(hex).sort());
    await first.stop();

    const second = await startTestReplica({ dataDir });
    expect(await stored(second, id)).toEqual(hashes.map(hex).sort());
    await installChunked(second, id, hashes, sha(zipped), { mode: { reinstall: null }, label: 'restarted' });
    expect(await (await probeOf(second, id)).label_()).toBe('restarted:0');
    // After a checkpoint too (the store's list is in the canister's state, its bytes in files).
    second.checkpoint();
    await second.stop();
    const third = await startTestReplica({ dataDir });
    await installChunked(third, id, hashes, sha(zipped), { mode: { reinstall: null }, label: 'third' });
    expect(await (await probeOf(third, id)).label_()).toBe('third:0');
    await third.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a chunk no store or snapshot names has its file removed at the next checkpoint and start', async () => {
    const dataDir = tempDir('chunks-pruned');
    const r = await startTestReplica({ dataDir });
    const files = (): string[] => fs.readdirSync(`${dataDir}/chunks`).sort();
    const id = r.createCanister();
    await r.installCode(id, probeWasm(), { arg: probeInit('plain') });
    const { parts } = zippedInTwo();
    const take = () =>
        call(r, 'take_canister_snapshot', {
            canister_id: id,
            replace_snapshot: [],
            uninstall_code: [],
            sender_canister_version: [],
        });
    const before = await take();
    const kept = hex(await upload(r, id, parts[0]));
    // A snapshot's size counts the chunk store it holds, as on the IC.
    expect((await take()).total_size - before.total_size).toBe(BigInt(parts[0].length));
    await call(r, 'delete_canister_snapshot', { canister_id: id, snapshot_id: before.id });
    await clear(r, id);
    const dropped = hex(await upload(r, id, parts[1]));
    expect(files()).toEqual([`${kept}.bin`, `${dropped}.bin`].sort());
    await clear(r, id);
    r.checkpoint();
    // The snapshot still names the first chunk: only the second is gone.
    expect(files()).toEqual([`${kept}.bin`]);
    await r.stop();
    // A file left by a round that never made it to the log goes at the next start.
    fs.writeFileSync(`${dataDir}/chunks/${'0'.repeat(64)}.bin`, 'orphan');
    const again = await startTestReplica({ dataDir });
    expect(files()).toEqual([`${kept}.bin`]);
    await again.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
});
