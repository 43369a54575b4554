// Moving a game between two real canisters (the wasm, side by side in one replica) with the
// admin command's driver: every read answers on the target as it did on the source, the source
// answers `moved` after (its API key too), the game plays on there; a target that has the game
// refuses it; gateways cannot move games; forged chunks and a wrong checksum change nothing.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import { Principal } from '@dfinity/principal';

import { MESSAGES } from '../../contract/messages';
import { moveGame } from '../../gateway/ops/move-game';
import {
    addLeaderboard,
    connectAs as client,
    moveFirstChunk,
    initArg,
    leaderboardWasm,
    startLeaderboard,
    type TestCanister,
} from '../support/canister';
import type { Identity } from '../../contract/canister';
import { hashOf as hash, person as someone } from './service/harness';

const G = 'moving-game';
const person = (subject: string): Identity => someone(subject, 'google', `${subject}@x.example`);

let a: TestCanister;
let b: TestCanister;
let apiKey: string;
let sessionHash: string;
let serverKeyHash: string;
let playerSession: string;
let devSession: string;

async function submit(c: TestCanister, submits: object[]): Promise<any[]> {
    return c.ok('submit_scores', { submits: submits.map((s) => ({ gameId: G, apiKey, streak: 0, ...s })) });
}

/** Every read of the game, as the gateway gets them (JSON). */
async function everyRead(c: TestCanister): Promise<Record<string, unknown>> {
    const g = { gameId: G };
    const reads: Record<string, [string, object]> = {
        leaderboard: ['leaderboard', g],
        streaks: ['leaderboard', { ...g, sort: 'streak' }],
        boards: ['list_boards', g],
        daily: ['read_board', { ...g, boardId: 'daily' }],
        race: ['read_board', { ...g, boardId: 'race', limit: 50 }],
        season: ['read_board', { ...g, boardId: 'season' }],
        archives: ['list_archives', { ...g, boardId: 'season' }],
        archive: ['read_archive', { ...g, boardId: 'season' }],
        archiveStats: ['archive_stats', g],
        rank: ['player_rank', { ...g, playerId: 'p7', percentile: true }],
        around: ['around', { ...g, boardId: 'race', playerId: 'p9' }],
        players: ['board_players', { ...g, boardId: 'race', playerIds: ['p1', 'p2', 'p3'] }],
        info: ['game_info', g],
        stats: ['game_stats', g],
        p1: ['profile', { ...g, playerId: 'p1' }],
        p2: ['profile', { ...g, playerId: 'p2' }],
        p6: ['profile', { ...g, playerId: 'p6' }],
        key: ['resolve_key', { apiKey }],
        serverKey: ['resolve_server_key', { ...g, serverKeyHash }],
        events: ['read_events', { ...g, serverKeyHash }],
        session: ['resolve_session', { ...g, sessionHash: playerSession }],
        mine: ['session_profile', { ...g, sessionHash: playerSession }],
        suspicion: ['admin_suspicion_log', g],
    };
    const out: Record<string, unknown> = {};
    for (const [name, [method, req]] of Object.entries(reads)) out[name] = await c.call(method as never, req);
    return out;
}

beforeAll(async () => {
    a = await startLeaderboard();
    b = await addLeaderboard(a);
    devSession = hash((await a.ok('dev_sign_in', { identity: person('dev') })).sessionToken);
    ({ apiKey } = await a.ok('dev_register_game', { sessionHash: devSession, gameId: G, name: 'Moving' }));
    sessionHash = devSession;
    serverKeyHash = hash((await a.ok('dev_rotate_server_key', { sessionHash, gameId: G })).serverKey);
    await a.ok('dev_create_board', {
        sessionHash,
        gameId: G,
        scoreboardId: 'race',
        type: 'targeted',
        sortOrder: 'asc',
    });
    await a.ok('dev_create_board', { sessionHash, gameId: G, scoreboardId: 'season', type: 'custom', days: 1 });
    await a.ok('dev_add_webhook', { sessionHash, gameId: G, url: 'https://hooks.example/in', kinds: ['new_leader'] });
    const fanout = [];
    const race = [];
    for (let i = 0; i < 40; i++) {
        fanout.push({
            playerId: `p${i}`,
            score: 100 + ((i * 37) % 91),
            streak: i % 7,
            nickname: i % 4 === 0 ? `Named${i}` : undefined,
        });
        race.push({ playerId: `p${i}`, score: 1000 - i * 3, scoreboardId: 'race', metadata: { lap: i } });
    }
    await submit(a, fanout);
    await submit(a, race);
    await a.advance(3_000);
    await submit(a, [{ playerId: 'p3', score: 1, scoreboardId: 'season' }]);
    await a.ok('unlock_achievements', { gameId: G, apiKey, playerId: 'p1', achievementIds: ['first', 'fast'] });
    await a.ok('dev_ban', { sessionHash, gameId: G, playerId: 'p2', reason: 'cheat' });
    await a.ok('dev_ban', { sessionHash, gameId: G, playerId: 'not-yet', reason: 'early' });
    await a.ok('admin_set_caps', { gameId: G, maxScore: 10_000 });
    await submit(a, [{ playerId: 'p5', score: 99_999 }]); // refused: in the suspicion log
    playerSession = hash(
        (await a.ok('sign_in', { gameId: G, identity: person('alice'), nickname: 'Alice' })).sessionId,
    );
    await a.advance(3_000);
    await a.ok('submit_scores', { submits: [{ gameId: G, sessionHash: playerSession, score: 5000, streak: 2 }] });
    await a.ok('start_play_session', { gameId: G, apiKey, playerId: 'p6' });
    // A day passes: the season board's period closes (an archive, a period_closed event).
    await a.advance(86_400_000);
    await b.advance(0);
}, 600_000);
afterAll(() => a.replica.stop());

