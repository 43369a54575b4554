// The JavaScript client (client/) against the real service: replica, canister wasm, gateway.
// Every route through its method, every error kind, retries through a relay that answers 503
// (or drops the connection) before passing on, the 2-second limit waited out on the replica's
// clock, device-code sign-in with the code approved through the canister as the link page
// does, the session never leaving baseUrl's origin, and certified direct reads that fail
// loudly when a relay flips one byte.
import { createHash } from 'node:crypto';

import { MESSAGES, boardNotFound } from '../../contract/messages';
import { BOARD_PATHS } from '../../contract/board-paths';
import { ROUTES } from '../../gateway/routes';
import { LeaderboardError, RATE_LIMIT_WAIT_MS, type ClientOptions } from '../../client/src';
import { localClient } from '../support/client';
import { startService, type TestService } from '../support/gateway';
import { startRelay, type Relay } from '../support/relay';

let s: TestService;
let key: string;
let modKey: string;
let devHash: string;
const GAME = 'client-game';
const MOD_GAME = 'client-mod';
/** Every wait the clients asked for, in ms (they move the replica's clock instead of sleeping). */
let sleeps: number[] = [];

beforeAll(async () => {
    s = await startService();
    key = await s.game(GAME, async (c) => {
        await c.ok('admin_create_board', { gameId: GAME, scoreboardId: 'level-1', type: 'targeted' });
        await c.ok('admin_create_board', {
            gameId: GAME,
            scoreboardId: 'reaction',
            type: 'targeted',
            sortOrder: 'asc',
            format: { kind: 'milliseconds' },
        });
    });
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'mod', email: 'mod@test', provider: 'test' },
    });
    devHash = createHash('sha256').update(sessionToken).digest('hex');
    ({ apiKey: modKey } = await s.canister.ok('dev_register_game', {
        sessionHash: devHash,
        gameId: MOD_GAME,
        name: 'Moderated',
    }));
});
afterAll(() => s.stop());
beforeEach(() => {
    sleeps = [];
});

/** The replica's clock in ms (certificates carry its time). */
const replicaNow = (): number => Number(s.replica.time() / 1_000_000n);

function client(o: Partial<ClientOptions> = {}) {
    return localClient(s, key, GAME, {
        sleep: async (ms) => {
            sleeps.push(ms);
            await s.replica.advanceTime(ms);
        },
        random: () => 0.5,
        ...o,
    });
}

const approve = (userCode: string, subject: string) => s.approveDeviceCode(userCode, subject);

async function failure(p: Promise<unknown>): Promise<LeaderboardError> {
    try {
        await p;
    } catch (e) {
        expect(e).toBeInstanceOf(LeaderboardError);
        return e as LeaderboardError;
    }
    throw new Error('expected a LeaderboardError');
}

/** A storage in memory, as the client's `store` option takes one (localStorage's methods). */
function memoryStorage() {
    const store = new Map<string, string>();
    return {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
        removeItem: (k: string) => void store.delete(k),
    };
}

const unavailable = (status = 503) =>
    ({ kind: 'answer', status, body: JSON.stringify({ ok: false, error: MESSAGES.unavailable }) }) as const;

test('a persistent anonymous player id dev_<unix seconds>_<8 hex>, kept in the store', () => {
    const kv = memoryStorage();
    const a = client({ store: kv });
    expect(a.playerId).toMatch(new RegExp(`^dev_${Math.floor(replicaNow() / 1000)}_[0-9a-f]{8}$`));
    expect(client({ store: kv }).playerId).toBe(a.playerId);
    expect(client().playerId).not.toBe(a.playerId);
});

test('every API route has a client method', () => {
    const served = ROUTES.filter((r) => !r.path.startsWith('/dashboard')).map(
        (r) => `${r.method.toUpperCase()} ${r.path}`,
    );
    // Left out on purpose: ID-token sign-in is for native apps that hold a platform's ID token;
    // the event feed takes the secret server key, which a game client never holds (a game's
    // server reads it: docs/webhooks.md).
    const notInClient = ['POST /auth/google', 'POST /auth/apple', 'GET /events'];
    const covered = [
        'POST /scores',
        'GET /leaderboard',
        ...BOARD_PATHS.map((p) => `GET ${p.path}`),
        'GET /games/{gameId}/scoreboards/{boardId}/rank',
        'GET /games/{gameId}/scoreboards/{boardId}/around',
        'GET /games/{gameId}/scoreboards/{boardId}/division',
        'POST /games/{gameId}/scoreboards/{boardId}/players',
        'POST /games/{gameId}/scoreboards/{boardId}/reports',
        'GET /players/{playerId}/profile',
        'GET /players/{playerId}/rank',
        'PUT /players/{playerId}/nickname',
        'GET /players/{playerId}/rewards',
        'POST /players/{playerId}/rewards/{grantId}/claim',
        'POST /play-sessions/start',
        'POST /play-sessions/end',
        'POST /achievements',
        'GET /game',
        'GET /game/stats',
        'GET /stats',
        'GET /health',
        'POST /auth/device/code',
        'POST /auth/device/token',
        'GET /auth/profile',
        'PUT /profile/nickname',
        'POST /auth/logout',
        'DELETE /auth/account',
        'POST /migrate-account',
    ];
    expect(served.filter((r) => !covered.includes(r) && !notInClient.includes(r))).toEqual([]);
});

