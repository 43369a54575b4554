// Canister snapshots on the replica, with the IC's rules: a snapshot taken, then the canister
// changed, then the snapshot loaded brings heap and stable memory back; list, delete, replace and
// the cap of 10; only controllers; a snapshot's bytes are the canister's memory (charged, and
// refused when the canister could not pay for them); snapshots survive a restart.
import * as fs from 'node:fs';

import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { frozenBelow } from '../../replica/cycles';
import { FEES } from '../../replica/fees';
import { OPERATOR, type Replica } from '../../replica/replica';
import { MAX_SNAPSHOTS, SNAPSHOT_BASELINE_INSTRUCTIONS } from '../../replica/snapshots';
import { actorFor, agentFor, setRunning, startTestReplica, tempDir } from '../support/replica';
import { installProbe, probeIdl, probeInit, probeWasm, type Probe } from './probe';

const MANAGEMENT = Principal.fromText('aaaaa-aa');
const GIB = 1n << 30n;
const STRANGER = Principal.fromUint8Array(new Uint8Array([0x0a, 0x73, 0x74, 0x72, 0x61, 0x6e, 0x67, 0x65, 0x01]));

let replica: Replica & { dataDir: string };
beforeAll(async () => {
    replica = await startTestReplica();
});
afterAll(() => replica.stop());

const snapshotType = IDL.Record({ id: IDL.Vec(IDL.Nat8), taken_at_timestamp: IDL.Nat64, total_size: IDL.Nat64 });
interface Snapshot {
    id: Uint8Array;
    taken_at_timestamp: bigint;
    total_size: bigint;
}
const idRecord = IDL.Record({ canister_id: IDL.Principal });
const takeArg = IDL.Record({
    canister_id: IDL.Principal,
    replace_snapshot: IDL.Opt(IDL.Vec(IDL.Nat8)),
    uninstall_code: IDL.Opt(IDL.Bool),
    sender_canister_version: IDL.Opt(IDL.Nat64),
});
const loadArg = IDL.Record({
    canister_id: IDL.Principal,
    snapshot_id: IDL.Vec(IDL.Nat8),
    sender_canister_version: IDL.Opt(IDL.Nat64),
});
const deleteArg = IDL.Record({ canister_id: IDL.Principal, snapshot_id: IDL.Vec(IDL.Nat8) });
const statusType = IDL.Record({
    memory_size: IDL.Nat,
    memory_metrics: IDL.Record({ wasm_memory_size: IDL.Nat, stable_memory_size: IDL.Nat, snapshots_size: IDL.Nat }),
    cycles: IDL.Nat,
    idle_cycles_burned_per_day: IDL.Nat,
});

type Outcome<T> = { ok: T } | { reject: { code: number; message: string; errorCode?: string } };

async function call<T>(
    r: Replica,
    method: string,
    types: IDL.Type[],
    value: unknown,
    ret: IDL.Type[],
    caller = OPERATOR,
): Promise<Outcome<T>> {
    const reply = await r.update(MANAGEMENT, method, new Uint8Array(IDL.encode(types, [value])), caller);
    if ('reject' in reply) return { reject: reply.reject };
    return { ok: IDL.decode(ret, reply.reply)[0] as T };
}

function ok<T>(outcome: Outcome<T>): T {
    if ('reject' in outcome) throw new Error(outcome.reject.message);
    return outcome.ok;
}

const takeValue = (id: Principal, replace?: Uint8Array) => ({
    canister_id: id,
    replace_snapshot: replace ? [replace] : [],
    uninstall_code: [],
    sender_canister_version: [],
});
const loadValue = (id: Principal, snapshotId: Uint8Array) => ({
    canister_id: id,
    snapshot_id: snapshotId,
    sender_canister_version: [],
});
const take = (r: Replica, id: Principal, replace?: Uint8Array, caller = OPERATOR) =>
    call<Snapshot>(r, 'take_canister_snapshot', [takeArg], takeValue(id, replace), [snapshotType], caller);
const load = (r: Replica, id: Principal, snapshotId: Uint8Array, caller = OPERATOR) =>
    call<null>(r, 'load_canister_snapshot', [loadArg], loadValue(id, snapshotId), [], caller);
