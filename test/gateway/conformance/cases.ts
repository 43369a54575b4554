// The HTTP contract as data: one scenario of requests and the answers the contract fixes
// (/work/shared/spec/service-spec.md, and decisions.md, which wins where they differ). The
// runner (../conformance.test.ts) sends every case to the gateway in order (later reads see
// earlier submits) and every `direct` case also to the canister's own HTTP path.
//
// Placeholders: `$NAME` in a path, header, body or expected string is replaced at run time:
// the games below (`$GAME`/`$KEY`, ...), and values earlier steps `capture`d from their answers.
// A string that is exactly `$NAME` becomes the captured value itself (numbers stay numbers).
//
// Every gateway answer is also checked for what the contract promises on all responses: a JSON
// envelope with `ok` (`{}` for OPTIONS), success only as 200, `X-API-Version: 1.8.0` and the
// three CORS headers. Direct answers must equal the gateway's JSON, carry
// `Access-Control-Allow-Origin: *`, and `Cache-Control: public, max-age=30` on success.

/**
 * Cases where the implementation does not (yet) do what the contract says. They stay in the
 * scenario unchanged and fail until the implementation is fixed; the runner prefixes their test
 * names with [KNOWN GAP]. Remove an entry once its case passes.
 */
export const KNOWN_GAPS: ReadonlyArray<{ name: string; reason: string }> = [];

// ---- the scenario's games and players ------------------------------------------------------------

/**
 * The replica's clock starts here (test mode): a Wednesday noon UTC, so that period starts are
 * known and the one-day step at the end rolls the daily board over but not the weekly one.
 */
export const START = '2026-01-14T12:00:00Z';
const DAY_START = Date.UTC(2026, 0, 14) * 1e6; // ns: UTC 00:00 of the start day
const NEXT_DAY_START = Date.UTC(2026, 0, 15) * 1e6;
const WEEK_START = Date.UTC(2026, 0, 12) * 1e6; // the Monday before
const TODAY = '2026-01-14';

/** Games the runner registers before the first step (`service.game(id)`), with their placeholders. */
export const GAMES: ReadonlyArray<{ id: string; game: string; key: string }> = [
    { id: 'conf-main', game: 'GAME', key: 'KEY' }, // the main game: time validation off
    { id: 'conf-second', game: 'GAME2', key: 'KEY2' }, // a second game: caps, cross-game checks
    { id: 'conf-tv', game: 'TV_GAME', key: 'TV_KEY' }, // time validation on
    { id: 'conf-off', game: 'OFF_GAME', key: 'OFF_KEY' }, // deactivated before it is used
    { id: 'conf-rot', game: 'ROT_GAME', key: 'ROT_KEY' }, // its key is rotated before it is used
];

// Player ids in every shape real clients send (decisions.md, "What real clients send").
const ALICE = 'dev_1700000000_a1b2c3d4'; // the spec's dev_<unix_seconds>_<8 hex>
const BOB = 'dev_1700000001_b0b0b0b0';
const CAROL = 'player-one'; // hand-made
const DAVE = 'dev_1700000000123456_deadbeef'; // 13+ digits in the time part
const EVE = 'dev_1700000000123_cafebabe'; // milliseconds
const NEWBIE = 'dev_1700000002_0badf00d'; // only ever sends rejected submits: never gets a profile
const GHOST = 'dev_1700000003_00000000'; // never sends anything

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

export interface Case {
    name: string;
    request: CaseRequest;
    expect: {
        /** A number; a matcher only where the contract fixes nothing but sameness across hosts. */
        status: unknown;
        /** The whole JSON body (toEqual: no extra keys), with jest asymmetric matchers where values vary. */
        body: unknown;
        /** Headers beyond the ones checked on every answer. */
        headers?: Record<string, string | RegExp>;
    };
    /** Placeholder name -> dotted path into the JSON body (`data.archives.0.archiveId`). */
    capture?: Record<string, string>;
    /** Also read the same path from the canister's own HTTP interface: same status and JSON. */
    direct?: boolean;
}

/** Moves the replica clock forward (the 2 s rate limit, play-session times, UTC periods). */
export interface AdvanceStep {
    name: string;
    advance: number; // seconds
}

/** A dashboard action through the canister's admin methods (canister/interface.ts). */
export interface AdminStep {
    name: string;
    admin: string;
    request: unknown;
    capture?: Record<string, string>;
}

export type Step = Case | AdvanceStep | AdminStep;

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

/** A timestamp: an integer in nanoseconds since the epoch (spec, envelope rule 3). */
const NS = matcher('IntegerNanosecondsSinceEpoch', (v) => typeof v === 'number' && Number.isInteger(v) && v > 1e18 && v < 1e19);
/** A period start that may be 0 (boards that never reset). */
const TIME = matcher('IntegerNanosecondsOrZero', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e19);
/** A count. */
const INT = matcher('NonNegativeInteger', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);
const POSITIVE = matcher('PositiveInteger', (v) => typeof v === 'number' && Number.isInteger(v) && v > 0);
/** The same members in any order. */
const setOf = (items: string[]): any =>
    matcher(`SetOf(${JSON.stringify(items)})`, (v) => Array.isArray(v) && v.length === items.length && items.every((i) => v.includes(i)));

const TEXT = expect.any(String);
const DEFAULT_NAME = expect.stringMatching(/^Player_[0-9]+$/);
const TOKEN = expect.stringMatching(/^\S+$/);
const mentions = (word: string) => expect.stringMatching(new RegExp(word));

const ok = (data: unknown) => ({ status: 200, body: { ok: true, data } });
const err = (status: number, error: unknown = TEXT) => ({ status, body: { ok: false, error } });

const H = { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME' };
const H2 = { 'X-API-Key': '$KEY2', 'X-Game-ID': '$GAME2' };
const HTV = { 'X-API-Key': '$TV_KEY', 'X-Game-ID': '$TV_GAME' };
/** An old plugin: the API key without X-Game-ID. */
const OLD_PLUGIN = { 'X-API-Key': '$KEY' };

const get = (path: string, headers: Record<string, string> = H): CaseRequest => ({ method: 'GET', path, headers });
const post = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({ method: 'POST', path, headers, body });
const put = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({ method: 'PUT', path, headers, body });
const score = (body: Record<string, unknown>, headers: Record<string, string> = H): CaseRequest =>
    post('/scores', { gameId: headers === H2 ? '$GAME2' : headers === HTV ? '$TV_GAME' : '$GAME', ...body }, headers);
const advance = (seconds: number, why: string): AdvanceStep => ({ name: `advance the clock ${seconds} s: ${why}`, advance: seconds });

const SUBMITTED = ok({ message: TEXT });
const RATE_LIMITED = err(400, 'Please wait 2 seconds between submissions.');
const RULES = err(400, 'Score rejected by game validation rules');
const SESSION_PROBLEM = err(400, mentions('play session'));
const NOT_FOUND_PLAYER = err(404, 'Player not found');
const TOO_SHORT = err(400, 'Nickname must be at least 3 characters');
const TOO_LONG = err(400, 'Nickname must be 16 characters or less');
const BAD_CHARS = err(400, 'Nickname can only contain letters, numbers, and underscores');
const boardNotFound = (id: string) => err(404, `Scoreboard '${id}' not found for this game.`);

const entry = (rank: number, nickname: string, s: number, streak: number) => ({ rank, nickname, score: s, streak, authType: 'external' });
const boardEntry = (rank: number, nickname: string, s: number, streak: number) => ({ ...entry(rank, nickname, s, streak), submittedAt: NS });

const profile = (nickname: unknown, s: unknown, streak: unknown, playCount: unknown, achievements: unknown = []) =>
    ok({ nickname, created: NS, gameProfile: { score: s, streak, achievements, playCount, lastPlayed: NS } });

const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
};
/** Checked on every gateway answer (decisions.md: CORS on every API response; X-API-Version). */
export const EVERY_RESPONSE_HEADERS: Record<string, string> = { ...CORS, 'x-api-version': '1.8.0' };

