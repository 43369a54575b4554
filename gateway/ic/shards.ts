// The gateway's router over a directory and its shards: where each game lives (the directory's
// `locate_game`, asked once per game and kept for the gateway's life), one client per canister,
// and a client that sends every method to the canister it belongs to (a game's calls to the
// game's canister, developer calls on a shard's game through the directory's `dev_forward`,
// what spans games, and typed user codes, to the directory or to every canister). A canister answering
// `{err: {moved: true}}` makes the router ask the directory again and retry once. Score submits
// take their own path over this router (./submits.ts: batched per canister).
// Steady state: a Map lookup per call, no directory call.
import { Principal } from '@dfinity/principal';

import {
    METHODS,
    type Method,
    type MethodRow,
    type Relayed,
    type ReplyOf,
    type Result,
    type Route,
    type RoutedAs,
} from '../../contract/canister';
import { API_KEY } from '../../contract/rules';
import type { GameLocation, ShardEntry } from '../../contract/shards';
import type { CanisterClient } from './canister';
import { canisterFailure } from '../http/errors';

export interface ShardRouter {
    /** The configured canister: the directory (a single canister of before is one with no shards). */
    readonly directory: CanisterClient;
    /**
     * The client of the canister that holds `gameId` (located once, then kept); the directory
     * for a game it does not know (not kept: the game may be created later), which answers as a
     * single canister always did.
     */
    locate(gameId: string): Promise<CanisterClient>;
    /** A client bound to one game: every call goes to the game's canister (moved: asked again, retried once). */
    forGame(gameId: string): CanisterClient;
    /** Drops a game's kept location (its canister said it moved). */
    forget(gameId: string): void;
    /** Every canister's client, the directory first (list_shards, refreshed every `refreshMs` or when asked). */
    all(refresh?: boolean): Promise<CanisterClient[]>;
    /** One method-routed client for everything but submits (the routes', the dashboard's, the admin CLI's). */
    readonly routed: CanisterClient;
    /** How many locate_game / list_shards calls this router made (tests, health). */
    readonly counts: { locates: number; lists: number };
}

export interface RouterOptions {
    /** How long the shard list is trusted (ms, default 60 s). */
    refreshMs?: number;
    /** The clock of that (ms). */
    clock?: () => number;
}

type AnyRequest = Record<string, unknown>;
type AnyClient = { call(method: Method, request: unknown): Promise<Result<unknown>> };

const isMoved = (reply: Result<unknown>): boolean => 'err' in reply && reply.err.moved === true;
/** Submits are batched per canister by the gateway's submit path (./submits.ts), never sent by the router. */
const SUBMITS_ELSEWHERE = 'submit_scores goes through the submit path (batched per canister), not the router';

/** How the answers of every canister make one (`everyCanister` methods). */
const MERGES: { [M in RoutedAs<'everyCanister'>]: (answers: Array<ReplyOf<M>>) => ReplyOf<M> } = {
    platform_stats(stats) {
        // Canisters share the IC's clock: one UTC day (the newest, should a day turn mid-call).
        const date = stats.map((s) => s.date).sort()[stats.length - 1];
        return {
            total: stats.reduce((n, s) => n + s.total, 0),
            today: stats.reduce((n, s) => n + (s.date === date ? s.today : 0), 0),
            date,
        };
    },
    // The directory lists its games on shards as it last heard of them: the shard's own view wins.
    admin_list_games: (lists) => [...new Map(lists.flat().map((g) => [g.gameId, g])).values()],
};

/** The game a request names: its gameId, or the game of its API key. */
function gameOf(request: unknown): string | undefined {
    const r = request as AnyRequest | undefined;
    if (typeof r?.gameId === 'string') return r.gameId;
    if (typeof r?.apiKey === 'string') return API_KEY.exec(r.apiKey)?.[1];
    return undefined;
}

