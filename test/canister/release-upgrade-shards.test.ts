// The single-canister release becomes directory + shard 1: the previous release's wasm, filled as
// the release-upgrade test fills it (test/support/release.ts), is upgraded to this build, gets a
// shard, and the operator's `move-games` (the admin CLI in production mode) moves every game to
// it; interrupted moves are aborted (`--abort`) or finished by the next run, and a run after that
// moves nothing. Then nothing is lost: every read of the fill answers on the shard as it did on
// the directory (boards, entries, archives, players and names, achievements, play sessions,
// sessions, bans, stats, suspicion and moderation logs, keys), webhooks too, the directory holds
// no game and keeps its developers (dev_me lists the moved games) and its account records (a
// second shard signs a release's player in as the same account), accounts keep their ids, a
// player session and a dashboard session issued by the release work through a gateway, a router
// that located the games before the move sends their submits to the shard, and a board path read
// at the directory's URL redirects to the shard with the same answer.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

import { Principal } from '@dfinity/principal';

import { METHODS, type Method } from '../../contract/canister';
import { DEFAULT_HEAP_LIMIT_BYTES } from '../../contract/shards';
import { connectCanister, type CanisterClient } from '../../gateway/ic/canister';
import { runAdmin } from '../../gateway/admin';
import { ensureIdentity } from '../../gateway/ic/identity';
import { moveGames, type MoveGamesReport } from '../../gateway/ops/move-game';
import { serveGateway, type RunningGateway } from '../../gateway/server/serve';
import { shardRouter } from '../../gateway/ic/shards';
import { ensureShards } from '../../local/shards';
import { initArg, leaderboardWasm, moveFirstChunk, startLeaderboard, type TestCanister } from '../support/canister';
import { dashboardHeaders } from '../support/gateway';
import { asTheGateway } from '../support/routed';
import { tempDir } from '../support/replica';
import {
    A,
    B,
    C,
    PLAYERS,
    START_MS,
    alice,
    bob,
    fill,
    fullView,
    okIn,
    release,
    releaseWasm,
    sha256,
    submitEvery,
    type Filled,
    type View,
} from '../support/release';

const D = 'after-upgrade'; // made on the directory after the upgrade, before any shard

let c: TestCanister;
let filled: Filled;
let gateway: RunningGateway | undefined;
const saved = { ...process.env };
const stderr: string[] = [];

beforeAll(async () => {
    const wasm = releaseWasm();
    expect(sha256(wasm)).toBe(release.wasmSha256);
    c = await startLeaderboard({ wasm, startTime: BigInt(START_MS) * 1_000_000n });
    filled = await fill(c);
}, 600_000);
afterAll(async () => {
    process.env = saved;
    await gateway?.close();
    await c.replica.stop();
});

const clientAs = (identity: TestCanister['gateway']): Promise<CanisterClient> =>
    connectCanister({
        host: c.replica.url,
        canisterId: c.canisterId,
        identity,
        fetchRootKey: true,
        log: () => undefined,
    });

/** The admin CLI in production mode (IC_HOST, CANISTER_ID, the PEMs): its one JSON line. */
async function admin(...args: string[]): Promise<any> {
    const lines: string[] = [];
    // Progress goes to stderr: kept for the figures.
    const progress = jest.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
    try {
        await runAdmin(args, (line) => lines.push(line));
    } finally {
        progress.mockRestore();
    }
    return JSON.parse(lines[lines.length - 1]);
}

