// The probe test canister: where its wasm is and its Candid interface for actors.
import * as path from 'node:path';
import * as fs from 'node:fs';

import { AnonymousIdentity, type HttpAgent } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import type { Replica } from '../../replica/replica';
import { actorFor, agentFor } from '../support/replica';

export const PROBE_WASM = path.join(__dirname, 'canisters', '.azle', 'probe', 'probe.wasm');

export function probeWasm(): Uint8Array {
    return new Uint8Array(fs.readFileSync(PROBE_WASM));
}

export const probeInit = (label: string): Uint8Array => new Uint8Array(IDL.encode([IDL.Opt(IDL.Text)], [[label]]));

/** A new probe canister on `replica`, installed with `label`, and an anonymous agent and actor for it. */
export async function installProbe(
    replica: Replica,
    label: string,
): Promise<{ id: Principal; agent: HttpAgent; probe: Probe }> {
    const id = replica.createCanister();
    await replica.installCode(id, probeWasm(), { arg: probeInit(label) });
    const agent = await agentFor(replica);
    return { id, agent, probe: actorFor<Probe>(agent, probeIdl, id) };
}

const Header = IDL.Tuple(IDL.Text, IDL.Text);

export const probeIdl: IDL.InterfaceFactory = ({ IDL: I }) =>
    I.Service({
        label_: I.Func([], [I.Text], ['query']),
        increment: I.Func([], [I.Nat64], []),
        count: I.Func([], [I.Nat64], ['query']),
        incrementThenTrap: I.Func([], [I.Nat64], []),
        incrementInQuery: I.Func([], [I.Nat64], ['query']),
        put: I.Func([I.Text, I.Text], [I.Nat64], []),
        get: I.Func([I.Text], [I.Opt(I.Text)], ['query']),
        size: I.Func([], [I.Nat64], ['query']),
        putPair: I.Func([I.Text, I.Text], [I.Nat64], []),
        checkPairs: I.Func([], [I.Record({ pairs: I.Nat64, counter: I.Nat64, consistent: I.Bool })], ['query']),
        fireIn: I.Func([I.Nat64], [I.Null], []),
        timerFired: I.Func([], [I.Opt(I.Nat64)], ['query']),
        now: I.Func([], [I.Nat64], ['query']),
        randomBytes: I.Func([], [I.Vec(I.Nat8)], []),
        rawRand: I.Func([], [I.Vec(I.Nat8)], []),
        manage: I.Func([I.Text, I.Vec(I.Nat8)], [I.Vec(I.Nat8)], []),
        incrementOther: I.Func([I.Principal], [I.Nat64], []),
        burn: I.Func([I.Nat64], [I.Nat64], ['query']),
        certify: I.Func([I.Vec(I.Nat8)], [I.Null], []),
        certificate: I.Func([], [I.Opt(I.Vec(I.Nat8))], ['query']),
        whoami: I.Func([], [I.Principal], ['query']),
        http_request: I.Func(
            [
                I.Record({
                    method: I.Text,
                    url: I.Text,
                    headers: I.Vec(Header),
                    body: I.Vec(I.Nat8),
                    certificate_version: I.Opt(I.Nat16),
                }),
            ],
            [I.Record({ status_code: I.Nat16, headers: I.Vec(Header), body: I.Vec(I.Nat8), upgrade: I.Opt(I.Bool) })],
            ['query'],
        ),
    });

export interface Probe {
    label_(): Promise<string>;
    increment(): Promise<bigint>;
    count(): Promise<bigint>;
    incrementThenTrap(): Promise<bigint>;
    incrementInQuery(): Promise<bigint>;
    put(key: string, value: string): Promise<bigint>;
    get(key: string): Promise<[] | [string]>;
    size(): Promise<bigint>;
    putPair(key: string, value: string): Promise<bigint>;
    checkPairs(): Promise<{ pairs: bigint; counter: bigint; consistent: boolean }>;
    fireIn(seconds: bigint): Promise<null>;
    timerFired(): Promise<[] | [bigint]>;
    now(): Promise<bigint>;
    randomBytes(): Promise<Uint8Array | number[]>;
    rawRand(): Promise<Uint8Array | number[]>;
    manage(method: string, arg: Uint8Array): Promise<Uint8Array | number[]>;
    incrementOther(other: Principal): Promise<bigint>;
    burn(iterations: bigint): Promise<bigint>;
    certify(data: Uint8Array): Promise<null>;
    certificate(): Promise<[] | [Uint8Array | number[]]>;
    whoami(): Promise<Principal>;
}

/** An ingress expiry `ms` from now (negative: already past). */
export const expiryIn = (ms: number): bigint => BigInt(Date.now() + ms) * 1_000_000n;

/** The unsigned content of an anonymous `increment` call to the probe `id`, with `overrides`. */
export function incrementContent(id: Principal, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
        request_type: 'call',
        canister_id: id,
        method_name: 'increment',
        arg: new Uint8Array(IDL.encode([], [])),
        sender: new AnonymousIdentity().getPrincipal(),
        ingress_expiry: expiryIn(60_000),
        nonce: crypto.getRandomValues(new Uint8Array(16)),
        ...overrides,
    };
}
