// The shard wasm an operator uploads to a directory in chunks, kept in the IC's chunk store.
import { invalid } from '../../../contract/rules';
import { fromBase64 } from '../../domain/bytes';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import type { Remote } from './remote';
import { requireDirectory } from './role';

/** The largest shard wasm an operator may upload (gzipped; today's is ~1.3 MB). */
export const SHARD_WASM_MAX_BYTES = 4 * 1024 * 1024;
/**
 * One upload chunk (decoded): the IC chunk store's largest, inside the 2 MiB message limit as
 * base64 in JSON. The directory decodes it and hands it to upload_chunk; the IC hashes it.
 */
export const SHARD_WASM_CHUNK_BYTES = 1024 * 1024;

const HEX64 = /^[0-9a-f]{64}$/;

/** The uploaded wasm as install_chunked_code takes it: its chunks' hashes in order, and its own. */
export interface ChunkedWasm {
    chunks: string[];
    sha256: string;
}

/**
 * How long a chunk's upload or an install may stay unanswered before it counts as lost: a
 * callback that trapped never ran its `finally`, and would otherwise hold uploads off until
 * the next upgrade.
 */
export const LOST_AFTER_US = 10 * 60 * 1_000_000;

/** The chunk in flight to upload_chunk (its answer is awaited) since when (µs), and installs of the uploaded wasm in flight. */
let uploading: { since: number } | undefined;
const installing = new Set<{ since: number }>();
/** Counts uploads started (offset 0): a chunk answered after a newer upload began is not kept. */
let uploads = 0;

/** Whether `call` is still awaited (not lost: see LOST_AFTER_US). */
const awaited = (call: { since: number } | undefined, now: number): boolean =>
    call !== undefined && now - call.since < LOST_AFTER_US;

/**
 * One chunk of the gzipped shard wasm (operators). Offset 0 starts a new upload (the old one and
 * the chunk store are dropped); every other chunk must continue at the bytes received so far,
 * with the same total and sha256. Each chunk goes to the IC's chunk store (upload_chunk on this
 * canister) and its hash is kept in order. The sha256 is checked by the IC at the first install
 * (admin_create_shard or admin_upgrade_shards), which drops a wasm that does not match it.
 */
export async function uploadShardWasm(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<{ offset: number; total: number; sha256: string; chunk: string | Uint8Array }>,
): Promise<{ received: number; total: number; complete: boolean }> {
    requireDirectory(ctx);
    const { offset, total, sha256: hash, chunk } = req;
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 1 || total > SHARD_WASM_MAX_BYTES)
        throw new Fail(400, invalid('total', `must be a whole number of bytes from 1 to ${SHARD_WASM_MAX_BYTES}`));
    if (typeof hash !== 'string' || !HEX64.test(hash))
        throw new Fail(400, invalid('sha256', 'must be 64 lowercase hex digits'));
    if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)
        throw new Fail(400, invalid('offset', 'must be a non-negative whole number'));
    // Base64 (admin_upload_shard_wasm) or the bytes themselves (admin_upload_shard_wasm_bytes).
    const bytes = typeof chunk === 'string' ? fromBase64(chunk) : chunk instanceof Uint8Array ? chunk : undefined;
    if (bytes === undefined || bytes.length === 0 || bytes.length > SHARD_WASM_CHUNK_BYTES)
        throw new Fail(400, invalid('chunk', `must be base64 of 1 to ${SHARD_WASM_CHUNK_BYTES} bytes`));
    const upload = ctx.store.meta.get('shardWasm');
    if (offset === 0) {
        if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
            throw new Fail(400, invalid('chunk', 'the shard wasm must be gzipped (it starts with 1f 8b)'));
    } else if (upload?.chunks === undefined || upload.complete || upload.total !== total || upload.sha256 !== hash)
        throw new Fail(409, 'No upload of this wasm is under way: start again at offset 0');
    else if (offset !== upload.received)
        throw new Fail(409, `Invalid offset: the upload continues at ${upload.received}`);
    if (offset + bytes.length > total) throw new Fail(400, invalid('chunk', 'goes past total'));
    const started = ctx.env.now();
    if (awaited(uploading, started))
        throw new Fail(409, 'A chunk is being uploaded: send the next one once it is answered');
    if ([...installing].some((install) => awaited(install, started)))
        throw new Fail(409, 'The shard wasm is being installed: upload again once that is done');
    const mine = { since: started };
    uploading = mine;
    if (offset === 0) uploads++;
    const thisUpload = uploads;
    try {
        if (offset === 0) {
            dropShardWasm(ctx);
            await remote.clearChunkStore();
        }
        const chunkHash = await remote.uploadChunk(bytes);
        // Read again after the awaits (an interrupted upload, or one a newer upload replaced, starts over).
        const now =
            offset === 0
                ? { total, sha256: hash, received: 0, complete: false, chunks: [] }
                : ctx.store.meta.get('shardWasm');
        if (thisUpload !== uploads || now?.chunks === undefined || now.received !== offset)
            throw new Fail(409, 'The upload was interrupted: start again at offset 0');
        const received = offset + bytes.length;
        ctx.store.meta.set('shardWasm', {
            ...now,
            received,
            complete: received === total,
            chunks: [...now.chunks, chunkHash],
        });
        return { received, total, complete: received === total };
    } finally {
        if (uploading === mine) uploading = undefined;
    }
}

/** The upload is gone (and the chunks of a release before the chunk store, in `Store.shardWasm`). */
function dropShardWasm(ctx: Ctx): void {
    for (const [key] of ctx.store.shardWasm.first(ctx.store.shardWasm.size())) ctx.store.shardWasm.delete(key);
    ctx.store.meta.delete('shardWasm');
}

/** The uploaded shard wasm; 409 when none is complete (a record of before the chunk store is none). */
export function shardWasm(ctx: Ctx): ChunkedWasm {
    const upload = ctx.store.meta.get('shardWasm');
    if (upload?.complete !== true || upload.chunks === undefined)
        throw new Fail(409, 'No shard wasm: upload it first (admin_upload_shard_wasm)');
    return { chunks: upload.chunks, sha256: upload.sha256 };
}

/**
 * install_chunked_code of the uploaded wasm on a shard (uploads wait meanwhile). When the IC finds
 * that its chunks do not hash to the operator's sha256 nothing is installed, and the upload is
 * dropped (record and chunk store): Fail 400.
 */
export async function installShardWasm(
    ctx: Ctx,
    remote: Remote,
    canisterId: string,
    mode: 'install' | 'upgrade',
    arg: Uint8Array,
): Promise<void> {
    const wasm = shardWasm(ctx);
    const mine = { since: ctx.env.now() };
    installing.add(mine);
    try {
        if ((await remote.installChunkedCode(canisterId, mode, wasm, arg)) === 'installed') return;
        if (ctx.store.meta.get('shardWasm')?.sha256 === wasm.sha256) dropShardWasm(ctx);
        // The next upload clears the store too: a refusal here leaves nothing that matters.
        await remote.clearChunkStore().catch(() => undefined);
        throw new Fail(
            400,
            invalid(
                'sha256',
                `the uploaded wasm does not hash to ${wasm.sha256}: upload dropped, start again at offset 0`,
            ),
        );
    } finally {
        installing.delete(mine);
    }
}
