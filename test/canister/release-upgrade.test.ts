// Upgrades from what is deployed: the previous release's wasm (test/fixtures/release, built by
// scripts/release-fixture.cjs) is installed and filled through its methods with every kind of
// data the service keeps (games, boards of each kind, settings, ~200 players in batches,
// nicknames, achievements, play sessions, a signed-in account, a merged anonymous player, a
// device-code sign-in, a developer with a game, moderation and a pending request, and a week
// rolled over into archives); then it is upgraded to the current build and everything must
// read the same, twice (release -> current -> current). The Candid interface of the release
// must also still be served unchanged by canister/leaderboard.did.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

import type { Identity, Method } from '../../contract/canister';
import { initArg, leaderboardWasm, startLeaderboard, type TestCanister } from '../support/canister';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'release');
const CURRENT_DID = path.join(__dirname, '..', '..', 'canister', 'leaderboard.did');
const release = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'release.json'), 'utf8')) as {
    ref: string;
    built: string;
    wasmSha256: string;
};

function releaseWasm(): Uint8Array {
    return new Uint8Array(zlib.gunzipSync(fs.readFileSync(path.join(FIXTURE, 'leaderboard.wasm.gz'))));
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

// ---- the upgrade from the previous release ------------------------------------------------------------

/** A Wednesday noon: the first week's data, then the clock goes past Monday into the next week. */
const START_MS = Date.parse('2026-03-04T12:00:00Z');
const NEXT_WEEK_MS = Date.parse('2026-03-09T00:05:00Z');
const A = 'release-a'; // operator-made: custom, targeted and weekly-targeted boards, caps
const B = 'release-b'; // operator-made: time validation (play sessions)
const C = 'release-c'; // a dashboard developer's: moderation, a pending request for more games
const PLAYERS = 200;

const alice: Identity = {
    issuer: 'https://idp.example',
    subject: 'rel-alice',
    email: 'alice@example.com',
    provider: 'google',
};
const bob: Identity = {
    issuer: 'https://idp.example',
    subject: 'rel-bob',
    email: 'bob@example.com',
    provider: 'local',
};
const ada: Identity = {
    issuer: 'https://idp.example',
    subject: 'rel-ada',
    email: 'ada@example.com',
    provider: 'local',
};

/** What the filled canister handed out: keys, session hashes, an open play session. */
interface Filled {
    keys: Record<string, string>;
    aliceSession: string;
    alicePlayer: string;
    bobSession: string;
    devSession: string;
    /** A play session of b1 started before the upgrade and used after it. */
    openPlaySession: string;
}

let c: TestCanister;
let filled: Filled;
let clockMs = START_MS;

async function move(ms: number): Promise<void> {
    await c.advance(ms);
    clockMs += ms;
}

/** Submits in batches of 200; every one must be accepted. */
async function submitAll(submits: Array<Record<string, unknown>>): Promise<void> {
    for (let i = 0; i < submits.length; i += 200) {
        const results = await c.ok('submit_scores', { submits: submits.slice(i, i + 200) });
        const failed = results
            .map((r: any, j: number) => ({ r, s: submits[i + j] }))
            .filter(({ r }: any) => 'err' in r);
        if (failed.length > 0) throw new Error(`rejected submits: ${JSON.stringify(failed.slice(0, 3))}`);
    }
}

async function fill(): Promise<Filled> {
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
    return { keys, aliceSession, alicePlayer, bobSession, devSession, openPlaySession };
}

type View = Record<string, unknown>;
const callKey = (method: Method, request: Record<string, unknown>): string => `${method} ${JSON.stringify(request)}`;

/** The `ok` reply a view holds for a call. */
function okIn(view: View, method: Method, request: Record<string, unknown>): any {
    const reply = view[callKey(method, request)] as any;
    if (reply === undefined || !('ok' in reply))
        throw new Error(`${callKey(method, request)}: ${JSON.stringify(reply)}`);
    return reply.ok;
}

/** Everything the service answers about the filled data, read through its methods (replies as they come, errors too). */
async function fullView(): Promise<View> {
    const out: View = {};
    const read = async (method: Method, request: Record<string, unknown>): Promise<any> => {
        const reply = await c.call(method, request);
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

async function upgradeTo(wasm: Uint8Array): Promise<void> {
    await c.replica.installCode(c.canisterId, wasm, {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
    });
}

beforeAll(async () => {
    const wasm = releaseWasm();
    expect(sha256(wasm)).toBe(release.wasmSha256); // the fixture is what release.json says it is
    c = await startLeaderboard({ wasm, startTime: BigInt(START_MS) * 1_000_000n });
    filled = await fill();
});
afterAll(() => c.replica.stop());

test(`the previous release's data (${release.ref.slice(0, 7)}) survives the upgrade to this build, and again to itself`, async () => {
    const before = await fullView();
    // The view holds what was written: ~220 players, a week archived, sessions alive.
    // p0..p219 and Bob; p150 was merged into Alice.
    expect(okIn(before, 'read_board', { gameId: A, boardId: 'all-time', limit: 1000 }).totalEntries).toBe(PLAYERS + 21);
    expect(okIn(before, 'list_archives', { gameId: A, boardId: 'weekly' }).archives).toEqual([
        expect.objectContaining({ entryCount: PLAYERS }),
    ]);
    expect(okIn(before, 'list_archives', { gameId: A, boardId: 'boss' }).archives).toEqual([
        expect.objectContaining({ entryCount: 50 }),
    ]);
    expect(okIn(before, 'resolve_session', { gameId: A, sessionHash: filled.aliceSession })).toMatchObject({
        playerId: filled.alicePlayer,
    });
    expect(okIn(before, 'session_profile', { gameId: A, sessionHash: filled.bobSession })).toMatchObject({
        nickname: 'Couch_Bob',
    });
    expect(okIn(before, 'dev_me', { sessionHash: filled.devSession }).games).toHaveLength(1);
    expect(okIn(before, 'dev_moderation_log', { sessionHash: filled.devSession, gameId: C, limit: 1000 })).toHaveLength(
        2,
    );
    expect(okIn(before, 'admin_list_requests', {})).toHaveLength(1);
    for (const [gameId, logged] of [
        [A, 2],
        [B, 1],
        [C, 1],
    ] as const) {
        expect(okIn(before, 'admin_suspicion_log', { gameId, limit: 1000 })).toHaveLength(logged);
    }

    const executions = c.replica.executions().length;
    await upgradeTo(leaderboardWasm());
    const upgrade = c.replica.executions().slice(executions);
    expect(upgrade.filter((e) => e.method === 'canister_pre_upgrade' && e.error === undefined)).toHaveLength(1);
    expect(upgrade.filter((e) => e.method === 'canister_post_upgrade' && e.error === undefined)).toHaveLength(1);
    expect(await fullView()).toEqual(before);

    // Writes carry on: the play session opened by the release, a signed-in submit, an anonymous one.
    const [played, signedIn, anonymous] = await c.ok('submit_scores', {
        submits: [
            {
                apiKey: filled.keys[B],
                gameId: B,
                playerId: 'b1',
                score: 999,
                streak: 2,
                playSessionToken: filled.openPlaySession,
            },
            { gameId: A, sessionHash: filled.aliceSession, score: 99_000, streak: 13 },
            { apiKey: filled.keys[A], gameId: A, playerId: 'p0', score: 98_000, streak: 0 },
        ],
    });
    expect([played, signedIn, anonymous]).toEqual([
        { ok: { message: 'Score submitted: new personal best!' } },
        { ok: { message: 'Score submitted: new personal best!' } },
        { ok: { message: 'Score submitted: new personal best!' } },
    ]);
    expect((await c.ok('player_rank', { gameId: A, playerId: filled.alicePlayer })).rank).toBe(1);
    expect((await c.ok('player_rank', { gameId: A, playerId: 'p0' })).rank).toBe(2);
    expect((await c.ok('profile', { gameId: B, playerId: 'b1' })).gameProfile.score).toBe(999);
    // The release's names (kept under lower-cased keys) stay unique against look-alikes (I/l/1, O/0).
    await c.ok('set_nickname', { apiKey: filled.keys[A], gameId: A, playerId: 'p2', nickname: 'PIlot_4O' });
    expect((await c.ok('profile', { gameId: A, playerId: 'p2' })).nickname).toBe('PIlot_4O_1'); // Pilot_40 is p40's
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[A], gameId: A, playerId: 'p6', nickname: 'ACE_2l' }))
            .nickname,
    ).toBe('ACE_2l_1'); // Ace_21
    // Names are now unique per game: the release's names are free in the other games.
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[B], gameId: B, playerId: 'b2', nickname: 'Pilot_40' }))
            .nickname,
    ).toBe('Pilot_40');
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[C], gameId: C, playerId: 'c5', nickname: 'couch_bob' }))
            .nickname,
    ).toBe('couch_bob');
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[B], gameId: B, playerId: 'b3', nickname: 'Pil0t_4O' }))
            .nickname,
    ).toBe('Pil0t_4O_1'); // b2's now, in B
    // Accounts carry their names into other games: free there as they are, taken suffixed (N2).
    expect((await c.ok('sign_in', { gameId: B, identity: alice })).nickname).toBe('Signed_Alice');
    expect((await c.ok('sign_in', { gameId: C, identity: bob })).nickname).toBe('Couch_Bob_1');
    // Each game goes on handing out defaults that none of its players holds.
    await submitAll([
        { apiKey: filled.keys[A], gameId: A, playerId: 'a-new', score: 1, streak: 0 },
        { apiKey: filled.keys[C], gameId: C, playerId: 'c-new', score: 1, streak: 0 },
    ]);
    for (const gameId of [A, C]) {
        const names = (await c.ok('leaderboard', { gameId, limit: 1000 })).leaderboard.map((e: { nickname: string }) =>
            e.nickname.toLowerCase(),
        );
        expect(new Set(names).size).toBe(names.length);
    }

    const beforeSecond = await fullView();
    expect(beforeSecond).not.toEqual(before);
    await upgradeTo(leaderboardWasm());
    expect(await fullView()).toEqual(beforeSecond);
});

