// Places replica facts at the IC state-tree paths (time, request_status, canister, subnet) using
// the IC's value encodings (LEB128 naturals, UTF-8 text, raw blobs, self-described CBOR lists).
import { Cbor } from '@dfinity/agent';
import { lebEncode } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';
import {
    createTree,
    deletePath,
    ensureSubtree,
    newLeaf,
    setLeaf,
    setNode,
    subtreeOf,
    type LabeledTree,
    type TreeNode,
} from './hash-tree';

export type RequestStatus =
    | { status: 'received' }
    | { status: 'processing' }
    | { status: 'replied'; reply: Uint8Array }
    | { status: 'rejected'; reject_code: number; reject_message: string; error_code?: string }
    | { status: 'done' };

export interface SubnetInfo {
    subnetId: Principal;
    /** DER-encoded BLS public key of the subnet (for the root subnet: the root key). */
    publicKeyDer: Uint8Array;
    /** Closed intervals of canister ids hosted by the subnet. */
    canisterRanges: ReadonlyArray<readonly [Principal, Principal]>;
    nodes: ReadonlyArray<{ nodeId: Principal; publicKeyDer: Uint8Array }>;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Shared label and value bytes: there is one request subtree per update call, keep them small. */
const LABEL = {
    status: utf8('status'),
    reply: utf8('reply'),
    reject_code: utf8('reject_code'),
    reject_message: utf8('reject_message'),
    error_code: utf8('error_code'),
};
const STATUS_VALUE: Record<RequestStatus['status'], Uint8Array> = {
    received: utf8('received'),
    processing: utf8('processing'),
    replied: utf8('replied'),
    rejected: utf8('rejected'),
    done: utf8('done'),
};

export function encodeNat(value: bigint | number): Uint8Array {
    return new Uint8Array(lebEncode(value));
}

/** A state tree holding the empty top-level subtrees the replica fills in. */
export function createStateTree(timeNs: bigint): LabeledTree {
    const tree = createTree();
    ensureSubtree(tree, ['canister']);
    ensureSubtree(tree, ['request_status']);
    ensureSubtree(tree, ['subnet']);
    setTime(tree, timeNs);
    return tree;
}

export function setTime(tree: LabeledTree, timeNs: bigint): void {
    setLeaf(tree, ['time'], encodeNat(timeNs));
}

/** The subtree for one request; absent fields are simply not there, as the spec describes. */
function requestStatusNode(status: RequestStatus): TreeNode {
    const fields: Array<[Uint8Array, TreeNode]> = [[LABEL.status, newLeaf(STATUS_VALUE[status.status])]];
    if (status.status === 'replied') fields.push([LABEL.reply, newLeaf(status.reply)]);
    if (status.status === 'rejected') {
        fields.push([LABEL.reject_code, newLeaf(encodeNat(status.reject_code))]);
        fields.push([LABEL.reject_message, newLeaf(utf8(status.reject_message))]);
        if (status.error_code !== undefined) fields.push([LABEL.error_code, newLeaf(utf8(status.error_code))]);
    }
    return subtreeOf(fields);
}

/** Replaces the whole /request_status/<id> subtree in one step (one path re-hashed). */
export function setRequestStatus(tree: LabeledTree, requestId: Uint8Array, status: RequestStatus): void {
    setNode(tree, ['request_status', requestId], requestStatusNode(status));
}

export function removeRequestStatus(tree: LabeledTree, requestId: Uint8Array): boolean {
    return deletePath(tree, ['request_status', requestId]);
}

export function setCertifiedData(tree: LabeledTree, canisterId: Principal, data: Uint8Array): void {
    setLeaf(tree, ['canister', canisterId.toUint8Array(), 'certified_data'], data);
}

/** Sets the module hash, or removes it (an empty canister has none). */
export function setModuleHash(tree: LabeledTree, canisterId: Principal, moduleHash: Uint8Array | undefined): void {
    const path = ['canister', canisterId.toUint8Array(), 'module_hash'];
    if (moduleHash) setLeaf(tree, path, moduleHash);
    else deletePath(tree, path);
}

export function encodeControllers(controllers: readonly Principal[]): Uint8Array {
    return Cbor.encode(controllers.map((p) => p.toUint8Array()));
}

export function setControllers(tree: LabeledTree, canisterId: Principal, controllers: readonly Principal[]): void {
    setLeaf(tree, ['canister', canisterId.toUint8Array(), 'controllers'], encodeControllers(controllers));
}

export function removeCanister(tree: LabeledTree, canisterId: Principal): boolean {
    return deletePath(tree, ['canister', canisterId.toUint8Array()]);
}

export function encodeCanisterRanges(ranges: ReadonlyArray<readonly [Principal, Principal]>): Uint8Array {
    return Cbor.encode(ranges.map(([lo, hi]) => [lo.toUint8Array(), hi.toUint8Array()]));
}

/** Writes /subnet/<id>/{public_key, canister_ranges, node/<node id>/public_key}, replacing old data. */
export function setSubnet(tree: LabeledTree, subnet: SubnetInfo): void {
    const nodes = subtreeOf(
        subnet.nodes.map(
            (n) => [n.nodeId.toUint8Array(), subtreeOf([['public_key', newLeaf(n.publicKeyDer)]])] as const,
        ),
    );
    setNode(
        tree,
        ['subnet', subnet.subnetId.toUint8Array()],
        subtreeOf([
            ['canister_ranges', newLeaf(encodeCanisterRanges(subnet.canisterRanges))],
            ['node', nodes],
            ['public_key', newLeaf(subnet.publicKeyDer)],
        ]),
    );
}

/** The subnet id the agent assumes for a certificate without delegation: self-authenticating id of the root key. */
export function subnetIdFromRootKey(rootKeyDer: Uint8Array): Principal {
    return Principal.selfAuthenticating(rootKeyDer);
}
