// Long polling of the event feed (GET /events?wait=): requests waiting for a game's next event
// share one watcher per game, which asks the canister for the newest seq (read_events, limit 1:
// a free query) every POLL_MS while anyone waits, and at once when this gateway's own writes for
// the game (submits, moderation) were answered. Waiters are bounded per game and in total (429
// beyond); a client that disconnects stops waiting; a draining gateway answers every waiter.
import { isQuery, type Method } from '../contract/canister';
import type { CanisterClient } from './canister';
import { ApiFailure } from './errors';

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

interface Watch {
    waiters: Set<Waiter>;
    timer?: NodeJS.Timeout;
    polling: boolean;
    /** A poke came while a poll was on its way: poll again when it is back. */
    again: boolean;
}

export const tooManyWaiters = (scope: 'game' | 'gateway', limit: number): string =>
    scope === 'game'
        ? `Too many requests are waiting for this game's events (at most ${limit}): read without wait=, or wait less often`
        : `Too many requests are waiting for events on this gateway (at most ${limit}): try again shortly`;

export function feedWatcher(canister: CanisterClient, limits: FeedLimits = FEED_LIMITS): FeedWatcher {
    const watches = new Map<string, Watch>();
    let total = 0;
    let draining = false;

    function schedule(gameId: string, watch: Watch, ms: number): void {
        if (watch.timer !== undefined) clearTimeout(watch.timer);
        watch.timer = setTimeout(() => void poll(gameId, watch), ms);
        watch.timer.unref();
    }

    function release(gameId: string, watch: Watch, waiter: Waiter): void {
        if (!watch.waiters.delete(waiter)) return;
        total--;
        waiter.done();
        if (watch.waiters.size === 0) {
            if (watch.timer !== undefined) clearTimeout(watch.timer);
            watch.timer = undefined;
            if (watches.get(gameId) === watch) watches.delete(gameId);
        }
    }

    async function poll(gameId: string, watch: Watch): Promise<void> {
        watch.timer = undefined;
        if (watch.waiters.size === 0 || watch.polling) return;
        watch.polling = true;
        watch.again = false;
        // The newest waiter's key (a rotation has made the older ones dead; their reads will say so).
        const waiters = [...watch.waiters];
        const newest = waiters[waiters.length - 1];
        const after = Math.min(...waiters.map((w) => w.after));
        let latest: number | undefined;
        try {
            const reply = await canister.call('read_events', {
                gameId,
                serverKeyHash: newest.serverKeyHash,
                after,
                limit: 1,
            });
            latest = 'ok' in reply ? reply.ok.latest : Infinity; // a refused key: everyone reads again and hears why
        } catch {
            latest = undefined; // the canister unreachable: keep waiting, try again
        }
        watch.polling = false;
        if (latest !== undefined) for (const w of watch.waiters) if (latest > w.after) release(gameId, watch, w);
        if (watch.waiters.size > 0) schedule(gameId, watch, watch.again ? 0 : limits.pollMs);
    }

    return {
        wait(gameId, serverKeyHash, after, ms, signal) {
            if (draining || ms <= 0 || signal.aborted) return Promise.resolve();
            const watch = watches.get(gameId) ?? { waiters: new Set(), polling: false, again: false };
            if (watch.waiters.size >= limits.perGame) throw new ApiFailure(429, tooManyWaiters('game', limits.perGame));
            if (total >= limits.total) throw new ApiFailure(429, tooManyWaiters('gateway', limits.total));
            watches.set(gameId, watch);
            return new Promise<void>((resolve) => {
                const timer = setTimeout(() => release(gameId, watch, waiter), ms);
                const onAbort = () => release(gameId, watch, waiter);
                const waiter: Waiter = {
                    after,
                    serverKeyHash,
                    done() {
                        clearTimeout(timer);
                        signal.removeEventListener('abort', onAbort);
                        resolve();
                    },
                };
                watch.waiters.add(waiter);
                total++;
                signal.addEventListener('abort', onAbort);
                if (watch.timer === undefined && !watch.polling) schedule(gameId, watch, limits.pollMs);
            });
        },
        poke(gameId) {
            const watch = watches.get(gameId);
            if (watch === undefined) return;
            if (watch.polling) watch.again = true;
            else schedule(gameId, watch, 0);
        },
        drain() {
            draining = true;
            for (const [gameId, watch] of watches) for (const w of [...watch.waiters]) release(gameId, watch, w);
        },
        waiting: (gameId) => (gameId === undefined ? total : (watches.get(gameId)?.waiters.size ?? 0)),
    };
}

/** The canister client with a poke of the watcher after every answered update naming games (submits, moderation). */
export function pokingCanister(canister: CanisterClient, watcher: FeedWatcher): CanisterClient {
    const gamesOf = (request: unknown): string[] => {
        const r = request as { gameId?: unknown; submits?: unknown };
        const ids = new Set<string>();
        if (typeof r?.gameId === 'string') ids.add(r.gameId);
        if (Array.isArray(r?.submits))
            for (const s of r.submits as Array<{ gameId?: unknown }>)
                if (typeof s?.gameId === 'string') ids.add(s.gameId);
        return [...ids];
    };
    const after = <T>(method: Method, request: unknown, reply: Promise<T>): Promise<T> =>
        isQuery(method)
            ? reply
            : reply.finally(() => {
                  for (const id of gamesOf(request)) watcher.poke(id);
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
