// The shard wasm an operator uploads to a directory in chunks, hashed as it comes.
import { invalid } from '../../../contract/rules';
import { concatBytes, fromBase64 } from '../../domain/bytes';
import { Sha256 } from '../../domain/certification/sha256';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import { requireDirectory } from './role';

/** The largest shard wasm an operator may upload (gzipped; today's is ~1.2 MB). */
export const SHARD_WASM_MAX_BYTES = 4 * 1024 * 1024;
/**
 * One upload chunk (decoded), inside the 2 MiB message limit as base64 in JSON. Measured on the
 * replica: a 1 MiB chunk costs ~23 B instructions (JSON, base64 and SHA-256 in interpreted
 * JavaScript), inside the 40 B of an update; the whole 1.2 MB wasm ~27 B, once per deploy.
 */
export const SHARD_WASM_CHUNK_BYTES = 1024 * 1024;

const HEX64 = /^[0-9a-f]{64}$/;
const chunkKey = (index: number): string => String(index).padStart(6, '0');

/**
 * One chunk of the gzipped shard wasm (operators). Offset 0 starts a new upload (the old one is
 * dropped); every other chunk must continue at the bytes received so far, with the same total
 * and sha256. The last chunk checks the SHA-256 of the whole: a mismatch drops the upload.
 */
export function uploadShardWasm(
    ctx: Ctx,
    req: Untrusted<{ offset: number; total: number; sha256: string; chunk: string }>,
): { received: number; total: number; complete: boolean } {
    requireDirectory(ctx);
    const { offset, total, sha256: hash, chunk } = req;
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 1 || total > SHARD_WASM_MAX_BYTES)
        throw new Fail(400, invalid('total', `must be a whole number of bytes from 1 to ${SHARD_WASM_MAX_BYTES}`));
    if (typeof hash !== 'string' || !HEX64.test(hash))
        throw new Fail(400, invalid('sha256', 'must be 64 lowercase hex digits'));
    if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)
        throw new Fail(400, invalid('offset', 'must be a non-negative whole number'));
    const bytes = typeof chunk === 'string' ? fromBase64(chunk) : undefined;
    if (bytes === undefined || bytes.length === 0 || bytes.length > SHARD_WASM_CHUNK_BYTES)
        throw new Fail(400, invalid('chunk', `must be base64 of 1 to ${SHARD_WASM_CHUNK_BYTES} bytes`));
    let upload = ctx.store.meta.get('shardWasm');
    if (offset === 0) {
        if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
            throw new Fail(400, invalid('chunk', 'the shard wasm must be gzipped (it starts with 1f 8b)'));
        dropShardWasm(ctx);
        upload = { total, sha256: hash, received: 0, complete: false };
    } else if (upload === undefined || upload.complete || upload.total !== total || upload.sha256 !== hash)
        throw new Fail(409, 'No upload of this wasm is under way: start again at offset 0');
    else if (offset !== upload.received)
        throw new Fail(409, `Invalid offset: the upload continues at ${upload.received}`);
    if (offset + bytes.length > total) throw new Fail(400, invalid('chunk', 'goes past total'));
    // Hashed as it comes (the whole at once would cost ~10 K instructions a byte in one message).
    if (offset === 0) hashing.set(ctx.store, new Sha256());
    const hasher = hashing.get(ctx.store);
    if (hasher === undefined)
        throw new Fail(409, 'The upload was interrupted (an upgrade of the directory): start again at offset 0');
    hasher.update(bytes);
    ctx.store.shardWasm.set(chunkKey(ctx.store.shardWasm.size()), bytes);
    upload = { ...upload, received: offset + bytes.length };
    if (upload.received === total) {
        const got = hexOf(hasher.digest());
        hashing.delete(ctx.store);
        if (got !== hash) {
            dropShardWasm(ctx);
            throw new Fail(400, invalid('sha256', `the uploaded bytes hash to ${got}: upload dropped, start again`));
        }
        upload.complete = true;
    }
    ctx.store.meta.set('shardWasm', upload);
    return { received: upload.received, total, complete: upload.complete };
}

/** The SHA-256 of the upload under way, by store (heap only: an upgrade mid-upload restarts it). */
const hashing = new WeakMap<object, Sha256>();

function storedChunks(ctx: Ctx): Uint8Array[] {
    return ctx.store.shardWasm.first(ctx.store.shardWasm.size()).map(([, b]) => b);
}

function dropShardWasm(ctx: Ctx): void {
    for (const [key] of ctx.store.shardWasm.first(ctx.store.shardWasm.size())) ctx.store.shardWasm.delete(key);
    ctx.store.meta.delete('shardWasm');
}

function hexOf(bytes: Uint8Array): string {
    let hex = '';
    for (const b of bytes) hex += b.toString(16).padStart(2, '0');
    return hex;
}

/** The uploaded shard wasm (gzipped); 409 when none is complete. */
export function shardWasm(ctx: Ctx): Uint8Array {
    if (ctx.store.meta.get('shardWasm')?.complete !== true)
        throw new Fail(409, 'No shard wasm: upload it first (admin_upload_shard_wasm)');
    return concatBytes(storedChunks(ctx));
}