test('anonymous: submit, boards, ranks, around me, profile, nickname, achievements, play sessions, game', async () => {
    const c = client();
    const other = client();
    await expect(c.submitScore({ score: 1200, streak: 4, nickname: 'ClientAnna' })).resolves.toEqual({
        message: expect.any(String),
    });
    await other.submitScore({ score: 900 });

    const top = await c.leaderboard({ limit: 10 });
    expect(top.leaderboard[0]).toMatchObject({ rank: 1, nickname: 'ClientAnna', score: 1200, streak: 4 });
    expect(top.total).toBe(2);
    expect((await c.boards()).scoreboards.map((b) => b.scoreboardId)).toEqual(
        expect.arrayContaining(['all-time', 'weekly', 'daily', 'level-1', 'reaction']),
    );
    const weekly = await c.board('weekly', { limit: 1 });
    expect(weekly).toMatchObject({ scoreboardId: 'weekly', totalEntries: 2, entries: [{ rank: 1, score: 1200 }] });
    expect((await c.board('weekly', { offset: 1 })).entries).toMatchObject([{ rank: 2, score: 900 }]);
    expect(await c.aroundMe('all-time', { before: 1, after: 1 })).toMatchObject({
        rank: 1,
        entries: [{ rank: 1, score: 1200 }, { rank: 2 }],
    });
    expect(await c.rank()).toMatchObject({ rank: 1, score: 1200, streak: 4, totalPlayers: 2 });
    expect(await c.rank({ sort: 'streak' })).toMatchObject({ rank: 1, streak: 4 });
    expect(await c.rank({ percentile: true })).toMatchObject({ rank: 1, percentile: 50 });
    expect(await c.friends('all-time', [other.playerId, c.playerId, 'dev_nobody'])).toMatchObject({
        entries: [
            { playerId: c.playerId, rank: 1, globalRank: 1, score: 1200 },
            { playerId: other.playerId, rank: 2, globalRank: 2, score: 900 },
        ],
        missing: ['dev_nobody'],
    });
    const report = { nickname: 'ClientAnna', reason: 'impossible_score', rank: 1 } as const;
    expect(await other.report('all-time', report)).toEqual({ message: 'Report received. Thank you.' });
    await expect(c.report('all-time', report)).rejects.toMatchObject({ kind: 'invalid', status: 400 });
    expect(await c.profile()).toMatchObject({ nickname: 'ClientAnna', gameProfile: { score: 1200, streak: 4 } });
    expect(await other.setNickname('ClientAnna')).toEqual({ nickname: 'ClientAnna_1', message: expect.any(String) });
    expect(await c.unlockAchievements('first-win')).toMatchObject({ unlocked: 1, achievementId: 'first-win' });
    expect(await c.unlockAchievements(['first-win', 'speedy'])).toMatchObject({ total: 2 });
    expect((await c.profile()).gameProfile.achievements).toEqual(expect.arrayContaining(['first-win', 'speedy']));
    const started = await c.startPlaySession();
    expect(started.ok).toEqual(expect.any(String));
    expect(await c.endPlaySession(started.ok)).toEqual({ message: expect.any(String) });
    expect(await c.game()).toMatchObject({ gameId: GAME, timeValidationEnabled: false });
    expect(await c.gameStats()).toMatchObject({ gameId: GAME, totalPlayers: 2 });
    expect(await c.stats()).toMatchObject({ total: expect.any(Number) });
    expect(await c.health()).toEqual({ status: 'healthy', version: '1.8.0' });
    expect(await c.archives('daily')).toEqual({ gameId: GAME, scoreboardId: 'daily', archives: [] });
    expect((await failure(c.archive('daily'))).kind).toBe('not-found');
    expect((await c.archiveStats()).gameId).toBe(GAME);
    // Rewards: none granted yet; a grant the player does not have is not-found (docs/rewards.md).
    expect(await c.rewards()).toEqual({ rewards: [] });
    expect((await failure(c.claimReward('weekly.1.0.1'))).kind).toBe('not-found');
    expect(sleeps).toEqual([]);
});

