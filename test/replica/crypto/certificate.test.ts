import { Certificate, Cbor, lookup_path, LookupPathStatus, reconstruct } from '@dfinity/agent';
import type { Cert } from '@dfinity/agent';
import { lebDecode, PipeArrayBuffer } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';
import { blsVerify } from '../../../gateway/ic/bls';
import { blsPublicKeyToDer, generateBlsKey, initBls } from '../../../replica/crypto/bls';
import { certify, certifyPaths, encodeCertificate } from '../../../replica/crypto/certificate';
import { rootDigest, witness } from '../../../replica/crypto/hash-tree';
import {
    createStateTree,
    setCertifiedData,
    setRequestStatus,
    setSubnet,
    setTime,
    subnetIdFromRootKey,
} from '../../../replica/crypto/state-tree';
import { generateNodeKey } from '../../../replica/crypto/query-signature';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

beforeAll(() => initBls());

function setup() {
    const { secretKey, publicKey } = generateBlsKey(new Uint8Array(32).fill(3));
    const rootKey = blsPublicKeyToDer(publicKey);
    const canisterId = Principal.fromText('rrkah-fqaaa-aaaaa-aaaaq-cai');
    const tree = createStateTree(nowNs());
    setSubnet(tree, {
        subnetId: subnetIdFromRootKey(rootKey),
        publicKeyDer: rootKey,
        canisterRanges: [[Principal.fromHex('00000000000000000101'), Principal.fromHex('00000000000fffff0101')]],
        nodes: [generateNodeKey(new Uint8Array(32).fill(4))],
    });
    setCertifiedData(tree, canisterId, utf8('certified!'));
    const requestId = new Uint8Array(32).fill(0x42);
    setRequestStatus(tree, requestId, { status: 'replied', reply: utf8('DIDL\x00\x00') });
    setRequestStatus(tree, new Uint8Array(32).fill(0x43), {
        status: 'rejected',
        reject_code: 4,
        reject_message: 'nope',
        error_code: 'IC0406',
    });
    return { secretKey, rootKey, canisterId, tree, requestId };
}

describe('certification', () => {
    test('certificates pass @dfinity/agent Certificate.create and answer lookups', async () => {
        const { secretKey, rootKey, canisterId, tree, requestId } = setup();
        const time = nowNs();
        setTime(tree, time);
        const missing = new Uint8Array(32).fill(0x99);
        const certificate = certifyPaths(tree, secretKey, [
            ['request_status', requestId],
            ['request_status', missing],
            ['canister', canisterId.toUint8Array(), 'certified_data'],
        ]);
        expect(hex(certificate.subarray(0, 3))).toBe('d9d9f7'); // self-describe tag

        const cert = await Certificate.create({ certificate, rootKey, canisterId });
        const timeLookup = cert.lookup_path(['time']);
        expect(timeLookup.status).toBe(LookupPathStatus.Found);
        expect(lebDecode(new PipeArrayBuffer((timeLookup as { value: Uint8Array }).value))).toBe(time);

        const status = cert.lookup_path(['request_status', requestId, 'status']);
        expect(new TextDecoder().decode((status as { value: Uint8Array }).value)).toBe('replied');
        expect(hex((cert.lookup_path(['request_status', requestId, 'reply']) as { value: Uint8Array }).value)).toBe(
            hex(utf8('DIDL\x00\x00')),
        );
        expect(cert.lookup_path(['request_status', requestId, 'reject_code']).status).toBe(LookupPathStatus.Absent);
        expect(cert.lookup_path(['request_status', missing, 'status']).status).toBe(LookupPathStatus.Absent);
        expect(cert.lookup_path(['request_status', missing]).status).toBe(LookupPathStatus.Absent);
        const data = cert.lookup_path(['canister', canisterId.toUint8Array(), 'certified_data']);
        expect(new TextDecoder().decode((data as { value: Uint8Array }).value)).toBe('certified!');
        // Not requested: pruned away, so unknown rather than absent.
        expect(cert.lookup_path(['request_status', new Uint8Array(32).fill(0x43), 'status']).status).toBe(
            LookupPathStatus.Unknown,
        );
    });

    test('the mcl verifier can replace the agent default; bad signatures are refused', async () => {
        const { secretKey, rootKey, canisterId, tree, requestId } = setup();
        const paths = [['request_status', requestId]];
        const revealed = witness(tree, paths.concat([['time']]));
        const { rootHash, signature } = certify(tree, secretKey);
        expect(hex(rootHash)).toBe(hex(rootDigest(tree)));
        expect(hex(await reconstruct(revealed))).toBe(hex(rootHash));
        const good = encodeCertificate(revealed, signature);
        await expect(Certificate.create({ certificate: good, rootKey, canisterId, blsVerify })).resolves.toBeDefined();

        const forged = Uint8Array.from(signature);
        forged[5] ^= 0x10;
        await expect(
            Certificate.create({ certificate: encodeCertificate(revealed, forged), rootKey, canisterId, blsVerify }),
        ).rejects.toThrow();
        await expect(
            Certificate.create({ certificate: encodeCertificate(revealed, forged), rootKey, canisterId }),
        ).rejects.toThrow();

        // A witness of a different state does not match the signed root.
        setRequestStatus(tree, requestId, { status: 'done' });
        const stale = encodeCertificate(witness(tree, paths.concat([['time']])), signature);
        await expect(Certificate.create({ certificate: stale, rootKey, canisterId, blsVerify })).rejects.toThrow();

        // Another key is not the root key.
        const otherRoot = blsPublicKeyToDer(generateBlsKey(new Uint8Array(32).fill(8)).publicKey);
        await expect(
            Certificate.create({ certificate: good, rootKey: otherRoot, canisterId, blsVerify }),
        ).rejects.toThrow();
    });

    test('encoding is the CBOR map {tree, signature} without delegation', () => {
        const { secretKey, tree } = setup();
        const bytes = certifyPaths(tree, secretKey, []);
        const decoded = Cbor.decode<Cert>(bytes);
        expect(Object.keys(decoded).sort()).toEqual(['signature', 'tree']);
        expect(decoded.signature).toHaveLength(48);
        expect(lookup_path(['time'], decoded.tree).status).toBe(LookupPathStatus.Found);
    });
});
