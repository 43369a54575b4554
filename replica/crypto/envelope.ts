// Authenticates a decoded request envelope as the IC's HTTPS interface does: parses the content,
// derives the request id, and checks canister id, ingress expiry, sender, signature and delegations.
import { IC_REQUEST_AUTH_DELEGATION_DOMAIN_SEPARATOR, IC_REQUEST_DOMAIN_SEPARATOR } from '@dfinity/agent';
import { Principal } from '@dfinity/principal';
import { hashOfMap, requestIdOf } from './request-id';
import { parseUserPublicKey, verifyUserSignature } from './user-keys';
import { concatBytes, toHex } from '../bytes';

/** How long a request may be valid: the IC's MAX_INGRESS_TTL (5 minutes)... */
export const MAX_INGRESS_TTL_NS = 5n * 60n * 1_000_000_000n;
/** ...plus the clock drift it tolerates between client and replica (1 minute). */
export const PERMITTED_DRIFT_NS = 60n * 1_000_000_000n;
export const MAX_DELEGATIONS = 20;
export const MAX_DELEGATION_TARGETS = 1000;
export const MAX_NONCE_LENGTH = 32;
export const MAX_READ_STATE_PATHS = 1000;
export const MAX_PATH_LENGTH = 127;

export type RequestType = 'call' | 'query' | 'read_state';

interface CommonContent {
    sender: Principal;
    ingress_expiry: bigint;
    nonce?: Uint8Array;
}

export interface CanisterCallContent extends CommonContent {
    request_type: 'call' | 'query';
    canister_id: Principal;
    method_name: string;
    arg: Uint8Array;
}

export interface ReadStateContent extends CommonContent {
    request_type: 'read_state';
    paths: Uint8Array[][];
}

export type RequestContent = CanisterCallContent | ReadStateContent;

export interface AuthenticatedRequest {
    ok: true;
    requestId: Uint8Array;
    sender: Principal;
    content: RequestContent;
}

export interface RejectedRequest {
    ok: false;
    httpStatus: number;
    message: string;
}

export type EnvelopeCheck = AuthenticatedRequest | RejectedRequest;

export interface EnvelopeContext {
    /** Replica time, nanoseconds since the epoch. */
    nowNs: bigint;
    /** The effective canister id from the URL (absent for /api/v2/subnet/<id>/read_state). */
    effectiveCanisterId?: Principal;
    /** The endpoint's request type; a different `request_type` in the content is rejected. */
    expectedRequestType?: RequestType;
}

class Rejection extends Error {
    constructor(
        readonly httpStatus: number,
        message: string,
    ) {
        super(message);
    }
}

const badRequest = (message: string): Rejection => new Rejection(400, message);

type CborMap = Record<string, unknown>;

