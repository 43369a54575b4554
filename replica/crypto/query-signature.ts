// Ed25519 node keys and the node signatures on query responses that agents verify against the
// node keys published under /subnet/<subnet id>/node.
import { IC_RESPONSE_DOMAIN_SEPARATOR } from '@dfinity/agent';
import { Principal } from '@dfinity/principal';
import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { concatBytes, toHex } from '../bytes';
import { hashOfMap } from './request-id';

export interface NodeKeyPair {
    /** 32-byte Ed25519 seed. */
    secretKey: Uint8Array;
    /** 44-byte DER (RFC 8410) public key, as published in the state tree. */
    publicKeyDer: Uint8Array;
    /** Self-authenticating principal of publicKeyDer. */
    nodeId: Principal;
}

export type QueryResponseBody =
    | { status: 'replied'; reply: { arg: Uint8Array } }
    | { status: 'rejected'; reject_code: number; reject_message: string; error_code?: string };

/** One entry of the response's `signatures` list; `identity` is the node id's bytes. */
export interface NodeSignature {
    timestamp: bigint;
    signature: Uint8Array;
    identity: Uint8Array;
}

/** Derives a node key from a 32-byte seed (random when omitted); persist the seed to keep it. */
export function generateNodeKey(seed?: Uint8Array): NodeKeyPair {
    const secretKey = seed ?? new Uint8Array(randomBytes(32));
    if (secretKey.length !== 32) throw new Error('Ed25519 node key seed must be 32 bytes');
    // Node's SPKI export of an Ed25519 key is the RFC 8410 DER the state tree publishes.
    const publicKeyDer = new Uint8Array(
        createPublicKey(nativeKey(secretKey)).export({ format: 'der', type: 'spki' }) as Buffer,
    );
    return { secretKey, publicKeyDer, nodeId: Principal.selfAuthenticating(publicKeyDer) };
}

// PKCS#8 wrapping of a raw Ed25519 seed, so Node's native code (~20x faster than JS) can use it.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function nativeKey(seed: Uint8Array): KeyObject {
    return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The representation-independent hash the node signs: the response's fields plus timestamp and request id. */
function responseHash(response: QueryResponseBody, requestId: Uint8Array, timestamp: bigint): Uint8Array {
    if (response.status === 'replied') {
        return hashOfMap({ status: response.status, reply: response.reply, timestamp, request_id: requestId });
    }
    return hashOfMap({
        status: response.status,
        reject_code: response.reject_code,
        reject_message: response.reject_message,
        // hashOfMap skips undefined fields, matching a response that omits error_code.
        error_code: response.error_code,
        timestamp,
        request_id: requestId,
    });
}

/** Signs a query response for request `requestId` at replica time `timestampNs`. */
export function signQueryResponse(
    nodeSecretKey: Uint8Array,
    response: QueryResponseBody,
    requestId: Uint8Array,
    timestampNs: bigint,
): NodeSignature {
    const hash = responseHash(response, requestId, timestampNs);
    const message = concatBytes([IC_RESPONSE_DOMAIN_SEPARATOR, hash]);
    const node = nodeOf(nodeSecretKey);
    return { timestamp: timestampNs, signature: new Uint8Array(sign(null, message, node.key)), identity: node.id };
}

/** A replica has one node key; remembering its id and native key saves work on every query. */
const nodes = new Map<string, { id: Uint8Array; key: KeyObject }>();

function nodeOf(nodeSecretKey: Uint8Array): { id: Uint8Array; key: KeyObject } {
    const cacheKey = toHex(nodeSecretKey);
    let node = nodes.get(cacheKey);
    if (!node) {
        node = {
            id: generateNodeKey(nodeSecretKey).nodeId.toUint8Array(),
            key: nativeKey(nodeSecretKey),
        };
        if (nodes.size >= 4) nodes.clear();
        nodes.set(cacheKey, node);
    }
    return node;
}
