// What the subnet and its cycles and snapshots share: a hosted canister's state, its snapshots'
// records, and the IC's reject codes and errors.
import type { Principal } from '@dfinity/principal';

import type { CanisterModule, Instance } from './execution/instance';
import type { StableMemory } from './execution/stable-memory';
import type { OutgoingCall } from './execution/system-api';

export const RejectCode = {
    SysFatal: 1,
    SysTransient: 2,
    DestinationInvalid: 3,
    CanisterReject: 4,
    CanisterError: 5,
} as const;

export interface Reject {
    code: number;
    message: string;
    errorCode?: string;
}

export class SubnetError extends Error {
    constructor(
        readonly code: number,
        message: string,
        readonly errorCode: string,
    ) {
        super(message);
    }
}

/** Who is waiting for a call context's response. */
export type Origin =
    | { kind: 'ingress'; requestId: string }
    | { kind: 'canister'; caller: string; callbackId: number }
    | { kind: 'system' };

export interface CallContext {
    id: number;
    origin: Origin;
    caller: Uint8Array;
    responded: boolean;
    outstanding: number;
    instructions: bigint;
    cycles: bigint;
    /** Replicated query: state changes are discarded. */
    discard: boolean;
}

/** An outgoing call awaiting its response: the canister's closures and the cycles it sent. */
export interface Callback extends Pick<OutgoingCall, 'reply' | 'reject' | 'cleanup' | 'cycles'> {
    id: number;
    callContext: number;
    callee: string;
}

/** A canister's state outside its memories. */
export interface SystemState {
    controllers: Uint8Array[];
    certifiedData: Uint8Array;
    globalTimer: bigint;
    version: bigint;
    status: 'running' | 'stopping' | 'stopped';
    cycles: bigint;
    /** Seconds of idle burn the balance must cover (`update_settings`); the IC's default when unset. */
    freezingThreshold?: bigint;
    /** Replica time up to which memory has been charged, and the fraction of a cycle (in cycle-ns per GiB) left over. */
    chargedAt?: bigint;
    memoryRemainder?: bigint;
    moduleHash?: Uint8Array;
    /** The canister's snapshots, oldest first (their memories are in files: snapshots.ts's SnapshotFiles). */
    snapshots?: SnapshotMeta[];
    /** The wasm chunk store (chunk-store.ts), in upload order; the bytes are kept by hash outside. */
    chunkStore?: ChunkEntry[];
    /** The local part of the next snapshot's id. */
    nextSnapshotId?: bigint;
    callContexts: Map<number, CallContext>;
    callbacks: Map<number, Callback>;
    nextId: number;
}

/** A chunk in a canister's wasm chunk store: its SHA-256 (hex) and size. */
export interface ChunkEntry {
    hash: string;
    size: number;
}

/** What a snapshot holds besides its memories (snapshots.ts). */
export interface SnapshotMeta {
    /** The IC's form: the local id (8 bytes, big-endian) then the canister's id. */
    id: Uint8Array;
    takenAt: bigint;
    /** Bytes counted as the canister's memory: heap, stable memory, module and certified data. */
    size: bigint;
    moduleHash: Uint8Array;
    pages: number;
    globals: Array<number | bigint>;
    stableSize: bigint;
    certifiedData: Uint8Array;
    globalTimer: bigint;
    version: bigint;
    /** The canister's chunk store when it was taken (loaded back with the snapshot, as on the IC). */
    chunkStore?: ChunkEntry[];
}

export interface Canister {
    id: Principal;
    text: string;
    bytes: Uint8Array;
    system: SystemState;
    module?: CanisterModule;
    instance?: Instance;
    stable: StableMemory;
}