function isMap(value: unknown): value is CborMap {
    return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function blobField(map: CborMap, field: string, where: string): Uint8Array {
    const value = map[field];
    if (!(value instanceof Uint8Array)) throw badRequest(`Invalid ${where}: field ${field} must be a byte string`);
    return value;
}

function textField(map: CborMap, field: string, where: string): string {
    const value = map[field];
    if (typeof value !== 'string') throw badRequest(`Invalid ${where}: field ${field} must be a text string`);
    return value;
}

function natField(map: CborMap, field: string, where: string): bigint {
    const value = map[field];
    if (typeof value === 'bigint' && value >= 0n) return value;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    throw badRequest(`Invalid ${where}: field ${field} must be a natural number`);
}

function principalField(map: CborMap, field: string, where: string): Principal {
    const bytes = blobField(map, field, where);
    if (bytes.length > 29) throw badRequest(`Invalid ${where}: field ${field} is not a principal (more than 29 bytes)`);
    return Principal.fromUint8Array(new Uint8Array(bytes));
}

function parseContent(raw: unknown): RequestContent {
    if (!isMap(raw)) throw badRequest('Invalid envelope: content must be a map');
    const requestType = textField(raw, 'request_type', 'content');
    const sender = principalField(raw, 'sender', 'content');
    const ingress_expiry = natField(raw, 'ingress_expiry', 'content');
    let nonce: Uint8Array | undefined;
    if (raw.nonce !== undefined) {
        nonce = blobField(raw, 'nonce', 'content');
        if (nonce.length > MAX_NONCE_LENGTH)
            throw badRequest(`Invalid content: nonce is longer than ${MAX_NONCE_LENGTH} bytes`);
    }
    const common: CommonContent = nonce ? { sender, ingress_expiry, nonce } : { sender, ingress_expiry };
    if (requestType === 'call' || requestType === 'query') {
        return {
            ...common,
            request_type: requestType,
            canister_id: principalField(raw, 'canister_id', 'content'),
            method_name: textField(raw, 'method_name', 'content'),
            arg: blobField(raw, 'arg', 'content'),
        };
    }
    if (requestType === 'read_state') {
        const paths = raw.paths;
        if (!Array.isArray(paths)) throw badRequest('Invalid content: field paths must be an array');
        if (paths.length > MAX_READ_STATE_PATHS)
            throw badRequest(`Invalid content: more than ${MAX_READ_STATE_PATHS} paths`);
        const parsed = paths.map((path) => {
            if (!Array.isArray(path) || !path.every((label): label is Uint8Array => label instanceof Uint8Array)) {
                throw badRequest('Invalid content: every path must be an array of byte strings');
            }
            if (path.length > MAX_PATH_LENGTH)
                throw badRequest(`Invalid content: a path has more than ${MAX_PATH_LENGTH} labels`);
            return path;
        });
        return { ...common, request_type: 'read_state', paths: parsed };
    }
    throw badRequest(`Invalid content: unknown request_type ${JSON.stringify(requestType)}`);
}

function nsToIso(ns: bigint): string {
    const ms = ns / 1_000_000n;
    return ms > 8_640_000_000_000_000n ? `${ns} ns` : new Date(Number(ms)).toISOString();
}

/** The spec requires expiry ≥ now; like the IC we also refuse expiries beyond the longest TTL. */
function checkExpiry(expiry: bigint, nowNs: bigint): void {
    const max = nowNs + MAX_INGRESS_TTL_NS + PERMITTED_DRIFT_NS;
    if (expiry < nowNs || expiry > max) {
        throw badRequest(
            `Invalid request expiry: Specified ingress_expiry not within expected range: ` +
                `Minimum allowed expiry: ${nsToIso(nowNs)}, Maximum allowed expiry: ${nsToIso(max)}, ` +
                `Provided expiry: ${nsToIso(expiry)}`,
        );
    }
}

/** The management canister's id (made once: `managementCanister()` parses its text each time). */
const MANAGEMENT = Principal.managementCanister();

function checkCanisterId(content: RequestContent, effectiveCanisterId: Principal | undefined): void {
    if (content.request_type === 'read_state' || !effectiveCanisterId) return;
    // Calls to the management canister are routed by the canister named in their argument, which
    // the execution layer checks; any effective canister id is let through here.
    if (content.canister_id.compareTo(MANAGEMENT) === 'eq') return;
    if (content.canister_id.compareTo(effectiveCanisterId) !== 'eq') {
        throw badRequest(
            `Specified CanisterId ${content.canister_id.toText()} does not match effective canister id in URL ${effectiveCanisterId.toText()}`,
        );
    }
}

function verifyWith(publicKeyDer: Uint8Array, signature: Uint8Array, message: Uint8Array, what: string): void {
    const key = parseUserPublicKey(publicKeyDer);
    if (!key.ok) throw badRequest(`Invalid signature: ${what}: ${key.message}`);
    if (!verifyUserSignature(key, signature, message)) {
        throw badRequest(`Invalid signature: ${what}: the ${key.scheme} signature does not verify`);
    }
}

/**
 * Walks the delegation chain from `senderPubkey`; returns the key that must sign the request and
 * the canister ids the chain is restricted to (undefined: unrestricted).
 */
function verifyDelegations(
    senderPubkey: Uint8Array,
    raw: unknown,
    nowNs: bigint,
): { signingKey: Uint8Array; targets: Principal[] | undefined } {
    if (!Array.isArray(raw)) throw badRequest('Invalid delegation: sender_delegation must be an array');
    if (raw.length > MAX_DELEGATIONS) {
        throw badRequest(
            `Invalid delegation: chain has ${raw.length} delegations, at most ${MAX_DELEGATIONS} are allowed`,
        );
    }
    let signingKey = senderPubkey;
    let targets: Principal[] | undefined;
    const seen = new Set([toHex(senderPubkey)]);
    raw.forEach((signed: unknown, index) => {
        const where = `delegation ${index}`;
        if (!isMap(signed) || !isMap(signed.delegation)) throw badRequest(`Invalid delegation: ${where} is malformed`);
        const delegation = signed.delegation;
        const pubkey = blobField(delegation, 'pubkey', where);
        const expiration = natField(delegation, 'expiration', where);
        const signature = blobField(signed, 'signature', where);
        let delegationHash: Uint8Array;
        try {
            delegationHash = hashOfMap(delegation);
        } catch {
            throw badRequest(`Invalid delegation: ${where} cannot be hashed`);
        }
        const message = concatBytes([IC_REQUEST_AUTH_DELEGATION_DOMAIN_SEPARATOR, delegationHash]);
        const key = parseUserPublicKey(signingKey);
        if (!key.ok) throw badRequest(`Invalid delegation: ${where} is signed by an unsupported key: ${key.message}`);
        if (!verifyUserSignature(key, signature, message)) {
            throw badRequest(`Invalid delegation: ${where}: the ${key.scheme} signature does not verify`);
        }
        if (expiration < nowNs) {
            throw badRequest(
                `Invalid delegation expiry: ${where} expired at ${nsToIso(expiration)}, replica time is ${nsToIso(nowNs)}`,
            );
        }
        if (delegation.targets !== undefined) {
            const list = delegation.targets;
            if (
                !Array.isArray(list) ||
                !list.every((t): t is Uint8Array => t instanceof Uint8Array && t.length <= 29)
            ) {
                throw badRequest(`Invalid delegation: ${where} has malformed targets`);
            }
            if (list.length > MAX_DELEGATION_TARGETS) {
                throw badRequest(`Invalid delegation: ${where} has more than ${MAX_DELEGATION_TARGETS} targets`);
            }
            const mine = list.map((t) => Principal.fromUint8Array(new Uint8Array(t)));
            targets = targets === undefined ? mine : targets.filter((t) => mine.some((m) => m.compareTo(t) === 'eq'));
        }
        const keyHex = toHex(pubkey);
        if (seen.has(keyHex)) {
            throw badRequest(
                `Invalid delegation: ${where} delegates to a public key that already appears in the chain`,
            );
        }
        seen.add(keyHex);
        signingKey = pubkey;
    });
    return { signingKey, targets };
}

function checkTargets(
    targets: Principal[] | undefined,
    content: RequestContent,
    effectiveCanisterId: Principal | undefined,
): void {
    if (!targets) return;
    const target = content.request_type === 'read_state' ? effectiveCanisterId : content.canister_id;
    if (!target) return;
    if (!targets.some((t) => t.compareTo(target) === 'eq')) {
        throw new Rejection(
            403,
            `Invalid delegation: canister ${target.toText()} is not one of the delegation targets`,
        );
    }
}

function authenticate(envelope: unknown, context: EnvelopeContext): AuthenticatedRequest {
    if (!isMap(envelope)) throw badRequest('Invalid envelope: expected a CBOR map');
    const rawContent = envelope.content;
    const content = parseContent(rawContent);
    if (context.expectedRequestType && content.request_type !== context.expectedRequestType) {
        throw badRequest(
            `Invalid content: request_type ${content.request_type} sent to the ${context.expectedRequestType} endpoint`,
        );
    }
    let requestId: Uint8Array;
    try {
        requestId = requestIdOf(rawContent as CborMap);
    } catch {
        throw badRequest('Invalid content: cannot compute the request id of the content');
    }
    checkCanisterId(content, context.effectiveCanisterId);
    // The spec lets anonymous reads (query, read_state) through with any expiry: that is how an
    // agent whose clock differs from the replica's learns the replica's time (syncTime).
    const anonymousRead = content.sender.isAnonymous() && content.request_type !== 'call';
    if (!anonymousRead) checkExpiry(content.ingress_expiry, context.nowNs);

    const { sender_pubkey: pubkey, sender_sig: sig, sender_delegation: delegations } = envelope;
    if (content.sender.isAnonymous()) {
        if (pubkey !== undefined || sig !== undefined || delegations !== undefined) {
            throw badRequest(
                'Invalid signature: anonymous requests must not carry sender_pubkey, sender_sig or sender_delegation',
            );
        }
        return { ok: true, requestId, sender: content.sender, content };
    }
    if (!(pubkey instanceof Uint8Array))
        throw badRequest('Invalid signature: missing sender_pubkey for a non-anonymous sender');
    if (!(sig instanceof Uint8Array))
        throw badRequest('Invalid signature: missing sender_sig for a non-anonymous sender');
    const expectedSender = Principal.selfAuthenticating(pubkey);
    if (expectedSender.compareTo(content.sender) !== 'eq') {
        throw badRequest(
            `Invalid signature: sender ${content.sender.toText()} is not the self-authenticating id ${expectedSender.toText()} of sender_pubkey`,
        );
    }
    const { signingKey, targets } =
        delegations === undefined
            ? { signingKey: pubkey, targets: undefined }
            : verifyDelegations(pubkey, delegations, context.nowNs);
    verifyWith(signingKey, sig, concatBytes([IC_REQUEST_DOMAIN_SEPARATOR, requestId]), 'sender_sig');
    checkTargets(targets, content, context.effectiveCanisterId);
    return { ok: true, requestId, sender: content.sender, content };
}

/** Checks a decoded envelope `{content, sender_pubkey?, sender_sig?, sender_delegation?}`. */
export function authenticateEnvelope(envelope: unknown, context: EnvelopeContext): EnvelopeCheck {
    try {
        return authenticate(envelope, context);
    } catch (error) {
        if (error instanceof Rejection) return { ok: false, httpStatus: error.httpStatus, message: error.message };
        throw error;
    }
}
