// The gateway's router (gateway/ic/shards.ts) over stand-in canisters that answer like the real
// ones: each game located once (concurrent first lookups share the call), unknown games asked
// again each time and answered by the directory, `moved` answers located again and retried
// once, developer calls on a shard's game forwarded by the directory, fan-outs. The real
// canisters run in shards.test.ts and the conformance suite on two shards.
import type { Principal } from '@dfinity/principal';
import { Principal as P } from '@dfinity/principal';

import type { Method, Result } from '../../contract/canister';
import type { CanisterClient } from '../../gateway/ic/canister';
import { canisterFailure } from '../../gateway/http/errors';
import { shardRouter } from '../../gateway/ic/shards';
import { asTheGateway } from '../support/routed';

type Handler = (method: string, request: any) => Result<unknown>;

const DIR = P.fromUint8Array(new Uint8Array([1]));
const A = P.fromUint8Array(new Uint8Array([2]));
const B = P.fromUint8Array(new Uint8Array([3]));

/** Canisters by principal text, each with its handler and the calls it got. */
function world(handlers: Record<string, Handler>) {
    const calls: Array<{ canister: string; method: string; request: any }> = [];
    const client = (id: Principal): CanisterClient => {
        const call = async (method: Method, request: unknown): Promise<Result<any>> => {
            await Promise.resolve();
            calls.push({ canister: id.toText(), method, request });
            return handlers[id.toText()](method, request);
        };
        return {
            canisterId: id,
            agent: undefined as never,
            call,
            relay: call,
            async ok(method, request) {
                const r = await call(method, request);
                if ('err' in r) throw canisterFailure(r.err);
                return r.ok;
            },
            forCanister: (other) => client(other),
        };
    };
    return { directory: client(DIR), calls };
}

const notFound = { err: { status: 404 as const, message: 'Game not found' } };
const moved = { err: { status: 503 as const, message: 'This game is not on this canister', moved: true as const } };

test('a game is located once (concurrent first lookups share it); its calls go to its shard', async () => {
    const { directory, calls } = world({
        [DIR.toText()]: (m, r) =>
            m === 'locate_game' ? { ok: { gameId: r.gameId, canisterId: A.toText() } } : notFound,
        [A.toText()]: (m, r) => ({ ok: { on: 'A', method: m, gameId: r.gameId } }),
    });
    const router = shardRouter(directory);
    const replies = await Promise.all(
        Array.from({ length: 5 }, () => router.routed.call('game_info', { gameId: 'game1' })),
    );
    expect(replies.every((r) => 'ok' in r && (r.ok as any).on === 'A')).toBe(true);
    await router.routed.call('resolve_key', { apiKey: 'key_game1_1234567890123456' });
    expect(calls.filter((c) => c.method === 'locate_game')).toHaveLength(1);
    expect(calls.filter((c) => c.canister === A.toText())).toHaveLength(6);
    expect(router.counts.locates).toBe(1);
});

test('an unknown game is answered by the directory as always, and asked about again next time', async () => {
    const { directory, calls } = world({
        [DIR.toText()]: () => notFound,
    });
    const router = shardRouter(directory);
    expect(await router.routed.call('game_info', { gameId: 'later' })).toEqual(notFound);
    expect(await router.routed.call('game_info', { gameId: 'later' })).toEqual(notFound);
    expect(calls.map((c) => c.method)).toEqual(['locate_game', 'game_info', 'locate_game', 'game_info']);
});

test('moved: the location is asked again and the call retried once, on the new canister', async () => {
    let home = A;
    const { directory, calls } = world({
        [DIR.toText()]: (m, r) =>
            m === 'locate_game' ? { ok: { gameId: r.gameId, canisterId: home.toText() } } : notFound,
        [A.toText()]: () => (home === A ? { ok: 'from A' } : moved),
        [B.toText()]: () => ({ ok: 'from B' }),
    });
    const router = shardRouter(directory);
    expect(await router.routed.call('game_stats', { gameId: 'g' })).toEqual({ ok: 'from A' });
    home = B;
    expect(await router.routed.call('game_stats', { gameId: 'g' })).toEqual({ ok: 'from B' });
    expect(await router.forGame('g').call('game_stats', { gameId: 'g' })).toEqual({ ok: 'from B' });
    expect(
        calls.map((c) => `${c.canister === DIR.toText() ? 'dir' : c.canister === A.toText() ? 'A' : 'B'} ${c.method}`),
    ).toEqual(['dir locate_game', 'A game_stats', 'A game_stats', 'dir locate_game', 'B game_stats', 'B game_stats']);
    // Moved twice (the directory not flipped yet): the second answer is the client's, no loop.
    const { directory: d2, calls: c2 } = world({
        [DIR.toText()]: (m, r) =>
            m === 'locate_game' ? { ok: { gameId: r.gameId, canisterId: A.toText() } } : notFound,
        [A.toText()]: () => moved,
    });
    expect(await shardRouter(d2).routed.call('game_stats', { gameId: 'g' })).toEqual(moved);
    expect(c2.filter((c) => c.method === 'game_stats')).toHaveLength(2);
});

