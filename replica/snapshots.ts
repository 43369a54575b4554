// Canister snapshots with the IC's rules (replica/README.md, "Canister snapshots"): take, load,
// list and delete, by controllers only; a snapshot holds the module, heap, globals, stable
// memory, certified data and the wasm chunk store's list, its memories in a file (SnapshotFiles) and its size counted as the
// canister's memory, so it costs cycles every second it is kept.
import { Principal } from '@dfinity/principal';

import { bytesEqual, toHex } from './bytes';
import { RejectCode, SubnetError, type Canister, type SnapshotMeta } from './canister-state';
import { charge, chunkStoreBytes, executionFee, frozenBelowWith, liveMemoryBytes, memoryBytes } from './cycles';
import { instantiate, type CanisterModule } from './execution/instance';
import type { StableMemory } from './execution/stable-memory';

/** The IC's cap on snapshots per canister (more need `replace_snapshot`). */
export const MAX_SNAPSHOTS = 10;
/** The IC's instructions for taking or loading a snapshot, besides one per byte of it. */
export const SNAPSHOT_BASELINE_INSTRUCTIONS = 2_000_000_000n;
const PAGE = 65_536n;

/** Where snapshots' memories are kept (the replica's data directory), by snapshotKey. */
export interface SnapshotFiles {
    write(key: string, heap: Uint8Array, stable: StableMemory): void;
    read(key: string): { heap: Uint8Array; stable: StableMemory };
}

/** What snapshots need of the subnet that hosts the canisters (subnet.ts's Subnet is one). */
export interface SnapshotHost {
    readonly canisters: ReadonlyMap<string, Canister>;
    /** The round's changes, for the write-ahead log. */
    readonly changes: Record<'droppedSnapshots' | 'system' | 'freshHeap' | 'freshStable', Set<string>>;
    readonly options: { snapshotFiles?: SnapshotFiles; loadModule?: (hash: string) => Uint8Array };
    readonly time: bigint;
    compile(wasm: Uint8Array): CanisterModule;
    uninstall(canister: Canister): void;
}

/** A snapshot's file: the canister's id and the snapshot's, in hex. */
export const snapshotKey = (canister: string, id: Uint8Array): string => `${canister}-${toHex(id)}`;

const snapshotsOf = (canister: Canister): SnapshotMeta[] => canister.system.snapshots ?? [];

/** Every snapshot file the subnet's canisters still reference. */
export function liveSnapshotKeys(subnet: SnapshotHost): Set<string> {
    const keys = new Set<string>();
    for (const c of subnet.canisters.values()) for (const s of snapshotsOf(c)) keys.add(snapshotKey(c.text, s.id));
    return keys;
}

/** The canister's snapshots go (deleted, or out of cycles: as on the IC). */
export function dropSnapshots(subnet: SnapshotHost, canister: Canister): void {
    for (const s of snapshotsOf(canister)) subnet.changes.droppedSnapshots.add(snapshotKey(canister.text, s.id));
    if (canister.system.snapshots !== undefined) canister.system.snapshots = [];
}

function notFound(canister: Canister, id: Uint8Array): SubnetError {
    return new SubnetError(
        RejectCode.DestinationInvalid,
        `Could not find the snapshot ID ${toHex(id)} for canister ${canister.text}.`,
        'IC0305',
    );
}

/** The snapshot `id` of `canister`: absent anywhere is "not found", another canister's is refused. */
function ownSnapshot(subnet: SnapshotHost, canister: Canister, id: Uint8Array): SnapshotMeta {
    const own = snapshotsOf(canister).find((s) => bytesEqual(s.id, id));
    if (own !== undefined) return own;
    if (findSnapshot(subnet, id) === undefined) throw notFound(canister, id);
    throw new SubnetError(
        RejectCode.CanisterReject,
        `The snapshot ${toHex(id)} does not belong to canister ${canister.text}.`,
        'IC0406',
    );
}

function findSnapshot(subnet: SnapshotHost, id: Uint8Array): { owner: Canister; snapshot: SnapshotMeta } | undefined {
    for (const owner of subnet.canisters.values()) {
        const snapshot = snapshotsOf(owner).find((s) => bytesEqual(s.id, id));
        if (snapshot !== undefined) return { owner, snapshot };
    }
    return undefined;
}

/**
 * Charges `cost` for an operation after which the canister holds `bytes` of memory, refused
 * (nothing charged) when it would then be below its freezing threshold, as the IC refuses it.
 */
export function pay(canister: Canister, bytes: bigint, cost: bigint): void {
    const required = frozenBelowWith(canister, bytes) + cost;
    if (canister.system.cycles < required) {
        const grow = bytes > memoryBytes(canister) ? bytes - memoryBytes(canister) : 0n;
        throw new SubnetError(
            RejectCode.CanisterError,
            `Canister cannot grow memory by ${grow} bytes due to insufficient cycles. At least ${required - canister.system.cycles} additional cycles are required.`,
            'IC0532',
        );
    }
    charge(canister, cost);
}

function files(subnet: SnapshotHost): SnapshotFiles {
    const f = subnet.options.snapshotFiles;
    if (f === undefined) throw new SubnetError(RejectCode.CanisterReject, 'Snapshots are not kept here', 'IC0406');
    return f;
}

