// The behaviour rules of the contract, in the words of this project's API reference (GET /docs;
// each at its anchor on GET /docs/rules: /docs/rules#rule-S1, where /docs#rule-S1 leads). Route
// descriptions, schemas, the canister's comments and the conformance cases cite them by id;
// test/docs/readme.test.ts checks every cited id is here.
import { MAX_ACTIVE_PLAY_SESSIONS, NICKNAME } from './rules';

export interface RuleText {
    id: string;
    title: string;
    text: string;
}

export const RULES: readonly RuleText[] = [
    {
        id: 'S1',
        title: 'Fan-out submits',
        text: 'A POST /scores without scoreboardId updates the profile bests and every fan-out board (all-time, weekly, daily, and the monthly and custom boards), and counts a play.',
    },
    {
        id: 'S2',
        title: 'Targeted submits',
        text: 'A POST /scores with scoreboardId writes only that targeted board and counts a play; the profile bests stay. Play-session and rate-limit rules apply as for any submit.',
    },
    {
        id: 'S3',
        title: 'Standard boards are not targets',
        text: 'A scoreboardId of all-time, weekly or daily is refused (400).',
    },
    {
        id: 'S4',
        title: 'Submits never create boards',
        text: "A scoreboardId naming no targeted board of the game is 404 `Scoreboard '<id>' not found for this game.`",
    },
    {
        id: 'S5',
        title: 'Retries and plays',
        text: 'An exact repeat of an accepted submit within 2 s is a retry: the same 200 answer, nothing changes. Every accepted submit is a play, except an exact repeat (same board, score and streak) within a few seconds; such a repeat adds nothing to a sum board or a latest board either.',
    },
    {
        id: 'S6',
        title: 'Generic rejections',
        text: "A submit over a cap or failing a time check gets `Score rejected by game validation rules` (or Streak ...); the reason goes only to the developer's suspicion log, one entry per player and board with a count.",
    },
    {
        id: 'N1',
        title: 'Nicknames on submits',
        text: 'A nickname on POST /scores renames the player when it is free and is silently ignored when taken; on a first submit a taken name falls back to Player_<number>. Without a nickname the stored name is never touched.',
    },
    {
        id: 'N2',
        title: 'Nickname changes',
        text: 'PUT .../nickname gives a taken name the first free numeric suffix (name -> name_1) and answers with the name applied.',
    },
    {
        id: 'N3',
        title: 'Nickname rule',
        text: `Nicknames are ${NICKNAME.min}-${NICKNAME.max} characters of A-Z a-z 0-9 _; anything else is 400 with the rule's message, on every route. Names are unique within a game (the same name may be taken in another game), compared case-insensitively and by look-alike characters (I/l/1 and O/0 count as one: \`DragonSIayer\` and \`Drag0nSlayer\` are \`DragonSlayer\`), Player_<number> defaults included.`,
    },
    {
        id: 'N4',
        title: 'Nicknames of new accounts',
        text: 'A nickname sent with a sign-in (POST /auth/device/code, or with an ID token to POST /auth/google or /auth/apple) names the account only when that sign-in creates it; an existing account keeps its name. Rule N3 applies: an invalid one is 400 at once.',
    },
    {
        id: 'A1',
        title: 'Achievements',
        text: 'Unlocks are idempotent (an unlocked id again is success) and kept server-side for anonymous players, also before their first submit.',
    },
    {
        id: 'R1',
        title: 'Board not found',
        text: 'A 404 on a board read means the board is not configured for the game.',
    },
    {
        id: 'R2',
        title: 'Read cache',
        text: 'Board reads may be up to about 30 s old (the gateway caches them; direct canister reads carry Cache-Control: public, max-age=30).',
    },
    {
        id: 'R3',
        title: 'Old board names',
        text: 'A read of board all-time-new or weekly-scoreboard (old ids an official SDK still reads) in a game without a board of that id reads all-time or weekly, on the gateway and at the canister alike; a game with a board of that id reads its own.',
    },
    {
        id: 'L1',
        title: 'Rate limit',
        text: 'At most one accepted submit per player per board every 2 s (fan-out submits share one key): `Please wait 2 seconds between submissions.` (400). Rejected submits are paced the same way.',
    },
    {
        id: 'L2',
        title: 'Play sessions',
        text: `At most ${MAX_ACTIVE_PLAY_SESSIONS} active play sessions per player and game; tokens are single-use and expire after the game's lifetime (30 minutes by default). With time validation off any token is accepted and ignored.`,
    },
    {
        id: 'K1',
        title: 'Credentials',
        text: 'Credentials come from headers only. A missing key is 401 `Missing API key`; an unknown or rotated one 401 `Invalid API key`; a deactivated game 403. Writes are checked by the canister in the same call; reads may trail a key change by a few seconds.',
    },
    {
        id: 'K2',
        title: 'Signed-in players',
        text: "A signed-in player's X-Session-Token with X-Game-ID opens every route the API key opens; an X-API-Key sent along must be of the same game, and the session decides. With a session the player is the signed-in one, whatever playerId a body or path names (ranks, profiles and renames too). A request that carries a session gets 401 only when the session is dead (expired, signed out, of another game: sign in again) and never 403; any other problem is 400, 404 or the like.",
    },
    {
        id: 'K3',
        title: 'Games named in bodies',
        text: "A body's gameId is optional and must be the credential's game (400 otherwise); an empty one, or null, is the same as none.",
    },
    {
        id: 'E1',
        title: 'Envelope',
        text: 'Every response is JSON: `{ok: true, data}` with 200, or `{ok: false, error}` with another status; OPTIONS on any path is 200 `{}`. Every response carries open CORS headers and X-API-Version. Times are integer nanoseconds since the epoch.',
    },
];
