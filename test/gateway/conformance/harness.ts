// The conformance cases' harness: what a case is (its types), its clocks, the reference ids it cites, known gaps.
//
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
// `$GAME`, `$KEY`, `$T` (the case's nickname tag: nicknames are unique within a game and cases
// share games, so every name a case chooses ends in it), `$DAY_START`, `$WEEK_START` (ns) and `$TODAY`
// (YYYY-MM-DD), `$CANISTER_URL` (GET /game's canisterUrl for `$GAME`: its shard's direct-read URL
// on a stack whose gateway knows {canister_url}, else nothing); plus the games of `game` steps
// and what steps `capture`.
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
export const DAY_START = Date.UTC(2026, 0, 14) * 1e6; // ns: UTC 00:00 of the start day
export const NEXT_DAY_START = Date.UTC(2026, 0, 15) * 1e6;
export const WEEK_START = Date.UTC(2026, 0, 12) * 1e6; // the Monday before
export const TODAY = '2026-01-14';

/** The shared service's clock starts here (another day than START: shared cases read periods relative to the clock). */
export const SHARED_START = '2026-03-05T12:00:00Z';
/** Seconds a shared case may move the clock: in one step, and all shared cases together (they stay in SHARED_START's UTC day). */
export const SHARED_ADVANCE_LIMITS = { step: 120, total: 6 * 3600 } as const;

// ---- references

/** The operation ids of the API reference (GET /docs, GET /openapi.json) that cases name in `ref`. */
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
    events: 'get-events',
} as const;

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

/** An area's cases by rule: each key is the title of a `describe`, its cases run in that order. */
export type Area = Readonly<Record<string, readonly Case[]>>;