// ---- the Candid interface of the previous release ------------------------------------------------------

/** A piece of Candid as written (whitespace collapsed, for messages) and normalized (for comparing). */
interface CandidText {
    text: string;
    norm: string;
}

interface Interface {
    /** The service's init arguments. */
    init: CandidText;
    /** Method name -> its signature (`(args) -> (results) annotations`). */
    methods: Map<string, CandidText>;
    /** Type name -> its definition. */
    types: Map<string, CandidText>;
}

/** Whitespace only where Candid needs it (between words), no trailing `;` in records. */
function candid(text: string): CandidText {
    const collapsed = text.replace(/\s+/g, ' ').trim();
    return {
        text: collapsed,
        norm: collapsed.replace(/\s*([{}();:,=]|->)\s*/g, '$1').replace(/;}/g, '}'),
    };
}

/** Splits `text` at `separator` where it is outside any (), {} or "". */
function splitTopLevel(text: string, separator: string): string[] {
    const parts: string[] = [];
    let depth = 0;
    let quoted = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (quoted) {
            if (ch === '\\') i++;
            else if (ch === '"') quoted = false;
        } else if (ch === '"') quoted = true;
        else if (ch === '(' || ch === '{') depth++;
        else if (ch === ')' || ch === '}') depth--;
        else if (ch === separator && depth === 0) {
            parts.push(text.slice(start, i));
            start = i + 1;
        }
    }
    parts.push(text.slice(start));
    return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The type definitions and the service block of a .did file (`type X = ...;` then `service : (init) -> {...}`). */
