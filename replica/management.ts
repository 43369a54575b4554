// The management canister (aaaaa-aa): the subset of its Candid interface a local replica
// needs (create, install, chunk store, settings, start/stop, status, delete, snapshots, raw_rand),
// with its checks.
import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { bytesEqual } from './bytes';
import { assembleChunks, clearChunkStore, storedChunks, uploadChunk } from './chunk-store';
import {
    CHARGE,
    chunkStoreBytes,
    freezingThreshold,
    idleBurnPerDay,
    liveMemoryBytes,
    memoryBytes,
    snapshotBytes,
} from './cycles';
import { fromHex } from './bytes';
import { deleteSnapshot, listSnapshots, loadSnapshot, pay, takeSnapshot } from './snapshots';
import { RejectCode, SubnetError, type Canister } from './canister-state';
import type { Reply, Subnet } from './subnet';

const settings = IDL.Record({
    controllers: IDL.Opt(IDL.Vec(IDL.Principal)),
    compute_allocation: IDL.Opt(IDL.Nat),
    memory_allocation: IDL.Opt(IDL.Nat),
    freezing_threshold: IDL.Opt(IDL.Nat),
    reserved_cycles_limit: IDL.Opt(IDL.Nat),
    wasm_memory_limit: IDL.Opt(IDL.Nat),
});
const canisterIdRecord = IDL.Record({ canister_id: IDL.Principal });
const installMode = IDL.Variant({
    install: IDL.Null,
    reinstall: IDL.Null,
    upgrade: IDL.Opt(IDL.Record({ skip_pre_upgrade: IDL.Opt(IDL.Bool) })),
});

const chunkHash = IDL.Record({ hash: IDL.Vec(IDL.Nat8) });

const snapshotId = IDL.Vec(IDL.Nat8);
const snapshot = IDL.Record({ id: snapshotId, taken_at_timestamp: IDL.Nat64, total_size: IDL.Nat64 });

/** The methods this replica's management canister has: their Candid argument and reply types. */
export const methods = {
    raw_rand: { arg: [], ret: [IDL.Vec(IDL.Nat8)] },
    create_canister: {
        arg: [IDL.Record({ settings: IDL.Opt(settings), sender_canister_version: IDL.Opt(IDL.Nat64) })],
        ret: [canisterIdRecord],
    },
    provisional_create_canister_with_cycles: {
        arg: [
            IDL.Record({ amount: IDL.Opt(IDL.Nat), settings: IDL.Opt(settings), specified_id: IDL.Opt(IDL.Principal) }),
        ],
        ret: [canisterIdRecord],
    },
    install_code: {
        arg: [
            IDL.Record({
                mode: installMode,
                canister_id: IDL.Principal,
                wasm_module: IDL.Vec(IDL.Nat8),
                arg: IDL.Vec(IDL.Nat8),
            }),
        ],
        ret: [],
    },
    uninstall_code: { arg: [canisterIdRecord], ret: [] },
    upload_chunk: { arg: [IDL.Record({ canister_id: IDL.Principal, chunk: IDL.Vec(IDL.Nat8) })], ret: [chunkHash] },
    clear_chunk_store: { arg: [canisterIdRecord], ret: [] },
    stored_chunks: { arg: [canisterIdRecord], ret: [IDL.Vec(chunkHash)] },
    install_chunked_code: {
        arg: [
            IDL.Record({
                mode: installMode,
                target_canister: IDL.Principal,
                store_canister: IDL.Opt(IDL.Principal),
                chunk_hashes_list: IDL.Vec(chunkHash),
                wasm_module_hash: IDL.Vec(IDL.Nat8),
                arg: IDL.Vec(IDL.Nat8),
                sender_canister_version: IDL.Opt(IDL.Nat64),
            }),
        ],
        ret: [],
    },
    update_settings: { arg: [IDL.Record({ canister_id: IDL.Principal, settings })], ret: [] },
    start_canister: { arg: [canisterIdRecord], ret: [] },
    stop_canister: { arg: [canisterIdRecord], ret: [] },
    delete_canister: { arg: [canisterIdRecord], ret: [] },
    deposit_cycles: { arg: [canisterIdRecord], ret: [] },
    provisional_top_up_canister: { arg: [IDL.Record({ canister_id: IDL.Principal, amount: IDL.Nat })], ret: [] },
    take_canister_snapshot: {
        arg: [
            IDL.Record({
                canister_id: IDL.Principal,
                replace_snapshot: IDL.Opt(snapshotId),
                uninstall_code: IDL.Opt(IDL.Bool),
                sender_canister_version: IDL.Opt(IDL.Nat64),
            }),
        ],
        ret: [snapshot],
    },
    load_canister_snapshot: {
        arg: [
            IDL.Record({
                canister_id: IDL.Principal,
                snapshot_id: snapshotId,
                sender_canister_version: IDL.Opt(IDL.Nat64),
            }),
        ],
        ret: [],
    },
    list_canister_snapshots: { arg: [canisterIdRecord], ret: [IDL.Vec(snapshot)] },
    delete_canister_snapshot: {
        arg: [IDL.Record({ canister_id: IDL.Principal, snapshot_id: snapshotId })],
        ret: [],
    },
    canister_status: {
        arg: [canisterIdRecord],
        ret: [
            IDL.Record({
                status: IDL.Variant({ running: IDL.Null, stopping: IDL.Null, stopped: IDL.Null }),
                settings: IDL.Record({
                    controllers: IDL.Vec(IDL.Principal),
                    compute_allocation: IDL.Nat,
                    memory_allocation: IDL.Nat,
                    freezing_threshold: IDL.Nat,
                    reserved_cycles_limit: IDL.Nat,
                    wasm_memory_limit: IDL.Nat,
                }),
                module_hash: IDL.Opt(IDL.Vec(IDL.Nat8)),
                memory_size: IDL.Nat,
                // As the IC reports it: the parts of memory_size (the rest are zero here).
                memory_metrics: IDL.Record({
                    wasm_memory_size: IDL.Nat,
                    stable_memory_size: IDL.Nat,
                    global_memory_size: IDL.Nat,
                    wasm_binary_size: IDL.Nat,
                    custom_sections_size: IDL.Nat,
                    canister_history_size: IDL.Nat,
                    wasm_chunk_store_size: IDL.Nat,
                    snapshots_size: IDL.Nat,
                }),
                cycles: IDL.Nat,
                reserved_cycles: IDL.Nat,
                idle_cycles_burned_per_day: IDL.Nat,
            }),
        ],
    },
} satisfies Record<string, { arg: IDL.Type[]; ret: IDL.Type[] }>;

