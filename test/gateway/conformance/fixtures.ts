// The shorthands conformance cases are written in: matchers, requests, setup steps, players and expected answers.
import type { AdminStep, AdvanceStep, CaseRequest, Expectation, GameStep, SendStep, Step } from './harness';
import { DAY_START } from './harness';

// ---- matchers and shorthands ----------------------------------------------------------------------

/** A jest asymmetric matcher from a predicate (for values jest has no matcher for). */
export function matcher(name: string, test: (value: unknown) => boolean): any {
    return {
        $$typeof: Symbol.for('jest.asymmetricMatcher'),
        asymmetricMatch: test,
        toString: () => name,
        toAsymmetricMatcher: () => name,
        getExpectedType: () => 'number',
    };
}

/** A timestamp: an integer in nanoseconds since the epoch (rule E1). */
export const NS = matcher(
    'IntegerNanosecondsSinceEpoch',
    (v) => typeof v === 'number' && Number.isInteger(v) && v > 1e18 && v < 1e19,
);
/** A count. */
export const INT = matcher('NonNegativeInteger', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);

export const TEXT = expect.any(String);
export const DEFAULT_NAME = expect.stringMatching(/^Player_[0-9]+$/);
export const TOKEN = expect.stringMatching(/^\S+$/);
export const mentions = (word: string) => expect.stringMatching(new RegExp(word));

export const ok = (data: unknown): Expectation => ({ status: 200, body: { ok: true, data } });
export const err = (status: number, error: unknown = TEXT): Expectation => ({ status, body: { ok: false, error } });