/** take_canister_snapshot: a new snapshot (replacing `replace` once it exists), then `uninstall` if asked. */
export function takeSnapshot(
    subnet: SnapshotHost,
    canister: Canister,
    replace: Uint8Array | undefined,
    uninstall: boolean,
): SnapshotMeta {
    const { instance, module } = canister;
    if (instance === undefined || module === undefined)
        throw new SubnetError(
            RejectCode.CanisterReject,
            `Failed to create snapshot for empty canister ${canister.text}`,
            'IC0406',
        );
    const replaced = replace === undefined ? undefined : ownSnapshot(subnet, canister, replace);
    if (replaced === undefined && snapshotsOf(canister).length >= MAX_SNAPSHOTS)
        throw new SubnetError(
            RejectCode.CanisterReject,
            `Canister ${canister.text} has reached the maximum number of snapshots allowed: ${MAX_SNAPSHOTS}.`,
            'IC0406',
        );
    const live = liveMemoryBytes(canister);
    // As the IC counts a snapshot: its memories and module, its certified data and the chunk store it holds.
    const size = live + BigInt(module.size) + BigInt(canister.system.certifiedData.length) + chunkStoreBytes(canister);
    const after =
        memoryBytes(canister) + size - (replaced?.size ?? 0n) - (uninstall ? live + chunkStoreBytes(canister) : 0n);
    pay(canister, after, executionFee(SNAPSHOT_BASELINE_INSTRUCTIONS + size));

    const sys = canister.system;
    const local = sys.nextSnapshotId ?? 0n;
    const id = new Uint8Array(8 + canister.bytes.length);
    new DataView(id.buffer).setBigUint64(0, local);
    id.set(canister.bytes, 8);
    // The file first: the round that names it is logged after it is on disk.
    files(subnet).write(snapshotKey(canister.text, id), instance.heap.committed(), canister.stable);
    const snapshot: SnapshotMeta = {
        id,
        takenAt: subnet.time,
        size,
        moduleHash: module.hash,
        pages: instance.pages(),
        globals: instance.globals(),
        stableSize: canister.stable.size(),
        certifiedData: sys.certifiedData,
        globalTimer: sys.globalTimer,
        version: sys.version,
        chunkStore: sys.chunkStore,
    };
    sys.nextSnapshotId = local + 1n;
    sys.snapshots = [...snapshotsOf(canister).filter((s) => s !== replaced), snapshot];
    if (replaced !== undefined) subnet.changes.droppedSnapshots.add(snapshotKey(canister.text, replaced.id));
    if (uninstall) subnet.uninstall(canister);
    subnet.changes.system.add(canister.text);
    return snapshot;
}

/**
 * load_canister_snapshot: the snapshot's module, heap, globals, stable memory and certified
 * data replace the canister's (from one of its own snapshots, or another canister's the caller
 * also controls). The global timer stays as it is, as the IC leaves it for a snapshot that was
 * taken (not uploaded). Refused while calls are in flight (as this replica refuses upgrades).
 */
export function loadSnapshot(subnet: SnapshotHost, canister: Canister, id: Uint8Array, caller: Uint8Array): void {
    const found = findSnapshot(subnet, id);
    if (found === undefined) throw notFound(canister, id);
    const { owner, snapshot } = found;
    if (owner !== canister && !owner.system.controllers.some((c) => bytesEqual(c, caller)))
        throw new SubnetError(
            RejectCode.CanisterReject,
            `Caller ${Principal.fromUint8Array(caller).toText()} is not a controller of canister ${owner.text}, which took snapshot ${toHex(id)}.`,
            'IC0406',
        );
    if (canister.system.callContexts.size > 0)
        throw new SubnetError(
            RejectCode.CanisterError,
            `Canister ${canister.text} has open call contexts; stop it before loading a snapshot.`,
            'IC0510',
        );
    const loadModule = subnet.options.loadModule;
    if (loadModule === undefined)
        throw new SubnetError(RejectCode.CanisterReject, 'Snapshots are not kept here', 'IC0406');
    const module = subnet.compile(loadModule(toHex(snapshot.moduleHash)));
    const { heap, stable } = files(subnet).read(snapshotKey(owner.text, id));
    const chunks = BigInt((snapshot.chunkStore ?? []).reduce((sum, c) => sum + c.size, 0));
    const loaded = BigInt(snapshot.pages) * PAGE + snapshot.stableSize * PAGE + chunks;
    pay(
        canister,
        memoryBytes(canister) - liveMemoryBytes(canister) - chunkStoreBytes(canister) + loaded,
        executionFee(SNAPSHOT_BASELINE_INSTRUCTIONS + snapshot.size),
    );
    canister.stable = stable;
    const instance = instantiate(module, () => canister.stable);
    instance.restore(heap, snapshot.pages, snapshot.globals);
    canister.module = module;
    canister.instance = instance;
    const sys = canister.system;
    sys.moduleHash = module.hash;
    sys.certifiedData = snapshot.certifiedData;
    if (snapshot.chunkStore !== undefined || sys.chunkStore !== undefined) sys.chunkStore = snapshot.chunkStore ?? [];
    sys.version += 1n;
    subnet.changes.freshHeap.add(canister.text);
    subnet.changes.freshStable.add(canister.text);
    subnet.changes.system.add(canister.text);
}

/** list_canister_snapshots' records. */
export const listSnapshots = (
    canister: Canister,
): Array<{ id: Uint8Array; taken_at_timestamp: bigint; total_size: bigint }> =>
    snapshotsOf(canister).map((s) => ({ id: s.id, taken_at_timestamp: s.takenAt, total_size: s.size }));

/** delete_canister_snapshot. */
export function deleteSnapshot(subnet: SnapshotHost, canister: Canister, id: Uint8Array): void {
    const snapshot = ownSnapshot(subnet, canister, id);
    canister.system.snapshots = snapshotsOf(canister).filter((s) => s !== snapshot);
    subnet.changes.droppedSnapshots.add(snapshotKey(canister.text, id));
    subnet.changes.system.add(canister.text);
}
