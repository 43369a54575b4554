// A canister client that sends each call where the gateway sends it: submit_scores through the
// gateway's submit path (each submit batched to its game's canister, the replies in the
// request's order), every other method through the router.
import type { ReplyOf, RequestOf, Result } from '../../contract/canister';
import type { CanisterClient } from '../../gateway/ic/canister';
import type { ShardRouter } from '../../gateway/ic/shards';
import { submitPath } from '../../gateway/ic/submits';

export function asTheGateway(router: ShardRouter): CanisterClient {
    const submit = submitPath(router);
    const submitEach = (request: unknown) => Promise.all((request as RequestOf<'submit_scores'>).submits.map(submit));
    const routed = router.routed;
    const call: CanisterClient['relay'] = async (method, request) =>
        method === 'submit_scores'
            ? ({ ok: await submitEach(request) } as Result<ReplyOf<typeof method>>)
            : routed.relay(method, request);
    return {
        canisterId: routed.canisterId,
        agent: routed.agent,
        call,
        relay: call,
        ok: (method, request) =>
            method === 'submit_scores'
                ? (submitEach(request) as Promise<ReplyOf<typeof method>>)
                : routed.ok(method, request),
    };
}
