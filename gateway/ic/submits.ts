// Score submits on their way to the canisters, the one path every submit takes: batched per
// canister (a batcher each, made on first use: a `submit_scores` call carries one canister's
// games only), and a submit its canister answers `moved` located again and sent once more, to
// the batcher of where the game went.
import type { Result, SubmitRequest } from '../../contract/canister';
import type { SubmitReply } from '../../contract/schemas';
import { batcher, type BatchObserver, type Batcher, type BatcherOptions } from './batcher';
import { trapped, type CanisterClient } from './canister';
import type { FeedWatcher } from './feed-watcher';
import type { ShardRouter } from './shards';

/**
 * Submits per canister call and calls in flight: on the IC an update takes 1-2 s, so one call
 * at a time caps a gateway near 100 submits/s; up to 16 overlap (one player's never do).
 */
export const SUBMIT_BATCHING: BatcherOptions = {
    // At most the canister's MAX_SUBMITS_PER_CALL (a larger call is refused whole; tested).
    maxBatch: 100,
    maxWaitMs: 2,
    // A call pays ~7 M cycles of fees whatever it carries, a submit ~2-3 M more: a call of fewer
    // than 10 waits up to 500 ms (on top of the IC's 1-2 s) for companions (SUBMIT_LINGER_MS,
    // SUBMIT_LINGER_FILL; docs/costs.md "Fewer, fuller calls").
    lingerMs: 500,
    lingerFill: 10,
    // 16 calls of 100 cover a second of latency at the canister's pace here; past 2 in flight
    // only full calls go (fewer, fuller calls when the canister is busy).
    maxInFlight: 16,
    eagerInFlight: 2,
    maxQueued: 10_000,
    maxQueuedPerGroup: 2_000,
};

/** SUBMIT_BATCHING with the configured linger (SUBMIT_LINGER_MS, SUBMIT_LINGER_FILL). */
export const submitBatching = (linger: { ms: number; fill: number }): BatcherOptions => ({
    ...SUBMIT_BATCHING,
    lingerMs: linger.ms,
    lingerFill: linger.fill,
});

export interface SubmitPathOptions {
    /** How submits share calls (default SUBMIT_BATCHING). */
    batching?: BatcherOptions;
    /** Told of each call's size and of each submit shed (the gateway's metrics). */
    observer?: BatchObserver;
    /** Looks at once at each game a call wrote to, when the call is over (while anyone waits). */
    feed?: FeedWatcher;
}

/** Sends one submit; `stats()` counts over every canister's batcher. */
export type SubmitPath = ((request: SubmitRequest) => Promise<Result<SubmitReply>>) & {
    stats(): { queued: number; inFlight: number };
};

export function submitPath(router: ShardRouter, o: SubmitPathOptions = {}): SubmitPath {
    const batchers = new Map<CanisterClient, Batcher<SubmitRequest, SubmitReply>>();
    const send = (client: CanisterClient) => async (submits: SubmitRequest[]) => {
        try {
            return await client.ok('submit_scores', { submits });
        } finally {
            // Nothing to look at while nobody waits (the common case: no walk over the submits).
            if (o.feed !== undefined && o.feed.waiting() > 0)
                for (const gameId of new Set(submits.map((s) => s.gameId))) o.feed.poke(gameId);
        }
    };
    const batcherOf = (client: CanisterClient): Batcher<SubmitRequest, SubmitReply> => {
        let b = batchers.get(client);
        if (b === undefined) {
            b = batcher(
                send(client),
                // A trap on one game's account (rolled back whole) never fails the other games' submits.
                { ...(o.batching ?? SUBMIT_BATCHING), splitOn: trapped, observer: o.observer },
                // One player's submits keep their order; different players' calls overlap.
                (s) => `${s.gameId}/${'playerId' in s ? s.playerId : s.sessionHash}`,
                // One game's flood cannot take the whole queue.
                (s) => s.gameId,
            );
            batchers.set(client, b);
        }
        return b;
    };
    const submit = async (request: SubmitRequest): Promise<Result<SubmitReply>> => {
        const reply = await batcherOf(await router.locate(request.gameId))(request);
        if (!('err' in reply) || reply.err.moved !== true) return reply;
        router.forget(request.gameId);
        return batcherOf(await router.locate(request.gameId))(request);
    };
    return Object.assign(submit, {
        stats() {
            const all = [...batchers.values()].map((b) => b.stats());
            return {
                queued: all.reduce((n, s) => n + s.queued, 0),
                inFlight: all.reduce((n, s) => n + s.inFlight, 0),
            };
        },
    });
}
