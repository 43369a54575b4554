// The replica thread's in-process IC HTTP interface (npm start's gateway uses it): the agent gets
// the same answers as over the HTTP port for queries and updates, and a forged, expired, oversized
// or misdirected request gets the very status and text the port gives, changing nothing.
import { Cbor, HttpAgent, requestIdOf } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Principal } from '@dfinity/principal';

import { inProcessFetch } from '../../gateway/ic/loopback-fetch';
import { startReplicaThread, type ReplicaThread } from '../../replica/threaded';
import { actorFor, tempDir } from '../support/replica';
import { expiryIn, incrementContent, PROBE_WASM, probeIdl, probeInit, type Probe } from './probe';

let thread: ReplicaThread;
let id: Principal;

beforeAll(async () => {
    thread = await startReplicaThread({
        options: { dataDir: tempDir('api-port'), port: 0, testMode: true, scratch: true },
        canisters: [{ name: 'probe', wasmPath: PROBE_WASM, arg: probeInit('port') }],
    });
    id = Principal.fromText(thread.canisters[0].id);
});
afterAll(() => thread?.stop());

async function probeOver(
    fetchFn: typeof fetch | undefined,
    identity = Ed25519KeyIdentity.generate(),
    verifyQuerySignatures = true,
): Promise<Probe> {
    const agent = await HttpAgent.create({
        host: thread.url,
        identity,
        shouldFetchRootKey: true,
        verifyQuerySignatures,
        ...(fetchFn === undefined ? {} : { fetch: fetchFn }),
    });
    return actorFor<Probe>(agent, probeIdl, id);
}

test('queries and updates answer the same in process as over HTTP, verified signatures and certificates', async () => {
    const identity = Ed25519KeyIdentity.generate();
    const overHttp = await probeOver(undefined, identity);
    const inProcess = await probeOver(inProcessFetch(thread.request), identity);
    expect(await inProcess.label_()).toBe(await overHttp.label_());
    const before = await overHttp.count();
    expect(await inProcess.increment()).toBe(before + 1n);
    expect(await overHttp.increment()).toBe(before + 2n);
    expect(await inProcess.count()).toBe(before + 2n);
    expect((await inProcess.whoami()).toText()).toBe(identity.getPrincipal().toText());
});

test('an agent that does not verify query signatures may have them left out; nothing else changes', async () => {
    const identity = Ed25519KeyIdentity.generate();
    const unsigned = await probeOver(inProcessFetch(thread.request, true), identity, false);
    const signed = await probeOver(inProcessFetch(thread.request), identity);
    const before = await signed.count();
    expect(await unsigned.increment()).toBe(before + 1n);
    expect(await unsigned.count()).toBe(await signed.count());
    expect((await unsigned.whoami()).toText()).toBe(identity.getPrincipal().toText());

    const query = async (unsignedQueries: boolean) => {
        const agent = HttpAgent.createSync({
            host: thread.url,
            identity,
            verifyQuerySignatures: false,
            fetch: inProcessFetch(async (r) => {
                const answer = await thread.request({ ...r, unsignedQueries });
                answers.push(Cbor.decode<{ signatures?: unknown[] }>(answer.body));
                return answer;
            }),
        });
        await agent.query(id, { methodName: 'count', arg: new Uint8Array(IDL.encode([], [])) });
    };
    const answers: Array<{ signatures?: unknown[] }> = [];
    await query(true);
    await query(false);
    expect(answers.map((a) => a.signatures?.length)).toEqual([0, 1]);
});

describe('rejected requests get what the HTTP port answers', () => {
    const callContent = (overrides: Record<string, unknown> = {}) => incrementContent(id, overrides);

    /** Both answers to the same bytes: [HTTP, in process], each as status and text (times masked: both read the clock). */
    async function both(path: string, body: Uint8Array, method = 'POST'): Promise<Array<[number, string]>> {
        const http = await fetch(`${thread.url}${path}`, {
            method,
            ...(method === 'POST' ? { body: Buffer.from(body) } : {}),
        });
        const local = await thread.request({ method, path, body });
        const masked = (text: string): string => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
        return [
            [http.status, masked(await http.text())],
            [local.status, masked(new TextDecoder().decode(local.body))],
        ];
    }

    const count = async (): Promise<bigint> => (await probeOver(inProcessFetch(thread.request))).count();

    test('a forged signature: 400, nothing executed', async () => {
        const before = await count();
        const identity = Ed25519KeyIdentity.generate();
        const content = callContent({ sender: identity.getPrincipal() });
        const forged = new Uint8Array(await Ed25519KeyIdentity.generate().sign(requestIdOf(content)));
        const body = Cbor.encode({ content, sender_pubkey: identity.getPublicKey().toDer(), sender_sig: forged });
        const [http, local] = await both(`/api/v3/canister/${id.toText()}/call`, body);
        expect(local).toEqual(http);
        expect(local[0]).toBe(400);
        expect(local[1]).toMatch(/signature/i);
        expect(await count()).toBe(before);
    });

    test('an expired request, another canister, bad CBOR, oversized bodies and other paths', async () => {
        const before = await count();
        const cases: Array<[string, Uint8Array, string?]> = [
            [
                `/api/v3/canister/${id.toText()}/call`,
                Cbor.encode({ content: callContent({ ingress_expiry: expiryIn(-600_000) }) }),
            ],
            [
                `/api/v2/canister/${Principal.fromText('aaaaa-aa').toText()}/query`,
                Cbor.encode({ content: callContent() }),
            ],
            [`/api/v2/canister/${id.toText()}/query`, new Uint8Array([0xff, 0x00])],
            [`/api/v3/canister/${id.toText()}/call`, new Uint8Array(3 * 1024 * 1024)],
            [`/api/v2/canister/${id.toText()}/call`, new Uint8Array(), 'GET'],
            ['/api/v9/whatever', new Uint8Array([1])],
        ];
        for (const [path, body, method] of cases) {
            const [http, local] = await both(path, body, method);
            expect({ path, answer: local }).toEqual({ path, answer: http });
            expect(local[0]).toBeGreaterThanOrEqual(400);
        }
        expect((await thread.request({ method: 'GET', path: '/_/time', body: new Uint8Array() })).status).toBe(404);
        expect(await count()).toBe(before);
    });
});

test('once the thread stops, requests fail at once instead of waiting', async () => {
    await thread.stop();
    await expect(thread.request({ method: 'GET', path: '/api/v2/status', body: new Uint8Array() })).rejects.toThrow(
        /stopped/,
    );
});
