// A directory with shards through the real wasm: the shard wasm uploaded in chunks to the IC's
// chunk store (as base64 in JSON, or as bytes), shards created by the directory (create_canister + install_chunked_code), games
// placed on them and played there, developers' calls forwarded, and what a stranger or a forged
// upload cannot do.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import { IDL } from '@dfinity/candid';
import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Principal } from '@dfinity/principal';

import type { Method } from '../../contract/canister';
import { OPERATOR } from '../../replica/replica';
import { connectAs, leaderboardWasm, startLeaderboard, type TestCanister } from '../support/canister';

let c: TestCanister;
let dir: Principal;
const shards: string[] = [];
let firstKey = '';
const zipped = new Uint8Array(gzipSync(leaderboardWasm()));
const sha = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');
const CHUNK = 1024 * 1024;

/** A JSON method of `canister` as `caller` (any principal), straight through the replica. */
async function as(caller: Principal, canister: string | Principal, method: string, request: unknown): Promise<any> {
    const id = typeof canister === 'string' ? Principal.fromText(canister) : canister;
    const arg = new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(request)]));
    const reply = await c.replica.update(id, method, arg, caller);
    if (!('reply' in reply)) throw new Error(`${method} rejected: ${JSON.stringify(reply)}`);
    return JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string);
}
/** A call as the method's access names, its reply untyped (tests read `ok` or `err`). */
const call = (method: Method, request: unknown): Promise<any> => c.call(method, request);
const gatewayP = (): Principal => c.gateway.getPrincipal();

async function upload(bytes: Uint8Array, hash = sha(bytes)): Promise<any> {
    let last: any;
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
        const chunk = Buffer.from(bytes.subarray(offset, offset + CHUNK)).toString('base64');
        last = await call('admin_upload_shard_wasm', { offset, total: bytes.length, sha256: hash, chunk });
        if ('err' in last) return last;
    }
    return last;
}

beforeAll(async () => {
    c = await startLeaderboard();
    dir = c.canisterId;
    await c.ok('admin_register_game', { developerId: 'dev-old', gameId: 'old-home', name: 'Before shards' });
});
afterAll(() => c.replica.stop());

test('only operators upload, create, upgrade and set locations; a forged upload is refused', async () => {
    const stranger = Ed25519KeyIdentity.generate().getPrincipal();
    const OPERATORS_ONLY = { err: { status: 403, message: 'This method is only for operators and controllers' } };
    const chunk = Buffer.from(zipped.subarray(0, 16)).toString('base64');
    for (const who of [stranger, gatewayP()]) {
        expect(
            await as(who, dir, 'admin_upload_shard_wasm', { offset: 0, total: 16, sha256: sha('x'), chunk }),
        ).toEqual(OPERATORS_ONLY);
        expect(await as(who, dir, 'admin_create_shard', {})).toEqual(OPERATORS_ONLY);
        expect(await as(who, dir, 'admin_upgrade_shards', {})).toEqual(OPERATORS_ONLY);
        expect(await as(who, dir, 'admin_set_location', { gameId: 'old-home', canisterId: dir.toText() })).toEqual(
            OPERATORS_ONLY,
        );
    }
    // Nothing uploaded: no shard can be made.
    expect(await call('admin_create_shard', {})).toEqual({
        err: { status: 409, message: 'No shard wasm: upload it first (admin_upload_shard_wasm)' },
    });
    // The right bytes under a forged hash (or forged bytes under the real hash): the IC refuses
    // them at the first install, and the upload is dropped; no shard is listed.
    expect((await upload(zipped, sha('something else'))).ok.complete).toBe(true);
    expect(await call('admin_create_shard', {})).toEqual({
        err: {
            status: 400,
            message: `Invalid sha256: the uploaded wasm does not hash to ${sha('something else')}: upload dropped, start again at offset 0`,
        },
    });
    expect((await call('admin_create_shard', {})).err.status).toBe(409);
    const tampered = zipped.slice();
    tampered[zipped.length - 100] ^= 1;
    expect((await upload(tampered, sha(zipped))).ok.complete).toBe(true);
    expect((await call('admin_upgrade_shards', {})).ok).toEqual({ upgraded: [], failed: [] });
    expect((await call('admin_create_shard', {})).err.status).toBe(400);
    expect((await call('admin_create_shard', {})).err.status).toBe(409);
    expect(c.replica.subnet.canisters.get(dir.toText())!.system.chunkStore).toEqual([]);
    // Out of order, not gzip, too large: refused.
    const half = Buffer.from(zipped.subarray(0, 8)).toString('base64');
    expect(
        await call('admin_upload_shard_wasm', { offset: 8, total: zipped.length, sha256: sha(zipped), chunk: half }),
    ).toEqual({ err: { status: 409, message: 'No upload of this wasm is under way: start again at offset 0' } });
    const plain = Buffer.from(leaderboardWasm().subarray(0, 8)).toString('base64');
    expect(
        (await call('admin_upload_shard_wasm', { offset: 0, total: 8, sha256: sha('x'), chunk: plain })).err.message,
    ).toBe('Invalid chunk: the shard wasm must be gzipped (it starts with 1f 8b)');
    expect(
        (await call('admin_upload_shard_wasm', { offset: 0, total: 5 * CHUNK, sha256: sha('x'), chunk: half })).err
            .status,
    ).toBe(400);
    expect(await c.ok('list_shards', {})).toEqual({
        shards: [{ canisterId: dir.toText(), role: 'directory', placing: true }],
    });
});

