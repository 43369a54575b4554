// The HTTP contract as data: independent cases, each a request and the answer the contract fixes,
// run by ../conformance.test.ts against the gateway and, for `direct` cases, also against the
// canister's own HTTP interface (same status and JSON as the gateway's). Every case carries
// `ref`: the anchors of this project's API reference (GET /docs) it checks, i.e. operation ids
// (`post-scores`, also the operationIds of GET /openapi.json) and rules (`rule-S1`, from
// contract/rules-text.ts).
//
// Independence: a case builds everything it reads. The runner registers a game of its own for
// it (`$GAME`, with its key `$KEY`), runs its `setup` steps (more games, dashboard actions,
// submits and other requests, clock moves), then sends `request` and checks the answer. So a
// case passes alone (`npx jest test/gateway/conformance.test.ts -t '<case name>'`: names hold no
// regex characters, and each selects only its own test) and in any order, and a failing case
// takes no other down. Values captured by setup steps live only within the case.
//
// Time: the replica clock is shared by the service. Cases run one at a time on one shared service
// whose clock starts at a fixed UTC noon; they may move it by a few seconds or minutes (rate-limit
// windows, play-session times, SHARED_ADVANCE_LIMITS), so it never leaves that UTC day, and their
// expectations about periods are relative (`$DAY_START`, `$WEEK_START`, `$TODAY`, computed from
// the replica clock when the case starts). Cases marked `clock` get a service of their own whose
// clock starts at START, so they may move it by days and expect absolute times (the daily
// rollover, platform counts of a fresh service).
//
// Placeholders: `$NAME` or `${NAME}` in a path, header, body or expected string is replaced at run
// time; a string that is exactly `$NAME` becomes the value itself (numbers stay numbers). Given:
// `$GAME`, `$KEY`, `$T` (the case's nickname tag: nicknames are unique across the whole service,
// so every name a case chooses ends in it), `$DAY_START`, `$WEEK_START` (ns) and `$TODAY`
// (YYYY-MM-DD); plus the games of `game` steps and what steps `capture`.
//
// Every gateway answer is also checked for what the contract promises on all responses (rule-E1):
// a JSON envelope with `ok` (`{}` for OPTIONS), success only as 200, `X-API-Version: 1.8.0` and
// the three CORS headers. Direct answers must equal the gateway's JSON, carry
// `Access-Control-Allow-Origin: *`, and `Cache-Control: public, max-age=30` on success (rule-R2).

/**
 * Cases where the implementation does not (yet) do what the contract says. They stay in the list
 * unchanged and fail until the implementation is fixed; the runner prefixes their test names
 * with [KNOWN GAP]. Remove an entry once its case passes.
 */
export const KNOWN_GAPS: ReadonlyArray<{ name: string; reason: string }> = [];

// ---- clocks ----------------------------------------------------------------------------------------

/**
 * The clock of a `clock` case's own service starts here: a Wednesday noon UTC, so that period
 * starts are known and a one-day step rolls the daily board over but not the weekly one.
 */
export const START = '2026-01-14T12:00:00Z';
const DAY_START = Date.UTC(2026, 0, 14) * 1e6; // ns: UTC 00:00 of the start day
const NEXT_DAY_START = Date.UTC(2026, 0, 15) * 1e6;
const WEEK_START = Date.UTC(2026, 0, 12) * 1e6; // the Monday before
const TODAY = '2026-01-14';

/** The shared service's clock starts here (another day than START: shared cases read periods relative to the clock). */
export const SHARED_START = '2026-03-05T12:00:00Z';
/** Seconds a shared case may move the clock: in one step, and all shared cases together (they stay in SHARED_START's UTC day). */
export const SHARED_ADVANCE_LIMITS = { step: 120, total: 6 * 3600 } as const;

// ---- types ------------------------------------------------------------------------------------------

export interface CaseRequest {
    method: string;
    path: string;
    headers?: Record<string, string>;
    /** JSON body (serialized by the runner). */
    body?: unknown;
    /** A raw body string instead (malformed or oversized JSON). */
    raw?: string;
}

export interface Expectation {
    /** A number; a matcher only where the contract fixes nothing but sameness across hosts. */
    status: unknown;
    /** The whole JSON body (toEqual: no extra keys), with jest asymmetric matchers where values vary. */
    body: unknown;
    /** Headers beyond the ones checked on every answer. */
    headers?: Record<string, string | RegExp>;
}

/** Registers another game for the case: `$<game>` is its id, `$<key>` its API key. */
export interface GameStep {
    game: string;
    key: string;
}

/** A dashboard action through the canister's admin methods (canister/interface.ts). */
export interface AdminStep {
    admin: string;
    request: unknown;
    /** Placeholder name -> dotted path into the reply. */
    capture?: Record<string, string>;
}

/** Moves the replica clock forward (the 2 s rate limit, play-session times, UTC periods). */
export interface AdvanceStep {
    advance: number; // seconds
}

/** A request to the gateway whose answer must match `expect` (default: any 200 success). */
export interface SendStep {
    send: CaseRequest;
    expect?: Expectation;
    /** Placeholder name -> dotted path into the JSON body (`data.archives.0.archiveId`). */
    capture?: Record<string, string>;
}

export type Step = GameStep | AdminStep | AdvanceStep | SendStep;

export interface Case {
    /** Unique; no regex characters, so that `jest -t '<name>'` selects exactly this case. */
    name: string;
    /** Anchors of the API reference (GET /docs): operation ids and `rule-<ID>`. */
    ref: string | readonly string[];
    /** Runs on a service of its own whose clock starts at START. */
    clock?: true;
    setup?: readonly Step[];
    request: CaseRequest;
    expect: Expectation;
    /** Also read the same path from the canister's own HTTP interface: same status and JSON. */
    direct?: true;
}

// ---- matchers and shorthands ----------------------------------------------------------------------

/** A jest asymmetric matcher from a predicate (for values jest has no matcher for). */
function matcher(name: string, test: (value: unknown) => boolean): any {
    return {
        $$typeof: Symbol.for('jest.asymmetricMatcher'),
        asymmetricMatch: test,
        toString: () => name,
        toAsymmetricMatcher: () => name,
        getExpectedType: () => 'number',
    };
}

/** A timestamp: an integer in nanoseconds since the epoch (rule E1). */
const NS = matcher(
    'IntegerNanosecondsSinceEpoch',
    (v) => typeof v === 'number' && Number.isInteger(v) && v > 1e18 && v < 1e19,
);
/** A period start that may be 0 (boards that never reset). */
const TIME = matcher(
    'IntegerNanosecondsOrZero',
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e19,
);
/** A count. */
const INT = matcher('NonNegativeInteger', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);
const POSITIVE = matcher('PositiveInteger', (v) => typeof v === 'number' && Number.isInteger(v) && v > 0);
/** The same members in any order. */
const setOf = (items: string[]): any =>
    matcher(
        `SetOf(${JSON.stringify(items)})`,
        (v) => Array.isArray(v) && v.length === items.length && items.every((i) => v.includes(i)),
    );

const TEXT = expect.any(String);
const DEFAULT_NAME = expect.stringMatching(/^Player_[0-9]+$/);
const TOKEN = expect.stringMatching(/^\S+$/);
const mentions = (word: string) => expect.stringMatching(new RegExp(word));

const ok = (data: unknown): Expectation => ({ status: 200, body: { ok: true, data } });
const err = (status: number, error: unknown = TEXT): Expectation => ({ status, body: { ok: false, error } });

