// submit_scores as the canister runs it, for native tests: the batch, then the call's writes flushed.
import { flushCallWrites } from '../../../canister/service/flush';
import * as scores from '../../../canister/service/scores';
import type { Harness } from './harness';

export function submitBatch(
    h: Harness,
    req: Parameters<typeof scores.submitBatch>[1],
): ReturnType<typeof scores.submitBatch> {
    const replies = scores.submitBatch(h, req);
    flushCallWrites(h);
    return replies;
}