const list = (r: Replica, id: Principal, caller = OPERATOR) =>
    call<Snapshot[]>(r, 'list_canister_snapshots', [idRecord], { canister_id: id }, [IDL.Vec(snapshotType)], caller);
const remove = (r: Replica, id: Principal, snapshotId: Uint8Array, caller = OPERATOR) =>
    call<null>(r, 'delete_canister_snapshot', [deleteArg], { canister_id: id, snapshot_id: snapshotId }, [], caller);
const status = (r: Replica, id: Principal) =>
    call<{
        memory_size: bigint;
        memory_metrics: { wasm_memory_size: bigint; stable_memory_size: bigint; snapshots_size: bigint };
        cycles: bigint;
        idle_cycles_burned_per_day: bigint;
    }>(r, 'canister_status', [idRecord], { canister_id: id }, [statusType]).then(ok);

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

test('take, change heap and stable memory, load: both come back, and the module with them', async () => {
    const { id, probe } = await installProbe(replica, 'v1');
    await probe.put('kept', 'before');
    await probe.increment();
    await probe.increment();
    const canister = replica.subnet.canisters.get(id.toText())!;
    const version = canister.system.version;

    const snapshot = ok(await take(replica, id));
    // The IC's id: 8 bytes of local id, then the canister's id.
    expect(hex(snapshot.id)).toBe(`0000000000000000${hex(id.toUint8Array())}`);
    expect(snapshot.taken_at_timestamp).toBe(replica.time() - 1n);
    const pages = BigInt(canister.instance!.pages()) + canister.stable.size();
    expect(snapshot.total_size).toBe(pages * 65_536n + BigInt(canister.module!.size));

    await probe.put('kept', 'after');
    await probe.put('added', 'later');
    await probe.increment();
    // An upgrade to another label: the module's state changes too (post_upgrade ran).
    await replica.installCode(id, probeWasm(), { mode: 'upgrade', arg: probeInit('v2') });
    expect(await probe.label_()).toBe('v2:1');

    ok(await load(replica, id, snapshot.id));
    expect(await probe.label_()).toBe('v1:0');
    expect(await probe.count()).toBe(2n);
    expect(await probe.get('kept')).toEqual(['before']);
    expect(await probe.get('added')).toEqual([]);
    expect(await probe.size()).toBe(1n);
    // A load is a change of the canister, as an upgrade is.
    expect(canister.system.version).toBeGreaterThan(version);
    // And the canister goes on from there: its writes stick.
    expect(await probe.increment()).toBe(3n);
    expect(ok(await list(replica, id))).toEqual([snapshot]);
});

test('list, delete, replace, and at most 10 snapshots a canister', async () => {
    const { id } = await installProbe(replica, 'many');
    const first = ok(await take(replica, id));
    const second = ok(await take(replica, id));
    expect(ok(await list(replica, id)).map((s) => hex(s.id))).toEqual([hex(first.id), hex(second.id)]);

    ok(await remove(replica, id, first.id));
    expect(ok(await list(replica, id)).map((s) => hex(s.id))).toEqual([hex(second.id)]);
    // Gone: neither deleted twice nor loaded.
    for (const again of [await remove(replica, id, first.id), await load(replica, id, first.id)])
        expect(again).toMatchObject({ reject: { code: 3, errorCode: 'IC0305' } });

    // replace_snapshot: the new one takes the old one's place.
    const third = ok(await take(replica, id, second.id));
    expect(ok(await list(replica, id)).map((s) => hex(s.id))).toEqual([hex(third.id)]);
    expect(await take(replica, id, second.id)).toMatchObject({ reject: { errorCode: 'IC0305' } });

    for (let i = 1; i < MAX_SNAPSHOTS; i++) ok(await take(replica, id));
    expect(ok(await list(replica, id))).toHaveLength(MAX_SNAPSHOTS);
    expect(await take(replica, id)).toMatchObject({
        reject: { code: 4, message: expect.stringContaining('maximum number of snapshots allowed: 10') },
    });
    ok(await take(replica, id, third.id));
    expect(ok(await list(replica, id))).toHaveLength(MAX_SNAPSHOTS);

    // Another canister's snapshot is not this one's to delete or replace.
    const other = await installProbe(replica, 'other');
    const theirs = ok(await take(replica, other.id));
    expect(await remove(replica, id, theirs.id)).toMatchObject({
        reject: { code: 4, message: expect.stringContaining('does not belong to canister') },
    });
    expect(ok(await list(replica, other.id))).toHaveLength(1);
});