// The main game's ranking after the first two rounds of submits. Ties go to whoever reached the
// value first: Bob reached 250 before Dave, Alice last (although Alice's profile is the oldest);
// Dave reached streak 9 before Alice.
const LB_BY_SCORE = [
    entry(1, '$BOB_NAME', 250, 7), entry(2, 'Dave', 250, 9), entry(3, 'Alice', 250, 9), entry(4, '$EVE_NAME', 50, 20), entry(5, '$CAROL_NAME', 10, 0),
];
const LB_BY_STREAK = [
    entry(1, '$EVE_NAME', 50, 20), entry(2, 'Dave', 250, 9), entry(3, 'Alice', 250, 9), entry(4, '$BOB_NAME', 250, 7), entry(5, '$CAROL_NAME', 10, 0),
];
const BOARD_ENTRIES = LB_BY_SCORE.map((e) => ({ ...e, submittedAt: NS }));
/** After the renames (N1 on submit, N2 on PUT): Bob is alice_1, Dave DaveTheGreat, Carol Alice_2. */
const RENAMED_BY_SCORE = [
    entry(1, 'alice_1', 250, 7), entry(2, 'DaveTheGreat', 250, 9), entry(3, 'Alice', 250, 9), entry(4, '$EVE_NAME', 50, 20), entry(5, 'Alice_2', 10, 0),
];
const ARCHIVED_ENTRIES = RENAMED_BY_SCORE.map((e) => ({ ...e, submittedAt: NS }));

const MAIN_BOARDS_META = [
    { scoreboardId: 'all-time', name: TEXT, period: 'allTime' },
    { scoreboardId: 'weekly', name: TEXT, period: 'weekly' },
    { scoreboardId: 'daily', name: TEXT, period: 'daily' },
    { scoreboardId: 'level-1', name: 'Level 1', period: 'allTime' },
];
const boardSummary = (scoreboardId: string, period: string, entryCount: number, lastReset: unknown) => ({
    scoreboardId, name: TEXT, description: TEXT, period, sortBy: 'score', targeted: false, entryCount, lastReset, isActive: true,
});

const HUNDRED_IDS = Array.from({ length: 100 }, (_, i) => `ach_${i}`);
const LONG_ID = 'a'.repeat(65);

// ---- the scenario ----------------------------------------------------------------------------------