/** admin_upload_shard_wasm_bytes with `blob` as its argument, as `caller`: the reply's JSON. */
async function bytesCall(caller: Principal, blob: Uint8Array): Promise<any> {
    const arg = new Uint8Array(IDL.encode([IDL.Vec(IDL.Nat8)], [blob]));
    const reply = await c.replica.update(dir, 'admin_upload_shard_wasm_bytes', arg, caller);
    if (!('reply' in reply)) throw new Error(`rejected: ${JSON.stringify(reply)}`);
    return JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string);
}

test("a gateway's client uploads the chunks as bytes: the same answers as base64, a fraction of the instructions", async () => {
    const operator = await connectAs(c, c.operator);
    const upload = async (bytes: Uint8Array, hash = sha(bytes)): Promise<any[]> => {
        const replies: any[] = [];
        for (let offset = 0; offset < bytes.length; offset += CHUNK) {
            const chunk = Buffer.from(bytes.subarray(offset, offset + CHUNK)).toString('base64');
            replies.push(
                await operator.call('admin_upload_shard_wasm', { offset, total: bytes.length, sha256: hash, chunk }),
            );
        }
        return replies;
    };
    // The update message itself (its awaited upload_chunk's callback is the same for both).
    const instructions = (method: string): bigint =>
        c.replica
            .executions()
            .filter((e) => e.method === `canister_update ${method}`)
            .at(-1)!.instructions;
    const asBytes = await upload(zipped);
    const bytesCost = instructions('admin_upload_shard_wasm_bytes');
    const asBase64 = [];
    for (let offset = 0; offset < zipped.length; offset += CHUNK) {
        const chunk = Buffer.from(zipped.subarray(offset, offset + CHUNK)).toString('base64');
        asBase64.push(
            await call('admin_upload_shard_wasm', { offset, total: zipped.length, sha256: sha(zipped), chunk }),
        );
    }
    expect(asBytes).toEqual(asBase64);
    expect(asBytes.at(-1)).toEqual({ ok: { received: zipped.length, total: zipped.length, complete: true } });
    // (The last chunk of each: the same bytes.)
    const base64Cost = instructions('admin_upload_shard_wasm');
    console.log(`the last shard wasm chunk: ${bytesCost} instructions as bytes, ${base64Cost} as base64`);
    expect(bytesCost * 20n).toBeLessThan(base64Cost);

    // What a client refuses to send as bytes, the canister refuses as it refuses the base64.
    for (const chunk of ['not base64!', 'AB=', 'A', '']) {
        const req = { offset: 0, total: 16, sha256: sha('x'), chunk };
        expect(await operator.call('admin_upload_shard_wasm', req)).toEqual(await call('admin_upload_shard_wasm', req));
    }
    // A blob of no request, as the operator: a 400, nothing changed; a stranger's: a 403.
    const header = (head: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(head)}\n`);
    const NOT_A_CHUNK = {
        err: {
            status: 400,
            message: 'The argument must be one Candid blob: a JSON line of offset, total and sha256, then the chunk',
        },
    };
    const op = c.operator.getPrincipal();
    for (const blob of [zipped.subarray(0, 64), header([0, 16]), new TextEncoder().encode('{"offset":0\n{')])
        expect(await bytesCall(op, blob)).toEqual(NOT_A_CHUNK);
    const text = await c.replica.update(
        dir,
        'admin_upload_shard_wasm_bytes',
        new Uint8Array(IDL.encode([IDL.Text], ['x'])),
        op,
    );
    expect(JSON.parse(IDL.decode([IDL.Text], (text as { reply: Uint8Array }).reply)[0] as string)).toEqual(NOT_A_CHUNK);
    expect((await bytesCall(op, header({ offset: 0, total: 16, sha256: 'x' }))).err.message).toBe(
        'Invalid sha256: must be 64 lowercase hex digits',
    );
    expect(await bytesCall(Ed25519KeyIdentity.generate().getPrincipal(), header({}))).toEqual({
        err: { status: 403, message: 'This method is only for operators and controllers' },
    });
    // The upload above stands whole.
    expect(c.replica.subnet.canisters.get(dir.toText())!.system.chunkStore).toHaveLength(asBytes.length);
});

test('the directory creates two shards from the uploaded wasm; it is their controller and stops placing games itself', async () => {
    expect(await upload(zipped)).toEqual({ ok: { received: zipped.length, total: zipped.length, complete: true } });
    for (let i = 0; i < 2; i++) {
        const shard = await c.ok('admin_create_shard', {});
        expect(shard).toEqual({ canisterId: expect.any(String), role: 'shard', placing: true });
        shards.push(shard.canisterId);
    }
    expect(await c.ok('list_shards', {})).toEqual({
        shards: [
            { canisterId: dir.toText(), role: 'directory', placing: false },
            { canisterId: shards[0], role: 'shard', placing: true },
            { canisterId: shards[1], role: 'shard', placing: true },
        ],
    });
    for (const id of shards) {
        const system = c.replica.subnet.canisters.get(id)!.system;
        expect(system.controllers.map((p) => Principal.fromUint8Array(p).toText())).toEqual([dir.toText()]);
        expect((await as(gatewayP(), id, 'list_shards', {})).ok.shards[0].role).toBe('shard');
    }
    // The directory's own game stays where it was.
    expect(await c.ok('locate_game', { gameId: 'old-home' })).toEqual({ gameId: 'old-home', canisterId: dir.toText() });
});

test('new games go to the shards; a game on shard 2 is played and read there while shard 1 serves another', async () => {
    const one = await c.ok('admin_register_game', { developerId: 'dev-a', gameId: 'first-placed', name: 'One' });
    const two = await c.ok('admin_register_game', { developerId: 'dev-b', gameId: 'second-placed', name: 'Two' });
    expect(one.apiKey).toMatch(/^key_first-placed_/);
    firstKey = one.apiKey;
    expect(two.game.gameId).toBe('second-placed');
    expect((await c.ok('locate_game', { gameId: 'first-placed' })).canisterId).toBe(shards[0]);
    expect((await c.ok('locate_game', { gameId: 'second-placed' })).canisterId).toBe(shards[1]);
    // Taken ids are taken everywhere.
    expect(await call('admin_register_game', { developerId: 'x', gameId: 'second-placed', name: 'Again' })).toEqual({
        err: { status: 409, message: "Game ID 'second-placed' is already taken." },
    });
    expect((await call('admin_register_game', { developerId: 'x', gameId: 'old-home', name: 'A' })).err.status).toBe(
        409,
    );

    // Each shard serves its own game (the gateway is registered there) and says moved for the other.
    for (const [id, game, key] of [
        [shards[0], 'first-placed', one.apiKey],
        [shards[1], 'second-placed', two.apiKey],
    ]) {
        const reply = await as(gatewayP(), id, 'submit_scores', {
            submits: [{ apiKey: key, gameId: game, playerId: 'p1', score: 42, streak: 1 }],
        });
        expect(reply.ok[0].ok).toBeDefined();
        expect((await as(gatewayP(), id, 'leaderboard', { gameId: game })).ok.leaderboard[0].score).toBe(42);
    }
    expect(await as(gatewayP(), shards[0], 'locate_game', { gameId: 'second-placed' })).toEqual({
        err: { status: 404, message: 'This game is not on this canister', moved: true },
    });
    // Not on the directory, which lists it for operators.
    expect((await call('leaderboard', { gameId: 'second-placed' })).err.status).toBe(404);
    const listed = (await c.ok('admin_list_games', {})).map((g: any) => g.gameId);
    expect(listed).toEqual(['old-home', 'first-placed', 'second-placed']);
    expect((await c.ok('admin_list_games', { developerId: 'dev-b' })).map((g: any) => g.gameId)).toEqual([
        'second-placed',
    ]);
});

test('a developer works on their game on a shard through dev_forward; another developer and a gateway cannot', async () => {
    const signIn = async (subject: string): Promise<string> =>
        sha(
            (
                await c.ok('dev_sign_in', {
                    identity: { issuer: 'https://idp.test', subject, email: `${subject}@test`, provider: 'test' },
                })
            ).sessionToken,
        );
    const ada = await signIn('ada');
    const eve = await signIn('eve');
    const placed = await c.ok('dev_register_game', { sessionHash: ada, gameId: 'ada-game', name: 'Ada' });
    const shard = (await c.ok('locate_game', { gameId: 'ada-game' })).canisterId;
    expect(shards).toContain(shard);
    expect(placed.game.developerId).toMatch(/^dev_/);

    // The dashboard lists the game on the shard with the local ones.
    const me = await c.ok('dev_me', { sessionHash: ada });
    expect(me.developer.gameIds).toEqual(['ada-game']);
    expect(me.games.map((g: any) => g.gameId)).toEqual(['ada-game']);
    expect(me.games[0].createdAt).toBe(placed.game.createdAt);

    const forward = (sessionHash: string, method: string, request: unknown) =>
        call('dev_forward', { sessionHash, method, request });
    const renamed = await forward(ada, 'dev_update_board', {
        gameId: 'ada-game',
        scoreboardId: 'weekly',
        name: 'Week',
    });
    expect(renamed).toEqual({ ok: expect.objectContaining({ scoreboardId: 'weekly', name: 'Week' }) });
    const boards = await as(gatewayP(), shard, 'list_boards', { gameId: 'ada-game' });
    expect(JSON.stringify(boards)).toContain('"Week"');
    // dev_me sees the change (refreshed after a forwarded change), times exact to the ns.
    const after = await c.ok('dev_me', { sessionHash: ada });
    expect(after.games[0].boards.find((b: any) => b.scoreboardId === 'weekly').name).toBe('Week');
    expect(after.games[0].createdAt).toBe(placed.game.createdAt);
    // A query through the directory (an update there).
    expect((await forward(ada, 'dev_read_board', { gameId: 'ada-game', boardId: 'weekly' })).ok.totalEntries).toBe(0);

    // Another developer's session: the same 404 as for any game not theirs; a bad session 401.
    const notYours = { err: { status: 404, message: 'Game not found among your games' } };
    expect(
        await forward(eve, 'dev_update_board', { gameId: 'ada-game', scoreboardId: 'weekly', name: 'Mine' }),
    ).toEqual(notYours);
    expect(await forward(eve, 'dev_delete_game', { gameId: 'ada-game', confirm: 'ada-game' })).toEqual({
        err: { status: 400, message: 'Invalid method: must be a developer method acting on one game' },
    });
    expect(((await forward('0'.repeat(64), 'dev_rotate_key', { gameId: 'ada-game' })) as any).err.status).toBe(401);
    // Naming the developer in the request changes nothing: the session decides.
    expect(
        await forward(eve, 'dev_rotate_key', { gameId: 'ada-game', actingDeveloper: placed.game.developerId }),
    ).toEqual(notYours);
    expect(await call('dev_sign_in', { identity: {} } as any)).toHaveProperty('err');

    // A gateway (or anyone but the directory) naming actingDeveloper on the shard: refused.
    const refused = { err: { status: 403, message: "actingDeveloper is only for calls from this shard's directory" } };
    expect(
        await as(gatewayP(), shard, 'dev_rotate_key', { gameId: 'ada-game', actingDeveloper: placed.game.developerId }),
    ).toEqual(refused);
    expect(
        await as(gatewayP(), shard, 'dev_read_board', {
            gameId: 'ada-game',
            boardId: 'weekly',
            actingDeveloper: placed.game.developerId,
        }),
    ).toEqual(refused);
    expect(await as(gatewayP(), dir, 'dev_me', { sessionHash: ada, actingDeveloper: 'dev_x' })).toEqual(refused);
    expect(
        await as(Ed25519KeyIdentity.generate().getPrincipal(), shard, 'dev_rotate_key', {
            gameId: 'ada-game',
            actingDeveloper: placed.game.developerId,
        }),
    ).toEqual({ err: { status: 403, message: 'This method is only for registered gateways and controllers' } });
    // The API key still works (nothing rotated).
    const submit = await as(gatewayP(), shard, 'submit_scores', {
        submits: [{ apiKey: placed.apiKey, gameId: 'ada-game', playerId: 'p9', score: 9, streak: 1 }],
    });
    expect(submit.ok[0].ok).toBeDefined();

    // Eve cannot delete it; Ada can: gone from the directory and the shard.
    expect(await call('dev_delete_game', { sessionHash: eve, gameId: 'ada-game', confirm: 'ada-game' })).toEqual(
        notYours,
    );
    expect(await call('dev_delete_game', { sessionHash: ada, gameId: 'ada-game', confirm: 'ada-game' })).toEqual({
        ok: { message: "Game 'ada-game' and all of its data were deleted." },
    });
    expect(await call('locate_game', { gameId: 'ada-game' })).toEqual({
        err: { status: 404, message: 'Game not found' },
    });
    expect((await as(gatewayP(), shard, 'locate_game', { gameId: 'ada-game' })).err.moved).toBe(true);
    expect((await c.ok('dev_me', { sessionHash: ada })).games).toEqual([]);
});

test('an operator sets a game location; gateway lists reach every shard; upgrading the shards keeps their games', async () => {
    expect(await c.ok('admin_set_location', { gameId: 'first-placed', canisterId: shards[1] })).toEqual({
        gameId: 'first-placed',
        canisterId: shards[1],
    });
    expect((await c.ok('locate_game', { gameId: 'first-placed' })).canisterId).toBe(shards[1]);
    await c.ok('admin_set_location', { gameId: 'first-placed', canisterId: shards[0] });
    expect(((await call('admin_set_location', { gameId: 'first-placed', canisterId: 'aaaaa-aa' })) as any).err).toEqual(
        {
            status: 400,
            message: 'Invalid canisterId: must be this directory or one of its shards',
        },
    );
    expect(((await call('admin_set_location', { gameId: 'nowhere', canisterId: shards[0] })) as any).err.status).toBe(
        404,
    );

    // A new gateway set on the directory (by its controller) works on every shard at once.
    const fresh = Ed25519KeyIdentity.generate().getPrincipal();
    const set = await as(OPERATOR, dir, 'admin_set_gateways', { gateways: [gatewayP().toText(), fresh.toText()] });
    expect(set).toEqual({ ok: { gateways: [gatewayP().toText(), fresh.toText()] } });
    for (const id of shards)
        expect((await as(fresh, id, 'dev_me', { sessionHash: '0'.repeat(64) })).err.status).toBe(401);

    const upgraded = await c.ok('admin_upgrade_shards', {});
    expect(upgraded).toEqual({ upgraded: shards, failed: [] });
    expect((await as(fresh, shards[1], 'leaderboard', { gameId: 'second-placed' })).ok.leaderboard[0].score).toBe(42);
    expect((await as(fresh, shards[1], 'list_shards', {})).ok.shards[0].role).toBe('shard');
});

test('placement: the shard with the most heap room; a new shard when every one is past its line', async () => {
    const operatorP = c.operator.getPrincipal();
    const status = async (id: string) => (await as(gatewayP(), id, 'shard_status', {})).ok;
    const setLine = async (id: string, heapLimitBytes: number) =>
        expect(await as(operatorP, id, 'admin_set_heap_limit', { heapLimitBytes })).toEqual({ ok: { heapLimitBytes } });
    const register = async (gameId: string) => {
        await c.ok('admin_register_game', { developerId: 'dev-room', gameId, name: gameId });
        return (await c.ok('locate_game', { gameId })).canisterId;
    };
    // Shard 1 at half its line, shard 2 at a quarter: shard 2.
    await setLine(shards[0], (await status(shards[0])).heapBytes * 2);
    await setLine(shards[1], (await status(shards[1])).heapBytes * 4);
    expect(await register('roomy-one')).toBe(shards[1]);
    // The other way round: shard 1.
    await setLine(shards[0], (await status(shards[0])).heapBytes * 4);
    await setLine(shards[1], (await status(shards[1])).heapBytes * 2);
    expect(await register('roomy-two')).toBe(shards[0]);
    // Shard 1 full, shard 2 past 80 % of its line: the directory makes a third shard for the game.
    await setLine(shards[0], 1);
    await setLine(shards[1], Math.floor((await status(shards[1])).heapBytes / 0.85));
    expect((await status(shards[0])).full).toBe(true);
    const third = await register('overflow');
    expect(shards).not.toContain(third);
    expect((await as(gatewayP(), third, 'leaderboard', { gameId: 'overflow' })).ok.leaderboard).toEqual([]);
    expect((await c.ok('list_shards', {})).shards).toEqual([
        { canisterId: dir.toText(), role: 'directory', placing: false },
        { canisterId: shards[0], role: 'shard', placing: false },
        { canisterId: shards[1], role: 'shard', placing: true },
        { canisterId: third, role: 'shard', placing: true },
    ]);
    // On the full shard, the players it has play on; a new one is refused with the clear error.
    const submit = (playerId: string) =>
        as(gatewayP(), shards[0], 'submit_scores', {
            submits: [{ apiKey: firstKey, gameId: 'first-placed', playerId, score: 50, streak: 1 }],
        });
    await c.advance(3_000); // past the per-player pace
    const again = await submit('p1');
    expect(again.ok[0]).toEqual({ ok: expect.anything() });
    expect((await submit('p-new')).ok[0].err).toMatchObject({ status: 503, retryAfter: expect.any(Number) });
});

test("the directory snapshots its shards and loads them back: a shard upgrade's undo", async () => {
    const stranger = Ed25519KeyIdentity.generate().getPrincipal();
    for (const method of ['admin_snapshot_shards', 'admin_load_shard_snapshots'])
        expect((await as(stranger, dir, method, {})).err.status).toBe(403);
    const status = async (id: string) => (await as(gatewayP(), id, 'shard_status', {})).ok;
    const line = (await status(shards[1])).heapLimitBytes;
    const all: string[] = (await c.ok('list_shards', {})).shards
        .slice(1)
        .map((e: { canisterId: string }) => e.canisterId);
    expect(all.length).toBeGreaterThanOrEqual(2);

    const from = c.replica.executions().length;
    const taken = await c.ok('admin_snapshot_shards', {});
    const instructions = c.replica
        .executions()
        .slice(from)
        .filter((e) => e.canister === dir.toText())
        .reduce((sum, e) => sum + e.instructions, 0n);
    console.log(`admin_snapshot_shards of ${taken.snapshots.length} shards: ${instructions} instructions`);
    expect(taken.failed).toEqual([]);
    expect(taken.snapshots.map((s: { canisterId: string }) => s.canisterId)).toEqual(all);
    // Every shard serves again after its snapshot (it was stopped meanwhile).
    for (const id of all) expect((await status(id)).role).toBe('shard');

    // The shard changes after its snapshot; loading it back undoes the change, and only where asked.
    const operatorP = c.operator.getPrincipal();
    for (const id of [shards[0], shards[1]])
        await as(operatorP, id, 'admin_set_heap_limit', { heapLimitBytes: line + 12_345 });
    expect(await c.ok('admin_load_shard_snapshots', { canisterIds: [shards[1]] })).toEqual({
        loaded: [shards[1]],
        failed: [],
    });
    expect((await status(shards[1])).heapLimitBytes).toBe(line);
    expect((await status(shards[0])).heapLimitBytes).toBe(line + 12_345);
    expect((await call('admin_load_shard_snapshots', { canisterIds: ['constructor'] })).err.status).toBe(400);

    // A second round replaces each shard's snapshot: one each, still.
    const again = await c.ok('admin_snapshot_shards', {});
    expect(again.snapshots.map((s: { snapshotId: string }) => s.snapshotId)).not.toEqual(
        taken.snapshots.map((s: { snapshotId: string }) => s.snapshotId),
    );
    for (const id of all) expect(c.replica.subnet.canisters.get(id)!.system.snapshots).toHaveLength(1);
});
