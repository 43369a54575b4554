// End to end against the real @dfinity/agent HttpAgent: a minimal in-test replica (a fetch
// function) built only from replica/crypto answers read_state, query and call requests.
import { Actor, Cbor, CanisterStatus, HttpAgent, requestIdOf } from '@dfinity/agent';
import type { ActorSubclass } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Principal } from '@dfinity/principal';
import { blsVerify } from '../../../gateway/ic/bls';
import { blsPublicKeyToDer, generateBlsKey, initBls } from '../../../replica/crypto/bls';
import { certifyPaths } from '../../../replica/crypto/certificate';
import { authenticateEnvelope, type RequestType } from '../../../replica/crypto/envelope';
import { generateNodeKey, signQueryResponse, type QueryResponseBody } from '../../../replica/crypto/query-signature';
import {
    createStateTree,
    setControllers,
    setModuleHash,
    setRequestStatus,
    setSubnet,
    setTime,
    subnetIdFromRootKey,
} from '../../../replica/crypto/state-tree';

const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

interface FakeReplica {
    fetch: typeof fetch;
    rootKey: Uint8Array;
    canisterId: Principal;
    controllers: Principal[];
    moduleHash: Uint8Array;
    nodeId: Principal;
    subnetId: Principal;
    /** Test knobs. */
    corruptQuerySignature: boolean;
    acceptCallsAsync: boolean;
    requestsSeen: string[];
    /** The times the answers certified (ns), in order. */
    certifiedTimes: bigint[];
}

function fakeReplica(): FakeReplica {
    const bls = generateBlsKey(new Uint8Array(32).fill(11));
    const node = generateNodeKey(new Uint8Array(32).fill(12));
    const rootKey = blsPublicKeyToDer(bls.publicKey);
    const subnetId = subnetIdFromRootKey(rootKey);
    const canisterId = Principal.fromText('rrkah-fqaaa-aaaaa-aaaaq-cai');
    const controllers = [Principal.fromText('aaaaa-aa'), Ed25519KeyIdentity.generate().getPrincipal()];
    const moduleHash = new Uint8Array(32).fill(0xab);
    const tree = createStateTree(nowNs());
    setSubnet(tree, {
        subnetId,
        publicKeyDer: rootKey,
        canisterRanges: [[Principal.fromHex('00000000000000000101'), Principal.fromHex('00000000000fffff0101')]],
        nodes: [node],
    });
    setControllers(tree, canisterId, controllers);
    setModuleHash(tree, canisterId, moduleHash);

    // greet(name) -> "Hello, name!"; anything else is rejected.
    const execute = (method: string, arg: Uint8Array): QueryResponseBody => {
        if (method !== 'greet')
            return { status: 'rejected', reject_code: 3, reject_message: `no method ${method}`, error_code: 'IC0302' };
        const [name] = IDL.decode([IDL.Text], arg) as [string];
        return { status: 'replied', reply: { arg: new Uint8Array(IDL.encode([IDL.Text], [`Hello, ${name}!`])) } };
    };

    const replica: FakeReplica = {
        rootKey,
        canisterId,
        controllers,
        moduleHash,
        nodeId: node.nodeId,
        subnetId,
        corruptQuerySignature: false,
        acceptCallsAsync: false,
        requestsSeen: [],
        certifiedTimes: [],
        fetch: async (input, init) => {
            const url = new URL(String(input));
            const match = /^\/api\/v[23]\/canister\/([^/]+)\/(query|read_state|call)$/.exec(url.pathname);
            if (!match || !init?.body) return new Response('not found', { status: 404 });
            const kind = match[2] as RequestType;
            replica.requestsSeen.push(`${url.pathname.split('/')[2]} ${kind}`); // e.g. 'v3 call'
            const now = nowNs();
            setTime(tree, now);
            replica.certifiedTimes.push(now);
            const check = authenticateEnvelope(Cbor.decode(new Uint8Array(init.body as ArrayBuffer)), {
                nowNs: now,
                effectiveCanisterId: Principal.fromText(match[1]),
                expectedRequestType: kind,
            });
            if (!check.ok) return new Response(check.message, { status: check.httpStatus });
            const { content, requestId } = check;
            const cbor = (value: unknown): Response =>
                new Response(new Uint8Array(Cbor.encode(value)), {
                    status: 200,
                    headers: { 'Content-Type': 'application/cbor' },
                });

            if (content.request_type === 'read_state') {
                return cbor({ certificate: certifyPaths(tree, bls.secretKey, content.paths) });
            }
            const result = execute(content.method_name, content.arg);
            if (content.request_type === 'query') {
                const signature = signQueryResponse(node.secretKey, result, requestId, now);
                if (replica.corruptQuerySignature) signature.signature[0] ^= 1;
                return cbor({ ...result, signatures: [signature] });
            }
            setRequestStatus(
                tree,
                requestId,
                result.status === 'replied'
                    ? { status: 'replied', reply: result.reply.arg }
                    : {
                          status: 'rejected',
                          reject_code: result.reject_code,
                          reject_message: result.reject_message,
                          error_code: result.error_code,
                      },
            );
            if (replica.acceptCallsAsync) return new Response(null, { status: 202 });
            return cbor({
                status: 'replied',
                certificate: certifyPaths(tree, bls.secretKey, [['request_status', requestId]]),
            });
        },
    };
    return replica;
}