export const H = { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME' };
export const H2 = { 'X-API-Key': '$KEY2', 'X-Game-ID': '$GAME2' };
/** An old plugin: the API key without X-Game-ID. */
export const OLD_PLUGIN = { 'X-API-Key': '$KEY' };
/** The second game of a case (`$GAME2`, `$KEY2`). */
export const GAME2: GameStep = { game: 'GAME2', key: 'KEY2' };

export const get = (path: string, headers: Record<string, string> = H): CaseRequest => ({
    method: 'GET',
    path,
    headers,
});
export const post = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({
    method: 'POST',
    path,
    headers,
    body,
});
export const put = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({
    method: 'PUT',
    path,
    headers,
    body,
});
/** A POST /scores; the body's gameId is the game of the headers unless the body names one. */
export const score = (body: Record<string, unknown>, headers: Record<string, string> = H): CaseRequest =>
    post('/scores', { gameId: headers['X-Game-ID'] ?? '$GAME', ...body }, headers);

export const SUBMITTED = ok({ message: TEXT });
export const RULES = err(400, 'Score rejected by game validation rules');
export const NOT_FOUND_PLAYER = err(404, 'Player not found');
export const TOO_SHORT = err(400, 'Nickname must be at least 3 characters');
export const TOO_LONG = err(400, 'Nickname must be 16 characters or less');
export const BAD_CHARS = err(400, 'Nickname can only contain letters, numbers, and underscores');
export const boardNotFound = (id: string) => err(404, `Scoreboard '${id}' not found for this game.`);

// ---- setup steps ----------------------------------------------------------------------------------------

/** A setup request that must succeed (or answer `expected`). */
export const send = (request: CaseRequest, expected?: Expectation, capture?: Record<string, string>): SendStep => ({
    send: request,
    expect: expected,
    capture,
});
/** A setup submit that must be accepted. */
export const submit = (body: Record<string, unknown>, headers: Record<string, string> = H): SendStep =>
    send(score(body, headers), SUBMITTED);
/** A setup submit that must be refused with `expected`. */
export const refused = (
    body: Record<string, unknown>,
    expected: Expectation,
    headers: Record<string, string> = H,
): SendStep => send(score(body, headers), expected);
export const captureName = (playerId: string, name: string): SendStep =>
    send(get(`/players/${playerId}/profile`), undefined, { [name]: 'data.nickname' });
export const wait = (seconds: number): AdvanceStep => ({ advance: seconds });
/** Out of the 2 s rate-limit window and the few seconds in which an exact repeat is no new play. */
export const SPACED = wait(6);

export const LEVEL_1: AdminStep = {
    admin: 'admin_create_board',
    request: { gameId: '$GAME', scoreboardId: 'level-1', type: 'targeted', name: 'Level 1' },
};
export const CAPS: AdminStep = { admin: 'admin_set_caps', request: { gameId: '$GAME', maxScore: 1000, maxStreak: 50 } };

// Player ids in every shape real clients send.
export const ALICE = 'dev_1700000000_a1b2c3d4'; // dev_<unix_seconds>_<8 hex>
export const BOB = 'dev_1700000001_b0b0b0b0';
export const CAROL = 'player-one'; // hand-made
export const DAVE = 'dev_1700000000123456_deadbeef'; // 13+ digits in the time part
export const EVE = 'dev_1700000000123_cafebabe'; // milliseconds
export const NEWBIE = 'dev_1700000002_0badf00d'; // only ever sends rejected submits: never gets a profile
export const GHOST = 'dev_1700000003_00000000'; // never sends anything
export const LONG_PLAYER = 'q'.repeat(100); // the longest player id

// Nicknames the cases choose: every one ends in the case's tag.
export const ALICE_NAME = 'Alice${T}';
export const DAVE_NAME = 'Dave${T}';
export const GREAT_NAME = 'DaveTheGreat${T}';

/**
 * Five ranked players on the main game, plus the targeted board level-1. Ties go to whoever
 * reached the value first: Bob reached 250 before Dave, Alice last (although Alice's profile is the
 * oldest); Dave reached streak 9 before Alice. Captures the default names $BOB_NAME, $CAROL_NAME
 * (Carol asked for a taken name) and $EVE_NAME.
 */
export const RANKED: readonly Step[] = [
    LEVEL_1,
    submit({ playerId: ALICE, score: 100, streak: 3, nickname: ALICE_NAME }),
    submit({ playerId: BOB, score: 250, streak: 1 }),
    submit({ playerId: CAROL, score: 10, streak: 0, nickname: 'ALICE${T}' }),
    submit({ playerId: DAVE, score: 250, streak: 9, nickname: DAVE_NAME }, OLD_PLUGIN),
    submit({ playerId: DAVE, score: 300, streak: 2, scoreboardId: 'level-1' }),
    submit({ playerId: EVE, score: 50, streak: 20 }),
    SPACED,
    submit({ playerId: BOB, score: 100, streak: 7 }),
    submit({ playerId: ALICE, score: 250, streak: 9 }),
    submit({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
    captureName(BOB, 'BOB_NAME'),
    captureName(CAROL, 'CAROL_NAME'),
    captureName(EVE, 'EVE_NAME'),
];
/** RANKED plus a sixth player with only a targeted entry (the longest player id). */
export const RANKED_SIX: readonly Step[] = [
    ...RANKED,
    submit({ playerId: LONG_PLAYER, score: 0, streak: 0, scoreboardId: 'level-1' }),
];
/** RANKED, then renamed: Bob to alice_1 and Carol to Alice_2 (N2), Dave to DaveTheGreat by a submit (N1). */
export const RENAMED: readonly Step[] = [
    ...RANKED,
    wait(3),
    submit({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
    send(put(`/players/${BOB}/nickname`, { nickname: 'alice${T}' }), ok({ nickname: 'alice${T}_1', message: TEXT })),
    send(put(`/players/${CAROL}/nickname`, { nickname: ALICE_NAME }), ok({ nickname: 'Alice${T}_2', message: TEXT })),
];

export const entry = (rank: number, nickname: string, s: number, streak: number) => ({
    rank,
    nickname,
    score: s,
    streak,
    authType: 'external',
});
export const boardEntry = (rank: number, nickname: unknown, s: number, streak: number) => ({
    rank,
    nickname,
    score: s,
    streak,
    authType: 'external',
    submittedAt: NS,
});

export const profile = (
    nickname: unknown,
    s: unknown,
    streak: unknown,
    playCount: unknown,
    achievements: unknown = [],
): Expectation =>
    ok({ nickname, created: NS, gameProfile: { score: s, streak, achievements, playCount, lastPlayed: NS } });

export const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
};
/** Checked on every gateway answer (rule E1: CORS on every API response; X-API-Version). */
export const EVERY_RESPONSE_HEADERS: Record<string, string> = { ...CORS, 'x-api-version': '1.8.0' };

// The ranking of RANKED.
export const LB_BY_SCORE = [
    entry(1, '$BOB_NAME', 250, 7),
    entry(2, DAVE_NAME, 250, 9),
    entry(3, ALICE_NAME, 250, 9),
    entry(4, '$EVE_NAME', 50, 20),
    entry(5, '$CAROL_NAME', 10, 0),
];
/** The ranking of RENAMED: the same, by the new names. */
export const RENAMED_BY_SCORE = [
    entry(1, 'alice${T}_1', 250, 7),
    entry(2, GREAT_NAME, 250, 9),
    entry(3, ALICE_NAME, 250, 9),
    entry(4, '$EVE_NAME', 50, 20),
    entry(5, 'Alice${T}_2', 10, 0),
];
export const ARCHIVED_ENTRIES = RENAMED_BY_SCORE.map((e) => ({ ...e, submittedAt: NS }));
export const DAILY_ARCHIVE_ID = `$GAME:daily:${DAY_START}`;

export const SOME_SESSION = { 'X-Session-Token': 'sess_0123456789abcdef', 'X-Game-ID': '$GAME' };

export const OP = {
    scores: 'post-scores',
    leaderboard: 'get-leaderboard',
    boards: 'get-games-gameId-scoreboards',
    board: 'get-games-gameId-scoreboards-boardId',
    archives: 'get-games-gameId-scoreboards-boardId-archives',
    latest: 'get-games-gameId-scoreboards-boardId-archives-latest',
    archive: 'get-games-gameId-scoreboards-boardId-archives-archiveId',
    archiveById: 'get-archives-archiveId',
    archiveStats: 'get-games-gameId-archives-stats',
    boardRank: 'get-board-rank',
    profile: 'get-player-profile',
    rank: 'get-player-rank',
    nickname: 'put-player-nickname',
    start: 'post-play-sessions-start',
    end: 'post-play-sessions-end',
    achievements: 'post-achievements',
    game: 'get-game',
    gameStats: 'get-game-stats',
    stats: 'get-stats',
    health: 'get-health',
    deviceCode: 'post-auth-device-code',
    deviceToken: 'post-auth-device-token',
    google: 'post-auth-google',
    apple: 'post-auth-apple',
    authProfile: 'get-auth-profile',
    profileNickname: 'put-profile-nickname',
    logout: 'post-auth-logout',
    deleteAccount: 'delete-auth-account',
    migrate: 'post-migrate-account',
    around: 'get-board-around',
} as const;

// ---- player sign-in ----------------------------------------------------------------------------------

export const GAME_ONLY = { 'X-Game-ID': '$GAME' };
export const SESSION = { 'X-Session-Token': '$SESSION', 'X-Game-ID': '$GAME' };
/** Starts a device code for the case's game: `$DEVICE` and `$USER_CODE`. */
export const startCode = (nickname?: string): SendStep =>
    send(post('/auth/device/code', nickname === undefined ? {} : { nickname }, GAME_ONLY), undefined, {
        DEVICE: 'data.device_code',
        USER_CODE: 'data.user_code',
    });
/**
 * The link page's part, as a gateway does it once an identity provider vouched for the player
 * (the browser flow itself is test/local/link-flow.test.ts).
 */
export const approve = (who: string): AdminStep => ({
    admin: 'device_code_approve',
    request: {
        userCode: '$USER_CODE',
        client: 'conformance',
        identity: {
            issuer: 'https://idp.conformance.test',
            subject: `${who}-$T`,
            email: `${who}@example.com`,
            provider: 'local',
        },
    },
});
export const redeem = (capture = 'SESSION'): SendStep =>
    send(post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY), undefined, { [capture]: 'data.sessionId' });
/** A signed-in player of the case's game: `$SESSION`. */
export const SIGNED_IN: readonly Step[] = [startCode('Signed$T'), approve('ada'), redeem()];
