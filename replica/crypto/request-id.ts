// The IC's representation-independent hash (request ids, delegations, query responses): the
// agent's hashOfMap with Node's native SHA-256, which every request and query reply pays for.
import { hash } from 'node:crypto';
import { lebEncode } from '@dfinity/candid';

const sha256 = (data: Uint8Array): Buffer => hash('sha256', data, 'buffer') as unknown as Buffer;

/** Hashes of map keys: a handful of field names, the same in every request. */
const keyHashes = new Map<string, Buffer>();
const encoder = new TextEncoder();

function hashString(value: string): Buffer {
    return sha256(encoder.encode(value));
}

function hashKey(key: string): Buffer {
    let hashed = keyHashes.get(key);
    if (hashed === undefined) {
        hashed = hashString(key);
        if (keyHashes.size < 256) keyHashes.set(key, hashed);
    }
    return hashed;
}

/** The hash of one value, as the agent's hashValue computes it (the same inputs throw). */
export function hashValue(value: unknown): Buffer {
    if (typeof value === 'string') return hashString(value);
    if (typeof value === 'number') return sha256(lebEncode(value));
    if (value instanceof Uint8Array) return sha256(value);
    // The agent hashes another view's whole buffer.
    if (ArrayBuffer.isView(value)) return sha256(new Uint8Array(value.buffer));
    if (Array.isArray(value)) return sha256(Buffer.concat(value.map(hashValue)));
    if (value && typeof value === 'object' && (value as { _isPrincipal?: unknown })._isPrincipal)
        return sha256((value as { toUint8Array(): Uint8Array }).toUint8Array());
    if (typeof value === 'object' && value !== null && typeof (value as { toHash?: unknown }).toHash === 'function')
        return hashValue((value as { toHash(): unknown }).toHash());
    if (typeof value === 'object') return hashOfMap(value as Record<string, unknown>);
    if (typeof value === 'bigint') return sha256(lebEncode(value));
    throw new Error(`cannot hash a value of type ${typeof value}`);
}

/** The hash of a map: its defined fields' key and value hashes, sorted by key hash, hashed. */
export function hashOfMap(map: Record<string, unknown>): Buffer {
    const fields: Array<[Buffer, Buffer]> = [];
    for (const [key, value] of Object.entries(map)) {
        if (value !== undefined) fields.push([hashKey(key), hashValue(value)]);
    }
    fields.sort(([a], [b]) => Buffer.compare(a, b));
    const out = Buffer.allocUnsafe(fields.length * 64);
    fields.forEach(([k, v], i) => {
        k.copy(out, i * 64);
        v.copy(out, i * 64 + 32);
    });
    return sha256(out);
}

/** A request's id (a plain Uint8Array, as the agent's). */
export function requestIdOf(content: Record<string, unknown>): Uint8Array {
    const id = hashOfMap(content);
    return new Uint8Array(id.buffer, id.byteOffset, id.length);
}