type Method = keyof typeof methods;

/** Methods users may call by ingress; the rest are for canisters only. */
const INGRESS_METHODS = new Set<string>([
    'provisional_create_canister_with_cycles',
    'install_code',
    'uninstall_code',
    'upload_chunk',
    'clear_chunk_store',
    'stored_chunks',
    'install_chunked_code',
    'update_settings',
    'start_canister',
    'stop_canister',
    'delete_canister',
    'canister_status',
    'provisional_top_up_canister',
    'take_canister_snapshot',
    'load_canister_snapshot',
    'list_canister_snapshots',
    'delete_canister_snapshot',
]);

export interface ManagementCall {
    caller: Uint8Array;
    method: string;
    arg: Uint8Array;
    cycles: bigint;
    /** Keeps `amount` of the attached cycles (the rest goes back to the caller). */
    accept?: (amount: bigint) => void;
    /** Set for ingress calls. */
    ingress: boolean;
    random: (n: number) => Uint8Array;
}

/** The canister a management call is about (the IC's "effective canister id"). */
export function effectiveCanisterId(method: string, arg: Uint8Array): Principal | undefined {
    const m = methods[method as Method];
    if (m === undefined || method === 'raw_rand' || method.includes('create_canister')) return undefined;
    try {
        const [decoded] = IDL.decode(m.arg, arg) as unknown as [
            { canister_id?: Principal; target_canister?: Principal },
        ];
        return decoded.canister_id ?? decoded.target_canister;
    } catch {
        return undefined;
    }
}