test('only controllers take, load, list or delete snapshots; a stopped canister can do all of it', async () => {
    const { id, probe } = await installProbe(replica, 'guarded');
    await probe.put('k', 'v');
    const snapshot = ok(await take(replica, id));
    const refused = { reject: { code: 5, errorCode: 'IC0512' } };
    expect(await take(replica, id, undefined, STRANGER)).toMatchObject(refused);
    expect(await load(replica, id, snapshot.id, STRANGER)).toMatchObject(refused);
    expect(await list(replica, id, STRANGER)).toMatchObject(refused);
    expect(await remove(replica, id, snapshot.id, STRANGER)).toMatchObject(refused);
    expect(await take(replica, id, undefined, Principal.anonymous())).toMatchObject(refused);
    expect(ok(await list(replica, id))).toHaveLength(1);

    // The IC asks controllers to stop a canister around snapshots (its tooling does), and
    // refuses neither way; stopped, the canister answers nothing until started again.
    await setRunning(replica, id.toText(), false, OPERATOR);
    await probe.put('k', 'changed').catch(() => undefined);
    const stopped = ok(await take(replica, id, snapshot.id));
    ok(await load(replica, id, stopped.id));
    await setRunning(replica, id.toText(), true, OPERATOR);
    expect(await probe.get('k')).toEqual(['v']);

    // Another canister's snapshot loads only for a controller of both: then it is a copy.
    const mine = replica.createCanister([STRANGER]);
    expect(await load(replica, mine, stopped.id, STRANGER)).toMatchObject({
        reject: { code: 4, message: expect.stringContaining(`is not a controller of canister ${id.toText()}`) },
    });
    const copy = replica.createCanister([OPERATOR]);
    ok(await load(replica, copy, stopped.id));
    expect(await (await probeOf(replica, copy)).get('k')).toEqual(['v']);
    expect(ok(await list(replica, copy))).toEqual([]);

    // An empty canister has nothing to snapshot.
    const empty = replica.createCanister();
    expect(await take(replica, empty)).toMatchObject({
        reject: { code: 4, message: expect.stringContaining('Failed to create snapshot for empty canister') },
    });
});

test("a snapshot's bytes are the canister's memory: reported, charged, and refused when unaffordable", async () => {
    const { id, probe } = await installProbe(replica, 'costly');
    for (let i = 0; i < 20; i++) await probe.put(`k${i}`, 'x'.repeat(1_000));
    const before = await status(replica, id);
    expect(before.memory_metrics.snapshots_size).toBe(0n);

    const cyclesBefore = replica.subnet.canisters.get(id.toText())!.system.cycles;
    const snapshot = ok(await take(replica, id));
    const after = await status(replica, id);
    expect(after.memory_metrics.snapshots_size).toBe(snapshot.total_size);
    expect(after.memory_size).toBe(before.memory_size + snapshot.total_size);
    expect(after.idle_cycles_burned_per_day).toBe((after.memory_size * BigInt(FEES.perGiBSecond) * 86_400n) / GIB);
    // Taking it cost the IC's instructions for it: 2 B plus one per byte, and the base fee.
    const taken = cyclesBefore - replica.subnet.canisters.get(id.toText())!.system.cycles;
    const fee = BigInt(FEES.perUpdateMessage) + SNAPSHOT_BASELINE_INSTRUCTIONS + snapshot.total_size;
    expect(taken).toBeGreaterThanOrEqual(fee);
    expect(taken).toBeLessThan(fee + 10_000_000n); // plus status calls' and memory's own charges

    // Deleted, it is no longer memory.
    ok(await remove(replica, id, snapshot.id));
    expect((await status(replica, id)).memory_size).toBe(before.memory_size);

    // A canister that could not keep its freezing threshold with the snapshot is refused, unchanged
    // (here: it can pay the instructions and keep its threshold without the snapshot, not with it).
    replica.setCycles(id, frozenBelow(replica.subnet.canisters.get(id.toText())!) + fee + 10_000_000n);
    const poor = await take(replica, id);
    expect(poor).toMatchObject({
        reject: { code: 5, errorCode: 'IC0532', message: expect.stringContaining('due to insufficient cycles') },
    });
    expect(ok(await list(replica, id))).toEqual([]);
    expect(await probe.get('k0')).toEqual(['x'.repeat(1_000)]);
});