export const CASES: Step[] = [
    // -- platform routes, preflight, unknown routes ------------------------------------------------------
    {
        name: 'GET /health needs no headers and answers {status:"healthy", version:"1.8.0"} (decisions: /health)',
        request: { method: 'GET', path: '/health' },
        expect: { ...ok({ status: 'healthy', version: '1.8.0' }), headers: { 'x-api-version': '1.8.0' } },
    },
    {
        name: 'GET /stats needs no auth: platform counts {total, today, date} (decisions: /stats), zero before any submit',
        request: { method: 'GET', path: '/stats' },
        expect: ok({ total: 0, today: 0, date: TODAY }),
    },
    {
        name: 'OPTIONS /scores: 200 {} with the three CORS headers (decisions: CORS)',
        request: { method: 'OPTIONS', path: '/scores', headers: { Origin: 'https://game.example', 'Access-Control-Request-Method': 'POST' } },
        expect: { status: 200, body: {}, headers: CORS },
    },
    {
        name: 'OPTIONS on a board path: 200 {} (decisions: OPTIONS on any path)',
        request: { method: 'OPTIONS', path: '/games/$GAME/scoreboards/daily' },
        expect: { status: 200, body: {}, headers: CORS },
    },
    {
        name: 'OPTIONS on a path that is no route: still 200 {} (decisions: OPTIONS on any path)',
        request: { method: 'OPTIONS', path: '/no/such/route' },
        expect: { status: 200, body: {}, headers: CORS },
    },
    {
        name: 'unknown route: 404 `Unknown endpoint: GET /no-such-route` as JSON with CORS (spec: Errors)',
        request: get('/no-such-route', {}),
        expect: { ...err(404, 'Unknown endpoint: GET /no-such-route'), headers: CORS },
    },
    {
        name: 'unknown route with a body that is not JSON: still 404 `Unknown endpoint: POST /no-such-route`',
        request: { method: 'POST', path: '/no-such-route', headers: H, raw: 'score=10&streak=2' },
        expect: err(404, 'Unknown endpoint: POST /no-such-route'),
    },
    {
        name: 'known path, unknown method: 404 `Unknown endpoint: DELETE /scores` (spec: Errors)',
        request: { method: 'DELETE', path: '/scores', headers: H },
        expect: err(404, 'Unknown endpoint: DELETE /scores'),
    },
    {
        name: 'POST to a GET-only route: 404 `Unknown endpoint: POST /leaderboard`',
        request: post('/leaderboard', {}),
        expect: err(404, 'Unknown endpoint: POST /leaderboard'),
    },

    // -- credentials -----------------------------------------------------------------------------------------
    {
        name: 'no credentials at all: 401 `Missing API key` (decisions: API keys)',
        request: get('/game', {}),
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'X-Game-ID without an API key: 401 `Missing API key`',
        request: get('/leaderboard', { 'X-Game-ID': '$GAME' }),
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'credentials in the query string are ignored: 401 `Missing API key` (decisions: headers only)',
        request: get('/leaderboard?apiKey=$KEY&api_key=$KEY&key=$KEY&X-API-Key=$KEY&gameId=$GAME', { 'X-Game-ID': '$GAME' }),
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'a submit with the key only in the query string: 401 `Missing API key`',
        request: { method: 'POST', path: '/scores?apiKey=$KEY&X-API-Key=$KEY', headers: {}, body: { playerId: NEWBIE, gameId: '$GAME', score: 1, streak: 1 } },
        expect: err(401, 'Missing API key'),
    },
    {
        name: 'a well-formed key of no registered game: 401 `Invalid API key`',
        request: get('/game', { 'X-API-Key': 'key_conf-nope_12345678901234567890' }),
        expect: err(401, 'Invalid API key'),
    },
    {
        name: 'a malformed key: 401 `Invalid API key`',
        request: get('/game', { 'X-API-Key': 'not-a-key' }),
        expect: err(401, 'Invalid API key'),
    },
    { name: 'dashboard: rotate the key of conf-rot', admin: 'admin_rotate_key', request: { gameId: '$ROT_GAME' }, capture: { ROT_NEW_KEY: 'apiKey' } },
    {
        name: 'a revoked (rotated-out) key: 401 `Invalid API key` (decisions: API keys)',
        request: get('/game', { 'X-API-Key': '$ROT_KEY' }),
        expect: err(401, 'Invalid API key'),
    },
    {
        name: 'the rotated-in key works',
        request: get('/game', { 'X-API-Key': '$ROT_NEW_KEY', 'X-Game-ID': '$ROT_GAME' }),
        expect: ok(expect.objectContaining({ gameId: 'conf-rot' })),
    },
    { name: 'dashboard: deactivate conf-off', admin: 'admin_update_game', request: { gameId: '$OFF_GAME', isActive: false } },
    {
        name: 'the key of a deactivated game: 403 on a read (decisions: API keys)',
        request: get('/game', { 'X-API-Key': '$OFF_KEY', 'X-Game-ID': '$OFF_GAME' }),
        expect: err(403),
    },
    {
        name: 'the key of a deactivated game: 403 on a submit',
        request: post('/scores', { playerId: NEWBIE, gameId: '$OFF_GAME', score: 1, streak: 1 }, { 'X-API-Key': '$OFF_KEY', 'X-Game-ID': '$OFF_GAME' }),
        expect: err(403),
    },
    {
        name: 'an unknown X-Session-Token without an API key: 401 (spec: a dead session is 401/403)',
        request: get('/leaderboard', { 'X-Session-Token': 'sess_0123456789abcdef', 'X-Game-ID': '$GAME' }),
        expect: err(401),
    },
    {
        name: 'a submit with an unknown X-Session-Token and no API key: 401',
        request: post('/scores', { playerId: NEWBIE, gameId: '$GAME', score: 1, streak: 1 }, { 'X-Session-Token': 'sess_0123456789abcdef', 'X-Game-ID': '$GAME' }),
        expect: err(401),
    },
    {
        name: 'X-Game-ID disagreeing with the API key: 400 naming X-Game-ID (decisions: old plugins)',
        request: get('/game', { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME2' }),
        expect: err(400, mentions('X-Game-ID')),
    },
    {
        name: 'X-Game-ID disagreeing with the API key on a submit: 400',
        request: post('/scores', { playerId: NEWBIE, gameId: '$GAME', score: 1, streak: 1 }, { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME2' }),
        expect: err(400, mentions('X-Game-ID')),
    },

    // -- first submits: S1 fan-out, N1, player id shapes ------------------------------------------------------
    { name: 'dashboard: create the targeted board level-1 on the main game', admin: 'admin_create_board', request: { gameId: '$GAME', scoreboardId: 'level-1', type: 'targeted', name: 'Level 1' } },
    {
        name: 'S1: a first submit creates the profile (dev_<seconds>_<hex> id, free nickname): 200 {message}',
        request: score({ playerId: ALICE, score: 100, streak: 3, nickname: 'Alice' }),
        expect: SUBMITTED,
    },
    {
        name: 'S1: a first submit without a nickname (gets Player_<number>)',
        request: score({ playerId: BOB, score: 250, streak: 1 }),
        expect: SUBMITTED,
    },
    {
        name: 'N1: a first submit with a taken name (other case: names are case-insensitive) is accepted; hand-made player id `player-one`',
        request: score({ playerId: CAROL, score: 10, streak: 0, nickname: 'ALICE' }),
        expect: SUBMITTED,
    },
    {
        name: 'an old plugin (API key, no X-Game-ID) can submit; player id with 13+ digits in the time part',
        request: score({ playerId: DAVE, score: 250, streak: 9, nickname: 'Dave' }, OLD_PLUGIN),
        expect: SUBMITTED,
    },
    {
        name: 'limits: the rate limit is per board, so a targeted submit right after a fan-out one is accepted (S2)',
        request: score({ playerId: DAVE, score: 300, streak: 2, scoreboardId: 'level-1' }),
        expect: SUBMITTED,
    },
    {
        name: 'S1: a first submit with a millisecond player id',
        request: score({ playerId: EVE, score: 50, streak: 20 }),
        expect: SUBMITTED,
        capture: { EVE_MSG: 'data.message' },
    },
    {
        name: 'S5/decisions: an exact repeat inside 2 s is a retry: the same 200 answer',
        request: score({ playerId: EVE, score: 50, streak: 20 }),
        expect: ok({ message: '$EVE_MSG' }),
    },
    {
        name: 'limits: another submit to the same board inside 2 s: 400 `Please wait 2 seconds between submissions.`',
        request: score({ playerId: EVE, score: 60, streak: 20 }),
        expect: RATE_LIMITED,
    },
    {
        name: 'profile shape; the retry and the rate-limited submit changed nothing (one play, bests 50/20)',
        request: get(`/players/${EVE}/profile`),
        expect: profile(DEFAULT_NAME, 50, 20, 1),
        capture: { EVE_NAME: 'data.nickname' },
    },
    {
        name: 'profile: the chosen free nickname is applied on the first submit (N1)',
        request: get(`/players/${ALICE}/profile`),
        expect: profile('Alice', 100, 3, 1),
    },
    {
        name: 'profile: no nickname on the first submit gives Player_<number> (spec: default nickname)',
        request: get(`/players/${BOB}/profile`),
        expect: profile(DEFAULT_NAME, 250, 1, 1),
        capture: { BOB_NAME: 'data.nickname' },
    },
    {
        name: 'N1: a taken name on a first submit falls back to Player_<number>',
        request: get(`/players/${CAROL}/profile`),
        expect: profile(DEFAULT_NAME, 10, 0, 1),
        capture: { CAROL_NAME: 'data.nickname' },
    },
    {
        name: 'S2: a targeted submit leaves the profile aggregates alone (Dave keeps 250/9, not 300/2)',
        request: get(`/players/${DAVE}/profile`, OLD_PLUGIN),
        expect: profile('Dave', 250, 9, INT),
    },
    {
        name: 'profile of a player with no profile: 404 `Player not found`',
        request: get(`/players/${GHOST}/profile`),
        expect: NOT_FOUND_PLAYER,
    },
    {
        name: 'profile: a path player id with bad characters is 400',
        request: get('/players/bad!id/profile'),
        expect: err(400, mentions('playerId')),
    },

    // -- submit validation (decisions: scores are non-negative integers <= 2^53-1; fields named) ---------------
    { name: 'validation: score as a string is 400 naming score', request: score({ playerId: NEWBIE, score: '100', streak: 1 }), expect: err(400, mentions('score')) },
    { name: 'validation: missing score is 400 naming score', request: score({ playerId: NEWBIE, streak: 1 }), expect: err(400, mentions('score')) },
    { name: 'validation: missing streak is 400 naming streak', request: score({ playerId: NEWBIE, score: 1 }), expect: err(400, mentions('streak')) },
    { name: 'validation: a negative score is 400 naming score', request: score({ playerId: NEWBIE, score: -1, streak: 1 }), expect: err(400, mentions('score')) },
    { name: 'validation: a non-integer score is 400 naming score', request: score({ playerId: NEWBIE, score: 1.5, streak: 1 }), expect: err(400, mentions('score')) },
    { name: 'validation: a non-integer streak is 400 naming streak', request: score({ playerId: NEWBIE, score: 1, streak: 2.5 }), expect: err(400, mentions('streak')) },
    { name: 'validation: a score of 2^53 (above 2^53-1) is 400 naming score', request: score({ playerId: NEWBIE, score: 9007199254740992, streak: 1 }), expect: err(400, mentions('score')) },
    { name: 'validation: a streak of 2^53 is 400 naming streak', request: score({ playerId: NEWBIE, score: 1, streak: 9007199254740992 }), expect: err(400, mentions('streak')) },
    { name: 'validation: a score sent as null is 400 naming score', request: score({ playerId: NEWBIE, score: null, streak: 1 }), expect: err(400, mentions('score')) },
    { name: 'validation: missing playerId is 400 naming playerId', request: score({ score: 1, streak: 1 }), expect: err(400, mentions('playerId')) },
    { name: 'validation: a playerId with bad characters is 400 (decisions: [A-Za-z0-9_-]{1,100})', request: score({ playerId: 'bad id!', score: 1, streak: 1 }), expect: err(400, mentions('playerId')) },
    { name: 'validation: a playerId of 101 characters is 400', request: score({ playerId: 'p'.repeat(101), score: 1, streak: 1 }), expect: err(400, mentions('playerId')) },
    { name: 'validation: a playerId of 100 characters is accepted', request: score({ playerId: 'q'.repeat(100), score: 0, streak: 0, scoreboardId: 'level-1' }), expect: SUBMITTED },
    { name: 'validation: a numeric playerId is 400', request: score({ playerId: 12345, score: 1, streak: 1 }), expect: err(400, mentions('playerId')) },
    { name: 'validation: a numeric nickname is 400 naming nickname', request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 42 }), expect: err(400, mentions('[Nn]ickname')) },
    { name: 'validation: a gameId of another game in the body is 400 naming gameId', request: post('/scores', { playerId: NEWBIE, gameId: '$GAME2', score: 1, streak: 1 }), expect: err(400, mentions('gameId')) },
    { name: 'validation: a numeric gameId is 400 naming gameId', request: post('/scores', { playerId: NEWBIE, gameId: 7, score: 1, streak: 1 }), expect: err(400, mentions('gameId')) },
    { name: 'validation: a JSON array body is 400', request: post('/scores', [{ playerId: NEWBIE, gameId: '$GAME', score: 1, streak: 1 }]), expect: err(400) },
    {
        name: 'validation: malformed JSON is 400 `Invalid JSON body`',
        request: { method: 'POST', path: '/scores', headers: H, raw: '{"playerId": "x", "score": ' },
        expect: err(400, 'Invalid JSON body'),
    },
    {
        name: 'validation: a body over 64 KB is 413 JSON',
        request: { method: 'POST', path: '/scores', headers: H, raw: JSON.stringify({ playerId: NEWBIE, gameId: 'conf-main', score: 1, streak: 1, pad: 'x'.repeat(70_000) }) },
        expect: err(413),
    },
    { name: 'N3: a nickname of 2 characters on a submit is 400 `Nickname must be at least 3 characters`', request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'Al' }), expect: TOO_SHORT },
    { name: 'N3: a nickname of 17 characters on a submit is 400 `Nickname must be 16 characters or less`', request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'abcdefghijklmnopq' }), expect: TOO_LONG },
    { name: 'N3: a nickname with a space on a submit is 400 `Nickname can only contain letters, numbers, and underscores`', request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname: 'Al ice' }), expect: BAD_CHARS },
    { name: 'S3: scoreboardId `all-time` is rejected', request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'all-time' }), expect: err(400) },
    { name: 'S3: scoreboardId `weekly` is rejected', request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'weekly' }), expect: err(400) },
    { name: 'S3: scoreboardId `daily` is rejected', request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'daily' }), expect: err(400) },
    {
        name: 'S4: a scoreboardId naming no board: 404 `Scoreboard \'<id>\' not found for this game.`',
        request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'no-such-board' }),
        expect: boardNotFound('no-such-board'),
    },
    { name: 'validation: a scoreboardId outside [A-Za-z0-9_-]{1,64} is 400', request: score({ playerId: NEWBIE, score: 1, streak: 1, scoreboardId: 'bad.id' }), expect: err(400, mentions('scoreboardId')) },
    {
        name: 'rejected submits create nothing: the player still has no profile',
        request: get(`/players/${NEWBIE}/profile`),
        expect: NOT_FOUND_PLAYER,
    },

    // -- second round: independent maxima, ties, S2 play count, token ignored with time validation off ---------
    advance(6, 'out of the 2 s rate-limit window and the few-seconds play de-duplication'),
    { name: 'S1: a lower score with a higher streak is accepted', request: score({ playerId: BOB, score: 100, streak: 7 }), expect: SUBMITTED },
    { name: 'S1: Alice reaches 250/9 after Bob and Dave did', request: score({ playerId: ALICE, score: 250, streak: 9 }), expect: SUBMITTED },
    {
        name: 'S2: a targeted submit',
        request: score({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
        expect: SUBMITTED,
        capture: { EVE_TARGETED_MSG: 'data.message' },
    },
    {
        name: 'S2/S5: an exact repeat of a targeted submit inside 2 s gets the same 200 answer',
        request: score({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
        expect: ok({ message: '$EVE_TARGETED_MSG' }),
    },
    {
        name: 'S2: the rate limit applies to targeted submits: 400 `Please wait 2 seconds between submissions.`',
        request: score({ playerId: EVE, score: 450, streak: 1, scoreboardId: 'level-1' }),
        expect: RATE_LIMITED,
    },
    {
        name: 'S2: the targeted submit counted a play but left score and streak alone',
        request: get(`/players/${EVE}/profile`),
        expect: profile('$EVE_NAME', 50, 20, 2),
    },
    {
        name: 'S1: bests are independent maxima (250 kept, streak 1 -> 7); an omitted nickname leaves the name alone (N1); spaced submits count plays',
        request: get(`/players/${BOB}/profile`),
        expect: profile('$BOB_NAME', 250, 7, 2),
    },
    { name: 'S1: profile bests rise', request: get(`/players/${ALICE}/profile`), expect: profile('Alice', 250, 9, 2) },
    {
        name: 'time validation off: any playSessionToken is accepted and ignored (spec: time validation)',
        request: score({ playerId: CAROL, score: 10, streak: 0, playSessionToken: 'ps_not_a_real_token' }),
        expect: SUBMITTED,
    },

    // -- GET /leaderboard ----------------------------------------------------------------------------------------
    {
        name: 'GET /leaderboard: by score, ranks 1-based and distinct, ties to who reached the value first, total = ranked players',
        request: get('/leaderboard'),
        expect: ok({ leaderboard: LB_BY_SCORE, total: 5 }),
    },
    { name: 'GET /leaderboard?sort=score&limit=2: two entries, total still all ranked players', request: get('/leaderboard?sort=score&limit=2'), expect: ok({ leaderboard: LB_BY_SCORE.slice(0, 2), total: 5 }) },
    { name: 'GET /leaderboard?sort=streak: by best streak, ties to who reached it first', request: get('/leaderboard?sort=streak'), expect: ok({ leaderboard: LB_BY_STREAK, total: 5 }) },
    { name: 'GET /leaderboard?sort=streak&limit=1', request: get('/leaderboard?sort=streak&limit=1'), expect: ok({ leaderboard: LB_BY_STREAK.slice(0, 1), total: 5 }) },
    { name: 'GET /leaderboard by an old plugin (no X-Game-ID)', request: get('/leaderboard', OLD_PLUGIN), expect: ok({ leaderboard: LB_BY_SCORE, total: 5 }) },
    { name: 'GET /leaderboard?sort=level (unknown sort): 400', request: get('/leaderboard?sort=level'), expect: err(400, mentions('sort')) },

    // -- GET /players/{id}/rank ---------------------------------------------------------------------------------
    { name: 'GET /players/{id}/rank: {rank, score, streak, totalPlayers} (decisions: rank)', request: get(`/players/${ALICE}/rank`), expect: ok({ rank: 3, score: 250, streak: 9, totalPlayers: 5 }) },
    { name: 'GET /players/{id}/rank?sort=streak', request: get(`/players/${EVE}/rank?sort=streak`), expect: ok({ rank: 1, score: 50, streak: 20, totalPlayers: 5 }) },
    { name: 'GET /players/{id}/rank?sort=score for a hand-made id', request: get(`/players/${CAROL}/rank?sort=score`), expect: ok({ rank: 5, score: 10, streak: 0, totalPlayers: 5 }) },
    { name: 'GET /players/{id}/rank of a player with no profile: 404 `Player not found`', request: get(`/players/${GHOST}/rank`), expect: NOT_FOUND_PLAYER },
    { name: 'GET /players/{id}/rank?sort=level: 400', request: get(`/players/${ALICE}/rank?sort=level`), expect: err(400, mentions('sort')) },
    { name: 'GET /players/{id}/rank with bad characters in the id: 400', request: get('/players/bad!id/rank'), expect: err(400, mentions('playerId')) },

    // -- board reads (also served directly by the canister) -------------------------------------------------------
    {
        name: 'GET /games/{g}/scoreboards: {gameId, scoreboards:[...]} with the exact item fields; lastReset = UTC period start (decisions: board list, periods)',
        request: get('/games/$GAME/scoreboards'),
        expect: ok({
            gameId: 'conf-main',
            scoreboards: [
                boardSummary('all-time', 'allTime', 5, TIME), boardSummary('weekly', 'weekly', 5, WEEK_START), boardSummary('daily', 'daily', 5, DAY_START),
                { scoreboardId: 'level-1', name: 'Level 1', description: '', period: 'allTime', sortBy: 'score', targeted: true, entryCount: 3, lastReset: TIME, isActive: true },
            ],
        }),
        direct: true,
    },
    {
        name: 'GET /games/{g}/scoreboards/all-time: {scoreboardId, config, entries, totalEntries}; default limit',
        request: get('/games/$GAME/scoreboards/all-time'),
        expect: ok({ scoreboardId: 'all-time', config: { name: TEXT, description: TEXT, period: 'allTime', sortBy: 'score', lastReset: TIME }, entries: BOARD_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'S1: the weekly board got every fan-out submit; its period started Monday 00:00 UTC',
        request: get('/games/$GAME/scoreboards/weekly'),
        expect: ok({ scoreboardId: 'weekly', config: { name: TEXT, description: TEXT, period: 'weekly', sortBy: 'score', lastReset: WEEK_START }, entries: BOARD_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'S1: the daily board got every fan-out submit; its period started 00:00 UTC',
        request: get('/games/$GAME/scoreboards/daily'),
        expect: ok({ scoreboardId: 'daily', config: { name: TEXT, description: TEXT, period: 'daily', sortBy: 'score', lastReset: DAY_START }, entries: BOARD_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'S2: the targeted board holds only targeted submits',
        request: get('/games/$GAME/scoreboards/level-1'),
        expect: ok({
            scoreboardId: 'level-1',
            config: { name: 'Level 1', description: '', period: 'allTime', sortBy: 'score', lastReset: TIME },
            entries: [boardEntry(1, '$EVE_NAME', 400, 1), boardEntry(2, 'Dave', 300, 2), { ...boardEntry(3, DEFAULT_NAME, 0, 0) }],
            totalEntries: 3,
        }),
        direct: true,
    },
    {
        name: 'board limit=2: two entries, totalEntries is the whole board',
        request: get('/games/$GAME/scoreboards/all-time?limit=2'),
        expect: ok({ scoreboardId: 'all-time', config: expect.any(Object), entries: BOARD_ENTRIES.slice(0, 2), totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'board limit=0 clamps to 1 (decisions: clamps to 1..1000)',
        request: get('/games/$GAME/scoreboards/all-time?limit=0'),
        expect: ok({ scoreboardId: 'all-time', config: expect.any(Object), entries: BOARD_ENTRIES.slice(0, 1), totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'board limit=-7 clamps to 1',
        request: get('/games/$GAME/scoreboards/all-time?limit=-7'),
        expect: ok({ scoreboardId: 'all-time', config: expect.any(Object), entries: BOARD_ENTRIES.slice(0, 1), totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'board limit=5000 clamps to 1000 (all five entries, no error)',
        request: get('/games/$GAME/scoreboards/all-time?limit=5000'),
        expect: ok({ scoreboardId: 'all-time', config: expect.any(Object), entries: BOARD_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'R1: an unknown board: 404 `Scoreboard \'nope\' not found for this game.`',
        request: get('/games/$GAME/scoreboards/nope'),
        expect: boardNotFound('nope'),
        direct: true,
    },
    {
        name: 'board limit=abc: whatever the answer, both hosts give the same one',
        request: get('/games/$GAME/scoreboards/all-time?limit=abc'),
        expect: { status: expect.any(Number), body: expect.objectContaining({ ok: expect.any(Boolean) }) },
        direct: true,
    },
    {
        name: 'board limit=2.5: whatever the answer, both hosts give the same one',
        request: get('/games/$GAME/scoreboards/all-time?limit=2.5'),
        expect: { status: expect.any(Number), body: expect.objectContaining({ ok: expect.any(Boolean) }) },
        direct: true,
    },
    { name: 'path ids: a board id with a dot is 400 (spec Limits: path ID format)', request: get('/games/$GAME/scoreboards/bad.id'), expect: err(400), direct: true },
    { name: 'path ids: a board id of 65 characters is 400', request: get(`/games/$GAME/scoreboards/${LONG_ID}`), expect: err(400), direct: true },
    { name: 'path ids: a game id of 65 characters is 400', request: get(`/games/${LONG_ID}/scoreboards`), expect: err(400), direct: true },
    {
        name: 'path ids: a game id with a dot is 400, checked before any credential (400 before reaching the backend)',
        request: get('/games/conf.main/scoreboards/daily', {}),
        expect: err(400),
        direct: true,
    },
    {
        name: 'GET /games/{g}/scoreboards/{b}/rank is session-only: an API-key request is 401',
        request: get('/games/$GAME/scoreboards/daily/rank'),
        expect: err(401),
    },
    {
        name: 'GET /games/{g}/scoreboards/{b}/rank with an unknown X-Session-Token: 401',
        request: get('/games/$GAME/scoreboards/daily/rank', { 'X-Session-Token': 'sess_0123456789abcdef', 'X-Game-ID': '$GAME' }),
        expect: err(401),
    },

    // -- archives before any period ended -------------------------------------------------------------------------
    {
        name: 'archives: the list shape, empty before a period ends',
        request: get('/games/$GAME/scoreboards/daily/archives'),
        expect: ok({ gameId: 'conf-main', scoreboardId: 'daily', archives: [] }),
        direct: true,
    },
    { name: 'archives: latest is 404 when there is none', request: get('/games/$GAME/scoreboards/daily/archives/latest'), expect: err(404), direct: true },
    { name: 'archives: an unknown archive id is 404', request: get('/games/$GAME/scoreboards/daily/archives/conf-main:daily:0'), expect: err(404), direct: true },
    { name: 'archives: of an unknown board: 404 `Scoreboard \'nope\' not found for this game.`', request: get('/games/$GAME/scoreboards/nope/archives'), expect: boardNotFound('nope'), direct: true },
    { name: 'archives: a bad board id in an archive path is 400', request: get('/games/$GAME/scoreboards/bad.id/archives'), expect: err(400), direct: true },

    // -- PUT /players/{id}/nickname: N2, N3 ---------------------------------------------------------------------------
    {
        name: 'N2: a taken name (case-insensitively) gets the suffix _1 and the reply names it: {nickname, message}',
        request: put(`/players/${BOB}/nickname`, { nickname: 'alice' }),
        expect: ok({ nickname: 'alice_1', message: TEXT }),
    },
    {
        name: 'N2: the next free suffix when _1 is taken too',
        request: put(`/players/${CAROL}/nickname`, { nickname: 'Alice' }),
        expect: ok({ nickname: 'Alice_2', message: TEXT }),
    },
    {
        name: 'N2: a player setting the name they already hold keeps it (no suffix)',
        request: put(`/players/${ALICE}/nickname`, { nickname: 'Alice' }),
        expect: ok({ nickname: 'Alice', message: TEXT }),
    },
    { name: 'N3: `Nickname must be at least 3 characters`', request: put(`/players/${ALICE}/nickname`, { nickname: 'Al' }), expect: TOO_SHORT },
    { name: 'N3: `Nickname must be 16 characters or less`', request: put(`/players/${ALICE}/nickname`, { nickname: 'abcdefghijklmnopq' }), expect: TOO_LONG },
    { name: 'N3: a hyphen: `Nickname can only contain letters, numbers, and underscores`', request: put(`/players/${ALICE}/nickname`, { nickname: 'Ali-ce' }), expect: BAD_CHARS },
    { name: 'N3: a space: `Nickname can only contain letters, numbers, and underscores`', request: put(`/players/${ALICE}/nickname`, { nickname: 'Al ice' }), expect: BAD_CHARS },
    { name: 'PUT nickname: a numeric nickname is 400 naming nickname', request: put(`/players/${ALICE}/nickname`, { nickname: 42 }), expect: err(400, mentions('[Nn]ickname')) },
    { name: 'PUT nickname: a missing nickname is 400 naming nickname', request: put(`/players/${ALICE}/nickname`, {}), expect: err(400, mentions('[Nn]ickname')) },
    { name: 'PUT nickname of a player with no profile: 404 `Player not found`', request: put(`/players/${GHOST}/nickname`, { nickname: 'Ghosty' }), expect: NOT_FOUND_PLAYER },
    { name: 'PUT nickname with bad characters in the path id: 400', request: put('/players/bad!id/nickname', { nickname: 'Valid_Name' }), expect: err(400, mentions('playerId')) },
    { name: 'N2: the applied name is the profile name', request: get(`/players/${BOB}/profile`), expect: profile('alice_1', 250, 7, 2) },
    { name: 'N3: rejected names changed nothing', request: get(`/players/${ALICE}/profile`), expect: profile('Alice', 250, 9, 2) },

    // -- N1 on later submits ----------------------------------------------------------------------------------------------
    advance(3, 'out of the rate-limit window before the N1 rename'),
    { name: 'N1: a free nickname on a submit renames the player', request: score({ playerId: DAVE, score: 250, streak: 9, nickname: 'DaveTheGreat' }), expect: SUBMITTED },
    { name: 'N1: the rename is applied', request: get(`/players/${DAVE}/profile`), expect: profile('DaveTheGreat', 250, 9, INT) },
    advance(3, 'out of the rate-limit window before the ignored N1 name'),
    {
        name: 'N1: a taken nickname on a submit (Godot 3 sends it every time) is silently ignored: 200, no error',
        request: score({ playerId: DAVE, score: 250, streak: 9, nickname: 'ALICE' }),
        expect: SUBMITTED,
    },
    { name: 'N1: ... and neither renamed nor suffixed', request: get(`/players/${DAVE}/profile`), expect: profile('DaveTheGreat', 250, 9, INT) },
    { name: 'S5: a well-spaced duplicate of an earlier submit is accepted', request: score({ playerId: EVE, score: 50, streak: 20 }), expect: SUBMITTED },
    { name: 'S5: ... and moves the play count (2 -> 3); bests unchanged', request: get(`/players/${EVE}/profile`), expect: profile('$EVE_NAME', 50, 20, 3) },
    {
        name: 'names everywhere follow renames; ranking unchanged',
        request: get('/leaderboard'),
        expect: ok({ leaderboard: RENAMED_BY_SCORE, total: 5 }),
    },

    // -- POST /achievements ----------------------------------------------------------------------------------------------
    {
        name: 'A1: one achievementId, body without gameId (decisions): {unlocked, total, results:[{achievementId, success, message}]}',
        request: post('/achievements', { playerId: ALICE, achievementId: 'first_win' }),
        expect: ok({ unlocked: 1, total: 1, results: [{ achievementId: 'first_win', success: true, message: TEXT }] }),
    },
    {
        name: 'A1: a batch with one already unlocked id: every result success:true',
        request: post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] }),
        expect: ok({
            unlocked: 2, total: 3,
            results: ['first_win', 'level_5', 'speed_run'].map((achievementId) => ({ achievementId, success: true, message: TEXT })),
        }),
    },
    {
        name: 'A1: re-sending an unlocked id is idempotent: success:true, nothing new',
        request: post('/achievements', { playerId: ALICE, achievementId: 'level_5' }),
        expect: ok({ unlocked: 0, total: 3, results: [{ achievementId: 'level_5', success: true, message: TEXT }] }),
    },
    {
        name: 'achievements: the spec form with gameId in the body',
        request: post('/achievements', { playerId: ALICE, gameId: '$GAME', achievementId: 'combo_10' }),
        expect: ok({ unlocked: 1, total: 4, results: [{ achievementId: 'combo_10', success: true, message: TEXT }] }),
    },
    {
        name: 'achievements: a batch of exactly 100 ids',
        request: post('/achievements', { playerId: EVE, achievementIds: HUNDRED_IDS }),
        expect: ok({ unlocked: 100, total: 100, results: HUNDRED_IDS.map((achievementId) => ({ achievementId, success: true, message: TEXT })) }),
    },
    { name: 'achievements: 101 ids is 400 (limit: max 100)', request: post('/achievements', { playerId: EVE, achievementIds: [...HUNDRED_IDS, 'ach_100'] }), expect: err(400, mentions('achievementIds')) },
    { name: 'achievements: neither achievementId nor achievementIds is 400', request: post('/achievements', { playerId: EVE }), expect: err(400, mentions('achievementId')) },
    { name: 'achievements: achievementIds not a list is 400', request: post('/achievements', { playerId: EVE, achievementIds: 'first_win' }), expect: err(400, mentions('achievementIds')) },
    { name: 'achievements: missing playerId is 400', request: post('/achievements', { achievementId: 'first_win' }), expect: err(400, mentions('playerId')) },
    { name: 'achievements: a gameId of another game is 400', request: post('/achievements', { playerId: ALICE, gameId: '$GAME2', achievementId: 'x_1' }), expect: err(400, mentions('gameId')) },
    { name: 'achievements: without an API key is 401 `Missing API key`', request: post('/achievements', { playerId: ALICE, achievementId: 'x_1' }, {}), expect: err(401, 'Missing API key') },
    {
        name: 'achievements are read from the profile: gameProfile.achievements',
        request: get(`/players/${ALICE}/profile`),
        expect: profile('Alice', 250, 9, 2, setOf(['first_win', 'level_5', 'speed_run', 'combo_10'])),
    },

    // -- play sessions (main game, time validation off) ------------------------------------------------------------------
    {
        name: 'POST /play-sessions/start: the token in data.ok, data.message (decisions: play sessions)',
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
        expect: ok({ ok: TOKEN, message: TEXT }),
        capture: { PS1: 'data.ok' },
    },
    { name: 'play sessions: a second active session', request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }), expect: ok({ ok: TOKEN, message: TEXT }), capture: { PS2: 'data.ok' } },
    { name: 'play sessions: a third active session', request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }), expect: ok({ ok: TOKEN, message: TEXT }), capture: { PS3: 'data.ok' } },
    {
        name: 'play sessions: the 4th active start is 400 `Too many active play sessions. End or wait for current play sessions to expire.`',
        request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
        expect: err(400, 'Too many active play sessions. End or wait for current play sessions to expire.'),
    },
    { name: 'play sessions: the cap is per player', request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player-2' }), expect: ok({ ok: TOKEN, message: TEXT }) },
    { name: 'POST /play-sessions/end: {message}', request: post('/play-sessions/end', { playSessionToken: '$PS1' }), expect: ok({ message: TEXT }) },
    { name: 'play sessions: ending it again is 404 (decisions: end is idempotent)', request: post('/play-sessions/end', { playSessionToken: '$PS1' }), expect: err(404) },
    { name: 'play sessions: ending an unknown token is 404', request: post('/play-sessions/end', { playSessionToken: 'ps_00000000000000000000000000000000' }), expect: err(404) },
    { name: 'play sessions: ending freed capacity', request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }), expect: ok({ ok: TOKEN, message: TEXT }) },
    { name: 'play sessions: start with a bad playerId is 400', request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'bad id!' }), expect: err(400, mentions('playerId')) },
    { name: 'play sessions: start without playerId is 400', request: post('/play-sessions/start', { gameId: '$GAME' }), expect: err(400, mentions('playerId')) },
    { name: 'play sessions: start with another game\'s gameId is 400', request: post('/play-sessions/start', { gameId: '$GAME2', playerId: 'session-player' }), expect: err(400, mentions('gameId')) },
    { name: 'play sessions: end without a token is 400', request: post('/play-sessions/end', {}), expect: err(400, mentions('playSessionToken')) },
    { name: 'play sessions: start without an API key is 401 `Missing API key`', request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }, {}), expect: err(401, 'Missing API key') },

    // -- time validation (conf-tv) ------------------------------------------------------------------------------------------
    { name: 'dashboard: time validation on for conf-tv (min play 5 s, tokens live 60 s)', admin: 'admin_set_time_validation', request: { gameId: '$TV_GAME', enabled: true, minPlaySeconds: 5, sessionLifetimeSeconds: 60 } },
    { name: 'dashboard: a score cap of 1000 on conf-tv', admin: 'admin_set_caps', request: { gameId: '$TV_GAME', maxScore: 1000 } },
    { name: 'dashboard: a targeted board tv-level on conf-tv', admin: 'admin_create_board', request: { gameId: '$TV_GAME', scoreboardId: 'tv-level', type: 'targeted', name: 'TV Level' } },
    {
        name: 'GET /game: exactly {gameId, name, description, totalPlayers, totalPlays, isActive, timeValidationEnabled, scoreboards} (decisions: /game)',
        request: get('/game', HTV),
        expect: ok({
            gameId: 'conf-tv', name: TEXT, description: TEXT, totalPlayers: 0, totalPlays: 0, isActive: true, timeValidationEnabled: true,
            scoreboards: [
                { scoreboardId: 'all-time', name: TEXT, period: 'allTime' }, { scoreboardId: 'weekly', name: TEXT, period: 'weekly' },
                { scoreboardId: 'daily', name: TEXT, period: 'daily' }, { scoreboardId: 'tv-level', name: 'TV Level', period: 'allTime' },
            ],
        }),
    },
    { name: 'time validation: a submit without a token: `requires starting a session`', request: score({ playerId: 'tv-1', score: 10, streak: 1 }, HTV), expect: err(400, expect.stringContaining('requires starting a session')) },
    {
        name: 'time validation: the token check comes before any score check (a capped score without a token)',
        request: score({ playerId: 'tv-1', score: 5000, streak: 1 }, HTV),
        expect: err(400, expect.stringContaining('requires starting a session')),
    },
    {
        name: 'S2: targeted submits need the token too',
        request: score({ playerId: 'tv-1', score: 10, streak: 1, scoreboardId: 'tv-level' }, HTV),
        expect: err(400, expect.stringContaining('requires starting a session')),
    },
    { name: 'time validation: an unknown token: a message with `play session`', request: score({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: 'ps_00000000000000000000000000000000' }, HTV), expect: SESSION_PROBLEM },
    { name: 'time validation: start a session for tv-1', request: post('/play-sessions/start', { gameId: '$TV_GAME', playerId: 'tv-1' }, HTV), expect: ok({ ok: TOKEN, message: TEXT }), capture: { TV1: 'data.ok' } },
    { name: 'time validation: start a second session for tv-1', request: post('/play-sessions/start', { gameId: '$TV_GAME', playerId: 'tv-1' }, HTV), expect: ok({ ok: TOKEN, message: TEXT }), capture: { TV2: 'data.ok' } },
    { name: 'time validation: start a session for tv-2', request: post('/play-sessions/start', { gameId: '$TV_GAME', playerId: 'tv-2' }, HTV), expect: ok({ ok: TOKEN, message: TEXT }), capture: { TVX: 'data.ok' } },
    { name: 'time validation: another player\'s token: a message with `play session`', request: score({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: '$TVX' }, HTV), expect: SESSION_PROBLEM },
    { name: 'time validation: another game\'s token: a message with `play session`', request: score({ playerId: 'session-player', score: 10, streak: 1, playSessionToken: '$PS2' }, HTV), expect: SESSION_PROBLEM },
    {
        name: 'time validation: a play shorter than the minimum: the generic `Score rejected by game validation rules` (S6)',
        request: score({ playerId: 'tv-1', score: 10, streak: 1, playSessionToken: '$TV1' }, HTV),
        expect: RULES,
    },
    { name: 'time validation: rejected submits created no profile', request: get('/players/tv-1/profile', HTV), expect: NOT_FOUND_PLAYER },
    advance(6, 'past the minimum play time'),
    { name: 'time validation: a valid token after the minimum play time: 200', request: score({ playerId: 'tv-1', score: 500, streak: 2, playSessionToken: '$TV2' }, HTV), expect: SUBMITTED },
    advance(3, 'out of the rate-limit window before reusing the token'),
    { name: 'time validation: a used token (single-use): a message with `play session`', request: score({ playerId: 'tv-1', score: 600, streak: 2, playSessionToken: '$TV2' }, HTV), expect: SESSION_PROBLEM },
    { name: 'time validation: start a session for tv-3', request: post('/play-sessions/start', { gameId: '$TV_GAME', playerId: 'tv-3' }, HTV), expect: ok({ ok: TOKEN, message: TEXT }), capture: { TV3: 'data.ok' } },
    advance(61, 'past the 60 s token lifetime'),
    { name: 'time validation: an expired token: a message with `play session`', request: score({ playerId: 'tv-3', score: 10, streak: 1, playSessionToken: '$TV3' }, HTV), expect: SESSION_PROBLEM },
    { name: 'time validation: only the accepted submit counted', request: get('/players/tv-1/profile', HTV), expect: profile(DEFAULT_NAME, 500, 2, 1) },

    // -- caps and the largest score (conf-second) -------------------------------------------------------------------------
    { name: 'decisions: a score and streak of 2^53-1 are accepted', request: score({ playerId: 'max-player', score: 9007199254740991, streak: 9007199254740991 }, H2), expect: SUBMITTED },
    { name: 'decisions: 2^53-1 reads back exactly as a plain JSON integer', request: get('/players/max-player/profile', H2), expect: profile(DEFAULT_NAME, 9007199254740991, 9007199254740991, 1) },
    { name: 'dashboard: caps on conf-second (score 1000, streak 50)', admin: 'admin_set_caps', request: { gameId: '$GAME2', maxScore: 1000, maxStreak: 50 } },
    { name: 'caps: a score above the cap: `Score rejected by game validation rules` (generic, S6)', request: score({ playerId: 'capped-1', score: 1001, streak: 0 }, H2), expect: RULES },
    { name: 'caps: a streak above the cap: `Streak rejected by game validation rules`', request: score({ playerId: 'capped-2', score: 0, streak: 51 }, H2), expect: err(400, 'Streak rejected by game validation rules') },
    { name: 'caps: a capped submit created nothing', request: get('/players/capped-1/profile', H2), expect: NOT_FOUND_PLAYER },
    { name: 'caps: values at the cap are accepted', request: score({ playerId: 'capped-3', score: 1000, streak: 50 }, H2), expect: SUBMITTED },
    {
        name: 'N1: nicknames are unique across the whole service: a name taken in another game falls back to Player_<number>',
        request: score({ playerId: 'g2-player', score: 1, streak: 1, nickname: 'DaveTheGreat' }, H2),
        expect: SUBMITTED,
    },
    { name: 'N1: ... the fallback name', request: get('/players/g2-player/profile', H2), expect: profile(DEFAULT_NAME, 1, 1, 1) },

    // -- GET /game, /game/stats, /stats -----------------------------------------------------------------------------------
    {
        name: 'GET /game: the exact key set with timeValidationEnabled:false and the boards (decisions: /game)',
        request: get('/game'),
        expect: ok({
            gameId: 'conf-main', name: TEXT, description: TEXT, totalPlayers: 6, totalPlays: POSITIVE, isActive: true, timeValidationEnabled: false,
            scoreboards: MAIN_BOARDS_META,
        }),
    },
    {
        name: 'GET /game by an old plugin (no X-Game-ID)',
        request: get('/game', OLD_PLUGIN),
        expect: ok(expect.objectContaining({ gameId: 'conf-main', timeValidationEnabled: false, scoreboards: MAIN_BOARDS_META })),
    },
    {
        name: 'GET /game/stats: at least {gameId, totalPlayers, totalPlays, submissions:{total, today}} (decisions: /game/stats)',
        request: get('/game/stats'),
        expect: ok(expect.objectContaining({ gameId: 'conf-main', totalPlayers: 6, totalPlays: POSITIVE, submissions: expect.objectContaining({ total: POSITIVE, today: POSITIVE }) })),
    },
    { name: 'GET /game/stats without a key: 401', request: get('/game/stats', {}), expect: err(401, 'Missing API key') },
    {
        name: 'GET /stats (no auth): platform counts after the submits',
        request: { method: 'GET', path: '/stats' },
        expect: ok({ total: POSITIVE, today: POSITIVE, date: TODAY }),
    },

    // -- a day later: the daily board rolled over, its period is archived ---------------------------------------------------
    advance(86_400, 'one day: the daily board starts a new UTC period'),
    { name: 'S1: a submit in the new period', request: score({ playerId: CAROL, score: 5, streak: 1 }), expect: SUBMITTED },
    {
        name: 'the daily board reads the new period only',
        request: get('/games/$GAME/scoreboards/daily'),
        expect: ok({ scoreboardId: 'daily', config: { name: TEXT, description: TEXT, period: 'daily', sortBy: 'score', lastReset: NEXT_DAY_START }, entries: [boardEntry(1, 'Alice_2', 5, 1)], totalEntries: 1 }),
        direct: true,
    },
    {
        name: 'archives: the list {gameId, scoreboardId, archives:[{archiveId, periodStart, periodEnd, entryCount, topPlayer, topScore}]} (decisions: archives)',
        request: get('/games/$GAME/scoreboards/daily/archives'),
        expect: ok({
            gameId: 'conf-main', scoreboardId: 'daily',
            archives: [{ archiveId: `conf-main:daily:${DAY_START}`, periodStart: DAY_START, periodEnd: NEXT_DAY_START, entryCount: 5, topPlayer: 'alice_1', topScore: 250 }],
        }),
        capture: { ARCHIVE: 'data.archives.0.archiveId' },
        direct: true,
    },
    {
        name: 'archives: latest: {archiveId, config:{name, period, sortBy, periodStart, periodEnd}, entries, totalEntries}',
        request: get('/games/$GAME/scoreboards/daily/archives/latest'),
        expect: ok({ archiveId: '$ARCHIVE', config: { name: TEXT, period: 'daily', sortBy: 'score', periodStart: DAY_START, periodEnd: NEXT_DAY_START }, entries: ARCHIVED_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'archives: latest?limit=2',
        request: get('/games/$GAME/scoreboards/daily/archives/latest?limit=2'),
        expect: ok({ archiveId: '$ARCHIVE', config: expect.any(Object), entries: ARCHIVED_ENTRIES.slice(0, 2), totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'archives: by id under the board path',
        request: get('/games/$GAME/scoreboards/daily/archives/$ARCHIVE'),
        expect: ok({ archiveId: '$ARCHIVE', config: { name: TEXT, period: 'daily', sortBy: 'score', periodStart: DAY_START, periodEnd: NEXT_DAY_START }, entries: ARCHIVED_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'archives: GET /archives/{archiveId} (decisions.md, archives) reads the same archive',
        request: get('/archives/$ARCHIVE'),
        expect: ok({ archiveId: '$ARCHIVE', config: { name: TEXT, period: 'daily', sortBy: 'score', periodStart: DAY_START, periodEnd: NEXT_DAY_START }, entries: ARCHIVED_ENTRIES, totalEntries: 5 }),
        direct: true,
    },
    {
        name: 'archives: the weekly board did not end (Wednesday to Thursday): no archive, entries kept',
        request: get('/games/$GAME/scoreboards/weekly/archives'),
        expect: ok({ gameId: 'conf-main', scoreboardId: 'weekly', archives: [] }),
        direct: true,
    },
    { name: 'archives: a board that never resets has none', request: get('/games/$GAME/scoreboards/all-time/archives'), expect: ok({ gameId: 'conf-main', scoreboardId: 'all-time', archives: [] }), direct: true },
    { name: 'archives: latest of a board without archives is 404', request: get('/games/$GAME/scoreboards/level-1/archives/latest'), expect: err(404), direct: true },
    {
        name: 'the global leaderboard does not reset with the daily board',
        request: get('/leaderboard?limit=3'),
        expect: ok({ leaderboard: RENAMED_BY_SCORE.slice(0, 3), total: 5 }),
    },
];
