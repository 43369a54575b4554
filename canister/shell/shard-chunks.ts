// admin_upload_shard_wasm_bytes' request read (contract/shard-chunks.ts): the blob found in the
// argument without a copy, its header line parsed, the chunk the bytes after it.
import { readShardChunk } from '../../contract/shard-chunks';
import { latin1, valueStart } from '../candid-text';
import { Fail } from '../domain/fail';
import { BLOB_HEADER } from './packed-ranks';

const NOT_A_CHUNK = 'The argument must be one Candid blob: a JSON line of offset, total and sha256, then the chunk';

/** The request the argument stands for (its fields checked by the use case), or a 400. */
export function shardChunkRequest(arg: Uint8Array): object {
    const blob = blobOf(arg);
    const req = blob === undefined ? undefined : readShardChunk(blob, latin1);
    if (req === undefined) throw new Fail(400, NOT_A_CHUNK);
    return req;
}

/** The bytes of a one-blob Candid message (header, LEB128 length, bytes), if it is one. */
function blobOf(arg: Uint8Array): Uint8Array | undefined {
    if (arg.length <= BLOB_HEADER.length) return undefined;
    for (let i = 0; i < BLOB_HEADER.length; i++) if (arg[i] !== BLOB_HEADER[i]) return undefined;
    const at = valueStart(arg, BLOB_HEADER.length);
    return at < 0 ? undefined : arg.subarray(at);
}
