// admin_upload_shard_wasm_bytes' request: a chunk of the shard wasm as its own bytes behind a
// one-line JSON header, in one Candid blob. Read as base64 in JSON text (admin_upload_shard_wasm),
// a 1 MiB chunk costs the canister ~6.6 B instructions (the text, JSON, base64); as bytes, what
// its header costs.

/** admin_upload_shard_wasm's request: the chunk in base64. */
export interface ShardChunkRequest {
    offset: number;
    total: number;
    sha256: string;
    chunk: string;
}

/** What the directory holds of the upload after a chunk. */
export interface ShardChunkReply {
    received: number;
    total: number;
    complete: boolean;
}

const NEWLINE = 0x0a;
/** Base64 as the canister reads it (canister/domain/bytes.ts fromBase64): padding optional, whole if any. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/**
 * The blob for `req`: `{"offset":…,"total":…,"sha256":…}\n` then the chunk's bytes. A chunk
 * that is no base64 (or no string) goes as no bytes, which the canister refuses as it refuses
 * bad base64 (400 "Invalid chunk: must be base64 of 1 to … bytes"): the same answer either way.
 */
export function shardChunkArg(req: ShardChunkRequest): Uint8Array {
    const { chunk, ...head } = req;
    const header = new TextEncoder().encode(`${JSON.stringify(head)}\n`);
    const binary = typeof chunk === 'string' && BASE64.test(chunk) ? atob(chunk) : '';
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const arg = new Uint8Array(header.length + bytes.length);
    arg.set(header);
    arg.set(bytes, header.length);
    return arg;
}

/**
 * The request a blob stands for, its chunk the blob's own bytes (no copy); undefined for a blob
 * without a header line holding a JSON object. The fields are checked by the use case, as for
 * admin_upload_shard_wasm. `text` turns the header's bytes into a string.
 */
export function readShardChunk(
    blob: Uint8Array,
    text: (bytes: Uint8Array) => string,
): { offset: unknown; total: unknown; sha256: unknown; chunk: Uint8Array } | undefined {
    const line = blob.indexOf(NEWLINE);
    if (line < 0) return undefined;
    let head: unknown;
    try {
        head = JSON.parse(text(blob.subarray(0, line)));
    } catch {
        return undefined;
    }
    if (head === null || typeof head !== 'object' || Array.isArray(head)) return undefined;
    const { offset, total, sha256 } = head as Record<string, unknown>;
    return { offset, total, sha256, chunk: blob.subarray(line + 1) };
}