test("developer calls: on the directory for its own games, dev_forward for a shard's; account calls on the directory", async () => {
    const { directory, calls } = world({
        [DIR.toText()]: (m, r) =>
            m === 'locate_game'
                ? { ok: { gameId: r.gameId, canisterId: r.gameId === 'local' ? DIR.toText() : A.toText() } }
                : { ok: m },
        [A.toText()]: () => ({ ok: 'shard' }),
    });
    const router = shardRouter(directory);
    await router.routed.call('dev_update_game', { sessionHash: 'h', gameId: 'local', name: 'x' });
    await router.routed.call('dev_update_game', { sessionHash: 'h', gameId: 'remote', name: 'y' });
    await router.routed.call('dev_delete_game', { sessionHash: 'h', gameId: 'remote', confirm: 'remote' });
    await router.routed.call('dev_me', { sessionHash: 'h' });
    const work = calls.filter((c) => c.method !== 'locate_game');
    expect(work.map((c) => [c.canister === DIR.toText() ? 'dir' : 'A', c.method])).toEqual([
        ['dir', 'dev_update_game'],
        ['dir', 'dev_forward'],
        ['dir', 'dev_delete_game'],
        ['dir', 'dev_me'],
    ]);
    expect(work[1].request).toEqual({
        sessionHash: 'h',
        method: 'dev_update_game',
        request: { sessionHash: 'h', gameId: 'remote', name: 'y' },
    });
});

test('fan-outs: platform stats summed, submits and feed heads split per canister in order, user codes to the directory', async () => {
    const locations: Record<string, Principal> = { a1: A, a2: A, b1: B };
    const stats = (total: number) => ({ ok: { total, today: total - 1, date: '2026-11-26' } });
    /** A shard: its stats, submits answered with its name, its feed head; `other` for the rest (user codes). */
    const shard =
        (
            name: string,
            total: number,
            head: number,
            other = (_r: any): Result<unknown> => ({ err: { status: 404, message: 'Unknown code' } }),
        ): Handler =>
        (m, r) =>
            m === 'platform_stats'
                ? stats(total)
                : m === 'submit_scores'
                  ? { ok: r.submits.map((s: any) => ({ ok: `${name} ${s.gameId}` })) }
                  : m === 'events_latest'
                    ? { ok: r.games.map(() => head) }
                    : other(r);
    const { directory, calls } = world({
        [DIR.toText()]: (m, r) => {
            if (m === 'locate_game') return { ok: { gameId: r.gameId, canisterId: locations[r.gameId].toText() } };
            if (m === 'list_shards')
                return {
                    ok: {
                        shards: [
                            { canisterId: DIR.toText(), role: 'directory', placing: false },
                            { canisterId: A.toText(), role: 'shard', placing: true },
                            { canisterId: B.toText(), role: 'shard', placing: true },
                        ],
                    },
                };
            if (m === 'platform_stats') return stats(10);
            return { err: { status: 404, message: 'Unknown code' } };
        },
        [A.toText()]: shard('A', 20, 1),
        [B.toText()]: shard('B', 30, 2, (r) =>
            r.userCode === 'ABCD-EFGH'
                ? { ok: { userCode: r.userCode, gameId: 'b1', gameName: 'B1', expiresIn: 60 } }
                : { err: { status: 404, message: 'Unknown code' } },
        ),
    });
    const router = shardRouter(directory);
    expect(await router.routed.call('platform_stats', {})).toEqual({
        ok: { total: 60, today: 57, date: '2026-11-26' },
    });
    const submits = ['a1', 'b1', 'a2'].map((gameId) => ({ gameId, apiKey: 'k', playerId: 'p', score: 1, streak: 0 }));
    expect(await asTheGateway(router).call('submit_scores', { submits })).toEqual({
        ok: [{ ok: 'A a1' }, { ok: 'B b1' }, { ok: 'A a2' }],
    });
    // The router itself sends no submit batch anywhere: submits take the submit path, batched per canister.
    calls.length = 0;
    expect(await router.routed.call('submit_scores', { submits })).toMatchObject({ err: { status: 400 } });
    expect(calls).toEqual([]);
    const heads = ['b1', 'a1'].map((gameId) => ({ gameId, serverKeyHash: 'h' }));
    expect(await router.routed.call('events_latest', { games: heads })).toEqual({ ok: [2, 1] });
    // Typed user codes go to the directory only (it asks its shards itself): one call each, however many shards.
    calls.length = 0;
    expect(await router.routed.call('device_code_lookup', { userCode: 'ABCD-EFGH', client: 'c' })).toEqual({
        err: { status: 404, message: 'Unknown code' },
    });
    await router.routed.call('device_code_approve', { userCode: 'ABCD-EFGH', client: 'c', identity: {} as never });
    expect(calls.map((c) => [c.canister, c.method])).toEqual([
        [DIR.toText(), 'device_code_lookup'],
        [DIR.toText(), 'device_code_approve'],
    ]);
    expect(router.counts.lists).toBe(1); // the shard list is kept for a minute
});

test('a client that reaches one canister only (no forCanister) never asks where games are', async () => {
    const { directory, calls } = world({ [DIR.toText()]: () => ({ ok: 'here' }) });
    const single = { ...directory, forCanister: undefined };
    const router = shardRouter(single);
    await router.routed.call('game_info', { gameId: 'g' });
    await router.routed.call('platform_stats', {});
    expect(calls.map((c) => c.method)).toEqual(['game_info', 'platform_stats']);
});

test("a test event's report goes to the canister of the game it was leased for", async () => {
    const { directory, calls } = world({
        [DIR.toText()]: (m, r) =>
            m === 'locate_game'
                ? { ok: { gameId: r.gameId, canisterId: A.toText() } }
                : m === 'dev_forward'
                  ? { ok: { leaseId: 'lease-1', events: [] } }
                  : { ok: 'directory' },
        [A.toText()]: () => ({ ok: { leases: [] } }),
    });
    const router = shardRouter(directory);
    await router.routed.call('dev_test_webhook', { sessionHash: 'h', gameId: 'g', webhookId: 'whk_1' });
    await router.routed.call('webhook_work', {
        reports: [{ leaseId: 'lease-1', delivered: 0, attempts: [] }],
        want: 0,
    });
    expect(calls.at(-1)).toMatchObject({ canister: A.toText(), method: 'webhook_work' });
});