export function callManagement(subnet: Subnet, call: ManagementCall): Reply {
    const m = methods[call.method as Method];
    if (m === undefined)
        throw new SubnetError(
            RejectCode.DestinationInvalid,
            `Management canister has no method '${call.method}'`,
            'IC0536',
        );
    if (call.ingress && !INGRESS_METHODS.has(call.method)) {
        throw new SubnetError(
            RejectCode.CanisterReject,
            `Only canisters can call ic00 method ${call.method}`,
            'IC0406',
        );
    }
    let args: unknown[];
    try {
        args = IDL.decode(m.arg, call.arg);
    } catch (e) {
        throw new SubnetError(
            RejectCode.CanisterError,
            `Error decoding candid for ic00 method ${call.method}: ${(e as Error).message}`,
            'IC0503',
        );
    }
    const reply = (values: unknown[]): Reply => ({ reply: new Uint8Array(IDL.encode(m.ret, values)) });
    const arg = args[0] as Record<string, unknown>;
    const caller = call.caller;
    /** The canister `principal` names, whose controller the caller must be (or the canister itself, with `self`). */
    const target = (principal = arg.canister_id as Principal, self = false): Canister => {
        const id = principal.toText();
        const canister = subnet.canisters.get(id);
        if (canister === undefined)
            throw new SubnetError(RejectCode.DestinationInvalid, `Canister ${id} not found`, 'IC0301');
        if (
            !(self && bytesEqual(canister.bytes, caller)) &&
            !canister.system.controllers.some((c) => bytesEqual(c, caller))
        ) {
            throw new SubnetError(
                RejectCode.CanisterError,
                `Only controllers of canister ${id} can call ic00 method ${call.method}`,
                'IC0512',
            );
        }
        return canister;
    };

    switch (call.method as Method) {
        case 'raw_rand':
            return reply([call.random(32)]);
        case 'create_canister':
        case 'provisional_create_canister_with_cycles': {
            const s = (arg.settings as Array<Record<string, unknown>>)[0];
            const controllers =
                s !== undefined && (s.controllers as Principal[][]).length > 0
                    ? (s.controllers as Principal[][])[0].map((p) => p.toUint8Array())
                    : [caller];
            const specified = (arg.specified_id as Principal[] | undefined)?.[0];
            // create_canister: the new canister gets the attached cycles less the creation fee;
            // the provisional method mints them (free, as on the IC).
            let cycles = (arg.amount as bigint[] | undefined)?.[0];
            if (call.method === 'create_canister') {
                if (call.cycles < CHARGE.creation)
                    throw new SubnetError(
                        RejectCode.CanisterReject,
                        `Creating a canister requires a fee of ${CHARGE.creation} that is deducted from the canister's initial balance but only ${call.cycles} cycles were received with the create_canister request.`,
                        'IC0406',
                    );
                cycles = call.cycles - CHARGE.creation;
            }
            const threshold = freezingThresholdOf(s);
            const canister = subnet.createCanister(controllers, specified, cycles);
            if (threshold !== undefined) canister.system.freezingThreshold = threshold;
            call.accept?.(call.cycles);
            return reply([{ canister_id: canister.id }]);
        }
        case 'install_code':
            install(subnet, target(), arg, new Uint8Array(arg.wasm_module as number[] | Uint8Array), caller);
            return reply([]);
        case 'install_chunked_code': {
            const canister = target(arg.target_canister as Principal);
            const store = target((arg.store_canister as Principal[])[0] ?? (arg.target_canister as Principal), true);
            const hashes = (arg.chunk_hashes_list as Array<{ hash: number[] | Uint8Array }>).map(
                (c) => new Uint8Array(c.hash),
            );
            const wasm = assembleChunks(subnet, store, hashes, new Uint8Array(arg.wasm_module_hash as number[]));
            install(subnet, canister, arg, wasm, caller);
            return reply([]);
        }
        case 'uninstall_code':
            subnet.uninstall(target());
            return reply([]);
        case 'upload_chunk': {
            const canister = target(undefined, true);
            const chunk = new Uint8Array(arg.chunk as number[] | Uint8Array);
            // As an install does: the base fee, refused when the store would leave the canister frozen.
            const hash = uploadChunk(subnet, canister, chunk, (grow) =>
                pay(canister, memoryBytes(canister) + grow, CHARGE.message),
            );
            subnet.changes.system.add(canister.text);
            return reply([{ hash }]);
        }
        case 'clear_chunk_store': {
            const canister = target(undefined, true);
            clearChunkStore(canister);
            subnet.changes.system.add(canister.text);
            return reply([]);
        }
        case 'stored_chunks':
            return reply([storedChunks(target(undefined, true)).map((c) => ({ hash: fromHex(c.hash) }))]);
        case 'update_settings': {
            const canister = target();
            const threshold = freezingThresholdOf(arg.settings as Record<string, unknown>);
            const controllers = (arg.settings as { controllers: Principal[][] }).controllers[0];
            if (controllers !== undefined) {
                if (controllers.length > 10)
                    throw new SubnetError(
                        RejectCode.CanisterError,
                        'A canister may have at most 10 controllers',
                        'IC0503',
                    );
                canister.system.controllers = controllers.map((p) => p.toUint8Array());
            }
            if (threshold !== undefined) canister.system.freezingThreshold = threshold;
            canister.system.version += 1n;
            subnet.changes.system.add(canister.text);
            return reply([]);
        }
        case 'start_canister':
        case 'stop_canister': {
            const canister = target();
            canister.system.status = call.method === 'start_canister' ? 'running' : 'stopped';
            canister.system.version += 1n;
            subnet.changes.system.add(canister.text);
            return reply([]);
        }
        case 'delete_canister': {
            const canister = target();
            if (canister.system.status !== 'stopped') {
                throw new SubnetError(
                    RejectCode.CanisterError,
                    `Canister ${canister.text} must be stopped before it is deleted.`,
                    'IC0510',
                );
            }
            subnet.deleteCanister(canister);
            return reply([]);
        }
        case 'deposit_cycles':
        case 'provisional_top_up_canister': {
            const id = (arg.canister_id as Principal).toText();
            const canister = subnet.canisters.get(id);
            if (canister === undefined)
                throw new SubnetError(RejectCode.DestinationInvalid, `Canister ${id} not found`, 'IC0301');
            canister.system.cycles += call.method === 'deposit_cycles' ? call.cycles : (arg.amount as bigint);
            if (call.method === 'deposit_cycles') call.accept?.(call.cycles);
            subnet.changes.system.add(canister.text);
            return reply([]);
        }
        case 'take_canister_snapshot': {
            const replace = (arg.replace_snapshot as Array<number[] | Uint8Array>)[0];
            const taken = takeSnapshot(
                subnet,
                target(),
                replace === undefined ? undefined : new Uint8Array(replace),
                (arg.uninstall_code as boolean[])[0] === true,
            );
            return reply([{ id: taken.id, taken_at_timestamp: taken.takenAt, total_size: taken.size }]);
        }
        case 'load_canister_snapshot':
            loadSnapshot(subnet, target(), new Uint8Array(arg.snapshot_id as number[] | Uint8Array), caller);
            return reply([]);
        case 'list_canister_snapshots':
            return reply([listSnapshots(target())]);
        case 'delete_canister_snapshot':
            deleteSnapshot(subnet, target(), new Uint8Array(arg.snapshot_id as number[] | Uint8Array));
            return reply([]);
        case 'canister_status': {
            const canister = target();
            const sys = canister.system;
            const stable = canister.stable.size() * 65536n;
            const heap = liveMemoryBytes(canister) - stable;
            const snapshots = snapshotBytes(canister);
            const chunks = chunkStoreBytes(canister);
            return reply([
                {
                    status: { [sys.status]: null },
                    settings: {
                        controllers: sys.controllers.map((c) => Principal.fromUint8Array(c)),
                        compute_allocation: 0n,
                        memory_allocation: 0n,
                        freezing_threshold: freezingThreshold(canister),
                        reserved_cycles_limit: 5_000_000_000_000n,
                        wasm_memory_limit: 3n * 1024n ** 3n,
                    },
                    module_hash: sys.moduleHash ? [sys.moduleHash] : [],
                    memory_size: heap + stable + snapshots + chunks,
                    memory_metrics: {
                        wasm_memory_size: heap,
                        stable_memory_size: stable,
                        global_memory_size: 0n,
                        wasm_binary_size: 0n,
                        custom_sections_size: 0n,
                        canister_history_size: 0n,
                        wasm_chunk_store_size: chunks,
                        snapshots_size: snapshots,
                    },
                    cycles: sys.cycles,
                    reserved_cycles: 0n,
                    idle_cycles_burned_per_day: idleBurnPerDay(canister),
                },
            ]);
        }
    }
}

