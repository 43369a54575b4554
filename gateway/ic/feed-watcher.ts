// Long polling of the event feed (GET /events?wait=): while anyone waits, the gateway asks the
// canister for the newest seq of every waited-on game every pollMs (events_latest: one free query
// per FEED_HEADS_MAX games), and at once for a game when this gateway's own writes for it
// (submits, moderation) were answered. Waiters are bounded per game and in total (429
// beyond); a client that disconnects stops waiting; a draining gateway answers every waiter.
import { isQuery, type Method } from '../../contract/canister';
import { FEED_HEADS_MAX } from '../../contract/event-log';
import type { CanisterClient } from './canister';
import { ApiFailure } from '../http/errors';

export interface FeedLimits {
    /** How often a watched game is polled (ms). */
    pollMs: number;
    /** Waiting requests per game, and in all, at most. */
    perGame: number;
    total: number;
}

export const FEED_LIMITS: FeedLimits = { pollMs: 500, perGame: 50, total: 2_000 };

export interface FeedWatcher {
    /**
     * Resolves when the game's log has an event after `after`, after `ms`, when `signal` aborts
     * (the client left) or when the gateway drains; 429 (thrown at once) beyond the limits.
     */
    wait(gameId: string, serverKeyHash: string, after: number, ms: number, signal: AbortSignal): Promise<void>;
    /** This gateway wrote to the game: look at once (when anyone waits). */
    poke(gameId: string): void;
    /** Answers every waiter now and takes no more waits (the gateway is closing). */
    drain(): void;
    /** How many wait, per game and in all (tests, health). */
    waiting(gameId?: string): number;
}

interface Waiter {
    after: number;
    serverKeyHash: string;
    done(): void;
}

export const tooManyWaiters = (scope: 'game' | 'gateway', limit: number): string =>
    scope === 'game'
        ? `Too many requests are waiting for this game's events (at most ${limit}): read without wait=, or wait less often`
        : `Too many requests are waiting for events on this gateway (at most ${limit}): try again shortly`;

export function feedWatcher(canister: CanisterClient, limits: FeedLimits = FEED_LIMITS): FeedWatcher {
    /** Each watched game's waiters, in the order they came. */
    const watches = new Map<string, Set<Waiter>>();
    let total = 0;
    let draining = false;
    let timer: NodeJS.Timeout | undefined;

    function release(gameId: string, waiters: Set<Waiter>, waiter: Waiter): void {
        if (!waiters.delete(waiter)) return;
        total--;
        waiter.done();
        if (waiters.size === 0 && watches.get(gameId) === waiters) watches.delete(gameId);
        if (total === 0 && timer !== undefined) {
            clearTimeout(timer);
            timer = undefined;
        }
    }

    /** Asks for the newest seq of `gameIds` (FEED_HEADS_MAX a query, in parallel) and answers who has news. */
    async function poll(gameIds: string[]): Promise<void> {
        const chunks: string[][] = [];
        for (let i = 0; i < gameIds.length; i += FEED_HEADS_MAX) chunks.push(gameIds.slice(i, i + FEED_HEADS_MAX));
        await Promise.all(
            chunks.map(async (chunk) => {
                const asked = chunk.flatMap((gameId) => {
                    const waiters = [...(watches.get(gameId) ?? [])];
                    // The newest waiter's key (a rotation has made the older ones dead; their reads will say so).
                    const newest = waiters[waiters.length - 1];
                    return newest === undefined ? [] : [{ gameId, serverKeyHash: newest.serverKeyHash }];
                });
                if (asked.length === 0) return;
                let latest: Array<number | null>;
                try {
                    const reply = await canister.call('events_latest', { games: asked });
                    if (!('ok' in reply)) return;
                    latest = reply.ok;
                } catch {
                    return; // the canister unreachable: keep waiting, try again
                }
                asked.forEach(({ gameId }, i) => {
                    const waiters = watches.get(gameId);
                    // A refused key (null): everyone reads again and hears why.
                    const newest = latest[i] ?? Infinity;
                    if (waiters !== undefined)
                        for (const w of [...waiters]) if (newest > w.after) release(gameId, waiters, w);
                });
            }),
        );
    }

    /** One poll of every watched game each `pollMs` while anyone waits: a query per FEED_HEADS_MAX games. */
    function schedule(): void {
        if (timer !== undefined || total === 0) return;
        timer = setTimeout(() => {
            void poll([...watches.keys()]).finally(() => {
                timer = undefined;
                schedule();
            });
        }, limits.pollMs);
        timer.unref();
    }

    return {
        wait(gameId, serverKeyHash, after, ms, signal) {
            if (draining || ms <= 0 || signal.aborted) return Promise.resolve();
            const waiters = watches.get(gameId) ?? new Set<Waiter>();
            if (waiters.size >= limits.perGame) throw new ApiFailure(429, tooManyWaiters('game', limits.perGame));
            if (total >= limits.total) throw new ApiFailure(429, tooManyWaiters('gateway', limits.total));
            watches.set(gameId, waiters);
            return new Promise<void>((resolve) => {
                const timeout = setTimeout(() => release(gameId, waiters, waiter), ms);
                const onAbort = () => release(gameId, waiters, waiter);
                const waiter: Waiter = {
                    after,
                    serverKeyHash,
                    done() {
                        clearTimeout(timeout);
                        signal.removeEventListener('abort', onAbort);
                        resolve();
                    },
                };
                waiters.add(waiter);
                total++;
                signal.addEventListener('abort', onAbort);
                schedule();
            });
        },
        poke(gameId) {
            if (watches.has(gameId)) void poll([gameId]);
        },
        drain() {
            draining = true;
            for (const [gameId, waiters] of watches) for (const w of [...waiters]) release(gameId, waiters, w);
        },
        waiting: (gameId) => (gameId === undefined ? total : (watches.get(gameId)?.size ?? 0)),
    };
}

/** The canister client with a poke of the watcher after every answered update naming a game (moderation; submits: ./submits.ts). */
export function pokingCanister(canister: CanisterClient, watcher: FeedWatcher): CanisterClient {
    const gameOf = (request: unknown): unknown => (request as { gameId?: unknown } | undefined)?.gameId;
    const after = <T>(method: Method, request: unknown, reply: Promise<T>): Promise<T> =>
        // Nothing to look at while nobody waits (the common case).
        isQuery(method) || watcher.waiting() === 0
            ? reply
            : reply.finally(() => {
                  const gameId = gameOf(request);
                  if (typeof gameId === 'string') watcher.poke(gameId);
              });
    return {
        call: (method, request) => after(method, request, canister.call(method, request)),
        ok: (method, request) => after(method, request, canister.ok(method, request)),
        relay: (method, request) => after(method, request, canister.relay(method, request)),
        get canisterId() {
            return canister.canisterId;
        },
        get agent() {
            return canister.agent;
        },
    };
}