function parseDid(did: string): Interface {
    const text = did.replace(/\/\/[^\n]*/g, '');
    const serviceAt = text.search(/\bservice\s*:/);
    if (serviceAt < 0) throw new Error('no service in the .did');
    const types = new Map<string, CandidText>();
    for (const definition of splitTopLevel(text.slice(0, serviceAt), ';')) {
        const m = /^type\s+("[^"]*"|[A-Za-z_][A-Za-z0-9_]*)\s*=\s*([\s\S]*)$/.exec(definition);
        if (m === null) throw new Error(`not a type definition: ${definition}`);
        types.set(m[1], candid(m[2]));
    }
    const open = text.indexOf('{', serviceAt);
    const close = text.lastIndexOf('}');
    const init = candid(text.slice(text.indexOf(':', serviceAt) + 1, open).replace(/->\s*$/, ''));
    const methods = new Map<string, CandidText>();
    for (const entry of splitTopLevel(text.slice(open + 1, close), ';')) {
        const m = /^("[^"]*"|[A-Za-z_][A-Za-z0-9_]*)\s*:\s*([\s\S]*)$/.exec(entry);
        if (m === null) throw new Error(`not a method: ${entry}`);
        methods.set(m[1].replace(/^"(.*)"$/, '$1'), candid(m[2]));
    }
    return { init, methods, types };
}