test('a lowest-first board: the faster time ranks first, and around-me follows', async () => {
    const slow = client();
    const fast = client();
    await slow.submitScore({ score: 3150, scoreboardId: 'reaction' });
    await fast.submitScore({ score: 2400, scoreboardId: 'reaction' });
    const board = await slow.board('reaction');
    const mine = board.entries.filter((e) => e.score === 2400 || e.score === 3150).map((e) => e.score);
    expect(mine).toEqual([2400, 3150]);
    const near = await fast.aroundMe('reaction', { before: 0, after: 0 });
    expect(near.entries).toMatchObject([{ rank: near.rank, score: 2400 }]);
});

test('the 2-second limit is waited out on the replica clock and the submit sent once more; or thrown when asked', async () => {
    const c = client();
    await c.submitScore({ score: 10, scoreboardId: 'level-1' });
    await c.submitScore({ score: 20, scoreboardId: 'level-1' });
    expect(sleeps).toEqual([RATE_LIMIT_WAIT_MS]);
    expect((await c.board('level-1')).entries.find((e) => e.score === 20)).toBeDefined();

    const impatient = client({ waitOutRateLimit: false });
    await impatient.submitScore({ score: 10, scoreboardId: 'level-1' });
    const e = await failure(impatient.submitScore({ score: 30, scoreboardId: 'level-1' }));
    expect(e).toMatchObject({ kind: 'rate-limited', status: 400, message: MESSAGES.rateLimited });
});

describe('through a relay', () => {
    let relay: Relay;
    beforeEach(async () => {
        relay = await startRelay(s.gateway.url);
    });
    afterEach(() => relay.close());

    test('503 then 200: reads and submits are retried with backoff and jitter', async () => {
        const c = client({ baseUrl: relay.url });
        relay.decide = (_req, i) => (i % 2 === 0 ? unavailable() : { kind: 'pass' });
        await c.submitScore({ score: 77, scoreboardId: 'level-1' });
        expect((await c.board('level-1')).entries.map((e) => e.score)).toContain(77);
        expect(relay.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'GET', 'GET']);
        // Full jitter: random() * 250 ms * 2^(retry), so 0.5 -> 250 ms before the first retry.
        expect(sleeps).toEqual([250, 250]);
    });

    test('a dropped connection is retried too; 503 every time ends as `unavailable` after the retries', async () => {
        const c = client({ baseUrl: relay.url, retries: 2 });
        relay.decide = (_req, i) => (i === 0 ? { kind: 'drop' } : { kind: 'pass' });
        expect(await c.health()).toMatchObject({ status: 'healthy' });
        relay.decide = () => unavailable();
        sleeps = [];
        const e = await failure(c.game());
        expect(e).toMatchObject({ kind: 'unavailable', status: 503, message: MESSAGES.unavailable });
        expect(sleeps).toEqual([250, 500]);
    });

    test('writes that are not safe to repeat are not retried', async () => {
        const c = client({ baseUrl: relay.url });
        relay.decide = () => unavailable(502);
        expect((await failure(c.setNickname('NoRetry'))).kind).toBe('unavailable');
        expect((await failure(c.startPlaySession())).kind).toBe('unavailable');
        expect(relay.seen).toHaveLength(2);
    });
});