test('a game moved with the admin driver reads on the target exactly as on the source', async () => {
    const before = await everyRead(a);
    expect((before.archives as any).ok.archives.length).toBeGreaterThan(0);
    const lines: string[] = [];
    const report = await moveGame(G, await client(a, a.operator), await client(b, b.operator), (l) => lines.push(l));
    expect(report).toMatchObject({ gameId: G, to: b.canisterId.toText(), players: 41 });
    expect(lines.join('\n')).toMatch(/moved moving-game: \d+ chunks/);
    expect(await everyRead(b)).toEqual(before);

    // The source answers `moved` for the game, its API key too; writes and reads alike.
    const moved = { err: { status: 503, message: MESSAGES.gameMoved, moved: true } };
    expect(await a.call('resolve_key', { apiKey })).toEqual(moved);
    expect(await a.call('leaderboard', { gameId: G })).toEqual(moved);
    expect(
        await a.call('submit_scores', { submits: [{ gameId: G, apiKey, playerId: 'p1', score: 1, streak: 0 }] }),
    ).toEqual({
        ok: [moved],
    });
    // The game plays on at the target: a new player, an old one, the signed-in one.
    await b.advance(3_000);
    const replies = await b.ok('submit_scores', {
        submits: [
            { gameId: G, apiKey, playerId: 'newcomer', score: 9000, streak: 1 },
            { gameId: G, apiKey, playerId: 'p7', score: 9500, streak: 1 },
            { gameId: G, sessionHash: playerSession, score: 9999, streak: 1 },
        ],
    });
    expect(replies.every((r: object) => 'ok' in r)).toBe(true);
    const top = (await b.ok('leaderboard', { gameId: G, limit: 3 })).leaderboard.map((e: any) => e.nickname);
    expect(top[0]).toBe('Alice');
    // Moving it onto a canister that holds it: refused, nothing changed there.
    await a.ok('admin_register_game', { developerId: 'dev-x', gameId: 'other-game', name: 'Other' });
    await b.ok('admin_register_game', { developerId: 'dev-x', gameId: 'other-game', name: 'Other here' });
    await expect(
        moveGame('other-game', await client(a, a.operator), await client(b, b.operator), () => undefined),
    ).rejects.toThrow(/already holds game 'other-game'/);
    expect((await b.ok('game_info', { gameId: 'other-game' })).name).toBe('Other here');
    // The source's move was left paused: an abort lets its writes go on.
    await a.ok('move_abort', { gameId: 'other-game' });
}, 600_000);