export function shardRouter(directory: CanisterClient, o: RouterOptions = {}): ShardRouter {
    const refreshMs = o.refreshMs ?? 60_000;
    const clock = o.clock ?? Date.now;
    const counts = { locates: 0, lists: 0 };
    /** One client per canister principal (text), made on first use (the directory's own added then too). */
    const clients = new Map<string, CanisterClient>();
    /** Each known game's canister client. */
    const located = new Map<string, CanisterClient>();
    /** First lookups in flight: concurrent ones share the call. */
    const locating = new Map<string, Promise<CanisterClient>>();
    let shardList: { at: number; clients: CanisterClient[] } | undefined;
    let listing: Promise<CanisterClient[]> | undefined;
    /** Test-event leases (dev_test_webhook) by id: their report goes to the canister of the game. */
    const testLeases = new Map<string, CanisterClient>();

    function clientOf(canisterId: string): CanisterClient {
        let client = clients.get(canisterId);
        if (client === undefined) {
            if (canisterId === directory.canisterId.toText()) return directory;
            // A client that reaches one canister only cannot reach shards: the directory answers.
            if (directory.forCanister === undefined) return directory;
            client = directory.forCanister(Principal.fromText(canisterId));
            clients.set(canisterId, client);
        }
        return client;
    }

    async function lookup(gameId: string): Promise<CanisterClient> {
        counts.locates++;
        const reply = await directory.call('locate_game', { gameId });
        // Unknown here (404) or anything else: the directory answers the call as it always did.
        if ('err' in reply) return directory;
        const client = clientOf((reply.ok as GameLocation).canisterId);
        located.set(gameId, client);
        return client;
    }

    function locate(gameId: string): Promise<CanisterClient> {
        const known = located.get(gameId);
        if (known !== undefined) return Promise.resolve(known);
        // Nothing to ask a canister that cannot reach another one.
        if (directory.forCanister === undefined) return Promise.resolve(directory);
        let pending = locating.get(gameId);
        if (pending === undefined) {
            pending = lookup(gameId).finally(() => locating.delete(gameId));
            locating.set(gameId, pending);
        }
        return pending;
    }

    async function all(refresh = false): Promise<CanisterClient[]> {
        if (directory.forCanister === undefined) return [directory];
        if (!refresh && shardList !== undefined && clock() - shardList.at < refreshMs) return shardList.clients;
        listing ??= (async () => {
            counts.lists++;
            let entries: ShardEntry[] = [];
            try {
                const reply = await directory.call('list_shards', {});
                if ('ok' in reply) entries = reply.ok.shards;
            } catch {
                // Unreachable for now: itself alone until the next refresh.
            }
            // A directory that cannot list (an older release) has no shards: itself alone.
            const list = [directory, ...entries.map((e) => clientOf(e.canisterId)).filter((c) => c !== directory)];
            shardList = { at: clock(), clients: list };
            return list;
        })().finally(() => (listing = undefined));
        return listing;
    }

    /** A call on the game's canister, asked again and retried once when it says the game moved. */
    async function onGame(
        gameId: string,
        send: (client: CanisterClient) => Promise<Result<unknown>>,
    ): Promise<Result<unknown>> {
        const first = await locate(gameId);
        const reply = await send(first);
        if (!isMoved(reply)) return reply;
        located.delete(gameId);
        return send(await locate(gameId));
    }

    /** A developer method on one game: on the directory when it holds the game, else forwarded by it. */
    function devOnGame(gameId: string, method: Method, request: AnyRequest): Promise<Result<unknown>> {
        return onGame(gameId, (client) =>
            client === directory
                ? (directory as AnyClient).call(method, request)
                : (directory as AnyClient).call('dev_forward' as Method, {
                      sessionHash: request.sessionHash,
                      method,
                      request,
                  }),
        );
    }

    /**
     * A request whose `list` names games (`{eachGameOf: list}`): its items grouped by their game's
     * canister, one call each, the answers put back in the request's order.
     */
    async function eachGame(method: Method, list: string, request: AnyRequest): Promise<Result<unknown>> {
        const items: unknown[] = Array.isArray(request[list]) ? (request[list] as unknown[]) : [];
        const targets = await Promise.all(
            items.map((item) => locate(String((item as AnyRequest | undefined)?.gameId))),
        );
        const groups = new Map<CanisterClient, number[]>();
        targets.forEach((c, i) => groups.set(c, [...(groups.get(c) ?? []), i]));
        if (groups.size <= 1) return ((targets[0] ?? directory) as AnyClient).call(method, request);
        const answers: unknown[] = new Array(items.length);
        const replies = await Promise.all(
            [...groups].map(async ([client, indexes]) => ({
                indexes,
                reply: await (client as AnyClient).call(method, { [list]: indexes.map((i) => items[i]) }),
            })),
        );
        for (const { indexes, reply } of replies) {
            if ('err' in reply) return reply;
            indexes.forEach((at, k) => (answers[at] = (reply.ok as unknown[])[k] ?? null));
        }
        return { ok: answers };
    }

    /** A test event's lease, remembered with the canister that keeps the game's delivery log. */
    async function testWebhook(gameId: string, request: AnyRequest): Promise<Result<unknown>> {
        const reply = await devOnGame(gameId, 'dev_test_webhook', request);
        const leaseId = 'ok' in reply ? (reply.ok as { leaseId?: unknown }).leaseId : undefined;
        if (typeof leaseId === 'string') {
            if (testLeases.size > 10_000) testLeases.clear();
            testLeases.set(leaseId, located.get(gameId) ?? directory);
        }
        return reply;
    }

    /**
     * webhook_work from a route (a test event's report): to the canister that leased it. The
     * delivery loops call each canister's own client, never this.
     */
    function reportTests(request: AnyRequest): Promise<Result<unknown>> {
        const reports = Array.isArray(request.reports) ? (request.reports as Array<{ leaseId?: unknown }>) : [];
        const targets = new Set(reports.map((rep) => testLeases.get(String(rep?.leaseId))));
        for (const rep of reports) testLeases.delete(String(rep?.leaseId));
        const [only] = targets;
        const target = targets.size === 1 && only !== undefined ? only : directory;
        return (target as AnyClient).call('webhook_work', request);
    }

    /** A method asked of every canister, the answers merged by the method's own merge. */
    async function everyCanister(method: RoutedAs<'everyCanister'>, request: unknown): Promise<Result<unknown>> {
        const clientsNow = await all();
        const replies = await Promise.all(clientsNow.map((c) => (c as AnyClient).call(method, request)));
        const failed = replies.find((r) => 'err' in r);
        if (failed !== undefined) return failed;
        return { ok: MERGES[method](replies.map((r) => (r as { ok: never }).ok)) };
    }

    /** A method's call sent where its row in the contract's table says (`routes`). */
    function route(method: Method, request: unknown): Promise<Result<unknown>> {
        const r = (request ?? {}) as AnyRequest;
        const routes: Route | undefined = (METHODS[method] as MethodRow).routes;
        if (directory.forCanister === undefined || routes === 'directory')
            return (directory as AnyClient).call(method, request);
        if (routes === 'submitPath') return Promise.resolve({ err: { status: 400, message: SUBMITS_ELSEWHERE } });
        if (typeof routes === 'object') return eachGame(method, routes.eachGameOf, r);
        if (routes === 'everyCanister') return everyCanister(method as RoutedAs<'everyCanister'>, r);
        if (routes === 'leaseHolder') return reportTests(r);
        const gameId = gameOf(r);
        if (gameId === undefined) return (directory as AnyClient).call(method, request);
        if (routes === 'testEvent') return testWebhook(gameId, r);
        if (routes === 'viaDirectory') return devOnGame(gameId, method, r);
        return onGame(gameId, (client) => (client as AnyClient).call(method, request));
    }

    function clientFrom(send: (method: Method, request: unknown) => Promise<Result<unknown>>): CanisterClient {
        const call = <M extends Method>(method: M, request: Relayed<M>): Promise<Result<ReplyOf<M>>> =>
            send(method, request) as Promise<Result<ReplyOf<M>>>;
        return {
            canisterId: directory.canisterId,
            agent: directory.agent,
            call,
            relay: call,
            async ok(method, request) {
                const reply = await call(method, request);
                if ('err' in reply) throw canisterFailure(reply.err);
                return reply.ok;
            },
        };
    }

    return {
        directory,
        locate,
        forGame: (gameId) =>
            clientFrom((method, request) => onGame(gameId, (client) => (client as AnyClient).call(method, request))),
        forget: (gameId) => void located.delete(gameId),
        all,
        routed: clientFrom(route),
        counts,
    };
}
