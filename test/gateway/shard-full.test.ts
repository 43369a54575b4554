// A canister past its heap line, through the real wasm and a real gateway: the heap line driven
// down by the upgrade argument and by admin_set_heap_limit (never by filling 4 GiB). The Nth new
// player gets 503 + Retry-After + the JSON envelope, existing players play on, a new player's
// sign-in is refused too, raising the line lets new players in; shard_status figures are sane.
import { Ed25519KeyIdentity } from '@dfinity/identity';

import { ensureIdentity } from '../../gateway/ic/identity';
import { MESSAGES } from '../../contract/messages';
import { encodeInitArg } from '../../contract/init-arg';
import { DEFAULT_HEAP_LIMIT_BYTES, type ShardStatus } from '../../contract/shards';
import { NEW_PLAYER_GUESS_BYTES, SHARD_FULL_RETRY_AFTER_SECONDS } from '../../canister/service/capacity';
import { memoryOf } from '../bench/canister.bench';
import { connectAs, leaderboardWasm } from '../support/canister';
import { startService, type TestService } from '../support/gateway';

const GAME = 'roomy';
let s: TestService;
let key: string;
const pid = (name: string): string => `dev_1700000000_${name.padStart(8, '0')}`;

const submit = (player: string, score = 100) =>
    s.request('POST', '/scores', { headers: { 'X-API-Key': key }, body: { playerId: pid(player), score, streak: 1 } });

const status = (): Promise<ShardStatus> => s.canister.ok('shard_status', {});

async function upgradeWith(heapLimitBytes: number): Promise<void> {
    await s.replica.installCode(s.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: encodeInitArg({ heapLimitBytes }),
    });
}

function expectFull(res: Awaited<ReturnType<typeof submit>>): void {
    expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }).toEqual({
        status: 503,
        retryAfter: String(SHARD_FULL_RETRY_AFTER_SECONDS),
        body: { ok: false, error: MESSAGES.shardFull },
    });
}

beforeAll(async () => {
    s = await startService();
    key = await s.game(GAME);
}, 600_000);

afterAll(async () => {
    await s?.stop();
});

test('shard_status: counts and a heap estimate that grows with players', async () => {
    const before = await status();
    expect(before).toMatchObject({
        canisterId: s.canisterId.toText(),
        role: 'directory',
        games: 1,
        players: 0,
        heapLimitBytes: DEFAULT_HEAP_LIMIT_BYTES,
        full: false,
    });
    for (const p of ['a1', 'a2', 'a3']) expect((await submit(p)).status).toBe(200);
    const after = await status();
    expect(after.players).toBe(3);
    expect(after.heapBytes).toBeGreaterThanOrEqual(before.heapBytes);
    expect(after.heapBytes).toBeLessThan(after.heapLimitBytes);
    expect(after.stableBytes).toBeGreaterThan(before.stableBytes);
    // Close to the wasm heap and stable memory the replica reports (as the IC's canister_status does).
    const { heap, stable } = await memoryOf(s.replica, s.canisterId);
    expect(after.heapBytes / heap).toBeGreaterThan(0.9);
    expect(after.heapBytes / heap).toBeLessThan(1.3);
    expect(after.stableBytes / stable).toBeGreaterThan(0.95);
    expect(after.stableBytes / stable).toBeLessThan(1.05);
    // The submits' instructions are on the books.
    expect(after.instructionsPerMinute).toBeGreaterThan(1_000_000);
});

test('past the line: the 3rd new player is refused over HTTP, existing players go on', async () => {
    await s.replica.advanceTime(3_000);
    // After an upgrade the estimate is recounted from the restored tables: the line goes two
    // new players above it.
    await upgradeWith(DEFAULT_HEAP_LIMIT_BYTES);
    const here = (await status()).heapBytes;
    await s.canister.ok('admin_set_heap_limit', { heapLimitBytes: here + 2.5 * NEW_PLAYER_GUESS_BYTES });
    expect((await submit('b1')).status).toBe(200);
    expect((await submit('b2')).status).toBe(200);
    expectFull(await submit('b3'));
    expect(await status()).toMatchObject({ players: 5, full: true });
    // Old players play on; a batch (concurrent submits share one canister call) fails only the new one.
    const [old, fresh] = await Promise.all([submit('a1', 500), submit('b4')]);
    expect(old.status).toBe(200);
    expectFull(fresh);
    const read = await s.request('GET', '/leaderboard?limit=10', { headers: { 'X-API-Key': key } });
    expect(read.status).toBe(200);
    // a1-a3, b1, b2: the refused ones are on no board; a1's new best is.
    expect(read.body.data.total).toBe(5);
    expect(read.body.data.leaderboard[0]).toMatchObject({ rank: 1, score: 500 });
});

test('past the line set by the upgrade argument: a new sign-in and a new game are refused too', async () => {
    await upgradeWith(1);
    expect(await status()).toMatchObject({ heapLimitBytes: 1, full: true });
    expectFull(await submit('c1'));
    await s.replica.advanceTime(3_000);
    expect((await submit('a2', 700)).status).toBe(200);
    // A new identity signing in through the device flow: its token poll is refused (the code stays approved).
    const started = await s.request('POST', '/auth/device/code', { headers: { 'X-Game-ID': GAME }, body: {} });
    expect(started.status).toBe(200);
    await s.approveDeviceCode(started.body.data.user_code, 'newcomer');
    const poll = () =>
        s.request('POST', '/auth/device/token', {
            headers: { 'X-Game-ID': GAME },
            body: { device_code: started.body.data.device_code },
        });
    expectFull(await poll());
    const game = await s.canister.call('admin_register_game', { developerId: 'dev-2', gameId: 'another', name: 'A' });
    expect(game).toMatchObject({ err: { status: 503, retryAfter: SHARD_FULL_RETRY_AFTER_SECONDS } });
    // Raised again (the upgrade argument): the waiting sign-in and new players get in.
    await upgradeWith(DEFAULT_HEAP_LIMIT_BYTES);
    expect((await poll()).status).toBe(200);
    expect((await submit('c1')).status).toBe(200);
    expect(await status()).toMatchObject({ players: 7, full: false });
});

test('who may ask and set: shard_status for gateways and controllers, the line for operators', async () => {
    const stranger = await connectAs(s, Ed25519KeyIdentity.generate());
    expect(await stranger.call('shard_status', {})).toMatchObject({ err: { status: 403 } });
    expect(await stranger.call('admin_set_heap_limit', { heapLimitBytes: 1 })).toMatchObject({ err: { status: 403 } });
    // The gateway identity is no operator.
    const gateway = await connectAs(s, ensureIdentity(s.gatewayIdentityFile));
    expect(await gateway.call('admin_set_heap_limit', { heapLimitBytes: 1 })).toMatchObject({ err: { status: 403 } });
    expect(await s.canister.call('admin_set_heap_limit', { heapLimitBytes: -5 })).toEqual({
        err: { status: 400, message: 'Invalid heapLimitBytes: must be a non-negative integer of bytes' },
    });
    expect((await status()).heapLimitBytes).toBe(DEFAULT_HEAP_LIMIT_BYTES);
});
