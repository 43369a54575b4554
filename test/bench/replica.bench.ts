// Replica benchmarks: install and cold start, the latency of a trivial update and query at
// each layer (in-process, raw HTTP, @dfinity/agent), where a round's time goes, and
// throughput with concurrent callers. Prints tables; asserts nothing.
import { Actor, AnonymousIdentity, Cbor, HttpAgent, requestIdOf } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import { blsVerify } from '../../gateway/ic/bls';
import { startReplica, type Replica } from '../../replica/replica';
import { probeIdl, probeInit, probeWasm, type Probe } from '../replica/probe';
import { tempDir } from '../support/replica';
import { sample, summarize, table } from './stats';

const EMPTY = new Uint8Array(IDL.encode([], []));
const anonymous = new AnonymousIdentity().getPrincipal();

function envelope(requestType: 'call' | 'query', canisterId: Principal, method: string): Uint8Array {
    const content = {
        request_type: requestType,
        canister_id: canisterId,
        method_name: method,
        arg: EMPTY,
        sender: anonymous,
        ingress_expiry: BigInt(Date.now() + 120_000) * 1_000_000n,
        nonce: crypto.getRandomValues(new Uint8Array(16)),
    };
    requestIdOf(content);
    return Cbor.encode({ content });
}

async function post(url: string, body: Uint8Array): Promise<number> {
    const res = await fetch(url, {
        method: 'POST',
        body: Buffer.from(body),
        headers: { 'content-type': 'application/cbor' },
    });
    await res.arrayBuffer();
    return res.status;
}

export async function benchReplica(): Promise<void> {
    const dataDir = tempDir('bench-replica');
    let t = performance.now();
    let replica: Replica = await startReplica({ dataDir, port: 0, log: () => undefined });
    const startEmpty = performance.now() - t;
    const id = replica.createCanister();
    const wasm = probeWasm();
    t = performance.now();
    const initInstructions = await replica.installCode(id, wasm, { arg: probeInit('bench') });
    const install = performance.now() - t;

    const agent = await HttpAgent.create({ host: replica.url, shouldFetchRootKey: true });
    const fast = Actor.createActor(probeIdl, { agent, canisterId: id, blsVerify }) as unknown as Probe;
    const plain = Actor.createActor(probeIdl, { agent, canisterId: id }) as unknown as Probe;
    for (let i = 0; i < 200; i++) await fast.put(`key-${i}`, 'v'.repeat(100));

    const rows: Array<[string, number[]]> = [];
    rows.push(['update, in-process (replica.update)', await sample(200, () => replica.update(id, 'increment', EMPTY))]);
    rows.push([
        'update, raw HTTP v2 call (202, no certificate)',
        await sample(200, () =>
            post(`${replica.url}/api/v2/canister/${id.toText()}/call`, envelope('call', id, 'increment')),
        ),
    ]);
    rows.push([
        'update, raw HTTP v3 call (certified reply, unverified)',
        await sample(200, () =>
            post(`${replica.url}/api/v3/canister/${id.toText()}/call`, envelope('call', id, 'increment')),
        ),
    ]);
    rows.push(['update, @dfinity/agent + mcl blsVerify', await sample(100, () => fast.increment())]);
    rows.push(['update, @dfinity/agent default (noble) verify', await sample(20, () => plain.increment(), 3)]);
    rows.push(['query, in-process', await sample(200, () => replica.query(id, 'count', EMPTY))]);
    rows.push([
        'query, raw HTTP (signed reply, unverified)',
        await sample(200, () =>
            post(`${replica.url}/api/v2/canister/${id.toText()}/query`, envelope('query', id, 'count')),
        ),
    ]);
    rows.push(['query, @dfinity/agent (verifies node signature)', await sample(200, () => fast.count())]);
    table(
        'Replica latency per call (ms), trivial methods of the probe canister',
        ['path', 'n', 'median', 'p95', 'mean'],
        rows.map(([name, s]) => {
            const x = summarize(s);
            return [name, x.n, x.median, x.p95, x.mean];
        }),
    );

    // Throughput: many callers at once share rounds (one log write and one signature per round).
    const through: Array<[number, number]> = [];
    for (const callers of [1, 8, 32]) {
        const perCaller = 40;
        t = performance.now();
        await Promise.all(
            Array.from({ length: callers }, async () => {
                for (let i = 0; i < perCaller; i++)
                    await post(`${replica.url}/api/v3/canister/${id.toText()}/call`, envelope('call', id, 'increment'));
            }),
        );
        through.push([callers, (callers * perCaller) / ((performance.now() - t) / 1000)]);
    }
    table('Update throughput over raw HTTP v3 (certified replies)', ['concurrent callers', 'updates/s'], through);

    const increments = replica.executions().filter((e) => e.method === 'canister_update increment');
    const instructions = increments[increments.length - 1].instructions;
    await replica.stop();

    t = performance.now();
    replica = await startReplica({ dataDir, port: 0, log: () => undefined });
    const restart = performance.now() - t;
    t = performance.now();
    replica.query(id, 'count', EMPTY);
    const firstQuery = performance.now() - t;
    await replica.stop();

    table(
        'Start-up',
        ['what', 'ms'],
        [
            ['replica start, empty data directory', startEmpty],
            ['install probe canister (instrument, compile, canister_init)', install],
            ['replica restart from disk with the installed canister', restart],
            ['first query after restart', firstQuery],
        ],
    );
    table(
        'Metered instructions',
        ['what', 'instructions'],
        [
            ['canister_init of an Azle canister', Number(initInstructions)],
            ['trivial update (increment)', Number(instructions)],
        ],
    );
}