test(`the release (${release.ref.slice(0, 7)}) becomes directory + shard 1: every game moved, nothing lost`, async () => {
    const onRelease = await fullView((m, r) => c.call(m, r), filled);
    // A gateway and an operator of production (PEM files, as the admin CLI runs against the IC),
    // registered by the upgrade's argument beside the test's own.
    const dir = tempDir('release-shards');
    const pems = { gateway: `${dir}/gateway.pem`, operator: `${dir}/operator.pem` };
    const [gatewayId, operatorId] = [ensureIdentity(pems.gateway), ensureIdentity(pems.operator)];
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({
            gateways: [c.gateway.getPrincipal(), gatewayId.getPrincipal()],
            operators: [c.operator.getPrincipal(), operatorId.getPrincipal()],
        }),
    });
    expect(await fullView((m, r) => c.call(m, r), filled)).toEqual(onRelease);

    // What the release could not hold: a webhook and a server key (C), and a game made by this build.
    await c.ok('dev_add_webhook', {
        sessionHash: filled.devSession,
        gameId: C,
        url: 'https://hooks.example/in',
        kinds: ['new_leader'],
    });
    const serverKeyHash = sha256(
        (await c.ok('dev_rotate_server_key', { sessionHash: filled.devSession, gameId: C })).serverKey,
    );
    const { apiKey: keyD } = await c.ok('admin_register_game', { developerId: 'dev-1', gameId: D, name: 'After' });
    filled.keys[D] = keyD;
    await submitEvery(c, [{ apiKey: keyD, gameId: D, playerId: 'd1', score: 5, streak: 1 }]);

    Object.assign(process.env, {
        IC_HOST: c.replica.url,
        CANISTER_ID: c.canisterId.toText(),
        GATEWAY_IDENTITY_PEM: pems.gateway,
        OPERATOR_IDENTITY_PEM: pems.operator,
    });
    // Without a shard there is nowhere to move to: said so, nothing changes.
    await expect(admin('move-games')).rejects.toThrow(/no shards: create one first/);

    const directoryGateway = await clientAs(c.gateway);
    const operator = await clientAs(c.operator);
    const clients = { gateway: asTheGateway(shardRouter(directoryGateway)), operator: shardRouter(operator).routed };
    const call = (method: Method, request: Record<string, unknown>) =>
        clients[METHODS[method].access === 'operator' ? 'operator' : 'gateway'].call(method, request as never);
    const { shards, sha256: uploaded } = await ensureShards(operator, leaderboardWasm(), 1);
    const shard = shards[0].canisterId;
    const atShard = operator.forCanister!(Principal.fromText(shard));
    const log: string[] = [];

    // 1. A move of D cut short after its first chunk, then aborted: D plays on on the directory.
    let begun = await moveFirstChunk(operator, atShard, D);
    const aborted: MoveGamesReport = await admin('move-games', '--abort');
    expect(aborted).toMatchObject({ moved: [], finished: [], aborted: [D] });
    expect(aborted.remaining.sort()).toEqual([A, B, C, D].sort());
    expect(
        await c.ok('submit_scores', { submits: [{ apiKey: keyD, gameId: D, playerId: 'd2', score: 7, streak: 0 }] }),
    ).toEqual([{ ok: expect.anything() }]);

    // The shard drops the half import in bounded steps (the deleted-game purge, on its timer).
    await c.advance(30_000);
    // A deactivated game moves as it is.
    await operator.ok('admin_update_game', { gameId: D, isActive: false });

    // What every read answers with all games on the directory (D back there).
    const before: View = await fullView(call, filled);
    const webhooksBefore = await call('dev_list_webhooks', { sessionHash: filled.devSession, gameId: C });
    const eventsBefore = await call('read_events', { gameId: C, serverKeyHash });
    const boardPath = `/games/${A}/scoreboards/all-time?limit=50`;
    const directBefore = await (await fetch(`${c.replica.url}${boardPath}&canisterId=${c.canisterId.toText()}`)).json();

    // 2. B cut short half-way (one chunk sent), C after the shard activated it (the directory not told).
    for (const gameId of [B, C]) {
        begun = await operator.ok('move_out_begin', { gameId });
        while (!begun.ready) begun = await operator.ok('move_out_begin', { gameId });
        const sent = gameId === B ? 1 : begun.chunks;
        for (let index = 0; index < sent; index++) {
            const { data } = await operator.ok('move_out_chunk', { gameId, index });
            await atShard.ok('move_in_chunk', { gameId, index, data });
        }
        if (gameId === C) await atShard.ok('move_in_end', { gameId, chunks: begun.chunks, checksum: begun.checksum });
    }
    if (begun.chunks < 1) throw new Error('C staged no chunk');
    // Paused meanwhile: B's writes answer that the game is moving.
    const paused = await c.call('submit_scores', {
        submits: [{ apiKey: filled.keys[B], gameId: B, playerId: 'b5', score: 1, streak: 0 }],
    });
    expect(JSON.stringify(paused)).toMatch(/moving/);

    // 3. The operator's run: C finished, the rest moved one at a time; B goes on where it stopped.
    const executed = c.replica.executions().length;
    const run: MoveGamesReport = await admin('move-games');
    // Metered instructions of the run's move messages (figures for docs/deploy.md).
    const metered = new Map<string, { calls: number; total: bigint; max: bigint }>();
    for (const e of c.replica.executions().slice(executed)) {
        if (!/ (move_|admin_set_location)/.test(e.method)) continue;
        const m = metered.get(e.method) ?? { calls: 0, total: 0n, max: 0n };
        metered.set(e.method, {
            calls: m.calls + 1,
            total: m.total + e.instructions,
            max: e.instructions > m.max ? e.instructions : m.max,
        });
    }
    for (const [method, m] of metered) log.push(`${method}: ${m.calls} calls, ${m.total} instructions (max ${m.max})`);
    expect(run).toMatchObject({ finished: [C], aborted: [], remaining: [] });
    expect(run.moved.map((m) => m.gameId)).toEqual([D, A, B]); // in id order
    for (const m of run.moved) {
        expect(m).toMatchObject({ from: c.canisterId.toText(), to: shard, located: true });
        log.push(`${m.gameId}: ${m.players} players, ${m.chunks} chunks, ${m.bytes} bytes, ${m.seconds.toFixed(2)} s`);
    }
    // A shard named as the directory is refused before anything moves.
    await expect(moveGames(atShard, { log: () => undefined })).rejects.toThrow(
        `${shard} is a shard: name its directory`,
    );
    // 4. Again: nothing to do.
    expect(await moveGames(operator, { log: () => undefined })).toEqual({
        moved: [],
        finished: [],
        aborted: [],
        remaining: [],
    });
    console.log(`move-games (the release's fill, this machine's wall time per game):\n${log.join('\n')}`);

    // Every game is on the shard; the directory holds none (its own calls for them answer `moved`).
    for (const gameId of [A, B, C, D]) {
        expect(await operator.ok('locate_game', { gameId })).toEqual({ gameId, canisterId: shard });
        expect(await directoryGateway.call('game_info', { gameId })).toMatchObject({ err: { moved: true } });
    }
    expect(await directoryGateway.ok('shard_status', {})).toMatchObject({ role: 'directory', games: 0, players: 0 });
    const onShard = await atShard.ok('admin_list_games', {});
    expect(onShard.map((g) => [g.gameId, g.isActive]).sort()).toEqual([
        [D, false],
        [A, true],
        [B, true],
        [C, true],
    ]);

    // Every read answers as before the move (a fresh router: the gateway's first lookups).
    const after = await fullView(
        (method, request) =>
            shardRouter(METHODS[method].access === 'operator' ? operator : directoryGateway).routed.call(
                method,
                request as never,
            ),
        filled,
    );
    expect(after).toEqual(before);
    expect(okIn(after, 'read_board', { gameId: A, boardId: 'all-time', limit: 1000 }).totalEntries).toBe(PLAYERS + 21);
    expect(okIn(after, 'dev_me', { sessionHash: filled.devSession }).games).toEqual([
        expect.objectContaining({ gameId: C }),
    ]);
    expect(await call('dev_list_webhooks', { sessionHash: filled.devSession, gameId: C })).toEqual(webhooksBefore);
    expect(await call('read_events', { gameId: C, serverKeyHash })).toEqual(eventsBefore);

    // Accounts moved with their games: a person the release knew signs in to a game placed on the
    // shard later as the same account (same player id), not a new one.
    await operator.ok('admin_register_game', { developerId: 'dev-1', gameId: 'placed-later', name: 'Placed' });
    expect((await operator.ok('locate_game', { gameId: 'placed-later' })).canisterId).toBe(shard);
    const again = await call('sign_in', { gameId: 'placed-later', identity: alice });
    expect(again).toMatchObject({ ok: { isNewUser: false, nickname: 'Signed_Alice' } });
    const session = sha256((again as any).ok.sessionId);
    expect(await call('resolve_session', { gameId: 'placed-later', sessionHash: session })).toMatchObject({
        ok: { playerId: filled.alicePlayer },
    });

    // The directory's URL redirects a board path to the shard, which answers as the directory did.
    const url = `${c.replica.url}${boardPath}&canisterId=${c.canisterId.toText()}`;
    const redirect = await fetch(url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toContain(`canisterId=${shard}`);
    const followed = (await (await fetch(url)).json()) as any;
    expect(followed).toEqual(directBefore);

    // The directory kept its account records (the identity registry): a second shard, which never
    // held a game of the release, signs Bob in as the account the release made for him.
    const two = (await ensureShards(operator, leaderboardWasm(), 2, uploaded)).shards;
    const shard2 = two.find((e) => e.canisterId !== shard)!.canisterId;
    await atShard.ok('admin_set_heap_limit', { heapLimitBytes: 0 }); // shard 1 full: the next game goes to shard 2
    await operator.ok('admin_register_game', { developerId: 'dev-1', gameId: 'on-shard-2', name: 'Two' });
    await atShard.ok('admin_set_heap_limit', { heapLimitBytes: DEFAULT_HEAP_LIMIT_BYTES });
    expect((await operator.ok('locate_game', { gameId: 'on-shard-2' })).canisterId).toBe(shard2);
    const bobThere = (await call('sign_in', { gameId: 'on-shard-2', identity: bob })) as any;
    expect(bobThere).toMatchObject({ ok: { isNewUser: false, nickname: 'Couch_Bob' } });
    const bobPlayer = okIn(before, 'resolve_session', { gameId: A, sessionHash: filled.bobSession }).playerId;
    expect(
        await call('resolve_session', { gameId: 'on-shard-2', sessionHash: sha256(bobThere.ok.sessionId) }),
    ).toMatchObject({ ok: { playerId: bobPlayer } });

    // Through a gateway: the release's player sessions and the developer's dashboard session.
    const secret = new Uint8Array(randomBytes(32));
    gateway = await serveGateway({
        canister: directoryGateway,
        port: 0,
        host: '127.0.0.1',
        readCacheTtlSeconds: 0,
        signIn: { publicUrl: '', secret, providers: [] },
    });
    const get = async (path: string, headers: Record<string, string>) => {
        const res = await fetch(`${gateway!.url}${path}`, { headers });
        return { status: res.status, body: (await res.json()) as any };
    };
    const profile = await get('/auth/profile', { 'X-Game-ID': A, 'X-Session-Token': filled.tokens.alice });
    expect(profile.status).toBe(200);
    const kept = okIn(before, 'session_profile', { gameId: A, sessionHash: filled.aliceSession });
    expect(profile.body.data).toMatchObject({
        nickname: 'Signed_Alice',
        gameProfile: { score: kept.gameProfile.score, achievements: kept.gameProfile.achievements },
    });
    const bobs = await get('/auth/profile', { 'X-Game-ID': A, 'X-Session-Token': filled.tokens.bob });
    expect(bobs.body.data).toMatchObject({ nickname: 'Couch_Bob' });
    const submitted = await fetch(`${gateway.url}/scores`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Game-ID': A, 'X-Session-Token': filled.tokens.alice },
        body: JSON.stringify({ gameId: A, score: 99_000, streak: 13 }),
    });
    expect(await submitted.json()).toEqual({ ok: true, data: { message: 'Score submitted: new personal best!' } });
    const me = await get('/dashboard/api/me', dashboardHeaders(secret, filled.tokens.dev));
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain(C);
    // The play session the release opened, used on the shard.
    expect(
        await call('submit_scores', {
            submits: [
                {
                    apiKey: filled.keys[B],
                    gameId: B,
                    playerId: 'b1',
                    score: 999,
                    streak: 2,
                    playSessionToken: filled.openPlaySession,
                },
            ],
        }),
    ).toEqual({ ok: [{ ok: { message: 'Score submitted: new personal best!' } }] });

    fs.rmSync(dir, { recursive: true, force: true });
}, 900_000);
