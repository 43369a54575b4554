// The directory's reach to other canisters: JSON methods of its shards, and the management
// canister's create_canister, chunk store and install_chunked_code, canister_status,
// deposit_cycles, stop/start and snapshots, as
// service/directory/remote.ts's Remote and service/funding.ts's Treasury. A rejected
// call becomes a 503 Fail: an async method still answers {err}, never traps on it.
import { IDL, Principal, call, canisterCycleBalance, canisterSelf } from 'azle';

import type { Method, Result } from '../contract/canister';
import { bytesToText, textToBytes } from './codecs';
import { Fail } from './domain/fail';
import { remarkTimes, stringify } from './domain/json';
import type { Remote } from './service/directory';
import type { Treasury } from './service/funding';
import type { CanisterReading } from './state/records';

const MANAGEMENT = 'aaaaa-aa';

const CreateCanisterArgs = IDL.Record({
    settings: IDL.Opt(
        IDL.Record({
            controllers: IDL.Opt(IDL.Vec(IDL.Principal)),
            compute_allocation: IDL.Opt(IDL.Nat),
            memory_allocation: IDL.Opt(IDL.Nat),
            freezing_threshold: IDL.Opt(IDL.Nat),
        }),
    ),
    sender_canister_version: IDL.Opt(IDL.Nat64),
});
const CanisterIdRecord = IDL.Record({ canister_id: IDL.Principal });
// What the funding check reads of canister_status (the IC's reply has more fields: Candid skips them).
const CanisterStatusReply = IDL.Record({
    settings: IDL.Record({ freezing_threshold: IDL.Nat }),
    memory_size: IDL.Nat,
    cycles: IDL.Nat,
    idle_cycles_burned_per_day: IDL.Nat,
});
const ChunkHash = IDL.Record({ hash: IDL.Vec(IDL.Nat8) });
const UploadChunkArgs = IDL.Record({ canister_id: IDL.Principal, chunk: IDL.Vec(IDL.Nat8) });
const InstallChunkedCodeArgs = IDL.Record({
    mode: IDL.Variant({
        install: IDL.Null,
        reinstall: IDL.Null,
        upgrade: IDL.Opt(IDL.Record({ skip_pre_upgrade: IDL.Opt(IDL.Bool) })),
    }),
    target_canister: IDL.Principal,
    store_canister: IDL.Opt(IDL.Principal),
    chunk_hashes_list: IDL.Vec(ChunkHash),
    wasm_module_hash: IDL.Vec(IDL.Nat8),
    arg: IDL.Vec(IDL.Nat8),
    sender_canister_version: IDL.Opt(IDL.Nat64),
});
/** The IC's reject of install_chunked_code when the chunks do not hash to wasm_module_hash. */
const HASH_MISMATCH = /Wasm chunk store.*hash.*does not match/;

const SnapshotId = IDL.Vec(IDL.Nat8);
const TakeSnapshotArgs = IDL.Record({
    canister_id: IDL.Principal,
    replace_snapshot: IDL.Opt(SnapshotId),
    uninstall_code: IDL.Opt(IDL.Bool),
    sender_canister_version: IDL.Opt(IDL.Nat64),
});
const LoadSnapshotArgs = IDL.Record({
    canister_id: IDL.Principal,
    snapshot_id: SnapshotId,
    sender_canister_version: IDL.Opt(IDL.Nat64),
});
const SnapshotReply = IDL.Record({ id: SnapshotId, taken_at_timestamp: IDL.Nat64, total_size: IDL.Nat64 });
const hexOf = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const bytesOfHex = (hex: string): Uint8Array => new Uint8Array((hex.match(/../g) ?? []).map((h) => parseInt(h, 16)));

/** Why a call failed, from Azle's CallError. */
function reason(e: unknown): string {
    if (e !== null && typeof e === 'object' && 'rejectMessage' in e) return String(e.rejectMessage);
    if (e !== null && typeof e === 'object' && 'type' in e) return String(e.type);
    return e instanceof Error ? e.message : String(e);
}

async function raw(canisterId: string, method: string, args: Uint8Array, cycles?: bigint): Promise<Uint8Array> {
    try {
        return (await call<Uint8Array, Uint8Array>(canisterId, method, { raw: true, args, cycles })) as Uint8Array;
    } catch (e) {
        throw new Fail(503, `Canister ${canisterId} did not answer ${method}: ${reason(e)}`, { retryAfter: 5 });
    }
}