const ADVICE =
    "changing a method's type can break existing clients; if the change is a compatible Candid subtype, prove it " +
    '(didc check) and rebuild the release fixture with node scripts/release-fixture.cjs <new release ref>';

/** What the current interface breaks of the previous one (empty: every old client still works). */
function incompatibilities(previous: Interface, current: Interface): string[] {
    const problems: string[] = [];
    if (current.init.norm !== previous.init.norm) {
        problems.push(
            `the service's init argument changed (upgrades pass it): the release has service: ${previous.init.text}, ` +
                `canister/leaderboard.did has service: ${current.init.text}; ${ADVICE}`,
        );
    }
    for (const [name, signature] of previous.methods) {
        const now = current.methods.get(name);
        if (now === undefined) {
            problems.push(
                `method ${name} of the release (${name}: ${signature.text}) is missing from canister/leaderboard.did; ${ADVICE}`,
            );
        } else if (now.norm !== signature.norm) {
            problems.push(
                `method ${name} changed: the release has ${name}: ${signature.text}, ` +
                    `canister/leaderboard.did has ${name}: ${now.text}; ${ADVICE}`,
            );
        }
    }
    for (const [name, definition] of previous.types) {
        const now = current.types.get(name);
        if (now?.norm !== definition.norm) {
            problems.push(
                `type ${name} changed: the release has type ${name} = ${definition.text}, ` +
                    `canister/leaderboard.did has ${now === undefined ? 'no such type' : `type ${name} = ${now.text}`}; ${ADVICE}`,
            );
        }
    }
    return problems;
}

describe('Candid compatibility with the previous release', () => {
    const previous = parseDid(fs.readFileSync(path.join(FIXTURE, 'leaderboard.did'), 'utf8'));
    const current = parseDid(fs.readFileSync(CURRENT_DID, 'utf8'));

    test('every method and type of the release is served unchanged (methods may be added)', () => {
        expect(previous.methods.size).toBeGreaterThan(50);
        const problems = incompatibilities(previous, current);
        if (problems.length > 0) throw new Error(problems.join('\n\n'));
    });

    test('the check names what changed, with both signatures and what to do', () => {
        const did = (methods: string, types = '') => parseDid(`${types}\nservice: (opt text) -> {\n${methods}\n}\n`);
        const old = did(
            '    leaderboard: (text) -> (text) query;\n    submit_scores: (text) -> (text);',
            'type Entry = record {\n    score: nat;\n    name: text;\n};',
        );
        // Whitespace, line breaks and added methods are not changes.
        expect(
            incompatibilities(
                old,
                did(
                    '    leaderboard : ( text ) -> ( text ) query ;\n    submit_scores: (text) -> (text);\n    extra: () -> ();',
                    'type Entry = record { score: nat; name: text };',
                ),
            ),
        ).toEqual([]);
        const problems = incompatibilities(
            old,
            did('    leaderboard: (text) -> (text);', 'type Entry = record { score: int; name: text };'),
        );
        expect(problems).toEqual([
            `method leaderboard changed: the release has leaderboard: (text) -> (text) query, canister/leaderboard.did has leaderboard: (text) -> (text); ${ADVICE}`,
            `method submit_scores of the release (submit_scores: (text) -> (text)) is missing from canister/leaderboard.did; ${ADVICE}`,
            `type Entry changed: the release has type Entry = record { score: nat; name: text; }, canister/leaderboard.did has type Entry = record { score: int; name: text }; ${ADVICE}`,
        ]);
        expect(incompatibilities(old, { ...old, init: candid('(opt blob)') })).toEqual([
            `the service's init argument changed (upgrades pass it): the release has service: (opt text), canister/leaderboard.did has service: (opt blob); ${ADVICE}`,
        ]);
    });
});
