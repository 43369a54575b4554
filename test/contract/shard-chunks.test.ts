// A shard wasm chunk sent as bytes (admin_upload_shard_wasm_bytes) reads back, on the canister's
// side, as the request sent as base64: the same fields and the same bytes, and a chunk the
// canister would refuse as base64 goes as no bytes, which it refuses alike.
import { randomBytes } from 'node:crypto';

import { fromBase64 } from '../../canister/domain/bytes';
import { readShardChunk, shardChunkArg } from '../../contract/shard-chunks';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const sha256 = 'ab'.repeat(32);

test('the bytes of any chunk, and its header fields, read back exactly', () => {
    for (const size of [1, 2, 3, 4, 5, 1000, 1024 * 1024]) {
        const bytes = new Uint8Array(randomBytes(size));
        // A newline inside the chunk is only data: the header ends at the first.
        bytes[0] = 0x0a;
        const req = { offset: 4096, total: 8192, sha256, chunk: Buffer.from(bytes).toString('base64') };
        const { chunk, ...head } = readShardChunk(shardChunkArg(req), latin1)!;
        expect(head).toEqual({ offset: 4096, total: 8192, sha256 });
        expect(Buffer.compare(chunk, bytes)).toBe(0);
    }
});

test('fields the canister checks go as they are; a chunk it reads as no base64 goes as no bytes', () => {
    const odd = { offset: '0', total: null, sha256: 7, chunk: 'AAAA' } as never;
    expect(readShardChunk(shardChunkArg(odd), latin1)).toMatchObject({ offset: '0', total: null, sha256: 7 });
    for (const chunk of [
        '',
        'A',
        'AB',
        'AB=',
        'AB==',
        'ABC',
        'ABC=',
        'ABCD',
        'AB=C',
        'AB CD',
        'AB\nC',
        '----',
        'ABCDE===',
    ]) {
        const sent = readShardChunk(shardChunkArg({ offset: 0, total: 1, sha256, chunk }), latin1)!.chunk;
        expect({ chunk, sent: [...sent] }).toEqual({ chunk, sent: [...(fromBase64(chunk) ?? [])] });
    }
    for (const chunk of [undefined, 42, ['AAAA']])
        expect(readShardChunk(shardChunkArg({ offset: 0, total: 1, sha256, chunk } as never), latin1)!.chunk).toEqual(
            new Uint8Array(),
        );
});

test('a blob without a header line holding a JSON object is no chunk', () => {
    const text = (s: string): Uint8Array => new TextEncoder().encode(s);
    for (const blob of ['', 'no header', '[0,1]\nAB', 'null\n', '"x"\n', '{"offset":\n{}'])
        expect(readShardChunk(text(blob), latin1)).toBeUndefined();
    expect(readShardChunk(text('{}\n'), latin1)).toEqual({ chunk: new Uint8Array() });
});