export const remote: Remote & Treasury = {
    get self(): string {
        return canisterSelf().toText();
    },
    async call(canisterId: string, method: Method, request: unknown): Promise<Result<unknown>> {
        const reply = await raw(canisterId, method, textToBytes(stringify(request)));
        try {
            return remarkTimes(JSON.parse(bytesToText(reply)) as Result<unknown>);
        } catch {
            // Not ours (or not this release's): an answer, never a trap that would keep our bookkeeping.
            throw new Fail(503, `Canister ${canisterId} answered ${method} with something not JSON`, {
                retryAfter: 5,
            });
        }
    },
    async createCanister(cycles: bigint): Promise<string> {
        const args = IDL.encode(
            [CreateCanisterArgs],
            [
                {
                    settings: [
                        {
                            controllers: [[canisterSelf()]],
                            compute_allocation: [],
                            memory_allocation: [],
                            freezing_threshold: [],
                        },
                    ],
                    sender_canister_version: [],
                },
            ],
        );
        const reply = await raw(MANAGEMENT, 'create_canister', new Uint8Array(args), cycles);
        const [created] = IDL.decode([CanisterIdRecord], reply) as unknown as [{ canister_id: { toText(): string } }];
        return created.canister_id.toText();
    },
    async uploadChunk(chunk: Uint8Array): Promise<string> {
        const args = IDL.encode([UploadChunkArgs], [{ canister_id: canisterSelf(), chunk }]);
        const reply = await raw(MANAGEMENT, 'upload_chunk', new Uint8Array(args));
        const [stored] = IDL.decode([ChunkHash], reply) as unknown as [{ hash: Uint8Array }];
        return hexOf(new Uint8Array(stored.hash));
    },
    async clearChunkStore(): Promise<void> {
        const args = IDL.encode([CanisterIdRecord], [{ canister_id: canisterSelf() }]);
        await raw(MANAGEMENT, 'clear_chunk_store', new Uint8Array(args));
    },
    async installChunkedCode(canisterId, mode, wasm, arg): Promise<'installed' | 'hash mismatch'> {
        const args = IDL.encode(
            [InstallChunkedCodeArgs],
            [
                {
                    mode: mode === 'install' ? { install: null } : { upgrade: [] },
                    target_canister: Principal.fromText(canisterId),
                    store_canister: [canisterSelf()],
                    chunk_hashes_list: wasm.chunks.map((hash) => ({ hash: bytesOfHex(hash) })),
                    wasm_module_hash: bytesOfHex(wasm.sha256),
                    arg,
                    sender_canister_version: [],
                },
            ],
        );
        try {
            await raw(MANAGEMENT, 'install_chunked_code', new Uint8Array(args));
            return 'installed';
        } catch (e) {
            if (e instanceof Fail && HASH_MISMATCH.test(e.message)) return 'hash mismatch';
            throw e;
        }
    },
    cycles: () => canisterCycleBalance(),
    async setRunning(canisterId: string, running: boolean): Promise<void> {
        const args = IDL.encode([CanisterIdRecord], [{ canister_id: Principal.fromText(canisterId) }]);
        await raw(MANAGEMENT, running ? 'start_canister' : 'stop_canister', new Uint8Array(args));
    },
    async takeSnapshot(canisterId: string, replace?: string): Promise<{ snapshotId: string; totalSize: number }> {
        const args = IDL.encode(
            [TakeSnapshotArgs],
            [
                {
                    canister_id: Principal.fromText(canisterId),
                    replace_snapshot: replace === undefined ? [] : [bytesOfHex(replace)],
                    uninstall_code: [],
                    sender_canister_version: [],
                },
            ],
        );
        const reply = await raw(MANAGEMENT, 'take_canister_snapshot', new Uint8Array(args));
        const [taken] = IDL.decode([SnapshotReply], reply) as unknown as [{ id: Uint8Array; total_size: bigint }];
        return { snapshotId: hexOf(new Uint8Array(taken.id)), totalSize: Number(taken.total_size) };
    },
    async loadSnapshot(canisterId: string, snapshotId: string): Promise<void> {
        const args = IDL.encode(
            [LoadSnapshotArgs],
            [
                {
                    canister_id: Principal.fromText(canisterId),
                    snapshot_id: bytesOfHex(snapshotId),
                    sender_canister_version: [],
                },
            ],
        );
        await raw(MANAGEMENT, 'load_canister_snapshot', new Uint8Array(args));
    },
    async canisterStatus(canisterId: string): Promise<CanisterReading> {
        const args = IDL.encode([CanisterIdRecord], [{ canister_id: Principal.fromText(canisterId) }]);
        const reply = await raw(MANAGEMENT, 'canister_status', new Uint8Array(args));
        const [status] = IDL.decode([CanisterStatusReply], reply) as unknown as [
            {
                settings: { freezing_threshold: bigint };
                memory_size: bigint;
                cycles: bigint;
                idle_cycles_burned_per_day: bigint;
            },
        ];
        return {
            cycles: Number(status.cycles),
            idleBurnPerDay: Number(status.idle_cycles_burned_per_day),
            freezingThresholdSeconds: Number(status.settings.freezing_threshold),
            memoryBytes: Number(status.memory_size),
        };
    },
    async depositCycles(canisterId: string, cycles: bigint): Promise<void> {
        const args = IDL.encode([CanisterIdRecord], [{ canister_id: Principal.fromText(canisterId) }]);
        await raw(MANAGEMENT, 'deposit_cycles', new Uint8Array(args), cycles);
    },
};
