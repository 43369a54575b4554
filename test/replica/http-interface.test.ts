// The HTTP side of the replica: the HTTP-gateway path (plain GETs become http_request,
// upgraded to http_request_update on request), certified data with data certificates,
// and bad input answered with the IC's statuses without changing state.
import * as http from 'node:http';
import * as net from 'node:net';

import { Certificate, Cbor, HttpAgent, lookupResultToBuffer, requestIdOf } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Principal } from '@dfinity/principal';

import type { Replica } from '../../replica/replica';
import { actorFor, agentFor, startTestReplica } from '../support/replica';
import { expiryIn, incrementContent, installProbe, type Probe } from './probe';

let replica: Replica;
let id: Principal;
let probe: Probe;

beforeAll(async () => {
    replica = await startTestReplica();
    ({ id, probe } = await installProbe(replica, 'http'));
});
afterAll(() => replica.stop());

describe('HTTP gateway path', () => {
    test('GET ?canisterId=<id> is answered by the canister http_request with its status, headers and body', async () => {
        await probe.increment();
        const res = await fetch(`${replica.url}/count?x=1&canisterId=${id.toText()}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(await res.json()).toEqual({ count: 1, url: '/count?x=1' });
    });

    test('the <id>.localhost host name routes to the canister too', async () => {
        // fetch() does not let a caller set Host; a browser would, for http://<id>.localhost:<port>/.
        const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
            const req = http.get(
                {
                    host: '127.0.0.1',
                    port: replica.port,
                    path: '/nowhere',
                    headers: { host: `${id.toText()}.localhost:${replica.port}` },
                },
                (res) => {
                    let body = '';
                    res.on('data', (chunk: Buffer) => (body += chunk.toString()));
                    res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
                },
            );
            req.on('error', reject);
        });
        expect(status).toBe(404);
        expect(JSON.parse(body)).toEqual({ error: 'no route /nowhere' });
    });

    test('a response asking for an upgrade is re-run as http_request_update, which persists', async () => {
        const before = await probe.count();
        const res = await fetch(`${replica.url}/bump?canisterId=${id.toText()}`, { method: 'POST', body: 'x' });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ count: Number(before) + 1, method: 'POST' });
        expect(await probe.count()).toBe(before + 1n);
    });

    test('a certified read while an update waits for its round answers, and the update runs after it', async () => {
        // A browser's certified read reaches the canister's http_request while a write it sent just
        // before (upgraded to http_request_update) waits for its round, the last round over a second
        // old: its data certificate must come without running that round inside the read.
        const before = await probe.count();
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const host = `127.0.0.1:${replica.port}`;
        const canister = `canisterId=${id.toText()}`;
        const raw = await new Promise<string>((resolve, reject) => {
            const socket = net.connect(replica.port, '127.0.0.1', () =>
                // Both requests in one write (HTTP/1.1 pipelining): the server takes them in one turn.
                socket.write(
                    `POST /bump?${canister} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 1\r\n\r\nx` +
                        `GET /certified?${canister} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
                ),
            );
            let text = '';
            socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
            socket.on('end', () => resolve(text));
            socket.on('error', reject);
        });
        // Two answers in order (content-length bodies): the write's, then the read's, of the state
        // before the write's round.
        const answers = raw
            .split('HTTP/1.1 ')
            .slice(1)
            .map((part) => ({
                status: Number(part.slice(0, 3)),
                body: JSON.parse(part.split('\r\n\r\n')[1]) as unknown,
            }));
        expect(answers).toEqual([
            { status: 200, body: { count: Number(before) + 1, method: 'POST' } },
            { status: 200, body: { count: Number(before), certified: true } },
        ]);
        expect(await probe.count()).toBe(before + 1n);
    });

    test('unknown or missing canisters get a clear error', async () => {
        expect((await fetch(`${replica.url}/count`)).status).toBe(400);
        expect((await fetch(`${replica.url}/count?canisterId=aaaaa-aa`)).status).toBe(404);
        expect((await fetch(`${replica.url}/count?canisterId=not-a-principal`)).status).toBe(400);
    });
});

test('certified data shows up in the data certificate of a query, verifiable against the root key', async () => {
    const data = new Uint8Array(32).fill(7);
    await probe.certify(data);
    const [certificate] = await probe.certificate();
    expect(certificate).toBeDefined();
    const cert = await Certificate.create({
        certificate: new Uint8Array(certificate!),
        rootKey: replica.rootKey,
        canisterId: id,
    });
    const found = lookupResultToBuffer(cert.lookup_path(['canister', id.toUint8Array(), 'certified_data']));
    expect(Buffer.from(found!)).toEqual(Buffer.from(data));
});

test('a synchronous call to the management canister gets a certificate holding its reply (as dfx and deploy make it)', async () => {
    const agent = await agentFor(replica, Ed25519KeyIdentity.generate());
    const Settings = IDL.Record({ controllers: IDL.Opt(IDL.Vec(IDL.Principal)) });
    const create = IDL.Func(
        [IDL.Record({ amount: IDL.Opt(IDL.Nat), settings: IDL.Opt(Settings), specified_id: IDL.Opt(IDL.Principal) })],
        [IDL.Record({ canister_id: IDL.Principal })],
    );
    const management = actorFor<{
        provisional_create_canister_with_cycles: (a: unknown) => Promise<{ canister_id: Principal }>;
    }>(
        agent,
        ({ IDL: I }) => I.Service({ provisional_create_canister_with_cycles: create }),
        Principal.managementCanister(),
    );
    const { canister_id } = await management.provisional_create_canister_with_cycles({
        amount: [],
        settings: [],
        specified_id: [],
    });
    expect(replica.subnet.canisters.has(canister_id.toText())).toBe(true);
});