/** install_code and install_chunked_code: `wasm` (plain or gzipped) in the mode `arg` names, with its argument. */
function install(
    subnet: Subnet,
    canister: Canister,
    arg: Record<string, unknown>,
    wasm: Uint8Array,
    caller: Uint8Array,
): void {
    const mode = arg.mode as Record<string, unknown>;
    const kind = 'install' in mode ? 'install' : 'reinstall' in mode ? 'reinstall' : 'upgrade';
    const upgradeOpts = kind === 'upgrade' ? (mode.upgrade as Array<{ skip_pre_upgrade: boolean[] }>)[0] : undefined;
    const module = subnet.compile(wasm);
    subnet.installCode(
        canister,
        kind,
        module,
        new Uint8Array(arg.arg as number[] | Uint8Array),
        caller,
        upgradeOpts?.skip_pre_upgrade[0] === true,
    );
}

/** A settings record's freezing threshold (seconds), checked: the IC takes it below 2^64. */
function freezingThresholdOf(settings: Record<string, unknown> | undefined): bigint | undefined {
    const threshold = (settings?.freezing_threshold as bigint[] | undefined)?.[0];
    if (threshold !== undefined && threshold >= 1n << 64n)
        throw new SubnetError(RejectCode.CanisterError, 'Freezing threshold must fit in 64 bits', 'IC0503');
    return threshold;
}