const H = { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME' };
const H2 = { 'X-API-Key': '$KEY2', 'X-Game-ID': '$GAME2' };
/** An old plugin: the API key without X-Game-ID. */
const OLD_PLUGIN = { 'X-API-Key': '$KEY' };
/** The second game of a case (`$GAME2`, `$KEY2`). */
const GAME2: GameStep = { game: 'GAME2', key: 'KEY2' };

const get = (path: string, headers: Record<string, string> = H): CaseRequest => ({ method: 'GET', path, headers });
const post = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({
    method: 'POST',
    path,
    headers,
    body,
});
const put = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({
    method: 'PUT',
    path,
    headers,
    body,
});
/** A POST /scores; the body's gameId is the game of the headers unless the body names one. */
const score = (body: Record<string, unknown>, headers: Record<string, string> = H): CaseRequest =>
    post('/scores', { gameId: headers['X-Game-ID'] ?? '$GAME', ...body }, headers);

const SUBMITTED = ok({ message: TEXT });
const STARTED = ok({ ok: TOKEN, message: TEXT });
const RATE_LIMITED = err(400, 'Please wait 2 seconds between submissions.');
const RULES = err(400, 'Score rejected by game validation rules');
const SESSION_REQUIRED = err(400, expect.stringContaining('requires starting a session'));
const SESSION_PROBLEM = err(400, mentions('play session'));
const NOT_FOUND_PLAYER = err(404, 'Player not found');
const TOO_SHORT = err(400, 'Nickname must be at least 3 characters');
const TOO_LONG = err(400, 'Nickname must be 16 characters or less');
const BAD_CHARS = err(400, 'Nickname can only contain letters, numbers, and underscores');
const BAD_COUNT = (field: string) =>
    err(400, `Invalid ${field}: must be a non-negative integer no larger than 9007199254740991`);
const LIMIT_TWICE = err(400, 'Invalid limit: give it once, as a plain value');
const boardNotFound = (id: string) => err(404, `Scoreboard '${id}' not found for this game.`);

// ---- setup steps ----------------------------------------------------------------------------------------

/** A setup request that must succeed (or answer `expected`). */
const send = (request: CaseRequest, expected?: Expectation, capture?: Record<string, string>): SendStep => ({
    send: request,
    expect: expected,
    capture,
});
/** A setup submit that must be accepted. */
const submit = (body: Record<string, unknown>, headers: Record<string, string> = H): SendStep =>
    send(score(body, headers), SUBMITTED);
/** A setup submit that must be refused with `expected`. */
const refused = (body: Record<string, unknown>, expected: Expectation, headers: Record<string, string> = H): SendStep =>
    send(score(body, headers), expected);
const startSession = (playerId: string, capture: string, headers: Record<string, string> = H): SendStep =>
    send(post('/play-sessions/start', { gameId: headers['X-Game-ID'] ?? '$GAME', playerId }, headers), STARTED, {
        [capture]: 'data.ok',
    });
const captureName = (playerId: string, name: string): SendStep =>
    send(get(`/players/${playerId}/profile`), undefined, { [name]: 'data.nickname' });
const wait = (seconds: number): AdvanceStep => ({ advance: seconds });
/** Out of the 2 s rate-limit window and the few seconds in which an exact repeat is no new play. */
const SPACED = wait(6);

const LEVEL_1: AdminStep = {
    admin: 'admin_create_board',
    request: { gameId: '$GAME', scoreboardId: 'level-1', type: 'targeted', name: 'Level 1' },
};
const TIME_VALIDATION: AdminStep = {
    admin: 'admin_set_time_validation',
    request: { gameId: '$GAME', enabled: true, minPlaySeconds: 5, sessionLifetimeSeconds: 60 },
};
const CAPS: AdminStep = { admin: 'admin_set_caps', request: { gameId: '$GAME', maxScore: 1000, maxStreak: 50 } };

// Player ids in every shape real clients send.
const ALICE = 'dev_1700000000_a1b2c3d4'; // dev_<unix_seconds>_<8 hex>
const BOB = 'dev_1700000001_b0b0b0b0';
const CAROL = 'player-one'; // hand-made
const DAVE = 'dev_1700000000123456_deadbeef'; // 13+ digits in the time part
const EVE = 'dev_1700000000123_cafebabe'; // milliseconds
const NEWBIE = 'dev_1700000002_0badf00d'; // only ever sends rejected submits: never gets a profile
const GHOST = 'dev_1700000003_00000000'; // never sends anything
const LONG_PLAYER = 'q'.repeat(100); // the longest player id

// Nicknames the cases choose: every one ends in the case's tag.
const ALICE_NAME = 'Alice${T}';
const DAVE_NAME = 'Dave${T}';
const GREAT_NAME = 'DaveTheGreat${T}';

/**
 * Five ranked players on the main game, plus the targeted board level-1. Ties go to whoever
 * reached the value first: Bob reached 250 before Dave, Alice last (although Alice's profile is the
 * oldest); Dave reached streak 9 before Alice. Captures the default names $BOB_NAME, $CAROL_NAME
 * (Carol asked for a taken name) and $EVE_NAME.
 */
const RANKED: readonly Step[] = [
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
const RANKED_SIX: readonly Step[] = [
    ...RANKED,
    submit({ playerId: LONG_PLAYER, score: 0, streak: 0, scoreboardId: 'level-1' }),
];
/** RANKED, then renamed: Bob to alice_1 and Carol to Alice_2 (N2), Dave to DaveTheGreat by a submit (N1). */
const RENAMED: readonly Step[] = [
    ...RANKED,
    wait(3),
    submit({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
    send(put(`/players/${BOB}/nickname`, { nickname: 'alice${T}' }), ok({ nickname: 'alice${T}_1', message: TEXT })),
    send(put(`/players/${CAROL}/nickname`, { nickname: ALICE_NAME }), ok({ nickname: 'Alice${T}_2', message: TEXT })),
];
/** RENAMED, then a day later (a `clock` case: from Wednesday to Thursday) Carol submits in the new daily period. */
const ROLLED_OVER: readonly Step[] = [...RENAMED, wait(86_400), submit({ playerId: CAROL, score: 5, streak: 1 })];

const entry = (rank: number, nickname: string, s: number, streak: number) => ({
    rank,
    nickname,
    score: s,
    streak,
    authType: 'external',
});
const boardEntry = (rank: number, nickname: unknown, s: number, streak: number) => ({
    rank,
    nickname,
    score: s,
    streak,
    authType: 'external',
    submittedAt: NS,
});

const profile = (
    nickname: unknown,
    s: unknown,
    streak: unknown,
    playCount: unknown,
    achievements: unknown = [],
): Expectation =>
    ok({ nickname, created: NS, gameProfile: { score: s, streak, achievements, playCount, lastPlayed: NS } });

const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
};
/** Checked on every gateway answer (rule E1: CORS on every API response; X-API-Version). */
export const EVERY_RESPONSE_HEADERS: Record<string, string> = { ...CORS, 'x-api-version': '1.8.0' };

// The ranking of RANKED.
const LB_BY_SCORE = [
    entry(1, '$BOB_NAME', 250, 7),
    entry(2, DAVE_NAME, 250, 9),
    entry(3, ALICE_NAME, 250, 9),
    entry(4, '$EVE_NAME', 50, 20),
    entry(5, '$CAROL_NAME', 10, 0),
];
const LB_BY_STREAK = [
    entry(1, '$EVE_NAME', 50, 20),
    entry(2, DAVE_NAME, 250, 9),
    entry(3, ALICE_NAME, 250, 9),
    entry(4, '$BOB_NAME', 250, 7),
    entry(5, '$CAROL_NAME', 10, 0),
];
const BOARD_ENTRIES = LB_BY_SCORE.map((e) => ({ ...e, submittedAt: NS }));
/** The ranking of RENAMED: the same, by the new names. */
const RENAMED_BY_SCORE = [
    entry(1, 'alice${T}_1', 250, 7),
    entry(2, GREAT_NAME, 250, 9),
    entry(3, ALICE_NAME, 250, 9),
    entry(4, '$EVE_NAME', 50, 20),
    entry(5, 'Alice${T}_2', 10, 0),
];
const ARCHIVED_ENTRIES = RENAMED_BY_SCORE.map((e) => ({ ...e, submittedAt: NS }));
const DAILY_ARCHIVE_ID = `$GAME:daily:${DAY_START}`;
const DAILY_ARCHIVE = {
    archiveId: DAILY_ARCHIVE_ID,
    config: { name: TEXT, period: 'daily', sortBy: 'score', periodStart: DAY_START, periodEnd: NEXT_DAY_START },
    entries: ARCHIVED_ENTRIES,
    totalEntries: 5,
};

const MAIN_BOARDS_META = [
    { scoreboardId: 'all-time', name: TEXT, period: 'allTime' },
    { scoreboardId: 'weekly', name: TEXT, period: 'weekly' },
    { scoreboardId: 'daily', name: TEXT, period: 'daily' },
    { scoreboardId: 'level-1', name: 'Level 1', period: 'allTime' },
];
const boardSummary = (scoreboardId: string, period: string, entryCount: number, lastReset: unknown) => ({
    scoreboardId,
    name: TEXT,
    description: TEXT,
    period,
    sortBy: 'score',
    targeted: false,
    entryCount,
    lastReset,
    isActive: true,
});

const HUNDRED_IDS = Array.from({ length: 100 }, (_, i) => `ach_${i}`);
const LONG_ID = 'a'.repeat(65);
const SOME_SESSION = { 'X-Session-Token': 'sess_0123456789abcdef', 'X-Game-ID': '$GAME' };

const OP = {
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

const GAME_ONLY = { 'X-Game-ID': '$GAME' };
const SESSION = { 'X-Session-Token': '$SESSION', 'X-Game-ID': '$GAME' };
/** Starts a device code for the case's game: `$DEVICE` and `$USER_CODE`. */
const startCode = (nickname?: string): SendStep =>
    send(post('/auth/device/code', nickname === undefined ? {} : { nickname }, GAME_ONLY), undefined, {
        DEVICE: 'data.device_code',
        USER_CODE: 'data.user_code',
    });
/**
 * The link page's part, as a gateway does it once an identity provider vouched for the player
 * (the browser flow itself is test/local/link-flow.test.ts).
 */
const approve = (who: string): AdminStep => ({
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
const redeem = (capture = 'SESSION'): SendStep =>
    send(post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY), undefined, { [capture]: 'data.sessionId' });
/** A signed-in player of the case's game: `$SESSION`. */
const SIGNED_IN: readonly Step[] = [startCode('Signed$T'), approve('ada'), redeem()];
const APPROVAL = {
    sessionId: TOKEN,
    nickname: TEXT,
    email: TEXT,
    gameProfile: {
        score: INT,
        streak: INT,
        achievements: expect.any(Array),
        playCount: INT,
        lastPlayed: expect.anything(),
    },
    isNewUser: expect.any(Boolean),
    provider: 'local',
};
const SIGN_IN_CASES: Case[] = [
    {
        name: 'device code: the start answer with a code to type, the link page URLs and a QR code',
        ref: OP.deviceCode,
        request: post('/auth/device/code', { nickname: 'Starter$T' }, GAME_ONLY),
        expect: ok({
            device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
            user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
            verification_url: expect.stringMatching(/\/link$/),
            verification_url_complete: expect.stringMatching(
                /\/link\?code=[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/,
            ),
            expires_in: 300,
            interval: 5,
            qr_data_url: expect.stringMatching(/^data:image\/png;base64,/),
        }),
    },
    {
        name: 'device code: without X-Game-ID it is 400',
        ref: OP.deviceCode,
        request: post('/auth/device/code', {}, {}),
        expect: err(400),
    },
    {
        name: 'device code: an API key of another game is 400',
        ref: OP.deviceCode,
        setup: [GAME2],
        request: post('/auth/device/code', {}, { 'X-Game-ID': '$GAME', 'X-API-Key': '$KEY2' }),
        expect: err(400),
    },
    {
        name: 'device code: an unknown game is 404',
        ref: OP.deviceCode,
        request: post('/auth/device/code', {}, { 'X-Game-ID': 'no-such-game' }),
        expect: err(404),
    },
    {
        name: 'device code: the nickname rules apply',
        ref: [OP.deviceCode, 'rule-N3'],
        request: post('/auth/device/code', { nickname: 'x' }, GAME_ONLY),
        expect: TOO_SHORT,
    },
    {
        name: 'device token: 428 authorization_pending before the player approves',
        ref: OP.deviceToken,
        setup: [startCode()],
        request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
        expect: err(428, 'authorization_pending'),
    },
    {
        name: 'device token: once approved, 200 with the session and the profile',
        ref: OP.deviceToken,
        setup: [startCode('Approved$T'), approve('bea')],
        request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
        expect: ok({ ...APPROVAL, nickname: 'Approved$T', email: 'bea@example.com', isNewUser: true }),
    },
    {
        name: 'device token: a redeemed code is 404',
        ref: OP.deviceToken,
        setup: [startCode(), approve('cy'), redeem()],
        request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
        expect: err(404),
    },
    {
        name: 'device token: an unknown code is 404',
        ref: OP.deviceToken,
        request: post('/auth/device/token', { device_code: 'x'.repeat(43) }, GAME_ONLY),
        expect: err(404),
    },
    {
        name: 'device token: without device_code it is 400',
        ref: OP.deviceToken,
        request: post('/auth/device/token', {}, GAME_ONLY),
        expect: err(400),
    },
    {
        name: 'device token: 410 expired_token after 300 s',
        ref: OP.deviceToken,
        clock: true,
        setup: [startCode(), wait(120), wait(120), wait(61)],
        request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
        expect: err(410, 'expired_token'),
    },
    {
        name: 'id token: Google sign-in not configured on this server is 400',
        ref: OP.google,
        request: post('/auth/google', { id_token: 'a.b.c' }, GAME_ONLY),
        expect: err(400, 'Sign-in with google is not configured on this server'),
    },
    {
        name: 'id token: Apple sign-in without a token is 400',
        ref: OP.apple,
        request: post('/auth/apple', {}, GAME_ONLY),
        expect: err(400),
    },
    {
        name: 'session: the auth profile of the signed-in player',
        ref: OP.authProfile,
        setup: SIGNED_IN,
        request: get('/auth/profile', SESSION),
        expect: ok(expect.objectContaining({ nickname: 'Signed$T', email: 'ada@example.com', provider: 'local' })),
    },
    {
        name: 'session: the auth profile without a session is 401',
        ref: OP.authProfile,
        request: get('/auth/profile', SOME_SESSION),
        expect: err(401),
    },
    {
        name: 'session: a nickname change of the signed-in player',
        ref: [OP.profileNickname, 'rule-N2'],
        setup: SIGNED_IN,
        request: put('/profile/nickname', { nickname: 'Renamed$T' }, SESSION),
        expect: ok(expect.objectContaining({ nickname: 'Renamed$T' })),
    },
    {
        name: 'session: a nickname change with a bad name is 400',
        ref: [OP.profileNickname, 'rule-N3'],
        setup: SIGNED_IN,
        request: put('/profile/nickname', { nickname: 'no spaces' }, SESSION),
        expect: BAD_CHARS,
    },
    {
        name: 'session: a submit acts as the signed-in player, whatever playerId the body names',
        ref: OP.scores,
        setup: [...SIGNED_IN, send(score({ playerId: 'someone-else', score: 42, streak: 1 }, SESSION), SUBMITTED)],
        request: get('/players/someone-else/profile'),
        expect: NOT_FOUND_PLAYER,
    },
    {
        name: 'session: the board rank of the signed-in player',
        ref: OP.boardRank,
        setup: [...SIGNED_IN, send(score({ score: 42, streak: 1 }, SESSION), SUBMITTED)],
        request: get('/games/$GAME/scoreboards/daily/rank', SESSION),
        expect: ok({ found: true, rank: 1, score: 42, streak: 1, totalPlayers: 1 }),
    },
    {
        name: 'session: logout, then the session is 401',
        ref: OP.logout,
        setup: [...SIGNED_IN, send(post('/auth/logout', {}, SESSION))],
        request: get('/auth/profile', SESSION),
        expect: err(401),
    },
    {
        name: 'session: deleting the account ends its sessions',
        ref: OP.deleteAccount,
        setup: [...SIGNED_IN, send({ method: 'DELETE', path: '/auth/account', headers: SESSION })],
        request: get('/auth/profile', SESSION),
        expect: err(401),
    },
    {
        name: 'session: dead after 30 days',
        ref: OP.authProfile,
        clock: true,
        setup: [...SIGNED_IN, ...Array.from({ length: 30 }, () => wait(86_400)), wait(1)],
        request: get('/auth/profile', SESSION),
        expect: err(401),
    },
    {
        name: 'merge: an anonymous player joins the signed-in account',
        ref: OP.migrate,
        setup: [submit({ playerId: ALICE, score: 900, streak: 9 }), ...SIGNED_IN],
        request: post('/migrate-account', { deviceId: ALICE }, SESSION),
        expect: ok(expect.objectContaining({ migratedGames: 1 })),
    },
    {
        name: 'merge: only once per sign-in',
        ref: OP.migrate,
        setup: [
            submit({ playerId: ALICE, score: 900, streak: 9 }),
            submit({ playerId: BOB, score: 1, streak: 1 }),
            ...SIGNED_IN,
            send(post('/migrate-account', { deviceId: ALICE }, SESSION)),
        ],
        request: post('/migrate-account', { deviceId: BOB }, SESSION),
        expect: err(400),
    },
    {
        name: 'merge: a merged anonymous id can no longer submit',
        ref: [OP.migrate, OP.scores],
        setup: [
            submit({ playerId: ALICE, score: 900, streak: 9 }),
            ...SIGNED_IN,
            send(post('/migrate-account', { deviceId: ALICE }, SESSION)),
            SPACED,
        ],
        request: score({ playerId: ALICE, score: 1, streak: 1 }),
        expect: err(400),
    },
    {
        name: 'merge: an unknown anonymous id is 404',
        ref: OP.migrate,
        setup: SIGNED_IN,
        request: post('/migrate-account', { deviceId: 'dev_1700000000_ffffffff' }, SESSION),
        expect: err(404),
    },
    {
        name: 'merge: without a session it is 401',
        ref: OP.migrate,
        request: post('/migrate-account', { deviceId: ALICE }, SOME_SESSION),
        expect: err(401),
    },
];

/** Five players on the weekly board: 500, 400, 300, 200, 100 points. */
const FIVE_ON_A_BOARD: readonly Step[] = [500, 400, 300, 200, 100].map((points, i) =>
    submit({ playerId: `dev_1700000000_0000000${i}`, score: points, streak: 0 }),
);
const AROUND_CASES: Case[] = [
    {
        name: 'paging: offset skips from the top and the ranks go on from there, on both hosts',
        ref: OP.board,
        setup: FIVE_ON_A_BOARD,
        request: get('/games/$GAME/scoreboards/weekly?limit=2&offset=2'),
        expect: ok(
            expect.objectContaining({
                entries: [
                    expect.objectContaining({ rank: 3, score: 300 }),
                    expect.objectContaining({ rank: 4, score: 200 }),
                ],
                totalEntries: 5,
            }),
        ),
        direct: true,
    },
    {
        name: 'paging: past the last entry the page is empty',
        ref: OP.board,
        setup: FIVE_ON_A_BOARD,
        request: get('/games/$GAME/scoreboards/weekly?offset=5'),
        expect: ok(expect.objectContaining({ entries: [], totalEntries: 5 })),
        direct: true,
    },
    {
        name: 'paging: a negative or fractional offset is 400 on both hosts',
        ref: OP.board,
        request: get('/games/$GAME/scoreboards/weekly?offset=-1'),
        expect: err(400, 'Invalid offset: must be an integer from 0 to 1000000000'),
        direct: true,
    },
    {
        name: 'around me: one above and one below the player, with their ranks',
        ref: OP.around,
        setup: FIVE_ON_A_BOARD,
        request: get('/games/$GAME/scoreboards/weekly/around?playerId=dev_1700000000_00000002&before=1&after=1'),
        expect: ok({
            rank: 3,
            entries: [
                expect.objectContaining({ rank: 2, score: 400 }),
                expect.objectContaining({ rank: 3, score: 300 }),
                expect.objectContaining({ rank: 4, score: 200 }),
            ],
        }),
        direct: true,
    },
    {
        name: 'around me: the window stops at the top of the board',
        ref: OP.around,
        setup: FIVE_ON_A_BOARD,
        request: get('/games/$GAME/scoreboards/weekly/around?playerId=dev_1700000000_00000000&after=0'),
        expect: ok({ rank: 1, entries: [expect.objectContaining({ rank: 1, score: 500 })] }),
        direct: true,
    },
    {
        name: 'around me: a player without an entry is 404',
        ref: OP.around,
        setup: FIVE_ON_A_BOARD,
        request: get('/games/$GAME/scoreboards/weekly/around?playerId=dev_1700000000_99999999'),
        expect: err(404),
        direct: true,
    },
    {
        name: 'around me: without playerId an API-key request is 400',
        ref: OP.around,
        request: get('/games/$GAME/scoreboards/weekly/around'),
        expect: err(400, 'Invalid playerId: is required'),
        direct: true,
    },
    {
        name: 'around me: a window above 50 is 400',
        ref: OP.around,
        request: get('/games/$GAME/scoreboards/weekly/around?playerId=dev_1700000000_00000000&before=51'),
        expect: err(400, 'Invalid before: must be an integer from 0 to 50'),
        direct: true,
    },
    {
        name: 'around me: an unknown board is 404',
        ref: [OP.around, 'rule-R1'],
        request: get('/games/$GAME/scoreboards/no-such-board/around?playerId=dev_1700000000_00000000'),
        expect: boardNotFound('no-such-board'),
        direct: true,
    },
    {
        name: 'around me: the signed-in player needs no playerId',
        ref: OP.around,
        setup: [...SIGNED_IN, send(score({ score: 42, streak: 1 }, SESSION), SUBMITTED)],
        request: get('/games/$GAME/scoreboards/weekly/around', SESSION),
        expect: ok({ rank: 1, entries: [expect.objectContaining({ rank: 1, score: 42 })] }),
    },
];

// ---- the cases ----------------------------------------------------------------------------------------

export const CASES: readonly Case[] = [
    // -- platform routes, preflight, unknown routes ------------------------------------------------------
    {
        name: 'GET /health needs no headers and answers status healthy and version 1.8.0',
        ref: [OP.health, 'rule-E1'],
        request: { method: 'GET', path: '/health' },
        expect: { ...ok({ status: 'healthy', version: '1.8.0' }), headers: { 'x-api-version': '1.8.0' } },
    },
    {
        name: 'GET /stats needs no auth: platform counts total, today and date, zero on a fresh service',
        ref: OP.stats,
        clock: true,
        request: { method: 'GET', path: '/stats' },
        expect: ok({ total: 0, today: 0, date: TODAY }),
    },
    {
        name: 'GET /stats after submits: positive counts, the date of the replica clock',
        ref: OP.stats,
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: { method: 'GET', path: '/stats' },
        expect: ok({ total: POSITIVE, today: POSITIVE, date: '$TODAY' }),
    },
    {
        name: 'OPTIONS /scores: 200 with an empty object and the three CORS headers',
        ref: 'rule-E1',
        request: {
            method: 'OPTIONS',
            path: '/scores',
            headers: { Origin: 'https://game.example', 'Access-Control-Request-Method': 'POST' },
        },
        expect: { status: 200, body: {}, headers: CORS },
    },
    {
        name: 'OPTIONS on a board path: 200 with an empty object',
        ref: 'rule-E1',
        request: { method: 'OPTIONS', path: '/games/$GAME/scoreboards/daily' },
        expect: { status: 200, body: {}, headers: CORS },
    },
    {
        name: 'OPTIONS on a path that is no route: still 200 with an empty object',
        ref: 'rule-E1',
        request: { method: 'OPTIONS', path: '/no/such/route' },
        expect: { status: 200, body: {}, headers: CORS },
    },
    {
        name: 'unknown route: 404 `Unknown endpoint: GET /no-such-route` as JSON with CORS',
        ref: 'rule-E1',
        request: get('/no-such-route', {}),
        expect: { ...err(404, 'Unknown endpoint: GET /no-such-route'), headers: CORS },
    },
    {
        name: 'unknown route with a body that is not JSON: still 404 `Unknown endpoint: POST /no-such-route`',
        ref: 'rule-E1',
        request: { method: 'POST', path: '/no-such-route', headers: H, raw: 'score=10&streak=2' },
        expect: err(404, 'Unknown endpoint: POST /no-such-route'),
    },
    {
        name: 'known path, unknown method: 404 `Unknown endpoint: DELETE /scores`',
        ref: [OP.scores, 'rule-E1'],
        request: { method: 'DELETE', path: '/scores', headers: H },
        expect: err(404, 'Unknown endpoint: DELETE /scores'),
    },
    {
        name: 'POST to a GET-only route: 404 `Unknown endpoint: POST /leaderboard`',
        ref: [OP.leaderboard, 'rule-E1'],
        request: post('/leaderboard', {}),
        expect: err(404, 'Unknown endpoint: POST /leaderboard'),
    },

    // -- credentials -----------------------------------------------------------------------------------------
    {
        name: 'no credentials at all: 401 `Missing API key`',
        ref: ['rule-K1', OP.game],
        request: get('/game', {}),
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'X-Game-ID without an API key: 401 `Missing API key`',
        ref: ['rule-K1', OP.leaderboard],
        request: get('/leaderboard', { 'X-Game-ID': '$GAME' }),
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'credentials in the query string are ignored: 401 `Missing API key`',
        ref: ['rule-K1', OP.leaderboard],
        request: get('/leaderboard?apiKey=$KEY&api_key=$KEY&key=$KEY&X-API-Key=$KEY&gameId=$GAME', {
            'X-Game-ID': '$GAME',
        }),
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'a submit with the key only in the query string: 401 `Missing API key`',
        ref: ['rule-K1', OP.scores],
        request: {
            method: 'POST',
            path: '/scores?apiKey=$KEY&X-API-Key=$KEY',
            headers: {},
            body: { playerId: NEWBIE, gameId: '$GAME', score: 1, streak: 1 },
        },
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'a well-formed key of no registered game: 401 `Invalid API key`',
        ref: ['rule-K1', OP.game],
        request: get('/game', { 'X-API-Key': 'key_$GAME-nope_12345678901234567890' }),
        expect: err(401, 'Invalid API key'),
    },
    {
        name: 'a malformed key: 401 `Invalid API key`',
        ref: ['rule-K1', OP.game],
        request: get('/game', { 'X-API-Key': 'not-a-key' }),
        expect: err(401, 'Invalid API key'),
    },
    {
        name: 'a key of the game with fewer than 16 digits: 401 `Invalid API key`',
        ref: ['rule-K1', OP.game],
        request: get('/game', { 'X-API-Key': 'key_${GAME}_123', 'X-Game-ID': '$GAME' }),
        expect: err(401, 'Invalid API key'),
    },
    {
        name: 'a revoked, rotated-out key: 401 `Invalid API key`',
        ref: ['rule-K1', OP.game],
        setup: [{ admin: 'admin_rotate_key', request: { gameId: '$GAME' }, capture: { NEW_KEY: 'apiKey' } }],
        request: get('/game', { 'X-API-Key': '$KEY' }),
        expect: err(401, 'Invalid API key'),
    },
    {
        name: 'the rotated-in key works',
        ref: ['rule-K1', OP.game],
        setup: [{ admin: 'admin_rotate_key', request: { gameId: '$GAME' }, capture: { NEW_KEY: 'apiKey' } }],
        request: get('/game', { 'X-API-Key': '$NEW_KEY', 'X-Game-ID': '$GAME' }),
        expect: ok(expect.objectContaining({ gameId: '$GAME' })),
    },
    {
        name: 'the key of a deactivated game: 403 on a read',
        ref: ['rule-K1', OP.game],
        setup: [{ admin: 'admin_update_game', request: { gameId: '$GAME', isActive: false } }],
        request: get('/game'),
        expect: err(403),
    },
    {
        name: 'the key of a deactivated game: 403 on a submit',
        ref: ['rule-K1', OP.scores],
        setup: [{ admin: 'admin_update_game', request: { gameId: '$GAME', isActive: false } }],
        request: score({ playerId: NEWBIE, score: 1, streak: 1 }),
        expect: err(403),
    },
    {
        name: 'an unknown X-Session-Token without an API key: 401',
        ref: ['rule-K1', OP.leaderboard],
        request: get('/leaderboard', SOME_SESSION),
        expect: err(401),
    },
    {
        name: 'a submit with an unknown X-Session-Token and no API key: 401',
        ref: ['rule-K1', OP.scores],
        request: score({ playerId: NEWBIE, score: 1, streak: 1 }, SOME_SESSION),
        expect: err(401),
    },
    {
        name: 'X-Game-ID disagreeing with the API key: 400 naming X-Game-ID',
        ref: ['rule-K1', OP.game],
        setup: [GAME2],
        request: get('/game', { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME2' }),
        expect: err(400, mentions('X-Game-ID')),
    },
    {
        name: 'X-Game-ID disagreeing with the API key on a submit: 400',
        ref: ['rule-K1', OP.scores],
        setup: [GAME2],
        request: post(
            '/scores',
            { playerId: NEWBIE, gameId: '$GAME', score: 1, streak: 1 },
            { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME2' },
        ),
        expect: err(400, mentions('X-Game-ID')),
    },

    // -- first submits: fan-out, nicknames, player id shapes ---------------------------------------------------
    {
        name: 'a first submit creates the profile: dev_seconds_hex id, free nickname: 200 with a message',
        ref: [OP.scores, 'rule-S1', 'rule-N1'],
        request: score({ playerId: ALICE, score: 100, streak: 3, nickname: ALICE_NAME }),
        expect: SUBMITTED,
    },
    {
        name: 'a first submit without a nickname is accepted',
        ref: [OP.scores, 'rule-S1'],
        request: score({ playerId: BOB, score: 250, streak: 1 }),
        expect: SUBMITTED,
    },
    {
        name: 'a first submit with a name taken in another letter case is accepted, hand-made player id player-one',
        ref: [OP.scores, 'rule-N1', 'rule-N3'],
        setup: [submit({ playerId: ALICE, score: 100, streak: 3, nickname: ALICE_NAME })],
        request: score({ playerId: CAROL, score: 10, streak: 0, nickname: 'ALICE${T}' }),
        expect: SUBMITTED,
    },
    {
        name: 'an old plugin with the API key and no X-Game-ID can submit, player id with 13 or more digits in the time part',
        ref: [OP.scores, 'rule-K1'],
        request: score({ playerId: DAVE, score: 250, streak: 9, nickname: DAVE_NAME }, OLD_PLUGIN),
        expect: SUBMITTED,
    },
    {
        name: 'the rate limit is per board: a targeted submit right after a fan-out one is accepted',
        ref: [OP.scores, 'rule-L1', 'rule-S2'],
        setup: [LEVEL_1, submit({ playerId: DAVE, score: 250, streak: 9 }, OLD_PLUGIN)],
        request: score({ playerId: DAVE, score: 300, streak: 2, scoreboardId: 'level-1' }),
        expect: SUBMITTED,
    },
    {
        name: 'a first submit with a millisecond player id',
        ref: [OP.scores, 'rule-S1'],
        request: score({ playerId: EVE, score: 50, streak: 20 }),
        expect: SUBMITTED,
    },
    {
        name: 'an exact repeat inside 2 s is a retry: the same 200 answer',
        ref: [OP.scores, 'rule-S5'],
        setup: [send(score({ playerId: EVE, score: 50, streak: 20 }), SUBMITTED, { MESSAGE: 'data.message' })],
        request: score({ playerId: EVE, score: 50, streak: 20 }),
        expect: ok({ message: '$MESSAGE' }),
    },
    {
        name: 'another submit to the same board inside 2 s: 400 `Please wait 2 seconds between submissions.`',
        ref: [OP.scores, 'rule-L1'],
        setup: [submit({ playerId: EVE, score: 50, streak: 20 })],
        request: score({ playerId: EVE, score: 60, streak: 20 }),
        expect: RATE_LIMITED,
    },
    {
        name: 'profile shape, and a retry and a rate-limited submit change nothing: one play, bests 50 and 20',
        ref: [OP.profile, 'rule-S5', 'rule-L1'],
        setup: [
            submit({ playerId: EVE, score: 50, streak: 20 }),
            submit({ playerId: EVE, score: 50, streak: 20 }),
            refused({ playerId: EVE, score: 60, streak: 20 }, RATE_LIMITED),
        ],
        request: get(`/players/${EVE}/profile`),
        expect: profile(DEFAULT_NAME, 50, 20, 1),
    },
    {
        name: 'profile: the chosen free nickname is applied on the first submit',
        ref: [OP.profile, 'rule-N1'],
        setup: [submit({ playerId: ALICE, score: 100, streak: 3, nickname: ALICE_NAME })],
        request: get(`/players/${ALICE}/profile`),
        expect: profile(ALICE_NAME, 100, 3, 1),
    },
    {
        name: 'profile: no nickname on the first submit gives Player_<number>',
        ref: [OP.profile, 'rule-N1'],
        setup: [submit({ playerId: BOB, score: 250, streak: 1 })],
        request: get(`/players/${BOB}/profile`),
        expect: profile(DEFAULT_NAME, 250, 1, 1),
    },
    {
        name: 'a taken name on a first submit falls back to Player_<number>',
        ref: [OP.profile, 'rule-N1'],
        setup: [
            submit({ playerId: ALICE, score: 100, streak: 3, nickname: ALICE_NAME }),
            submit({ playerId: CAROL, score: 10, streak: 0, nickname: 'ALICE${T}' }),
        ],
        request: get(`/players/${CAROL}/profile`),
        expect: profile(DEFAULT_NAME, 10, 0, 1),
    },
    {
        name: 'a targeted submit leaves the profile aggregates alone: 250 and 9 kept, not 300 and 2',
        ref: [OP.profile, 'rule-S2'],
        setup: [
            LEVEL_1,
            submit({ playerId: DAVE, score: 250, streak: 9, nickname: DAVE_NAME }, OLD_PLUGIN),
            submit({ playerId: DAVE, score: 300, streak: 2, scoreboardId: 'level-1' }),
        ],
        request: get(`/players/${DAVE}/profile`, OLD_PLUGIN),
        expect: profile(DAVE_NAME, 250, 9, 2),
    },
    {
        name: 'profile of a player with no profile: 404 `Player not found`',
        ref: OP.profile,
        request: get(`/players/${GHOST}/profile`),
        expect: NOT_FOUND_PLAYER,
    },
    {
        name: 'profile: a path player id with bad characters is 400',
        ref: OP.profile,
        request: get('/players/bad!id/profile'),
        expect: err(400, mentions('playerId')),
    },

    // -- submit validation: scores are non-negative integers up to 9007199254740991; fields named ------------------
    {
        name: 'validation: a score as a string of digits is 400 with the score rule',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: '100', streak: 1 }),
        expect: BAD_COUNT('score'),
    },
    {
        name: 'validation: a score of "5" is 400 with the score rule, not is required',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: '5', streak: 1 }),
        expect: BAD_COUNT('score'),
    },
    {
        name: 'validation: a score of true is 400 with the score rule',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: true, streak: 1 }),
        expect: BAD_COUNT('score'),
    },
    {
        name: 'validation: a missing score is 400 `Invalid score: is required`',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, streak: 1 }),
        expect: err(400, 'Invalid score: is required'),
    },
    {
        name: 'validation: a missing streak is 400 naming streak',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: 1 }),
        expect: err(400, mentions('streak')),
    },
    {
        name: 'validation: a negative score is 400 naming score',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: -1, streak: 1 }),
        expect: err(400, mentions('score')),
    },
    {
        name: 'validation: a score of 1.5 is 400 with the score rule',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: 1.5, streak: 1 }),
        expect: BAD_COUNT('score'),
    },
    {
        name: 'validation: a non-integer streak is 400 naming streak',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: 1, streak: 2.5 }),
        expect: err(400, mentions('streak')),
    },
    {
        name: 'validation: a score of 9007199254740992, one above the largest, is 400 naming score',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: 9007199254740992, streak: 1 }),
        expect: err(400, mentions('score')),
    },
    {
        name: 'validation: a streak of 9007199254740992 is 400 naming streak',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: 1, streak: 9007199254740992 }),
        expect: err(400, mentions('streak')),
    },
    {
        name: 'validation: a score sent as null is 400 naming score',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: null, streak: 1 }),
        expect: err(400, mentions('score')),
    },
    {
        name: 'validation: a missing playerId is 400 naming playerId',
        ref: OP.scores,
        request: score({ score: 1, streak: 1 }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'validation: a playerId with bad characters is 400',
        ref: OP.scores,
        request: score({ playerId: 'bad id!', score: 1, streak: 1 }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'validation: a playerId of 101 characters is 400',
        ref: OP.scores,
        request: score({ playerId: 'p'.repeat(101), score: 1, streak: 1 }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'validation: a playerId of 100 characters is accepted',
        ref: [OP.scores, 'rule-S2'],
        setup: [LEVEL_1],
        request: score({ playerId: LONG_PLAYER, score: 0, streak: 0, scoreboardId: 'level-1' }),
        expect: SUBMITTED,
    },
    {
        name: 'validation: a numeric playerId is 400',
        ref: OP.scores,
        request: score({ playerId: 12345, score: 1, streak: 1 }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'validation: a numeric nickname is 400 naming nickname',
        ref: [OP.scores, 'rule-N3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 42 }),
        expect: err(400, mentions('[Nn]ickname')),
    },
    {
        name: 'validation: a gameId of another game in the body is 400 naming gameId',
        ref: OP.scores,
        setup: [GAME2],
        request: post('/scores', { playerId: NEWBIE, gameId: '$GAME2', score: 1, streak: 1 }),
        expect: err(400, mentions('gameId')),
    },
    {
        name: 'validation: a numeric gameId is 400 naming gameId',
        ref: OP.scores,
        request: post('/scores', { playerId: NEWBIE, gameId: 7, score: 1, streak: 1 }),
        expect: err(400, mentions('gameId')),
    },
    {
        name: 'validation: a JSON array body is 400',
        ref: OP.scores,
        request: post('/scores', [{ playerId: NEWBIE, gameId: '$GAME', score: 1, streak: 1 }]),
        expect: err(400),
    },
    {
        name: 'validation: malformed JSON is 400 `Invalid JSON body`',
        ref: [OP.scores, 'rule-E1'],
        request: { method: 'POST', path: '/scores', headers: H, raw: '{"playerId": "x", "score": ' },
        expect: err(400, 'Invalid JSON body'),
    },
    {
        name: 'validation: a body over 64 KB is 413 JSON',
        ref: [OP.scores, 'rule-E1'],
        request: {
            method: 'POST',
            path: '/scores',
            headers: H,
            raw: JSON.stringify({
                playerId: NEWBIE,
                gameId: 'conf-main',
                score: 1,
                streak: 1,
                pad: 'x'.repeat(70_000),
            }),
        },
        expect: err(413),
    },
    {
        name: 'a nickname of 2 characters on a submit is 400 `Nickname must be at least 3 characters`',
        ref: [OP.scores, 'rule-N3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'Al' }),
        expect: TOO_SHORT,
    },
    {
        name: 'a nickname of 17 characters on a submit is 400 `Nickname must be 16 characters or less`',
        ref: [OP.scores, 'rule-N3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'abcdefghijklmnopq' }),
        expect: TOO_LONG,
    },
    {
        name: 'a nickname with a space on a submit is 400 `Nickname can only contain letters, numbers, and underscores`',
        ref: [OP.scores, 'rule-N3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'Al ice' }),
        expect: BAD_CHARS,
    },
    {
        name: 'a nickname with a zero-width space, U200B, on a submit is 400 `Nickname can only contain letters, numbers, and underscores`',
        ref: [OP.scores, 'rule-N3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'Al\u200Bice' }),
        expect: BAD_CHARS,
    },
    {
        name: 'scoreboardId all-time is rejected',
        ref: [OP.scores, 'rule-S3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'all-time' }),
        expect: err(400),
    },
    {
        name: 'scoreboardId weekly is rejected',
        ref: [OP.scores, 'rule-S3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'weekly' }),
        expect: err(400),
    },
    {
        name: 'scoreboardId daily is rejected',
        ref: [OP.scores, 'rule-S3'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'daily' }),
        expect: err(400),
    },
    {
        name: 'a scoreboardId naming no board: 404 `Scoreboard <id> not found for this game.`',
        ref: [OP.scores, 'rule-S4'],
        request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'no-such-board' }),
        expect: boardNotFound('no-such-board'),
    },
    {
        name: 'validation: a scoreboardId with a dot is 400 naming scoreboardId',
        ref: OP.scores,
        request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'bad.id' }),
        expect: err(400, mentions('scoreboardId')),
    },
    {
        name: 'rejected submits create nothing: the player still has no profile',
        ref: [OP.scores, OP.profile, 'rule-S4'],
        setup: [
            refused({ playerId: NEWBIE, score: -1, streak: 1 }, err(400)),
            refused({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'Al' }, TOO_SHORT),
            refused({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'daily' }, err(400)),
            refused(
                { playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'no-such-board' },
                boardNotFound('no-such-board'),
            ),
        ],
        request: get(`/players/${NEWBIE}/profile`),
        expect: NOT_FOUND_PLAYER,
    },

    // -- later submits: independent maxima, plays, targeted submits, tokens ignored with time validation off ------
    {
        name: 'a lower score with a higher streak is accepted',
        ref: [OP.scores, 'rule-S1'],
        setup: [submit({ playerId: BOB, score: 250, streak: 1 }), SPACED],
        request: score({ playerId: BOB, score: 100, streak: 7 }),
        expect: SUBMITTED,
    },
    {
        name: 'a later submit raising both bests is accepted',
        ref: [OP.scores, 'rule-S1'],
        setup: [submit({ playerId: ALICE, score: 100, streak: 3 }), SPACED],
        request: score({ playerId: ALICE, score: 250, streak: 9 }),
        expect: SUBMITTED,
    },
    {
        name: 'a targeted submit is accepted',
        ref: [OP.scores, 'rule-S2'],
        setup: [LEVEL_1, submit({ playerId: EVE, score: 50, streak: 20 }), SPACED],
        request: score({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
        expect: SUBMITTED,
    },
    {
        name: 'an exact repeat of a targeted submit inside 2 s gets the same 200 answer',
        ref: [OP.scores, 'rule-S2', 'rule-S5'],
        setup: [
            LEVEL_1,
            send(score({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }), SUBMITTED, {
                MESSAGE: 'data.message',
            }),
        ],
        request: score({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
        expect: ok({ message: '$MESSAGE' }),
    },
    {
        name: 'the rate limit applies to targeted submits: 400 `Please wait 2 seconds between submissions.`',
        ref: [OP.scores, 'rule-S2', 'rule-L1'],
        setup: [LEVEL_1, submit({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' })],
        request: score({ playerId: EVE, score: 450, streak: 1, scoreboardId: 'level-1' }),
        expect: RATE_LIMITED,
    },
    {
        name: 'a targeted submit counts a play but leaves score and streak alone, its retry and rate-limited repeat change nothing',
        ref: [OP.profile, 'rule-S2', 'rule-S5'],
        setup: [
            LEVEL_1,
            submit({ playerId: EVE, score: 50, streak: 20 }),
            SPACED,
            submit({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
            submit({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
            refused({ playerId: EVE, score: 450, streak: 1, scoreboardId: 'level-1' }, RATE_LIMITED),
        ],
        request: get(`/players/${EVE}/profile`),
        expect: profile(DEFAULT_NAME, 50, 20, 2),
    },
    {
        name: 'bests are independent maxima, an omitted nickname leaves the name alone, spaced submits count plays',
        ref: [OP.profile, 'rule-S1', 'rule-N1', 'rule-S5'],
        setup: [
            submit({ playerId: BOB, score: 250, streak: 1 }),
            captureName(BOB, 'BOB_NAME'),
            SPACED,
            submit({ playerId: BOB, score: 100, streak: 7 }),
        ],
        request: get(`/players/${BOB}/profile`),
        expect: profile('$BOB_NAME', 250, 7, 2),
    },
    {
        name: 'profile bests rise',
        ref: [OP.profile, 'rule-S1'],
        setup: [
            submit({ playerId: ALICE, score: 100, streak: 3, nickname: ALICE_NAME }),
            SPACED,
            submit({ playerId: ALICE, score: 250, streak: 9 }),
        ],
        request: get(`/players/${ALICE}/profile`),
        expect: profile(ALICE_NAME, 250, 9, 2),
    },
    {
        name: 'time validation off: any playSessionToken is accepted and ignored',
        ref: [OP.scores, 'rule-L2'],
        setup: [submit({ playerId: CAROL, score: 10, streak: 0 }), SPACED],
        request: score({ playerId: CAROL, score: 10, streak: 0, playSessionToken: 'ps_not_a_real_token' }),
        expect: SUBMITTED,
    },

    // -- GET /leaderboard ----------------------------------------------------------------------------------------
    {
        name: 'GET /leaderboard: by score, ranks 1-based and distinct, ties to who reached the value first, total = ranked players',
        ref: OP.leaderboard,
        setup: RANKED,
        request: get('/leaderboard'),
        expect: ok({ leaderboard: LB_BY_SCORE, total: 5 }),
    },
    {
        name: 'GET /leaderboard with sort=score and limit=2: two entries, total still all ranked players',
        ref: OP.leaderboard,
        setup: RANKED,
        request: get('/leaderboard?sort=score&limit=2'),
        expect: ok({ leaderboard: LB_BY_SCORE.slice(0, 2), total: 5 }),
    },
    {
        name: 'GET /leaderboard with sort=streak: by best streak, ties to who reached it first',
        ref: OP.leaderboard,
        setup: RANKED,
        request: get('/leaderboard?sort=streak'),
        expect: ok({ leaderboard: LB_BY_STREAK, total: 5 }),
    },
    {
        name: 'GET /leaderboard with sort=streak and limit=1',
        ref: OP.leaderboard,
        setup: RANKED,
        request: get('/leaderboard?sort=streak&limit=1'),
        expect: ok({ leaderboard: LB_BY_STREAK.slice(0, 1), total: 5 }),
    },
    {
        name: 'GET /leaderboard by an old plugin without X-Game-ID',
        ref: [OP.leaderboard, 'rule-K1'],
        setup: RANKED,
        request: get('/leaderboard', OLD_PLUGIN),
        expect: ok({ leaderboard: LB_BY_SCORE, total: 5 }),
    },
    {
        name: 'GET /leaderboard with an unknown sort=level: 400 naming sort',
        ref: OP.leaderboard,
        request: get('/leaderboard?sort=level'),
        expect: err(400, mentions('sort')),
    },
    {
        name: 'GET /leaderboard with sort in the list form, brackets after the name: 400',
        ref: OP.leaderboard,
        request: get('/leaderboard?sort[]=score'),
        expect: err(400, 'Invalid sort: give it once, as a plain value'),
    },
    {
        name: 'GET /leaderboard with limit given twice: 400 `Invalid limit: give it once, as a plain value`',
        ref: OP.leaderboard,
        request: get('/leaderboard?limit=1&limit=3'),
        expect: LIMIT_TWICE,
    },

    // -- GET /players/{id}/rank ---------------------------------------------------------------------------------
    {
        name: 'GET /players/id/rank: rank, score, streak and totalPlayers',
        ref: OP.rank,
        setup: RANKED,
        request: get(`/players/${ALICE}/rank`),
        expect: ok({ rank: 3, score: 250, streak: 9, totalPlayers: 5 }),
    },
    {
        name: 'GET /players/id/rank with sort=streak',
        ref: OP.rank,
        setup: RANKED,
        request: get(`/players/${EVE}/rank?sort=streak`),
        expect: ok({ rank: 1, score: 50, streak: 20, totalPlayers: 5 }),
    },
    {
        name: 'GET /players/id/rank with sort=score for a hand-made id',
        ref: OP.rank,
        setup: RANKED,
        request: get(`/players/${CAROL}/rank?sort=score`),
        expect: ok({ rank: 5, score: 10, streak: 0, totalPlayers: 5 }),
    },
    {
        name: 'GET /players/id/rank of a player with no profile: 404 `Player not found`',
        ref: OP.rank,
        request: get(`/players/${GHOST}/rank`),
        expect: NOT_FOUND_PLAYER,
    },
    {
        name: 'GET /players/id/rank with sort=level: 400',
        ref: OP.rank,
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: get(`/players/${ALICE}/rank?sort=level`),
        expect: err(400, mentions('sort')),
    },
    {
        name: 'GET /players/id/rank with bad characters in the id: 400',
        ref: OP.rank,
        request: get('/players/bad!id/rank'),
        expect: err(400, mentions('playerId')),
    },

    // -- board reads, also served directly by the canister -------------------------------------------------------
    {
        name: 'board list: gameId and the boards with their exact fields, lastReset the start of the UTC period',
        ref: OP.boards,
        setup: RANKED_SIX,
        request: get('/games/$GAME/scoreboards'),
        expect: ok({
            gameId: '$GAME',
            scoreboards: [
                boardSummary('all-time', 'allTime', 5, TIME),
                boardSummary('weekly', 'weekly', 5, '$WEEK_START'),
                boardSummary('daily', 'daily', 5, '$DAY_START'),
                {
                    scoreboardId: 'level-1',
                    name: 'Level 1',
                    description: '',
                    period: 'allTime',
                    sortBy: 'score',
                    targeted: true,
                    entryCount: 3,
                    lastReset: TIME,
                    isActive: true,
                },
            ],
        }),
        direct: true,
    },
    {
        name: 'board read all-time: scoreboardId, config, entries, totalEntries, default limit',
        ref: [OP.board, 'rule-S1'],
        setup: RANKED,
        request: get('/games/$GAME/scoreboards/all-time'),
        expect: ok({
            scoreboardId: 'all-time',
            config: { name: TEXT, description: TEXT, period: 'allTime', sortBy: 'score', lastReset: TIME },
            entries: BOARD_ENTRIES,
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'the weekly board got every fan-out submit, its period started Monday 00:00 UTC',
        ref: [OP.board, 'rule-S1'],
        setup: RANKED,
        request: get('/games/$GAME/scoreboards/weekly'),
        expect: ok({
            scoreboardId: 'weekly',
            config: { name: TEXT, description: TEXT, period: 'weekly', sortBy: 'score', lastReset: '$WEEK_START' },
            entries: BOARD_ENTRIES,
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'the daily board got every fan-out submit, its period started 00:00 UTC',
        ref: [OP.board, 'rule-S1'],
        setup: RANKED,
        request: get('/games/$GAME/scoreboards/daily'),
        expect: ok({
            scoreboardId: 'daily',
            config: { name: TEXT, description: TEXT, period: 'daily', sortBy: 'score', lastReset: '$DAY_START' },
            entries: BOARD_ENTRIES,
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'the targeted board holds only targeted submits',
        ref: [OP.board, 'rule-S2'],
        setup: RANKED_SIX,
        request: get('/games/$GAME/scoreboards/level-1'),
        expect: ok({
            scoreboardId: 'level-1',
            config: { name: 'Level 1', description: '', period: 'allTime', sortBy: 'score', lastReset: TIME },
            entries: [
                boardEntry(1, '$EVE_NAME', 400, 1),
                boardEntry(2, DAVE_NAME, 300, 2),
                boardEntry(3, DEFAULT_NAME, 0, 0),
            ],
            totalEntries: 3,
        }),
        direct: true,
    },
    {
        name: 'board limit=2: two entries, totalEntries is the whole board',
        ref: OP.board,
        setup: RANKED,
        request: get('/games/$GAME/scoreboards/all-time?limit=2'),
        expect: ok({
            scoreboardId: 'all-time',
            config: expect.any(Object),
            entries: BOARD_ENTRIES.slice(0, 2),
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'board limit=0 clamps to 1',
        ref: OP.board,
        setup: RANKED,
        request: get('/games/$GAME/scoreboards/all-time?limit=0'),
        expect: ok({
            scoreboardId: 'all-time',
            config: expect.any(Object),
            entries: BOARD_ENTRIES.slice(0, 1),
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'board limit=-7 clamps to 1',
        ref: OP.board,
        setup: RANKED,
        request: get('/games/$GAME/scoreboards/all-time?limit=-7'),
        expect: ok({
            scoreboardId: 'all-time',
            config: expect.any(Object),
            entries: BOARD_ENTRIES.slice(0, 1),
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'board limit=5000 clamps to 1000: all five entries, no error',
        ref: OP.board,
        setup: RANKED,
        request: get('/games/$GAME/scoreboards/all-time?limit=5000'),
        expect: ok({ scoreboardId: 'all-time', config: expect.any(Object), entries: BOARD_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'board limit given twice: 400 `Invalid limit: give it once, as a plain value` on both hosts',
        ref: OP.board,
        request: get('/games/$GAME/scoreboards/all-time?limit=1&limit=3'),
        expect: LIMIT_TWICE,
        direct: true,
    },
    {
        name: 'board limit in the list form, brackets after the name: 400 on both hosts',
        ref: OP.board,
        request: get('/games/$GAME/scoreboards/all-time?limit[]=5'),
        expect: LIMIT_TWICE,
        direct: true,
    },
    {
        name: 'board read of an unknown board: 404 `Scoreboard nope not found for this game.`',
        ref: [OP.board, 'rule-R1'],
        request: get('/games/$GAME/scoreboards/nope'),
        expect: boardNotFound('nope'),
        direct: true,
    },
    {
        name: 'board limit=abc: whatever the answer, both hosts give the same one',
        ref: OP.board,
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: get('/games/$GAME/scoreboards/all-time?limit=abc'),
        expect: { status: expect.any(Number), body: expect.objectContaining({ ok: expect.any(Boolean) }) },
        direct: true,
    },
    {
        name: 'board limit=2.5: whatever the answer, both hosts give the same one',
        ref: OP.board,
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: get('/games/$GAME/scoreboards/all-time?limit=2.5'),
        expect: { status: expect.any(Number), body: expect.objectContaining({ ok: expect.any(Boolean) }) },
        direct: true,
    },
    {
        name: 'path ids: a board id with a dot is 400',
        ref: OP.board,
        request: get('/games/$GAME/scoreboards/bad.id'),
        expect: err(400),
        direct: true,
    },
    {
        name: 'path ids: a board id of 65 characters is 400',
        ref: OP.board,
        request: get(`/games/$GAME/scoreboards/${LONG_ID}`),
        expect: err(400),
        direct: true,
    },
    {
        name: 'path ids: a game id of 65 characters is 400',
        ref: OP.boards,
        request: get(`/games/${LONG_ID}/scoreboards`),
        expect: err(400),
        direct: true,
    },
    {
        name: 'path ids: a game id with a dot is 400, checked before any credential',
        ref: [OP.board, 'rule-K1'],
        request: get('/games/conf.main/scoreboards/daily', {}),
        expect: err(400),
        direct: true,
    },
    {
        name: 'path ids: a bad game id in the board list path is 400 without credentials',
        ref: [OP.boards, 'rule-K1'],
        request: get('/games/bad.game/scoreboards', {}),
        expect: err(400, mentions('gameId')),
        direct: true,
    },
    {
        name: 'path ids: a game id of 65 characters in an archive path is 400 without credentials',
        ref: [OP.archives, 'rule-K1'],
        request: get(`/games/${LONG_ID}/scoreboards/daily/archives`, {}),
        expect: err(400, mentions('gameId')),
        direct: true,
    },
    {
        name: 'the board rank is session-only: an API-key request is 401',
        ref: [OP.boardRank, 'rule-K1'],
        request: get('/games/$GAME/scoreboards/daily/rank'),
        expect: err(401),
    },
    {
        name: 'the board rank with an unknown X-Session-Token: 401',
        ref: [OP.boardRank, 'rule-K1'],
        request: get('/games/$GAME/scoreboards/daily/rank', SOME_SESSION),
        expect: err(401),
    },

    // -- archives before any period ended -------------------------------------------------------------------------
    {
        name: 'archives: the list shape, empty before a period ends',
        ref: OP.archives,
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: get('/games/$GAME/scoreboards/daily/archives'),
        expect: ok({ gameId: '$GAME', scoreboardId: 'daily', archives: [] }),
        direct: true,
    },
    {
        name: 'archives: latest is 404 when there is none',
        ref: OP.latest,
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: get('/games/$GAME/scoreboards/daily/archives/latest'),
        expect: err(404),
        direct: true,
    },
    {
        name: 'archives: an unknown archive id is 404',
        ref: OP.archive,
        request: get('/games/$GAME/scoreboards/daily/archives/$GAME:daily:0'),
        expect: err(404),
        direct: true,
    },
    {
        name: 'archives of an unknown board: 404 `Scoreboard nope not found for this game.`',
        ref: [OP.archives, 'rule-R1'],
        request: get('/games/$GAME/scoreboards/nope/archives'),
        expect: boardNotFound('nope'),
        direct: true,
    },
    {
        name: 'archives: a bad board id in an archive path is 400',
        ref: OP.archives,
        request: get('/games/$GAME/scoreboards/bad.id/archives'),
        expect: err(400),
        direct: true,
    },
    {
        name: 'archive stats: gameId, totalArchives, one item per timed board, targeted ones too, 0 before any archive',
        ref: OP.archiveStats,
        setup: [
            LEVEL_1,
            {
                admin: 'admin_create_board',
                request: { gameId: '$GAME', scoreboardId: 'boss', type: 'targeted', period: 'weekly', name: 'Boss' },
            },
            submit({ playerId: ALICE, score: 1, streak: 1 }),
        ],
        request: get('/games/$GAME/archives/stats'),
        expect: ok({
            gameId: '$GAME',
            totalArchives: 0,
            byScoreboard: ['weekly', 'daily', 'boss'].map((scoreboardId) => ({
                scoreboardId,
                archiveCount: 0,
                latestPeriodEnd: 0,
            })),
        }),
        direct: true,
    },
    {
        name: 'archive stats: without an API key is 401',
        ref: [OP.archiveStats, 'rule-K1'],
        request: get('/games/$GAME/archives/stats', {}),
        expect: err(401),
    },
    {
        name: 'archive stats: a bad game id is 400 without credentials',
        ref: [OP.archiveStats, 'rule-K1'],
        request: get('/games/bad.game/archives/stats', {}),
        expect: err(400, mentions('gameId')),
        direct: true,
    },

    // -- PUT /players/{id}/nickname -------------------------------------------------------------------------------
    {
        name: 'a name taken in another letter case gets the suffix _1 and the reply names it: nickname and message',
        ref: [OP.nickname, 'rule-N2'],
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1, nickname: ALICE_NAME }),
            submit({ playerId: BOB, score: 1, streak: 1 }),
        ],
        request: put(`/players/${BOB}/nickname`, { nickname: 'alice${T}' }),
        expect: ok({ nickname: 'alice${T}_1', message: TEXT }),
    },
    {
        name: 'the next free suffix when _1 is taken too',
        ref: [OP.nickname, 'rule-N2'],
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1, nickname: ALICE_NAME }),
            submit({ playerId: BOB, score: 1, streak: 1 }),
            submit({ playerId: CAROL, score: 1, streak: 1 }),
            send(
                put(`/players/${BOB}/nickname`, { nickname: 'alice${T}' }),
                ok({ nickname: 'alice${T}_1', message: TEXT }),
            ),
        ],
        request: put(`/players/${CAROL}/nickname`, { nickname: ALICE_NAME }),
        expect: ok({ nickname: 'Alice${T}_2', message: TEXT }),
    },
    {
        name: 'a player setting the name they already hold keeps it, no suffix',
        ref: [OP.nickname, 'rule-N2'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1, nickname: ALICE_NAME })],
        request: put(`/players/${ALICE}/nickname`, { nickname: ALICE_NAME }),
        expect: ok({ nickname: ALICE_NAME, message: TEXT }),
    },
    {
        name: 'PUT nickname of 2 characters: `Nickname must be at least 3 characters`',
        ref: [OP.nickname, 'rule-N3'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: put(`/players/${ALICE}/nickname`, { nickname: 'Al' }),
        expect: TOO_SHORT,
    },
    {
        name: 'PUT nickname of 17 characters: `Nickname must be 16 characters or less`',
        ref: [OP.nickname, 'rule-N3'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: put(`/players/${ALICE}/nickname`, { nickname: 'abcdefghijklmnopq' }),
        expect: TOO_LONG,
    },
    {
        name: 'PUT nickname with a hyphen: `Nickname can only contain letters, numbers, and underscores`',
        ref: [OP.nickname, 'rule-N3'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: put(`/players/${ALICE}/nickname`, { nickname: 'Ali-ce' }),
        expect: BAD_CHARS,
    },
    {
        name: 'PUT nickname with a space: `Nickname can only contain letters, numbers, and underscores`',
        ref: [OP.nickname, 'rule-N3'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: put(`/players/${ALICE}/nickname`, { nickname: 'Al ice' }),
        expect: BAD_CHARS,
    },
    {
        name: 'PUT nickname with a zero-width space, U200B: `Nickname can only contain letters, numbers, and underscores`',
        ref: [OP.nickname, 'rule-N3'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: put(`/players/${ALICE}/nickname`, { nickname: 'Al\u200Bice' }),
        expect: BAD_CHARS,
    },
    {
        name: 'PUT nickname: a numeric nickname is 400 naming nickname',
        ref: [OP.nickname, 'rule-N3'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: put(`/players/${ALICE}/nickname`, { nickname: 42 }),
        expect: err(400, mentions('[Nn]ickname')),
    },
    {
        name: 'PUT nickname: a missing nickname is 400 naming nickname',
        ref: OP.nickname,
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: put(`/players/${ALICE}/nickname`, {}),
        expect: err(400, mentions('[Nn]ickname')),
    },
    {
        name: 'PUT nickname of a player with no profile: 404 `Player not found`',
        ref: OP.nickname,
        request: put(`/players/${GHOST}/nickname`, { nickname: 'Ghosty${T}' }),
        expect: NOT_FOUND_PLAYER,
    },
    {
        name: 'PUT nickname with bad characters in the path id: 400',
        ref: OP.nickname,
        request: put('/players/bad!id/nickname', { nickname: 'Valid_Name' }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'the name applied by PUT nickname is the profile name',
        ref: [OP.nickname, OP.profile, 'rule-N2'],
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1, nickname: ALICE_NAME }),
            submit({ playerId: BOB, score: 250, streak: 7 }),
            send(
                put(`/players/${BOB}/nickname`, { nickname: 'alice${T}' }),
                ok({ nickname: 'alice${T}_1', message: TEXT }),
            ),
        ],
        request: get(`/players/${BOB}/profile`),
        expect: profile('alice${T}_1', 250, 7, 1),
    },
    {
        name: 'rejected nicknames change nothing',
        ref: [OP.nickname, OP.profile, 'rule-N3'],
        setup: [
            submit({ playerId: ALICE, score: 250, streak: 9, nickname: ALICE_NAME }),
            send(put(`/players/${ALICE}/nickname`, { nickname: 'Al' }), TOO_SHORT),
            send(put(`/players/${ALICE}/nickname`, { nickname: 'abcdefghijklmnopq' }), TOO_LONG),
            send(put(`/players/${ALICE}/nickname`, { nickname: 'Ali-ce' }), BAD_CHARS),
            send(put(`/players/${ALICE}/nickname`, { nickname: 42 }), err(400)),
        ],
        request: get(`/players/${ALICE}/profile`),
        expect: profile(ALICE_NAME, 250, 9, 1),
    },

    // -- nicknames on later submits ----------------------------------------------------------------------------------
    {
        name: 'a free nickname on a later submit renames the player',
        ref: [OP.scores, 'rule-N1'],
        setup: [submit({ playerId: DAVE, score: 250, streak: 9, nickname: DAVE_NAME }), wait(3)],
        request: score({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
        expect: SUBMITTED,
    },
    {
        name: 'the rename by a submit is applied',
        ref: [OP.profile, 'rule-N1'],
        setup: [
            submit({ playerId: DAVE, score: 250, streak: 9, nickname: DAVE_NAME }),
            wait(3),
            submit({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
        ],
        request: get(`/players/${DAVE}/profile`),
        expect: profile(GREAT_NAME, 250, 9, INT),
    },
    {
        name: 'a taken nickname on a later submit, as Godot 3 sends it every time, is silently ignored: 200, no error',
        ref: [OP.scores, 'rule-N1'],
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1, nickname: ALICE_NAME }),
            submit({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
            wait(3),
        ],
        request: score({ playerId: DAVE, score: 250, streak: 9, nickname: 'ALICE${T}' }),
        expect: SUBMITTED,
    },
    {
        name: 'a taken nickname on a later submit neither renames nor suffixes',
        ref: [OP.profile, 'rule-N1'],
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1, nickname: ALICE_NAME }),
            submit({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
            wait(3),
            submit({ playerId: DAVE, score: 250, streak: 9, nickname: 'ALICE${T}' }),
        ],
        request: get(`/players/${DAVE}/profile`),
        expect: profile(GREAT_NAME, 250, 9, INT),
    },
    {
        name: 'a well-spaced duplicate of an earlier submit is accepted',
        ref: [OP.scores, 'rule-S5'],
        setup: [submit({ playerId: EVE, score: 50, streak: 20 }), SPACED],
        request: score({ playerId: EVE, score: 50, streak: 20 }),
        expect: SUBMITTED,
    },
    {
        name: 'a well-spaced duplicate moves the play count, bests unchanged',
        ref: [OP.profile, 'rule-S5'],
        setup: [
            submit({ playerId: EVE, score: 50, streak: 20 }),
            SPACED,
            submit({ playerId: EVE, score: 50, streak: 20 }),
        ],
        request: get(`/players/${EVE}/profile`),
        expect: profile(DEFAULT_NAME, 50, 20, 2),
    },
    {
        name: 'names everywhere follow renames, ranking unchanged',
        ref: [OP.leaderboard, 'rule-N1', 'rule-N2'],
        setup: RENAMED,
        request: get('/leaderboard'),
        expect: ok({ leaderboard: RENAMED_BY_SCORE, total: 5 }),
    },

    // -- POST /achievements ----------------------------------------------------------------------------------------------
    {
        name: 'achievements: one achievementId, body without gameId: achievementId, unlocked, total, results',
        ref: [OP.achievements, 'rule-A1'],
        setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
        request: post('/achievements', { playerId: ALICE, achievementId: 'first_win' }),
        expect: ok({
            achievementId: 'first_win',
            unlocked: 1,
            total: 1,
            results: [{ achievementId: 'first_win', success: true, message: TEXT }],
        }),
    },
    {
        name: 'achievements: a batch with one already unlocked id, every result success true',
        ref: [OP.achievements, 'rule-A1'],
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1 }),
            send(post('/achievements', { playerId: ALICE, achievementId: 'first_win' })),
        ],
        request: post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] }),
        expect: ok({
            unlocked: 2,
            total: 3,
            results: ['first_win', 'level_5', 'speed_run'].map((achievementId) => ({
                achievementId,
                success: true,
                message: TEXT,
            })),
        }),
    },
    {
        name: 'achievements: re-sending an unlocked id is idempotent, success true and nothing new',
        ref: [OP.achievements, 'rule-A1'],
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1 }),
            send(post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] })),
        ],
        request: post('/achievements', { playerId: ALICE, achievementId: 'level_5' }),
        expect: ok({
            achievementId: 'level_5',
            unlocked: 0,
            total: 3,
            results: [{ achievementId: 'level_5', success: true, message: TEXT }],
        }),
    },
    {
        name: 'achievements: the documented form with gameId in the body',
        ref: OP.achievements,
        setup: [
            submit({ playerId: ALICE, score: 1, streak: 1 }),
            send(post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] })),
        ],
        request: post('/achievements', { playerId: ALICE, gameId: '$GAME', achievementId: 'combo_10' }),
        expect: ok({
            achievementId: 'combo_10',
            unlocked: 1,
            total: 4,
            results: [{ achievementId: 'combo_10', success: true, message: TEXT }],
        }),
    },
    {
        name: 'achievements: a batch of exactly 100 ids',
        ref: OP.achievements,
        setup: [submit({ playerId: EVE, score: 1, streak: 1 })],
        request: post('/achievements', { playerId: EVE, achievementIds: HUNDRED_IDS }),
        expect: ok({
            unlocked: 100,
            total: 100,
            results: HUNDRED_IDS.map((achievementId) => ({ achievementId, success: true, message: TEXT })),
        }),
    },
    {
        name: 'achievements: 101 ids is 400',
        ref: OP.achievements,
        request: post('/achievements', { playerId: EVE, achievementIds: [...HUNDRED_IDS, 'ach_100'] }),
        expect: err(400, mentions('achievementIds')),
    },
    {
        name: 'achievements: neither achievementId nor achievementIds is 400',
        ref: OP.achievements,
        request: post('/achievements', { playerId: EVE }),
        expect: err(400, mentions('achievementId')),
    },
    {
        name: 'achievements: achievementIds not a list is 400',
        ref: OP.achievements,
        request: post('/achievements', { playerId: EVE, achievementIds: 'first_win' }),
        expect: err(400, mentions('achievementIds')),
    },
    {
        name: 'achievements: an achievementId with a space is 400 naming achievementId',
        ref: OP.achievements,
        request: post('/achievements', { playerId: EVE, achievementId: 'bad id' }),
        expect: err(400, mentions('achievementId')),
    },
    {
        name: 'achievements: a missing playerId is 400',
        ref: OP.achievements,
        request: post('/achievements', { achievementId: 'first_win' }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'achievements: a gameId of another game is 400',
        ref: OP.achievements,
        setup: [GAME2],
        request: post('/achievements', { playerId: ALICE, gameId: '$GAME2', achievementId: 'x_1' }),
        expect: err(400, mentions('gameId')),
    },
    {
        name: 'achievements: without an API key is 401 `Missing API key`',
        ref: [OP.achievements, 'rule-K1'],
        request: post('/achievements', { playerId: ALICE, achievementId: 'x_1' }, {}),
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'achievements are read from the profile: gameProfile.achievements',
        ref: [OP.profile, 'rule-A1'],
        setup: [
            submit({ playerId: ALICE, score: 250, streak: 9, nickname: ALICE_NAME }),
            send(post('/achievements', { playerId: ALICE, achievementId: 'first_win' })),
            send(post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] })),
            send(post('/achievements', { playerId: ALICE, gameId: '$GAME', achievementId: 'combo_10' })),
        ],
        request: get(`/players/${ALICE}/profile`),
        expect: profile(ALICE_NAME, 250, 9, 1, setOf(['first_win', 'level_5', 'speed_run', 'combo_10'])),
    },
    {
        name: 'achievements unlocked before the first submit are kept for the player',
        ref: [OP.achievements, OP.profile, 'rule-A1'],
        setup: [
            send(post('/achievements', { playerId: ALICE, achievementId: 'early_bird' })),
            submit({ playerId: ALICE, score: 1, streak: 1 }),
        ],
        request: get(`/players/${ALICE}/profile`),
        expect: profile(DEFAULT_NAME, 1, 1, 1, ['early_bird']),
    },

    // -- play sessions, time validation off ------------------------------------------------------------------
    {
        name: 'POST /play-sessions/start: the token in data.ok, and data.message',
        ref: [OP.start, 'rule-L2'],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
        expect: STARTED,
    },
    {
        name: 'play sessions: a second active session',
        ref: [OP.start, 'rule-L2'],
        setup: [startSession('session-player', 'PS1')],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
        expect: STARTED,
    },
    {
        name: 'play sessions: a third active session',
        ref: [OP.start, 'rule-L2'],
        setup: [startSession('session-player', 'PS1'), startSession('session-player', 'PS2')],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
        expect: STARTED,
    },
    {
        name: 'play sessions: the 4th active start is 400 `Too many active play sessions. End or wait for current play sessions to expire.`',
        ref: [OP.start, 'rule-L2'],
        setup: [
            startSession('session-player', 'PS1'),
            startSession('session-player', 'PS2'),
            startSession('session-player', 'PS3'),
        ],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
        expect: err(400, 'Too many active play sessions. End or wait for current play sessions to expire.'),
    },
    {
        name: 'play sessions: the cap is per player',
        ref: [OP.start, 'rule-L2'],
        setup: [
            startSession('session-player', 'PS1'),
            startSession('session-player', 'PS2'),
            startSession('session-player', 'PS3'),
        ],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player-2' }),
        expect: STARTED,
    },
    {
        name: 'POST /play-sessions/end: a message',
        ref: OP.end,
        setup: [startSession('session-player', 'PS1')],
        request: post('/play-sessions/end', { playSessionToken: '$PS1' }),
        expect: ok({ message: TEXT }),
    },
    {
        name: 'play sessions: ending it again is 404, end is idempotent',
        ref: OP.end,
        setup: [
            startSession('session-player', 'PS1'),
            send(post('/play-sessions/end', { playSessionToken: '$PS1' }), ok({ message: TEXT })),
        ],
        request: post('/play-sessions/end', { playSessionToken: '$PS1' }),
        expect: err(404),
    },
    {
        name: 'play sessions: ending an unknown token is 404',
        ref: OP.end,
        request: post('/play-sessions/end', { playSessionToken: 'ps_00000000000000000000000000000000' }),
        expect: err(404),
    },
    {
        name: 'play sessions: ending frees capacity',
        ref: [OP.start, OP.end, 'rule-L2'],
        setup: [
            startSession('session-player', 'PS1'),
            startSession('session-player', 'PS2'),
            startSession('session-player', 'PS3'),
            send(post('/play-sessions/end', { playSessionToken: '$PS1' }), ok({ message: TEXT })),
        ],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
        expect: STARTED,
    },
    {
        name: 'play sessions: start with a bad playerId is 400',
        ref: OP.start,
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'bad id!' }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'play sessions: start without playerId is 400',
        ref: OP.start,
        request: post('/play-sessions/start', { gameId: '$GAME' }),
        expect: err(400, mentions('playerId')),
    },
    {
        name: 'play sessions: start with the gameId of another game is 400',
        ref: OP.start,
        setup: [GAME2],
        request: post('/play-sessions/start', { gameId: '$GAME2', playerId: 'session-player' }),
        expect: err(400, mentions('gameId')),
    },
    {
        name: 'play sessions: end without a token is 400',
        ref: OP.end,
        request: post('/play-sessions/end', {}),
        expect: err(400, mentions('playSessionToken')),
    },
    {
        name: 'play sessions: end with a token of 101 characters is 400',
        ref: OP.end,
        request: post('/play-sessions/end', { playSessionToken: 'p'.repeat(101) }),
        expect: err(400, mentions('playSessionToken')),
    },
    {
        name: 'play sessions: start without an API key is 401 `Missing API key`',
        ref: [OP.start, 'rule-K1'],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }, {}),
        expect: err(401, 'Missing API key'),
    },

    // -- time validation on: minimum play 5 s, tokens live 60 s ---------------------------------------------------------
    {
        name: 'GET /game: exactly gameId, name, description, totalPlayers, totalPlays, isActive, timeValidationEnabled, scoreboards',
        ref: OP.game,
        setup: [
            TIME_VALIDATION,
            {
                admin: 'admin_create_board',
                request: { gameId: '$GAME', scoreboardId: 'tv-level', type: 'targeted', name: 'TV Level' },
            },
        ],
        request: get('/game'),
        expect: ok({
            gameId: '$GAME',
            name: TEXT,
            description: TEXT,
            totalPlayers: 0,
            totalPlays: 0,
            isActive: true,
            timeValidationEnabled: true,
            scoreboards: [
                { scoreboardId: 'all-time', name: TEXT, period: 'allTime' },
                { scoreboardId: 'weekly', name: TEXT, period: 'weekly' },
                { scoreboardId: 'daily', name: TEXT, period: 'daily' },
                { scoreboardId: 'tv-level', name: 'TV Level', period: 'allTime' },
            ],
        }),
    },
    {
        name: 'time validation: a submit without a token: `requires starting a session`',
        ref: [OP.scores, 'rule-L2'],
        setup: [TIME_VALIDATION],
        request: score({ playerId: 'tv-1', score: 10, streak: 1 }),
        expect: SESSION_REQUIRED,
    },
    {
        name: 'time validation: the token check comes before any score check, a capped score without a token',
        ref: [OP.scores, 'rule-L2', 'rule-S6'],
        setup: [TIME_VALIDATION, CAPS],
        request: score({ playerId: 'tv-1', score: 5000, streak: 1 }),
        expect: SESSION_REQUIRED,
    },
    {
        name: 'time validation: targeted submits need the token too',
        ref: [OP.scores, 'rule-S2', 'rule-L2'],
        setup: [
            TIME_VALIDATION,
            {
                admin: 'admin_create_board',
                request: { gameId: '$GAME', scoreboardId: 'tv-level', type: 'targeted', name: 'TV Level' },
            },
        ],
        request: score({ playerId: 'tv-1', score: 10, streak: 1, scoreboardId: 'tv-level' }),
        expect: SESSION_REQUIRED,
    },
    {
        name: 'time validation: an unknown token, a message with `play session`',
        ref: [OP.scores, 'rule-L2'],
        setup: [TIME_VALIDATION],
        request: score({
            playerId: 'tv-1',
            score: 10,
            streak: 1,
            playSessionToken: 'ps_00000000000000000000000000000000',
        }),
        expect: SESSION_PROBLEM,
    },
    {
        name: 'time validation: starting sessions works as with it off',
        ref: [OP.start, 'rule-L2'],
        setup: [TIME_VALIDATION, startSession('tv-1', 'TV1'), startSession('tv-2', 'TVX')],
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'tv-1' }),
        expect: STARTED,
    },
    {
        name: 'time validation: the token of another player, a message with `play session`',
        ref: [OP.scores, 'rule-L2'],
        setup: [TIME_VALIDATION, startSession('tv-2', 'TVX')],
        request: score({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: '$TVX' }),
        expect: SESSION_PROBLEM,
    },
    {
        name: 'time validation: a token of another game, a message with `play session`',
        ref: [OP.scores, 'rule-L2'],
        setup: [TIME_VALIDATION, GAME2, startSession('tv-1', 'OTHER', H2)],
        request: score({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: '$OTHER' }),
        expect: SESSION_PROBLEM,
    },
    {
        name: 'time validation: a play shorter than the minimum gets the generic `Score rejected by game validation rules`',
        ref: [OP.scores, 'rule-L2', 'rule-S6'],
        setup: [TIME_VALIDATION, startSession('tv-1', 'TV1')],
        request: score({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: '$TV1' }),
        expect: RULES,
    },
    {
        name: 'time validation: rejected submits create no profile',
        ref: [OP.profile, 'rule-L2', 'rule-S6'],
        setup: [
            TIME_VALIDATION,
            startSession('tv-1', 'TV1'),
            refused({ playerId: 'tv-1', score: 10, streak: 1 }, SESSION_REQUIRED),
            refused({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: '$TV1' }, RULES),
        ],
        request: get('/players/tv-1/profile'),
        expect: NOT_FOUND_PLAYER,
    },
    {
        name: 'time validation: a valid token after the minimum play time: 200',
        ref: [OP.scores, 'rule-L2'],
        setup: [TIME_VALIDATION, CAPS, startSession('tv-1', 'TV2'), wait(6)],
        request: score({ playerId: 'tv-1', score: 500, streak: 2, playSessionToken: '$TV2' }),
        expect: SUBMITTED,
    },
    {
        name: 'time validation: a used token is single-use, a message with `play session`',
        ref: [OP.scores, 'rule-L2'],
        setup: [
            TIME_VALIDATION,
            startSession('tv-1', 'TV2'),
            wait(6),
            submit({ playerId: 'tv-1', score: 500, streak: 2, playSessionToken: '$TV2' }),
            wait(3),
        ],
        request: score({ playerId: 'tv-1', score: 600, streak: 2, playSessionToken: '$TV2' }),
        expect: SESSION_PROBLEM,
    },
    {
        name: 'time validation: an expired token, a message with `play session`',
        ref: [OP.scores, 'rule-L2'],
        setup: [TIME_VALIDATION, startSession('tv-3', 'TV3'), wait(61)],
        request: score({ playerId: 'tv-3', score: 10, streak: 1, playSessionToken: '$TV3' }),
        expect: SESSION_PROBLEM,
    },
    {
        name: 'time validation: only the accepted submit counted',
        ref: [OP.profile, 'rule-L2', 'rule-S6'],
        setup: [
            TIME_VALIDATION,
            startSession('tv-1', 'TV1'),
            startSession('tv-1', 'TV2'),
            refused({ playerId: 'tv-1', score: 10, streak: 1 }, SESSION_REQUIRED),
            refused({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: '$TV1' }, RULES),
            wait(6),
            submit({ playerId: 'tv-1', score: 500, streak: 2, playSessionToken: '$TV2' }),
            wait(3),
            refused({ playerId: 'tv-1', score: 600, streak: 2, playSessionToken: '$TV2' }, SESSION_PROBLEM),
        ],
        request: get('/players/tv-1/profile'),
        expect: profile(DEFAULT_NAME, 500, 2, 1),
    },

    // -- caps and the largest score ---------------------------------------------------------------------------------------
    {
        name: 'a score and streak of 9007199254740991 are accepted',
        ref: OP.scores,
        request: score({ playerId: 'max-player', score: 9007199254740991, streak: 9007199254740991 }),
        expect: SUBMITTED,
    },
    {
        name: 'the largest score reads back exactly as a plain JSON integer',
        ref: [OP.profile, 'rule-E1'],
        setup: [submit({ playerId: 'max-player', score: 9007199254740991, streak: 9007199254740991 })],
        request: get('/players/max-player/profile'),
        expect: profile(DEFAULT_NAME, 9007199254740991, 9007199254740991, 1),
    },
    {
        name: 'caps: a score above the cap gets the generic `Score rejected by game validation rules`',
        ref: [OP.scores, 'rule-S6'],
        setup: [CAPS],
        request: score({ playerId: 'capped-1', score: 1001, streak: 0 }),
        expect: RULES,
    },
    {
        name: 'caps: a streak above the cap: `Streak rejected by game validation rules`',
        ref: [OP.scores, 'rule-S6'],
        setup: [CAPS],
        request: score({ playerId: 'capped-2', score: 0, streak: 51 }),
        expect: err(400, 'Streak rejected by game validation rules'),
    },
    {
        name: 'caps: a capped submit creates nothing',
        ref: [OP.profile, 'rule-S6'],
        setup: [CAPS, refused({ playerId: 'capped-1', score: 1001, streak: 0 }, RULES)],
        request: get('/players/capped-1/profile'),
        expect: NOT_FOUND_PLAYER,
    },
    {
        name: 'caps: values at the cap are accepted',
        ref: [OP.scores, 'rule-S6'],
        setup: [CAPS],
        request: score({ playerId: 'capped-3', score: 1000, streak: 50 }),
        expect: SUBMITTED,
    },
    {
        name: 'nicknames are unique across the whole service: a first submit with a name taken in another game is accepted',
        ref: [OP.scores, 'rule-N1', 'rule-N3'],
        setup: [GAME2, submit({ playerId: DAVE, score: 1, streak: 1, nickname: GREAT_NAME })],
        request: score({ playerId: 'g2-player', score: 1, streak: 1, nickname: GREAT_NAME }, H2),
        expect: SUBMITTED,
    },
    {
        name: 'nicknames are unique across the whole service: a name taken in another game falls back to Player_<number>',
        ref: [OP.profile, 'rule-N1', 'rule-N3'],
        setup: [
            GAME2,
            submit({ playerId: DAVE, score: 1, streak: 1, nickname: GREAT_NAME }),
            submit({ playerId: 'g2-player', score: 1, streak: 1, nickname: GREAT_NAME }, H2),
        ],
        request: get('/players/g2-player/profile', H2),
        expect: profile(DEFAULT_NAME, 1, 1, 1),
    },

    // -- GET /game, /game/stats ---------------------------------------------------------------------------------------------
    {
        name: 'GET /game: the exact key set with timeValidationEnabled false and the boards',
        ref: OP.game,
        setup: RANKED_SIX,
        request: get('/game'),
        expect: ok({
            gameId: '$GAME',
            name: TEXT,
            description: TEXT,
            totalPlayers: 6,
            totalPlays: 10,
            isActive: true,
            timeValidationEnabled: false,
            scoreboards: MAIN_BOARDS_META,
        }),
    },
    {
        name: 'GET /game by an old plugin without X-Game-ID',
        ref: [OP.game, 'rule-K1'],
        setup: [LEVEL_1],
        request: get('/game', OLD_PLUGIN),
        expect: ok(
            expect.objectContaining({ gameId: '$GAME', timeValidationEnabled: false, scoreboards: MAIN_BOARDS_META }),
        ),
    },
    {
        name: 'GET /game/stats: at least gameId, totalPlayers, totalPlays and submissions with total and today',
        ref: OP.gameStats,
        setup: RANKED_SIX,
        request: get('/game/stats'),
        expect: ok(
            expect.objectContaining({
                gameId: '$GAME',
                totalPlayers: 6,
                totalPlays: 10,
                submissions: expect.objectContaining({ total: POSITIVE, today: POSITIVE }),
            }),
        ),
    },
    {
        name: 'GET /game/stats without a key: 401',
        ref: [OP.gameStats, 'rule-K1'],
        request: get('/game/stats', {}),
        expect: err(401, 'Missing API key'),
    },

    // -- a day later, on a clock of their own: the daily board rolled over, its period is archived -----------------------
    {
        name: 'a submit in the new daily period is accepted',
        ref: [OP.scores, 'rule-S1'],
        clock: true,
        setup: [...RENAMED, wait(86_400)],
        request: score({ playerId: CAROL, score: 5, streak: 1 }),
        expect: SUBMITTED,
    },
    {
        name: 'the daily board reads the new period only',
        ref: [OP.board, 'rule-S1'],
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/daily'),
        expect: ok({
            scoreboardId: 'daily',
            config: { name: TEXT, description: TEXT, period: 'daily', sortBy: 'score', lastReset: NEXT_DAY_START },
            entries: [boardEntry(1, 'Alice${T}_2', 5, 1)],
            totalEntries: 1,
        }),
        direct: true,
    },
    {
        name: 'archives: the list with archiveId, periodStart, periodEnd, entryCount, topPlayer and topScore',
        ref: OP.archives,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/daily/archives'),
        expect: ok({
            gameId: '$GAME',
            scoreboardId: 'daily',
            archives: [
                {
                    archiveId: DAILY_ARCHIVE_ID,
                    periodStart: DAY_START,
                    periodEnd: NEXT_DAY_START,
                    entryCount: 5,
                    topPlayer: 'alice${T}_1',
                    topScore: 250,
                },
            ],
        }),
        direct: true,
    },
    {
        name: 'archives: latest, with archiveId, config, entries and totalEntries',
        ref: OP.latest,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/daily/archives/latest'),
        expect: ok(DAILY_ARCHIVE),
        direct: true,
    },
    {
        name: 'archives: latest with limit=2',
        ref: OP.latest,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/daily/archives/latest?limit=2'),
        expect: ok({
            archiveId: DAILY_ARCHIVE_ID,
            config: expect.any(Object),
            entries: ARCHIVED_ENTRIES.slice(0, 2),
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'archives: by id under the board path',
        ref: OP.archive,
        clock: true,
        setup: ROLLED_OVER,
        request: get(`/games/$GAME/scoreboards/daily/archives/${DAILY_ARCHIVE_ID}`),
        expect: ok(DAILY_ARCHIVE),
        direct: true,
    },
    {
        name: 'archives: GET /archives/archiveId reads the same archive',
        ref: OP.archiveById,
        clock: true,
        setup: ROLLED_OVER,
        request: get(`/archives/${DAILY_ARCHIVE_ID}`),
        expect: ok(DAILY_ARCHIVE),
        direct: true,
    },
    {
        name: 'archives: the weekly board did not end from Wednesday to Thursday, no archive',
        ref: OP.archives,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/weekly/archives'),
        expect: ok({ gameId: '$GAME', scoreboardId: 'weekly', archives: [] }),
        direct: true,
    },
    {
        name: 'the weekly board keeps its period and entries across the daily rollover',
        ref: [OP.board, 'rule-S1'],
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/weekly'),
        expect: ok({
            scoreboardId: 'weekly',
            config: { name: TEXT, description: TEXT, period: 'weekly', sortBy: 'score', lastReset: WEEK_START },
            // Carol's 5/1 of the new day raised only her weekly streak: score and streak are independent maxima.
            entries: [...ARCHIVED_ENTRIES.slice(0, 4), boardEntry(5, 'Alice${T}_2', 10, 1)],
            totalEntries: 5,
        }),
        direct: true,
    },
    {
        name: 'archives: a board that never resets has none',
        ref: OP.archives,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/all-time/archives'),
        expect: ok({ gameId: '$GAME', scoreboardId: 'all-time', archives: [] }),
        direct: true,
    },
    {
        name: 'archive stats: the daily rollover counts, latestPeriodEnd the end of the archived day',
        ref: OP.archiveStats,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/archives/stats'),
        expect: ok({
            gameId: '$GAME',
            totalArchives: 1,
            byScoreboard: [
                { scoreboardId: 'weekly', archiveCount: 0, latestPeriodEnd: 0 },
                { scoreboardId: 'daily', archiveCount: 1, latestPeriodEnd: NEXT_DAY_START },
            ],
        }),
        direct: true,
    },
    {
        name: 'archives: latest of a targeted board, which has no archives, is 404',
        ref: OP.latest,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/games/$GAME/scoreboards/level-1/archives/latest'),
        expect: err(404),
        direct: true,
    },
    {
        name: 'the global leaderboard does not reset with the daily board',
        ref: OP.leaderboard,
        clock: true,
        setup: ROLLED_OVER,
        request: get('/leaderboard?limit=3'),
        expect: ok({ leaderboard: RENAMED_BY_SCORE.slice(0, 3), total: 5 }),
    },
    ...SIGN_IN_CASES,
    ...AROUND_CASES,
];
