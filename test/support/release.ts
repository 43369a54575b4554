// The previous release's fixture (test/fixtures/release, built by scripts/release-fixture.cjs) and
// the fill the release-upgrade tests write through its methods, with the view that reads it all
// back (test/canister/release-upgrade*.test.ts).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

import type { Identity, Method, Result } from '../../contract/canister';
import type { TestCanister } from './canister';

export const FIXTURE = path.join(__dirname, '..', 'fixtures', 'release');
export const release = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'release.json'), 'utf8')) as {
    ref: string;
    built: string;
    wasmSha256: string;
};

export function releaseWasm(): Uint8Array {
    return new Uint8Array(zlib.gunzipSync(fs.readFileSync(path.join(FIXTURE, 'leaderboard.wasm.gz'))));
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** A Wednesday noon: the first week's data, then the clock goes past Monday into the next week. */
export const START_MS = Date.parse('2026-03-04T12:00:00Z');
export const NEXT_WEEK_MS = Date.parse('2026-03-09T00:05:00Z');
export const A = 'release-a'; // operator-made: custom, targeted and weekly-targeted boards, caps
export const B = 'release-b'; // operator-made: time validation (play sessions)
export const C = 'release-c'; // a dashboard developer's: moderation, a pending request for more games
export const PLAYERS = 200;

export const alice: Identity = {
    issuer: 'https://idp.example',
    subject: 'rel-alice',
    email: 'alice@example.com',
    provider: 'google',
};
export const bob: Identity = {
    issuer: 'https://idp.example',
    subject: 'rel-bob',
    email: 'bob@example.com',
    provider: 'local',
};
export const ada: Identity = {
    issuer: 'https://idp.example',
    subject: 'rel-ada',
    email: 'ada@example.com',
    provider: 'local',
};

/** What the filled canister handed out: keys, session hashes, an open play session. */
export interface Filled {
    keys: Record<string, string>;
    aliceSession: string;
    alicePlayer: string;
    bobSession: string;
    devSession: string;
    /** A play session of b1 started before the upgrade and used after it. */
    openPlaySession: string;
    /** The tokens themselves (as the clients hold them), for calls through a gateway. */
    tokens: { alice: string; bob: string; dev: string };
}

/** Submits in batches of 200; every one must be accepted. */
export async function submitEvery(c: Pick<TestCanister, 'ok'>, submits: Array<Record<string, unknown>>): Promise<void> {
    for (let i = 0; i < submits.length; i += 200) {
        const results = await c.ok('submit_scores', { submits: submits.slice(i, i + 200) });
        const failed = results
            .map((r: any, j: number) => ({ r, s: submits[i + j] }))
            .filter(({ r }: any) => 'err' in r);
        if (failed.length > 0) throw new Error(`rejected submits: ${JSON.stringify(failed.slice(0, 3))}`);
    }
}

/** Fills `c` (a release just started at START_MS) with every kind of data; moves its clock to NEXT_WEEK_MS and on. */
export async function fill(c: TestCanister): Promise<Filled> {
    let clockMs = START_MS;
    async function move(ms: number): Promise<void> {
        await c.advance(ms);
        clockMs += ms;
    }

    const submitAll = (submits: Array<Record<string, unknown>>): Promise<void> => submitEvery(c, submits);

    const keys: Record<string, string> = {};
    for (const [gameId, name] of [
        [A, 'Release A'],
        [B, 'Release B'],
    ]) {
        const registered = await c.ok('admin_register_game', {
            developerId: 'dev-1',
            gameId,
            name,
            description: `${name}, made by the previous release`,
        });
        keys[gameId] = registered.apiKey;
    }
    await c.ok('admin_update_game', { gameId: A, description: 'Updated by an operator' });
    await c.ok('admin_create_board', { gameId: A, scoreboardId: 'season', type: 'custom', name: 'Season', days: 30 });
    await c.ok('admin_create_board', { gameId: A, scoreboardId: 'level-1', type: 'targeted', sortBy: 'streak' });
    await c.ok('admin_create_board', { gameId: A, scoreboardId: 'boss', type: 'targeted', period: 'weekly' });
    await c.ok('admin_update_board', { gameId: A, scoreboardId: 'boss', description: 'Weekly boss fight' });
    await c.ok('admin_set_caps', { gameId: A, maxScore: 100_000, maxStreak: 500 });
    await c.ok('admin_set_time_validation', {
        gameId: B,
        enabled: true,
        minPlaySeconds: 5,
        maxScorePerSecond: 100,
        sessionLifetimeSeconds: 3600,
    });
    await c.ok('admin_set_allowance', { developerId: 'dev-1', allowance: 7 });
    const anon = (gameId: string, playerId: string, rest: Record<string, unknown>) => ({
        apiKey: keys[gameId],
        gameId,
        playerId,
        ...rest,
    });

    // Week 1: every player on the fan-out boards (all-time, weekly, daily, season), some on the targeted ones.
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    await submitAll(
        range(0, PLAYERS).map((i) =>
            anon(A, `p${i}`, {
                score: (i * 7919) % 50_000,
                streak: i % 37,
                nickname: i % 4 === 0 ? `Pilot_${i}` : undefined,
            }),
        ),
    );
    await submitAll(
        range(0, 100).map((i) => anon(A, `p${i}`, { score: i, streak: (i * 31) % 53, scoreboardId: 'level-1' })),
    );
    await submitAll(range(0, 50).map((i) => anon(A, `p${i}`, { score: i * 100, streak: 0, scoreboardId: 'boss' })));
    await move(3_000);
    // Even players play again: some improve, some do worse (their bests stay).
    await submitAll(
        range(0, PLAYERS)
            .filter((i) => i % 2 === 0)
            .map((i) =>
                anon(A, `p${i}`, { score: ((i * 7919) % 50_000) + (i % 3 === 0 ? 5_000 : -1), streak: i % 41 }),
            ),
    );
    for (const i of [1, 3, 5, 7, 9, 21, 33]) {
        await c.ok('set_nickname', anon(A, `p${i}`, { nickname: i === 7 ? 'Pilot_0' : `Ace_${i}` })); // p7: taken, suffixed
    }
    for (const i of range(0, 10)) {
        await c.ok('unlock_achievements', anon(A, `p${i}`, { achievementIds: ['first-win', `level:${i}`] }));
    }
    await c.ok('unlock_achievements', anon(A, 'p7', { achievementIds: ['boss.slayer'] }));
    // Over the caps: rejected and logged for the developer.
    const [overScore, overStreak] = await c.ok('submit_scores', {
        submits: [anon(A, 'p11', { score: 200_000, streak: 1 }), anon(A, 'p13', { score: 10, streak: 900 })],
    });
    expect(overScore).toHaveProperty('err');
    expect(overStreak).toHaveProperty('err');

    // Time validation on B: play sessions, submits with them, one too fast (logged), one ended.
    const tokens: string[] = [];
    for (const i of range(0, 20)) tokens.push((await c.ok('start_play_session', anon(B, `b${i}`, {}))).ok);
    await move(10_000);
    await submitAll(
        range(0, 20).map((i) => anon(B, `b${i}`, { score: i * 50, streak: i, playSessionToken: tokens[i] })),
    );
    const fast = (await c.ok('start_play_session', anon(B, 'b-fast', {}))).ok;
    const [tooFast] = await c.ok('submit_scores', {
        submits: [anon(B, 'b-fast', { score: 10, streak: 0, playSessionToken: fast })],
    });
    expect(tooFast).toHaveProperty('err');
    const ended = (await c.ok('start_play_session', anon(B, 'b0', {}))).ok;
    await c.ok('end_play_session', { apiKey: keys[B], gameId: B, playSessionToken: ended });
    await move(3_000);

    // Into the next week: the weekly boards (and the days since) become archives.
    await move(NEXT_WEEK_MS - clockMs);
    await submitAll(
        range(100, PLAYERS + 20).map((i) =>
            anon(A, `p${i}`, {
                score: (i * 104_729) % 60_000,
                streak: i % 29,
                nickname: i >= PLAYERS ? `New_${i}` : undefined,
            }),
        ),
    );
    await submitAll(
        range(0, 20).map((i) => anon(A, `p${i}`, { score: 1_000 + i, streak: 60 - i, scoreboardId: 'level-1' })),
    );
    await submitAll(range(0, 30).map((i) => anon(A, `p${i}`, { score: 9_000 - i, streak: 1, scoreboardId: 'boss' })));

    // A signed-in player (a new account) who plays, unlocks, and merges the anonymous p150 into the account.
    const aliceApproval = await c.ok('sign_in', { gameId: A, identity: alice, nickname: 'Signed_Alice' });
    const aliceSession = sha256(aliceApproval.sessionId);
    const alicePlayer = (await c.ok('resolve_session', { gameId: A, sessionHash: aliceSession })).playerId;
    await submitAll([{ gameId: A, sessionHash: aliceSession, score: 42_424, streak: 12 }]);
    await c.ok('unlock_achievements', { gameId: A, sessionHash: aliceSession, achievementIds: ['signed-in'] });
    await c.ok('migrate_account', { gameId: A, sessionHash: aliceSession, deviceId: 'p150' });
    // Another one by device code (the TV flow).
    const code = await c.ok('device_code_start', { gameId: A, nickname: 'Couch_Bob' });
    await c.ok('device_code_approve', { userCode: code.userCode, client: '198.51.100.7', identity: bob });
    const bobApproval = await c.ok('device_code_redeem', { deviceCodeHash: sha256(code.deviceCode) });
    const bobSession = sha256(bobApproval.sessionId);
    await submitAll([{ gameId: A, sessionHash: bobSession, score: 77, streak: 7 }]);

    // A dashboard developer with their own game, a board, caps, moderation and a request for more games.
    const dev = await c.ok('dev_sign_in', { identity: ada });
    const devSession = sha256(dev.sessionToken);
    keys[C] = (await c.ok('dev_register_game', { sessionHash: devSession, gameId: C, name: 'Release C' })).apiKey;
    await c.ok('dev_create_board', {
        sessionHash: devSession,
        gameId: C,
        scoreboardId: 'speedrun',
        type: 'targeted',
        sortBy: 'score',
    });
    await c.ok('dev_set_caps', { sessionHash: devSession, gameId: C, maxScore: 9_999 });
    await submitAll(range(0, 30).map((i) => anon(C, `c${i}`, { score: i * 300, streak: i % 5 })));
    await submitAll(range(0, 10).map((i) => anon(C, `c${i}`, { score: 500 - i, streak: 0, scoreboardId: 'speedrun' })));
    const [overCap] = await c.ok('submit_scores', { submits: [anon(C, 'c-cheat', { score: 50_000, streak: 0 })] });
    expect(overCap).toHaveProperty('err');
    await c.ok('dev_ban', { sessionHash: devSession, gameId: C, playerId: 'c3', reason: 'impossible times' });
    await c.ok('dev_remove_entry', { sessionHash: devSession, gameId: C, scoreboardId: 'speedrun', playerId: 'c4' });
    await c.ok('dev_request_games', { sessionHash: devSession, games: 5, message: 'A second studio joins' });

    // A play session left open across the upgrade (used after it).
    const openPlaySession = (await c.ok('start_play_session', anon(B, 'b1', {}))).ok;
    await move(10_000);
    const held = { alice: aliceApproval.sessionId, bob: bobApproval.sessionId, dev: dev.sessionToken };
    return { keys, aliceSession, alicePlayer, bobSession, devSession, openPlaySession, tokens: held };
}

export type View = Record<string, unknown>;
export const callKey = (method: Method, request: Record<string, unknown>): string =>
    `${method} ${JSON.stringify(request)}`;

/** The `ok` reply a view holds for a call. */
export function okIn(view: View, method: Method, request: Record<string, unknown>): any {
    const reply = view[callKey(method, request)] as any;
    if (reply === undefined || !('ok' in reply))
        throw new Error(`${callKey(method, request)}: ${JSON.stringify(reply)}`);
    return reply.ok;
}

/** Everything the service answers about the filled data, read through its methods (replies as they come, errors too). */
/** Everything the service answers about the filled data, read through its methods (replies as they come, errors too). */
export async function fullView(
    call: (method: Method, request: Record<string, unknown>) => Promise<Result<unknown>>,
    filled: Filled,
): Promise<View> {
    const out: View = {};
    const read = async (method: Method, request: Record<string, unknown>): Promise<any> => {
        const reply = await call(method, request);
        out[callKey(method, request)] = reply;
        return 'ok' in reply ? reply.ok : undefined;
    };
    for (const gameId of [A, B, C]) {
        const boards = await read('list_boards', { gameId });
        for (const { scoreboardId: boardId } of boards.scoreboards) {
            await read('read_board', { gameId, boardId, limit: 1000 });
            const archives = await read('list_archives', { gameId, boardId });
            await read('read_archive', { gameId, boardId, limit: 1000 });
            for (const { archiveId } of archives.archives)
                await read('read_archive', { gameId, archiveId, limit: 1000 });
        }
        await read('leaderboard', { gameId, limit: 1000 });
        await read('leaderboard', { gameId, sort: 'streak', limit: 1000 });
        await read('game_info', { gameId });
        await read('game_stats', { gameId });
        await read('admin_suspicion_log', { gameId, limit: 1000 });
        await read('resolve_key', { apiKey: filled.keys[gameId] });
    }
    // Anonymous players of each kind (renamed, over a cap, merged into Alice, of week 2 only), and Alice (her
    // profile is her session's).
    for (const playerId of ['p0', 'p7', 'p11', 'p99', 'p150', 'p199', 'p219', filled.alicePlayer]) {
        if (playerId !== filled.alicePlayer) await read('profile', { gameId: A, playerId });
        await read('player_rank', { gameId: A, playerId });
        await read('player_rank', { gameId: A, playerId, sort: 'streak' });
        await read('board_rank', { gameId: A, boardId: 'level-1', playerId });
        await read('around', { gameId: A, boardId: 'all-time', playerId, before: 3, after: 3 });
        await read('around', { gameId: A, boardId: playerId === 'p7' ? 'boss' : 'weekly', playerId });
    }
    for (const playerId of ['b0', 'b1', 'b19']) await read('profile', { gameId: B, playerId });
    for (const sessionHash of [filled.aliceSession, filled.bobSession]) {
        await read('resolve_session', { gameId: A, sessionHash });
        await read('session_profile', { gameId: A, sessionHash });
    }
    const dev = { sessionHash: filled.devSession, gameId: C };
    await read('dev_me', { sessionHash: filled.devSession });
    await read('dev_read_board', { ...dev, boardId: 'all-time', limit: 1000 });
    await read('dev_read_board', { ...dev, boardId: 'speedrun', limit: 1000 });
    await read('dev_suspicion_log', { ...dev, limit: 1000 });
    await read('dev_moderation_log', { ...dev, limit: 1000 });
    await read('dev_analytics', { ...dev, days: 30 });
    await read('admin_list_games', {});
    await read('admin_list_games', { developerId: 'dev-1' });
    await read('admin_list_requests', {});
    await read('platform_stats', {});
    return out;
}
