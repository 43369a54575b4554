// What a call of a method sends and what its reply stands for, in each form the canister takes:
// JSON text, a packed rank read (./packed-ranks.ts), compact submits (./compact-submits.ts) and
// a shard wasm chunk as bytes (./shard-chunks.ts). The gateway's client, the tests and the bench
// all call through here.
import {
    METHODS,
    isPacked,
    takesBytes,
    type Method,
    type MethodRow,
    type Result,
    type SubmitRequest,
} from './canister';
import { compactSubmits } from './compact-submits';
import { packedRankText, unpackRank, type PackedRankRequest } from './packed-ranks';
import { shardChunkArg, type ShardChunkRequest } from './shard-chunks';

/**
 * The text a call of `method` sends: a packed method's packed request, submit_scores_compact's
 * compact form of submit_scores' request, any other's JSON.
 */
export function requestText(method: Method, request: unknown): string {
    if (isPacked(method)) return packedRankText(request as PackedRankRequest);
    if (method === 'submit_scores_compact')
        return JSON.stringify(compactSubmits((request as { submits: SubmitRequest[] }).submits));
    return JSON.stringify(request);
}

/** The argument a call of `method` sends: a blob for a method that takes bytes, else its text. */
export function requestArg(method: Method, request: unknown): string | Uint8Array {
    if (takesBytes(method)) return shardChunkArg(request as ShardChunkRequest);
    return requestText(method, request);
}

/**
 * The `{ok}` or `{err}` a reply of `method` stands for: a packed method's numbers unpacked, or
 * the error's JSON text it sent instead; any other method's JSON text parsed. Throws on bytes
 * that are neither (a reply of no packed method).
 */
export function replyResult(method: Method, reply: string | Uint8Array): Result<unknown> {
    if (typeof reply === 'string') return JSON.parse(reply) as Result<unknown>;
    if (reply[0] === 0x7b) return JSON.parse(new TextDecoder().decode(reply)) as Result<unknown>;
    const ok = unpackRank(reply, (METHODS[method] as MethodRow).packs === 'own_board_rank');
    if (ok === undefined) throw new Error(`${method}: a reply of ${reply.length} bytes is no packed rank`);
    return { ok };
}
