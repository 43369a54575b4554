// What a directory needs of the IC to reach other canisters, and another canister's refusal as ours.
import type { ApiError, Method, Result } from '../../../contract/canister';
import { Fail } from '../../domain/fail';

/** What a directory needs of the IC to reach other canisters (canister/index.ts gives it). */
export interface Remote {
    /** This canister's principal text. */
    self: string;
    /** A JSON method of another leaderboard canister: its `{ok}` or `{err}`; a rejected call throws Fail 503. */
    call(canisterId: string, method: Method, request: unknown): Promise<Result<unknown>>;
    /** create_canister with `cycles`, this canister its controller: the new id. Fail 503 when refused. */
    createCanister(cycles: bigint): Promise<string>;
    /** upload_chunk to this canister's own chunk store: the chunk's SHA-256 (hex). Fail 503 when refused. */
    uploadChunk(chunk: Uint8Array): Promise<string>;
    /** clear_chunk_store of this canister's own chunk store. Fail 503 when refused. */
    clearChunkStore(): Promise<void>;
    /**
     * install_chunked_code in `mode` with `arg` of the chunks of this canister's store `wasm` names
     * (in order); 'hash mismatch' when the IC refused them because they do not hash to
     * `wasm.sha256` (nothing installed). Fail 503 when refused otherwise.
     */
    installChunkedCode(
        canisterId: string,
        mode: 'install' | 'upgrade',
        wasm: { chunks: string[]; sha256: string },
        arg: Uint8Array,
    ): Promise<'installed' | 'hash mismatch'>;
    /** This canister's cycle balance. */
    cycles(): bigint;
    /** stop_canister or start_canister of a canister this one controls. Fail 503 when refused. */
    setRunning(canisterId: string, running: boolean): Promise<void>;
    /** take_canister_snapshot (in place of `replace`, hex, when given). Fail 503 when refused. */
    takeSnapshot(canisterId: string, replace?: string): Promise<{ snapshotId: string; totalSize: number }>;
    /** load_canister_snapshot. Fail 503 when refused. */
    loadSnapshot(canisterId: string, snapshotId: string): Promise<void>;
}

/** Another canister's `{err}` as the same failure here. */
export function failOf(err: ApiError): Fail {
    const { status, message, ...extra } = err;
    return new Fail(status, message, extra);
}