const idlFactory: IDL.InterfaceFactory = ({ IDL: I }) =>
    I.Service({
        greet: I.Func([I.Text], [I.Text], []),
        greet_query: I.Func([I.Text], [I.Text], ['query']),
        missing: I.Func([], [I.Text], []),
    });
type Greeter = {
    greet(name: string): Promise<string>;
    greet_query(name: string): Promise<string>;
    missing(): Promise<string>;
};

beforeAll(() => initBls());

/** An agent of the fake replica (anonymous unless `identity`). */
const agentOf = (replica: FakeReplica, identity?: Ed25519KeyIdentity): HttpAgent =>
    HttpAgent.createSync({ host: 'http://127.0.0.1:4943', fetch: replica.fetch, rootKey: replica.rootKey, identity });

describe('@dfinity/agent against replica/crypto', () => {
    test('CanisterStatus.request decodes time, controllers, module_hash and subnet node keys', async () => {
        const replica = fakeReplica();
        const agent = agentOf(replica);
        const status = await CanisterStatus.request({
            canisterId: replica.canisterId,
            agent,
            paths: ['time', 'controllers', 'module_hash', 'subnet'],
        });
        // The time of one of the certificates the agent got (not "close to now": exact).
        expect(replica.certifiedTimes.map((t) => Number(t / 1_000_000n))).toContain(
            (status.get('time') as Date).getTime(),
        );
        expect((status.get('controllers') as Principal[]).map((p) => p.toText())).toEqual(
            replica.controllers.map((p) => p.toText()),
        );
        expect(status.get('module_hash')).toBe(Buffer.from(replica.moduleHash).toString('hex'));
        const subnet = status.get('subnet') as { subnetId: string; nodeKeys: Map<string, Uint8Array> };
        expect(subnet.subnetId).toBe(replica.subnetId.toText());
        expect([...subnet.nodeKeys.keys()]).toEqual([replica.nodeId.toText()]);
    });

    test('signed query responses pass the agent verification; forged ones do not', async () => {
        const replica = fakeReplica();
        const identity = Ed25519KeyIdentity.generate();
        const agent = agentOf(replica, identity);
        const arg = new Uint8Array(IDL.encode([IDL.Text], ['query']));
        const replied = await agent.query(replica.canisterId, { methodName: 'greet', arg });
        expect(replied.status).toBe('replied');
        expect(replica.requestsSeen).toContain('v2 read_state'); // the agent fetched the node keys
        const rejected = await agent.query(replica.canisterId, { methodName: 'nope', arg });
        expect(rejected.status).toBe('rejected');

        replica.corruptQuerySignature = true;
        const fresh = agentOf(replica, identity);
        await expect(fresh.query(replica.canisterId, { methodName: 'greet', arg })).rejects.toThrow(/signature/i);
    });

    test('an Actor with the mcl blsVerify gets certified update replies (sync and polled)', async () => {
        const replica = fakeReplica();
        const identity = Ed25519KeyIdentity.generate();
        const agent = agentOf(replica, identity);
        const actor: ActorSubclass<Greeter> = Actor.createActor<Greeter>(idlFactory, {
            agent,
            canisterId: replica.canisterId,
            blsVerify,
        });
        await expect(actor.greet('sync')).resolves.toBe('Hello, sync!');
        await expect(actor.missing()).rejects.toThrow(/no method missing/);
        await expect(actor.greet_query('query')).rejects.toThrow(); // greet_query is not a method of the fake canister

        replica.requestsSeen.length = 0;
        replica.acceptCallsAsync = true;
        await expect(actor.greet('polled')).resolves.toBe('Hello, polled!');
        expect(replica.requestsSeen).toEqual(expect.arrayContaining(['v3 call', 'v2 read_state'])); // polled request_status
    });

    test('the request id the replica derives is the one the agent signs', async () => {
        const replica = fakeReplica();
        const identity = Ed25519KeyIdentity.generate();
        const content = {
            request_type: 'call',
            canister_id: replica.canisterId,
            method_name: 'greet',
            arg: new Uint8Array([1, 2, 3]),
            sender: identity.getPrincipal(),
            ingress_expiry: nowNs() + 60_000_000_000n,
            nonce: new Uint8Array([9, 9]),
        };
        const signed = await identity.transformRequest({ request: {}, endpoint: 'call', body: content } as never);
        const decoded = Cbor.decode(Cbor.encode((signed as { body: unknown }).body));
        const check = authenticateEnvelope(decoded, { nowNs: nowNs(), effectiveCanisterId: replica.canisterId });
        expect(check.ok).toBe(true);
        if (check.ok) expect(Buffer.from(check.requestId)).toEqual(Buffer.from(requestIdOf(content)));
    });
});