test('error kinds: invalid, not-found, unauthorized, rejected, play-session, too-many-play-sessions, banned', async () => {
    const c = client();
    expect(await failure(c.setNickname('x'))).toMatchObject({
        kind: 'invalid',
        status: 400,
        message: MESSAGES.nicknameTooShort,
    });
    expect(await failure(c.board('nope'))).toMatchObject({
        kind: 'not-found',
        status: 404,
        message: boardNotFound('nope'),
    });
    expect(await failure(c.submitScore({ score: 1, scoreboardId: 'nope' }))).toMatchObject({ kind: 'not-found' });
    expect(await failure(client({ apiKey: 'key_client-game_0000000000000000' }).game())).toMatchObject({
        kind: 'unauthorized',
        status: 401,
        message: MESSAGES.invalidApiKey,
    });
    expect(await failure(client().rank())).toMatchObject({ kind: 'not-found', message: MESSAGES.playerNotFound });
    // Ids are path segments, never paths: no id reaches another route (or host).
    expect(await failure(c.board('../../auth/profile'))).toMatchObject({ kind: 'invalid', status: 400 });
    expect(await failure(c.archive('daily', '../../x'))).toMatchObject({ kind: 'not-found' });

    const mod = client({ apiKey: modKey, gameId: MOD_GAME });
    await s.canister.ok('admin_set_caps', { gameId: MOD_GAME, maxScore: 100 });
    expect(await failure(mod.submitScore({ score: 101 }))).toMatchObject({
        kind: 'rejected',
        message: MESSAGES.scoreRules,
    });
    await s.canister.ok('admin_set_time_validation', { gameId: MOD_GAME, enabled: true });
    expect((await failure(mod.submitScore({ score: 5 }))).kind).toBe('play-session');
    await mod.startPlaySession();
    await mod.startPlaySession();
    await mod.startPlaySession();
    expect(await failure(mod.startPlaySession())).toMatchObject({
        kind: 'too-many-play-sessions',
        message: MESSAGES.tooManyPlaySessions,
    });
    await s.canister.ok('dev_ban', { sessionHash: devHash, gameId: MOD_GAME, playerId: mod.playerId });
    expect(await failure(mod.unlockAchievements('x'))).toMatchObject({
        kind: 'banned',
        status: 403,
        message: MESSAGES.banned,
    });
});

test('sign-in: code and QR through onCode, polling at the interval, the session sent from then on, merge, sign-out', async () => {
    const c = client();
    await c.submitScore({ score: 4321, streak: 2 });
    const anonymous = c.playerId;
    const shown: string[] = [];
    const approval = await c.signIn({
        onCode: (code) => {
            shown.push(code.userCode);
            expect(code.qrDataUrl).toMatch(/^data:image\/png;base64,/);
            expect(code.verificationUrlComplete).toBe(`${s.gateway.url}/link?code=${code.userCode}`);
            void approve(code.userCode, 'client-signer');
        },
    });
    expect(shown).toHaveLength(1);
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms === 5000)).toBe(true);
    expect(approval).toMatchObject({ sessionId: expect.any(String), email: 'client-signer@example.com' });
    expect(c.signedIn).toBe(true);
    // The anonymous progress was merged into the account, and the retired id replaced.
    expect(c.playerId).not.toBe(anonymous);
    expect(await c.profile()).toMatchObject({ email: 'client-signer@example.com', gameProfile: { score: 4321 } });
    await c.submitScore({ score: 5000, scoreboardId: 'level-1' });
    expect(await c.boardRank('level-1')).toMatchObject({ found: true, score: 5000 });
    expect((await c.aroundMe('level-1')).entries.some((e) => e.score === 5000)).toBe(true);
    expect((await c.setNickname('SignedCli')).nickname).toBe('SignedCli');
    await c.signOut();
    expect(c.signedIn).toBe(false);
    expect((await failure(c.boardRank('level-1'))).kind).toBe('session-dead');
});

test('signed in: every read works, and rank() is the account rank, not the rank of the retired anonymous id', async () => {
    let ended = 0;
    const c = client({ onSessionEnd: () => void ended++ });
    await c.submitScore({ score: 7777, streak: 3 });
    await c.signIn({ onCode: (code) => void approve(code.userCode, 'client-reader') });
    expect(c.signedIn).toBe(true);
    // The anonymous progress was merged: the account holds it, the id it had is retired.
    expect(await c.rank()).toMatchObject({ score: 7777, streak: 3 });
    expect((await c.boards()).gameId).toBe(GAME);
    expect((await c.board('weekly')).entries.some((e) => e.score === 7777)).toBe(true);
    expect(await c.archives('daily')).toMatchObject({ scoreboardId: 'daily', archives: [] });
    expect((await failure(c.archive('daily'))).kind).toBe('not-found');
    expect((await c.archiveStats()).gameId).toBe(GAME);
    expect(await c.game()).toMatchObject({ gameId: GAME });
    expect((await c.gameStats()).gameId).toBe(GAME);
    expect(await c.profile()).toMatchObject({ gameProfile: { score: 7777 } });
    expect(c.signedIn).toBe(true);
    expect(ended).toBe(0);
    await c.signOut();
});

test('a session that died elsewhere: the 401 ends it here (kind session-dead, anonymous again)', async () => {
    let ended = 0;
    const c = client({ onSessionEnd: () => void ended++ });
    const approval = await c.signIn({ migrate: false, onCode: (code) => void approve(code.userCode, 'client-dead') });
    await s.request('POST', '/auth/logout', { headers: { 'X-Session-Token': approval.sessionId, 'X-Game-ID': GAME } });
    expect(await failure(c.profile())).toMatchObject({ kind: 'session-dead', status: 401 });
    expect(c.signedIn).toBe(false);
    expect(ended).toBe(1);
    await c.submitScore({ score: 3 }); // anonymous again
    await c.signIn({ migrate: false, onCode: (code) => void approve(code.userCode, 'client-gone') });
    await c.deleteAccount();
    expect(c.signedIn).toBe(false);
});

