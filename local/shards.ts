// Shards for the local stack and the test stack, made by the directory itself: the shard wasm
// gzipped and uploaded to the directory in chunks (admin_upload_shard_wasm, sent as bytes), then
// admin_create_shard until there are as many shards as asked; a changed wasm is uploaded again
// and every shard upgraded to it (admin_upgrade_shards). Shards are never removed here.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import type { CanisterClient } from '../gateway/ic/canister';
import type { ShardEntry } from '../contract/shards';

/** Bytes of gzipped wasm per upload call (the directory takes at most 1 MiB a chunk). */
export const SHARD_WASM_CHUNK = 1024 * 1024;

/** The wasm as the directory stores it (gzipped: the IC takes a gzip-compressed module) and its SHA-256 (hex). */
export function shardWasm(wasm: Uint8Array): { gz: Uint8Array; sha256: string } {
    const gz = new Uint8Array(gzipSync(wasm));
    return { gz, sha256: createHash('sha256').update(gz).digest('hex') };
}

const okOf = async <T>(reply: Promise<{ ok: T } | { err: { status: number; message: string } }>, what: string) => {
    const r = await reply;
    if ('err' in r) throw new Error(`${what}: ${r.err.status} ${r.err.message}`);
    return r.ok;
};

/** Uploads the gzipped shard wasm to the directory, chunk by chunk (the IC checks the SHA-256 at the first install). */
export async function uploadShardWasm(admin: CanisterClient, wasm: { gz: Uint8Array; sha256: string }): Promise<void> {
    const total = wasm.gz.length;
    for (let offset = 0; offset < total; offset += SHARD_WASM_CHUNK) {
        const chunk = Buffer.from(wasm.gz.subarray(offset, offset + SHARD_WASM_CHUNK)).toString('base64');
        await okOf(
            admin.call('admin_upload_shard_wasm', { offset, total, sha256: wasm.sha256, chunk }),
            'uploading the shard wasm',
        );
    }
}

/** The directory's shards (without the directory itself). */
export async function listShards(client: CanisterClient): Promise<ShardEntry[]> {
    const { shards } = await okOf(client.call('list_shards', {}), 'listing shards');
    return shards.filter((s) => s.role === 'shard');
}

/**
 * Makes the directory have `count` shards at least: uploads `wasm` unless the directory holds
 * it already (`uploaded`: the SHA-256 it was last given), upgrades the shards there are when
 * it changed, creates the missing ones. Returns the shards and the SHA-256 now uploaded.
 */
export async function ensureShards(
    admin: CanisterClient,
    wasm: Uint8Array,
    count: number,
    uploaded?: string,
    log: (line: string) => void = () => undefined,
): Promise<{ shards: ShardEntry[]; sha256: string }> {
    let shards = await listShards(admin);
    if (count === 0 && shards.length === 0) return { shards, sha256: uploaded ?? '' };
    const image = shardWasm(wasm);
    if (image.sha256 !== uploaded) {
        log(`uploading the shard wasm (${image.gz.length} bytes gzipped)`);
        await uploadShardWasm(admin, image);
        if (shards.length > 0) {
            const { upgraded } = await okOf(admin.call('admin_upgrade_shards', {}), 'upgrading the shards');
            log(`upgraded ${upgraded.length} shard(s)`);
        }
    }
    while (shards.length < count) {
        const shard = await okOf(admin.call('admin_create_shard', {}), 'creating a shard');
        log(`created shard ${shard.canisterId}`);
        shards = await listShards(admin);
    }
    return { shards, sha256: image.sha256 };
}
