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
    /** install_code of `wasm` (gzipped) in `mode` with `arg`. Fail 503 when refused. */
    installCode(canisterId: string, mode: 'install' | 'upgrade', wasm: Uint8Array, arg: Uint8Array): Promise<void>;
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