test('gateways cannot move games; forged chunks and a wrong checksum change nothing', async () => {
    const gateway = a.gateway;
    for (const [method, req] of [
        ['move_out_begin', { gameId: 'other-game' }],
        ['move_out_chunk', { gameId: 'other-game', index: 0 }],
        ['move_out_end', { gameId: 'other-game', to: b.canisterId.toText() }],
        ['move_abort', { gameId: 'other-game' }],
        ['move_in_chunk', { gameId: 'x-game', index: 0, data: '[]' }],
        ['move_in_end', { gameId: 'x-game', chunks: 0, checksum: '' }],
    ] as const)
        expect(await a.call(method, req, gateway)).toEqual({
            err: { status: 403, message: 'This method is only for operators and controllers' },
        });
    await a.ok('admin_register_game', { developerId: 'dev-x', gameId: 'third-game', name: 'Third' });
    let begun = await a.ok('move_out_begin', { gameId: 'third-game' });
    while (!begun.ready) begun = await a.ok('move_out_begin', { gameId: 'third-game' });
    const { data } = await a.ok('move_out_chunk', { gameId: 'third-game', index: 0 });
    // Sent as another game's, or with one of its records renamed to another game: refused.
    expect(((await b.call('move_in_chunk', { gameId: 'fourth-game', index: 0, data })) as any).err.status).toBe(400);
    const forged = data.replace('"third-game",{"gameId":"third-game"', '"third-game",{"gameId":"other-game"');
    expect(forged).not.toBe(data);
    expect(((await b.call('move_in_chunk', { gameId: 'third-game', index: 0, data: forged })) as any).err.status).toBe(
        400,
    );
    for (let index = 0; index < begun.chunks; index++) {
        const chunk = await a.ok('move_out_chunk', { gameId: 'third-game', index });
        await b.ok('move_in_chunk', { gameId: 'third-game', index, data: chunk.data });
    }
    const wrong: any = await b.call('move_in_end', {
        gameId: 'third-game',
        chunks: begun.chunks,
        checksum: 'f'.repeat(64),
    });
    expect(wrong.err).toMatchObject({ status: 409, message: expect.stringMatching(/Invalid checksum/) });
    expect(((await b.call('game_info', { gameId: 'third-game' })) as any).err.status).toBe(404);
    // Dropped on the target, resumed on the source: as if nothing happened.
    await b.ok('move_abort', { gameId: 'third-game' });
    await a.ok('move_abort', { gameId: 'third-game' });
    await a.advance(3_000);
    const [ok] = await a.ok('submit_scores', {
        submits: [
            {
                gameId: 'third-game',
                apiKey: (await a.ok('admin_list_games', {})).find((g: any) => g.gameId === 'third-game').apiKey,
                playerId: 'z',
                score: 1,
                streak: 0,
            },
        ],
    });
    expect(ok).toMatchObject({ ok: {} });
}, 600_000);

test('a move that stopped half-way (the target even upgraded meanwhile) goes on when run again', async () => {
    const R = 'resumed-game';
    const { apiKey: key } = await a.ok('admin_register_game', { developerId: 'dev-r', gameId: R, name: 'Resumed' });
    await a.advance(3_000);
    const submits = Array.from({ length: 30 }, (_, i) => ({
        gameId: R,
        apiKey: key,
        playerId: `r${i}`,
        score: i * 10,
        streak: i,
    }));
    await a.ok('submit_scores', { submits });
    const before = [
        await a.ok('leaderboard', { gameId: R, limit: 100 }),
        await a.ok('read_board', { gameId: R, boardId: 'weekly', limit: 100 }),
    ];
    const begun = await moveFirstChunk(a, b, R);
    // The target's heap tables of the half import are lost: the end rebuilds them from the records.
    await b.replica.installCode(b.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [b.gateway.getPrincipal()], operators: [b.operator.getPrincipal()] }),
    });
    const report = await moveGame(R, await client(a, a.operator), await client(b, b.operator), () => undefined);
    expect(report.chunks).toBe(begun.chunks);
    await b.advance(1_000); // the rebuild timer
    expect([
        await b.ok('leaderboard', { gameId: R, limit: 100 }),
        await b.ok('read_board', { gameId: R, boardId: 'weekly', limit: 100 }),
    ]).toEqual(before);
}, 600_000);

test("a directory's own game moves to its shard: the directory then locates it there", async () => {
    const d = await startLeaderboard();
    try {
        // A game the directory held before it had shards (an upgraded single canister's).
        const { apiKey: key } = await d.ok('admin_register_game', {
            developerId: 'dev-h',
            gameId: 'home-game',
            name: 'Home',
        });
        await d.ok('submit_scores', {
            submits: [{ gameId: 'home-game', apiKey: key, playerId: 'h1', score: 10, streak: 1 }],
        });
        const before = await d.ok('leaderboard', { gameId: 'home-game' });
        const zipped = new Uint8Array(gzipSync(leaderboardWasm()));
        const sha256 = createHash('sha256').update(zipped).digest('hex');
        for (let offset = 0; offset < zipped.length; offset += 1024 * 1024) {
            const chunk = Buffer.from(zipped.subarray(offset, offset + 1024 * 1024)).toString('base64');
            await d.ok('admin_upload_shard_wasm', { offset, total: zipped.length, sha256, chunk });
        }
        const shard = (await d.ok('admin_create_shard', {})).canisterId as string;
        expect(await d.ok('locate_game', { gameId: 'home-game' })).toEqual({
            gameId: 'home-game',
            canisterId: d.canisterId.toText(),
        });
        const target = await client({ replica: d.replica, canisterId: Principal.fromText(shard) }, d.operator);
        const report = await moveGame('home-game', await client(d, d.operator), target, () => undefined);
        expect(report.located).toBe(true);
        expect(await d.ok('locate_game', { gameId: 'home-game' })).toEqual({ gameId: 'home-game', canisterId: shard });
        expect(await target.ok('leaderboard', { gameId: 'home-game' })).toEqual(before);
        expect(await d.call('leaderboard', { gameId: 'home-game' })).toEqual({
            err: { status: 503, message: MESSAGES.gameMoved, moved: true },
        });
    } finally {
        await d.replica.stop();
    }
}, 600_000);
