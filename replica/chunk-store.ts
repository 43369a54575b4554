// A canister's wasm chunk store with the IC's rules (replica/README.md, "Wasm chunk store"):
// chunks of up to 1 MiB kept by their SHA-256, listed, cleared, and put together in a given order
// for install_chunked_code, checked against the module hash the caller names.
import { createHash } from 'node:crypto';

import { concatBytes, toHex } from './bytes';
import { RejectCode, SubnetError, type Canister, type ChunkEntry } from './canister-state';

/** The IC's largest chunk. */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** The IC's cap on a canister's chunk store (wasm_chunk_store_limit: 100 MiB of 1 MiB chunks). */
export const MAX_STORED_CHUNKS = 100;

/** Where chunks' bytes are kept, by their hash in hex (subnet.ts's Subnet is one). */
export interface ChunkBytes {
    putChunk(hash: string, bytes: Uint8Array): void;
    chunk(hash: string): Uint8Array;
}

const storeError = (message: string): SubnetError =>
    new SubnetError(RejectCode.CanisterError, `Error from Wasm chunk store: ${message}`, 'IC0504');

export const storedChunks = (canister: Canister): ChunkEntry[] => canister.system.chunkStore ?? [];

/**
 * upload_chunk: the chunk joins the store (once: a chunk already there is not stored again);
 * its SHA-256. `pay` charges the canister for the store it would then hold, or refuses.
 */
export function uploadChunk(
    bytes: ChunkBytes,
    canister: Canister,
    chunk: Uint8Array,
    pay: (memoryAfter: bigint) => void,
): Uint8Array {
    if (chunk.length > MAX_CHUNK_BYTES)
        throw storeError(`Wasm chunk size ${chunk.length} exceeds the maximum chunk size of ${MAX_CHUNK_BYTES}.`);
    const hash = new Uint8Array(createHash('sha256').update(chunk).digest());
    const hex = toHex(hash);
    const stored = storedChunks(canister);
    if (stored.some((c) => c.hash === hex)) return hash;
    if (stored.length >= MAX_STORED_CHUNKS)
        throw storeError(`Wasm chunk store of canister ${canister.text} already holds ${MAX_STORED_CHUNKS} chunks.`);
    pay(BigInt(chunk.length));
    bytes.putChunk(hex, chunk);
    canister.system.chunkStore = [...stored, { hash: hex, size: chunk.length }];
    return hash;
}

/** The chunks some store or snapshot still names (their files are kept; the others' are pruned). */
export function liveChunkHashes(canisters: Iterable<Canister>): Set<string> {
    const live = new Set<string>();
    for (const canister of canisters) {
        for (const c of storedChunks(canister)) live.add(c.hash);
        for (const snapshot of canister.system.snapshots ?? [])
            for (const c of snapshot.chunkStore ?? []) live.add(c.hash);
    }
    return live;
}

/** clear_chunk_store (and uninstall_code): the store is empty. */
export function clearChunkStore(canister: Canister): void {
    if (canister.system.chunkStore !== undefined) canister.system.chunkStore = [];
}

/**
 * The chunks of `store` named by `hashes`, in that order, as one module whose SHA-256 must be
 * `expected`: a chunk not in the store, or another hash, is refused.
 */
export function assembleChunks(
    bytes: ChunkBytes,
    store: Canister,
    hashes: Uint8Array[],
    expected: Uint8Array,
): Uint8Array {
    const stored = new Set(storedChunks(store).map((c) => c.hash));
    const parts = hashes.map((hash) => {
        const hex = toHex(hash);
        if (!stored.has(hex)) throw storeError(`Chunk ${hex} is not in the chunk store of canister ${store.text}.`);
        return bytes.chunk(hex);
    });
    const wasm = concatBytes(parts);
    const got = createHash('sha256').update(wasm).digest('hex');
    if (got !== toHex(expected))
        throw storeError(`Wasm module hash ${got} does not match the given hash ${toHex(expected)}.`);
    return wasm;
}