test('a canister that controls another snapshots and loads it by inter-canister calls, never itself mid-call', async () => {
    // The directory's case: it controls its shards. Here a probe controls another probe and itself.
    const controller = replica.createCanister([OPERATOR], undefined, { selfControlled: true });
    await replica.installCode(controller, probeWasm(), { arg: probeInit('controller') });
    const agent = await agentFor(replica);
    const boss = actorFor<Probe>(agent, probeIdl, controller);
    const shard = replica.createCanister([OPERATOR, controller]);
    await replica.installCode(shard, probeWasm(), { arg: probeInit('shard') });
    const worker = actorFor<Probe>(agent, probeIdl, shard);
    await worker.put('k', 'before');

    const manage = async (method: string, types: IDL.Type[], value: unknown): Promise<Uint8Array> =>
        new Uint8Array(await boss.manage(method, new Uint8Array(IDL.encode(types, [value]))));
    const takeVia = async (id: Principal): Promise<Snapshot> =>
        IDL.decode([snapshotType], await manage('take_canister_snapshot', [takeArg], takeValue(id)))[0] as never;
    const loadVia = (id: Principal, snapshotId: Uint8Array) =>
        manage('load_canister_snapshot', [loadArg], loadValue(id, snapshotId));
    const taken = await takeVia(shard);
    await worker.put('k', 'after');
    await loadVia(shard, taken.id);
    expect(await worker.get('k')).toEqual(['before']);
    expect(ok(await list(replica, shard))).toEqual([taken]);

    // Its own snapshot it may take while running; loading it during its own call is refused.
    const own = await takeVia(controller);
    await expect(loadVia(controller, own.id)).rejects.toThrow(/open call contexts/);
    expect(await boss.label_()).toBe('controller:0');
});

test('snapshots survive a restart and a checkpoint; deleted ones leave no file behind', async () => {
    const dataDir = tempDir('snapshots');
    const first = await startTestReplica({ dataDir });
    const { id, probe } = await installProbe(first, 'durable');
    await probe.put('k', 'v1');
    await probe.increment();
    const kept = ok(await take(first, id));
    const dropped = ok(await take(first, id));
    ok(await remove(first, id, dropped.id));
    await probe.put('k', 'v2');
    await first.stop();

    expect(fs.readdirSync(`${dataDir}/snapshots`)).toEqual([`${id.toText()}-${hex(kept.id)}.snap`]);
    // What a crash leaves (a file whose round was never logged, one half written) goes on start.
    fs.writeFileSync(`${dataDir}/snapshots/${id.toText()}-00.snap`, 'orphan');
    fs.writeFileSync(`${dataDir}/snapshots/${id.toText()}-01.snap.tmp`, 'torn');

    const second = await startTestReplica({ dataDir });
    expect(fs.readdirSync(`${dataDir}/snapshots`)).toEqual([`${id.toText()}-${hex(kept.id)}.snap`]);
    expect(ok(await list(second, id))).toEqual([kept]);
    ok(await load(second, id, kept.id));
    const again = await probeOf(second, id);
    expect(await again.get('k')).toEqual(['v1']);
    expect(await again.count()).toBe(1n);
    // The load itself is in the log: after another restart (a checkpoint first) it still holds.
    second.checkpoint();
    await again.increment();
    await second.stop();
    const third = await startTestReplica({ dataDir });
    const last = await probeOf(third, id);
    expect(await last.get('k')).toEqual(['v1']);
    expect(await last.count()).toBe(2n);
    expect(ok(await list(third, id))).toEqual([kept]);
    await third.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A probe actor for an existing canister on `r`. */
const probeOf = async (r: Replica, id: Principal): Promise<Probe> => actorFor<Probe>(await agentFor(r), probeIdl, id);
