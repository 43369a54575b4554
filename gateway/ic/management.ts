// The management canister (aaaaa-aa) as the operator's tools call it: the part of its Candid
// interface `npm run deploy` and `npm run admin -- snapshots` need (create, install, status,
// settings, start/stop, snapshots), each call sent to the subnet of the canister it is about.
import { Actor, type ActorSubclass, type HttpAgent } from '@dfinity/agent';
import type { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { blsVerify } from './bls';

export interface SnapshotInfo {
    id: Uint8Array | number[];
    taken_at_timestamp: bigint;
    total_size: bigint;
}

export interface Management {
    provisional_create_canister_with_cycles(a: {
        amount: [] | [bigint];
        settings: [] | [{ controllers: [] | [Principal[]] }];
        specified_id: [] | [Principal];
    }): Promise<{ canister_id: Principal }>;
    install_code(a: {
        mode: { install: null } | { reinstall: null } | { upgrade: [] | [{ skip_pre_upgrade: [] | [boolean] }] };
        canister_id: Principal;
        wasm_module: Uint8Array;
        arg: Uint8Array;
    }): Promise<void>;
    canister_status(a: { canister_id: Principal }): Promise<{
        status: { running: null } | { stopping: null } | { stopped: null };
        settings: { controllers: Principal[] };
        module_hash: [] | [Uint8Array | number[]];
        cycles: bigint;
    }>;
    update_settings(a: { canister_id: Principal; settings: { controllers: [] | [Principal[]] } }): Promise<void>;
    start_canister(a: { canister_id: Principal }): Promise<void>;
    stop_canister(a: { canister_id: Principal }): Promise<void>;
    take_canister_snapshot(a: {
        canister_id: Principal;
        replace_snapshot: [] | [Uint8Array];
        uninstall_code: [] | [boolean];
        sender_canister_version: [] | [bigint];
    }): Promise<SnapshotInfo>;
    load_canister_snapshot(a: {
        canister_id: Principal;
        snapshot_id: Uint8Array;
        sender_canister_version: [] | [bigint];
    }): Promise<void>;
    list_canister_snapshots(a: { canister_id: Principal }): Promise<SnapshotInfo[]>;
    delete_canister_snapshot(a: { canister_id: Principal; snapshot_id: Uint8Array }): Promise<void>;
}

/** The interface above (replies may carry more fields than these). */
const managementIdl: IDL.InterfaceFactory = ({ IDL: I }) => {
    const settings = I.Record({ controllers: I.Opt(I.Vec(I.Principal)) });
    const canisterIdRecord = I.Record({ canister_id: I.Principal });
    const snapshotId = I.Vec(I.Nat8);
    const snapshot = I.Record({ id: snapshotId, taken_at_timestamp: I.Nat64, total_size: I.Nat64 });
    return I.Service({
        provisional_create_canister_with_cycles: I.Func(
            [I.Record({ amount: I.Opt(I.Nat), settings: I.Opt(settings), specified_id: I.Opt(I.Principal) })],
            [canisterIdRecord],
            [],
        ),
        install_code: I.Func(
            [
                I.Record({
                    mode: I.Variant({
                        install: I.Null,
                        reinstall: I.Null,
                        upgrade: I.Opt(I.Record({ skip_pre_upgrade: I.Opt(I.Bool) })),
                    }),
                    canister_id: I.Principal,
                    wasm_module: I.Vec(I.Nat8),
                    arg: I.Vec(I.Nat8),
                }),
            ],
            [],
            [],
        ),
        canister_status: I.Func(
            [canisterIdRecord],
            [
                I.Record({
                    status: I.Variant({ running: I.Null, stopping: I.Null, stopped: I.Null }),
                    settings: I.Record({ controllers: I.Vec(I.Principal) }),
                    module_hash: I.Opt(I.Vec(I.Nat8)),
                    cycles: I.Nat,
                }),
            ],
            [],
        ),
        update_settings: I.Func([I.Record({ canister_id: I.Principal, settings })], [], []),
        start_canister: I.Func([canisterIdRecord], [], []),
        stop_canister: I.Func([canisterIdRecord], [], []),
        take_canister_snapshot: I.Func(
            [
                I.Record({
                    canister_id: I.Principal,
                    replace_snapshot: I.Opt(snapshotId),
                    uninstall_code: I.Opt(I.Bool),
                    sender_canister_version: I.Opt(I.Nat64),
                }),
            ],
            [snapshot],
            [],
        ),
        load_canister_snapshot: I.Func(
            [
                I.Record({
                    canister_id: I.Principal,
                    snapshot_id: snapshotId,
                    sender_canister_version: I.Opt(I.Nat64),
                }),
            ],
            [],
            [],
        ),
        list_canister_snapshots: I.Func([canisterIdRecord], [I.Vec(snapshot)], []),
        delete_canister_snapshot: I.Func([I.Record({ canister_id: I.Principal, snapshot_id: snapshotId })], [], []),
    });
};

export function management(agent: HttpAgent): ActorSubclass<Management> {
    // Calls about a canister go to that canister's subnet (its effective canister id).
    const effective = (_method: string, args: unknown[]) => ({
        effectiveCanisterId:
            (args[0] as { canister_id?: Principal } | undefined)?.canister_id ?? Principal.managementCanister(),
    });
    return Actor.createActor<Management>(managementIdl, {
        agent,
        canisterId: Principal.managementCanister(),
        blsVerify,
        callTransform: effective,
        queryTransform: effective,
    });
}
