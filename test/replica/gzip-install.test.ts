// install_code with a gzip-compressed module, as the IC accepts it (a directory installs its
// shards' wasm gzipped to stay under the 2 MiB message limit): decompressed, capped in size,
// its module hash that of the bytes sent.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import { Actor } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Principal } from '@dfinity/principal';

import { blsVerify } from '../../gateway/ic/bls';
import { MAX_WASM_BYTES } from '../../replica/execution/instance';
import type { Replica } from '../../replica/replica';
import { actorFor, agentFor, startTestReplica } from '../support/replica';
import { probeIdl, probeInit, probeWasm, type Probe } from './probe';

let replica: Replica;
beforeAll(async () => {
    replica = await startTestReplica();
});
afterAll(() => replica.stop());

const Mode = IDL.Variant({
    install: IDL.Null,
    reinstall: IDL.Null,
    upgrade: IDL.Opt(IDL.Record({ skip_pre_upgrade: IDL.Opt(IDL.Bool) })),
});
const InstallArgs = IDL.Record({
    mode: Mode,
    canister_id: IDL.Principal,
    wasm_module: IDL.Vec(IDL.Nat8),
    arg: IDL.Vec(IDL.Nat8),
});
type Install = (a: {
    mode: unknown;
    canister_id: Principal;
    wasm_module: Uint8Array;
    arg: Uint8Array;
}) => Promise<void>;

test('a gzipped module installs like the plain one; a bomb or broken gzip is refused and changes nothing', async () => {
    const owner = Ed25519KeyIdentity.generate();
    const id = replica.createCanister([owner.getPrincipal()]);
    const agent = await agentFor(replica, owner);
    const management = Actor.createActor<{ install_code: Install }>(
        ({ IDL: I }) => I.Service({ install_code: I.Func([InstallArgs], [], []) }),
        { agent, canisterId: Principal.managementCanister(), effectiveCanisterId: id, blsVerify },
    );
    const install = (wasm: Uint8Array, mode: unknown = { install: null }) =>
        management.install_code({ mode, canister_id: id, wasm_module: wasm, arg: probeInit('zipped') });

    const plain = probeWasm();
    const zipped = new Uint8Array(gzipSync(plain));
    expect(zipped.length).toBeLessThan(plain.length);
    await install(zipped);
    const probe = actorFor<Probe>(agent, probeIdl, id);
    expect(await probe.label_()).toBe('zipped:0');
    // The module hash is of the module as sent (the IC's), gzipped here.
    const hash = replica.subnet.canisters.get(id.toText())!.system.moduleHash;
    expect(Buffer.from(hash!).toString('hex')).toBe(createHash('sha256').update(zipped).digest('hex'));

    // Past the IC's decompressed cap: refused without inflating it all.
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(MAX_WASM_BYTES + 1)));
    await expect(install(bomb, { upgrade: [] })).rejects.toThrow(/larger than/);
    const broken = zipped.slice(0, zipped.length / 2);
    await expect(install(broken, { upgrade: [] })).rejects.toThrow(/bad gzip/);
    expect(replica.subnet.canisters.get(id.toText())!.system.moduleHash).toEqual(hash);
    expect(await probe.label_()).toBe('zipped:0');
});
