// Keeps the certified state tree in step with the subnet after every round and hands out
// certificates (read_state, v3 call replies, canister data certificates) and query signatures.
import { Principal } from '@dfinity/principal';

import { fromHex } from './bytes';
import { blsPublicKeyToDer, generateBlsKey } from './crypto/bls';
import { certify, certifyPaths } from './crypto/certificate';
import type { Path } from './crypto/hash-tree';
import {
    generateNodeKey,
    signQueryResponse,
    type NodeSignature,
    type QueryResponseBody,
} from './crypto/query-signature';
import {
    createStateTree,
    removeCanister,
    removeRequestStatus,
    setCertifiedData,
    setControllers,
    setModuleHash,
    setRequestStatus,
    setSubnet,
    setTime,
    subnetIdFromRootKey,
    type RequestStatus,
} from './crypto/state-tree';
import type { Canister } from './canister-state';
import { canisterIdFromIndex, type IngressStatus, type RoundChanges, type Subnet } from './subnet';

export interface Certifier {
    readonly rootKeyDer: Uint8Array;
    readonly subnetId: Principal;
    /**
     * Builds the whole tree from the subnet (startup). `timeNs` is the certified `time`: the
     * round's time, or in test mode the replica's protocol time, which may be ahead of
     * `subnet.time` (clock.ts).
     */
    rebuild(subnet: Subnet, timeNs: bigint): void;
    /** Applies what a round changed and signs the new root, certifying `timeNs` as its time. */
    update(subnet: Subnet, changes: RoundChanges, prunedStatuses: readonly string[], timeNs: bigint): void;
    /** A certificate revealing `paths` (and `time`) of the last certified state. */
    certificate(paths: readonly Path[]): Uint8Array;
    signQuery(response: QueryResponseBody, requestId: Uint8Array, timestampNs: bigint): NodeSignature;
}

export function createCertifier(o: {
    blsSeed: Uint8Array;
    nodeSeed: Uint8Array;
    canisterRange: [bigint, bigint];
}): Certifier {
    const root = generateBlsKey(o.blsSeed);
    const rootKeyDer = blsPublicKeyToDer(root.publicKey);
    const node = generateNodeKey(o.nodeSeed);
    const subnetId = subnetIdFromRootKey(rootKeyDer);
    let tree = createStateTree(0n);

    function putCanister(canister: Canister): void {
        setCertifiedData(tree, canister.id, canister.system.certifiedData);
        setModuleHash(tree, canister.id, canister.system.moduleHash);
        setControllers(
            tree,
            canister.id,
            canister.system.controllers.map((c) => Principal.fromUint8Array(c)),
        );
    }

    function putStatus(id: string, status: IngressStatus | undefined): void {
        if (!/^[0-9a-f]{64}$/.test(id)) return;
        if (status === undefined) removeRequestStatus(tree, fromHex(id));
        else setRequestStatus(tree, fromHex(id), certifiedStatus(status));
    }

    return {
        rootKeyDer,
        subnetId,
        rebuild(subnet, timeNs) {
            tree = createStateTree(timeNs);
            setSubnet(tree, {
                subnetId,
                publicKeyDer: rootKeyDer,
                canisterRanges: [[canisterIdFromIndex(o.canisterRange[0]), canisterIdFromIndex(o.canisterRange[1])]],
                nodes: [{ nodeId: node.nodeId, publicKeyDer: node.publicKeyDer }],
            });
            for (const canister of subnet.canisters.values()) putCanister(canister);
            for (const [id, status] of subnet.ingress) putStatus(id, status);
            certify(tree, root.secretKey);
        },
        update(subnet, changes, pruned, timeNs) {
            setTime(tree, timeNs);
            for (const id of changes.deleted) removeCanister(tree, Principal.fromText(id));
            for (const id of new Set([...changes.system, ...changes.created, ...changes.freshHeap])) {
                const canister = subnet.canisters.get(id);
                if (canister !== undefined) putCanister(canister);
            }
            for (const id of changes.statuses) putStatus(id, subnet.ingress.get(id));
            for (const id of pruned) putStatus(id, undefined);
            // Signing (~2 ms) waits until someone asks for a certificate.
        },
        certificate: (paths) => certifyPaths(tree, root.secretKey, paths),
        signQuery: (response, requestId, timestampNs) =>
            signQueryResponse(node.secretKey, response, requestId, timestampNs),
    };
}

function certifiedStatus(status: IngressStatus): RequestStatus {
    switch (status.status) {
        case 'replied':
            return { status: 'replied', reply: status.reply ?? new Uint8Array() };
        case 'rejected':
            return {
                status: 'rejected',
                reject_code: status.reject?.code ?? 5,
                reject_message: status.reject?.message ?? '',
                error_code: status.reject?.errorCode,
            };
        default:
            return { status: status.status };
    }
}