test('a stored session belongs to its API origin: a client of another baseUrl does not find it', async () => {
    const kv = memoryStorage();
    const c = client({ store: kv });
    await c.signIn({ migrate: false, onCode: (code) => void approve(code.userCode, 'client-origin') });
    expect(client({ store: kv }).signedIn).toBe(true);
    const elsewhere = client({ store: kv, baseUrl: 'http://127.0.0.1:9' });
    expect(elsewhere.signedIn).toBe(false);
    expect(elsewhere.playerId).toBe(c.playerId);
});

test('a device code nobody approves: polled until it expires (kind expired, 410)', async () => {
    const c = client({
        sleep: async (ms) => {
            sleeps.push(ms);
            await s.replica.advanceTime(ms * 40); // 200 s of replica time per poll interval
        },
    });
    const e = await failure(c.signIn({ onCode: () => undefined }));
    expect(e).toMatchObject({ kind: 'expired', status: 410, message: MESSAGES.expiredToken });
    expect(sleeps).toEqual([5000, 5000]);
});

test('the session goes to baseUrl only: not to a redirect target, not to the canister URL', async () => {
    const spy = await startRelay(s.gateway.url);
    const relay = await startRelay(s.gateway.url);
    try {
        const c = client({
            baseUrl: relay.url,
            canisterUrl: `${spy.url}/?canisterId=${s.canisterId.toText()}`,
            retries: 0,
        });
        await c.signIn({ migrate: false, onCode: (code) => void approve(code.userCode, 'client-redirect') });
        relay.decide = () => ({
            kind: 'answer',
            status: 302,
            body: '{}',
            headers: { Location: `${spy.url}/auth/profile` },
        });
        expect((await failure(c.profile())).kind).toBe('unavailable');
        relay.decide = () => ({ kind: 'pass' });
        await c.direct.boards().catch(() => undefined);
        expect(spy.seen.map((r) => r.url)).toEqual([`/games/${GAME}/scoreboards?canisterId=${s.canisterId.toText()}`]);
        expect(spy.seen[0].headers['x-session-token']).toBeUndefined();
        expect(spy.seen[0].headers['x-api-key']).toBeUndefined();
        expect(c.signedIn).toBe(true);
    } finally {
        await spy.close();
        await relay.close();
    }
});

describe('direct reads from the canister', () => {
    test('the same JSON as the gateway; verify: true checks the certificate against the replica root key', async () => {
        const c = client();
        await c.submitScore({ score: 640, scoreboardId: 'reaction' });
        expect(await c.direct.board('reaction', { limit: 10, verify: true })).toEqual(
            await c.board('reaction', { limit: 10 }),
        );
        expect(await c.direct.boards({ verify: true })).toEqual(await c.boards());
        expect(await c.direct.board('all-time')).toEqual(await c.board('all-time'));
        expect(await c.direct.archives('daily', { verify: true })).toEqual(await c.archives('daily'));
        expect(await c.direct.archiveStats({ verify: true })).toEqual(await c.archiveStats());
        expect((await c.direct.aroundMe('reaction')).entries.some((e) => e.score === 640)).toBe(true);
        expect((await failure(c.direct.board('nope'))).kind).toBe('not-found');
        // A missing board's 404 is deliberately uncertified: asking to verify it fails loudly.
        expect((await failure(c.direct.board('nope', { verify: true }))).kind).toBe('not-verified');
    });

    test('a relay that flips one byte of the body: kind not-verified; unverified, the change gets through', async () => {
        const relay = await startRelay(s.replica.url);
        try {
            const c = client({ canisterUrl: `${relay.url}/?canisterId=${s.canisterId.toText()}` });
            await c.submitScore({ score: 700, scoreboardId: 'reaction' });
            expect((await c.direct.board('reaction', { verify: true })).entries.length).toBeGreaterThan(0);
            relay.alter = (url, body) =>
                url.startsWith('/games/') ? Buffer.from(body.toString().replace('"score":700', '"score":100')) : body;
            const e = await failure(c.direct.board('reaction', { verify: true }));
            expect(e.kind).toBe('not-verified');
            expect(e.message).toMatch(/^NOT VERIFIED/);
            expect((await c.direct.board('reaction')).entries.some((x) => x.score === 100)).toBe(true);
        } finally {
            await relay.close();
        }
    });
});