describe('bad input', () => {
    const post = (path: string, body: Uint8Array | string) =>
        fetch(`${replica.url}${path}`, {
            method: 'POST',
            body: typeof body === 'string' ? body : Buffer.from(body),
            headers: { 'content-type': 'application/cbor' },
        });

    function envelope(content: Record<string, unknown>): Uint8Array {
        return Cbor.encode({ content });
    }

    const callContent = (overrides: Record<string, unknown> = {}) => incrementContent(id, overrides);

    test('malformed CBOR, wrong methods and unknown paths get 4xx and never crash the replica', async () => {
        expect((await post(`/api/v3/canister/${id.toText()}/call`, 'not cbor at all')).status).toBe(400);
        expect((await post(`/api/v2/canister/${id.toText()}/query`, new Uint8Array([0xff, 0x00]))).status).toBe(400);
        expect((await post(`/api/v2/canister/not-a-canister/call`, envelope(callContent()))).status).toBe(400);
        expect((await fetch(`${replica.url}/api/v2/canister/${id.toText()}/call`)).status).toBe(405);
        expect((await post('/api/v9/whatever', 'x')).status).toBe(404);
        expect((await fetch(`${replica.url}/api/v2/status`)).status).toBe(200);
    });

    test('an oversized payload is refused with 413 before it is read', async () => {
        const big = new Uint8Array(3 * 1024 * 1024);
        expect((await post(`/api/v3/canister/${id.toText()}/call`, big)).status).toBe(413);
    });

    test('a request with a forged signature is rejected and does not execute', async () => {
        const before = await probe.count();
        const identity = Ed25519KeyIdentity.generate();
        const content = callContent({ sender: identity.getPrincipal() });
        const requestId = requestIdOf(content);
        const forged = new Uint8Array(await Ed25519KeyIdentity.generate().sign(requestId));
        const body = Cbor.encode({ content, sender_pubkey: identity.getPublicKey().toDer(), sender_sig: forged });
        const res = await post(`/api/v3/canister/${id.toText()}/call`, body);
        expect(res.status).toBe(400);
        expect(await res.text()).toMatch(/signature/i);
        expect(await probe.count()).toBe(before);
    });

    test('expired requests and content for another canister are refused', async () => {
        const expired = envelope(callContent({ ingress_expiry: expiryIn(-10 * 60_000) }));
        expect((await post(`/api/v3/canister/${id.toText()}/call`, expired)).status).toBe(400);
        const other = replica.createCanister();
        expect((await post(`/api/v3/canister/${other.toText()}/call`, envelope(callContent()))).status).toBe(400);
    });

    test('bad Candid, unknown methods and unknown canisters are rejected by the canister or replica, with IC codes', async () => {
        const agent = await HttpAgent.create({ host: replica.url, shouldFetchRootKey: true });
        await expect(agent.query(id, { methodName: 'get', arg: new Uint8Array([1, 2, 3]) })).resolves.toMatchObject({
            status: 'rejected',
        });
        await expect(
            agent.query(id, { methodName: 'nope', arg: new Uint8Array(IDL.encode([], [])) }),
        ).resolves.toMatchObject({
            status: 'rejected',
            reject_code: 3,
        });
        const ghost = replica.createCanister();
        await expect(agent.query(ghost, { methodName: 'get', arg: new Uint8Array() })).resolves.toMatchObject({
            status: 'rejected',
        });
        // The canister still works.
        expect(await probe.label_()).toBe('http:0');
    });

    test("read_state of another sender's request status is forbidden", async () => {
        const alice = await HttpAgent.create({
            host: replica.url,
            identity: Ed25519KeyIdentity.generate(),
            shouldFetchRootKey: true,
        });
        const bob = await HttpAgent.create({
            host: replica.url,
            identity: Ed25519KeyIdentity.generate(),
            shouldFetchRootKey: true,
            retryTimes: 0,
        });
        const { requestId } = await alice.call(id, {
            methodName: 'increment',
            arg: new Uint8Array(IDL.encode([], [])),
        });
        await expect(
            bob.readState(id, { paths: [[new TextEncoder().encode('request_status'), requestId]] }),
        ).rejects.toThrow(/403|signed by the caller/);
        await expect(
            alice.readState(id, { paths: [[new TextEncoder().encode('request_status'), requestId]] }),
        ).resolves.toBeDefined();
    });
});

describe('time control', () => {
    test('in test mode, POST /_/time on loopback moves the clock (timers follow)', async () => {
        const before = replica.time();
        const res = await fetch(`${replica.url}/_/time`, {
            method: 'POST',
            body: JSON.stringify({ advanceMs: 3_600_000 }),
        });
        expect(res.status).toBe(200);
        const { timeNs } = (await res.json()) as { timeNs: string };
        expect(BigInt(timeNs)).toBeGreaterThanOrEqual(before + 3_600_000_000_000n);
        expect((await fetch(`${replica.url}/_/time`, { method: 'POST', body: '{"advanceMs": -5}' })).status).toBe(400);
    });

    test('outside test mode there is no time control', async () => {
        const { startTestReplica: start } = await import('../support/replica');
        const plain = await start({ testMode: false });
        try {
            const res = await fetch(`${plain.url}/_/time`, {
                method: 'POST',
                body: JSON.stringify({ advanceMs: 1000 }),
            });
            expect(res.status).not.toBe(200);
        } finally {
            await plain.stop();
        }
    });
});
