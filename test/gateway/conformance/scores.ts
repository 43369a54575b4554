// Conformance cases of POST /scores: first and later submits, validation, caps.
import type { Expectation, Case, Area } from './harness';
import { OP } from './harness';
import {
    err,
    SUBMITTED,
    ok,
    profile,
    DEFAULT_NAME,
    NOT_FOUND_PLAYER,
    mentions,
    TOO_SHORT,
    TOO_LONG,
    BAD_CHARS,
    boardNotFound,
    RULES,
} from './answers';
import {
    score,
    submit,
    OLD_PLUGIN,
    LEVEL_1,
    send,
    refused,
    get,
    GAME2,
    post,
    H,
    SPACED,
    captureName,
    CAPS,
    H2,
} from './requests';
import { NEWBIE, ALICE, ALICE_NAME, BOB, CAROL, DAVE, DAVE_NAME, EVE, GHOST, LONG_PLAYER, GREAT_NAME } from './players';

const RATE_LIMITED = err(400, 'Please wait 2 seconds between submissions.');
const BAD_COUNT = (field: string) =>
    err(400, `Invalid ${field}: must be a non-negative integer no larger than 9007199254740991`);

/** A first submit whose body breaks a rule of POST /scores: refused with `expected`, nothing stored. */
const invalidSubmit = (name: string, body: Record<string, unknown>, expected: Expectation): Case => ({
    name,
    ref: OP.scores,
    request: score({ playerId: NEWBIE, ...body }),
    expect: expected,
});

/** A first submit whose nickname rule N3 refuses with `expected`. */
const refusedName = (name: string, nickname: unknown, expected: Expectation): Case => ({
    name,
    ref: [OP.scores, 'rule-N3'],
    request: score({ playerId: NEWBIE, score: 1, streak: 1, nickname }),
    expect: expected,
});

export const SCORES: Area = {
    'first submits: fan-out, nicknames, player id shapes': [
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
    ],
    'submit validation: scores are non-negative integers up to 9007199254740991; fields named': [
        invalidSubmit(
            'validation: a score as a string of digits is 400 with the score rule',
            { score: '100', streak: 1 },
            BAD_COUNT('score'),
        ),
        invalidSubmit(
            'validation: a score of "5" is 400 with the score rule, not is required',
            { score: '5', streak: 1 },
            BAD_COUNT('score'),
        ),
        invalidSubmit(
            'validation: a score of true is 400 with the score rule',
            { score: true, streak: 1 },
            BAD_COUNT('score'),
        ),
        invalidSubmit(
            'validation: a missing score is 400 `Invalid score: is required`',
            { streak: 1 },
            err(400, 'Invalid score: is required'),
        ),
        invalidSubmit('validation: a missing streak is 400 naming streak', { score: 1 }, err(400, mentions('streak'))),
        invalidSubmit(
            'validation: a negative score is 400 naming score',
            { score: -1, streak: 1 },
            err(400, mentions('score')),
        ),
        invalidSubmit(
            'validation: a score of 1.5 is 400 with the score rule',
            { score: 1.5, streak: 1 },
            BAD_COUNT('score'),
        ),
        invalidSubmit(
            'validation: a non-integer streak is 400 naming streak',
            { score: 1, streak: 2.5 },
            err(400, mentions('streak')),
        ),
        invalidSubmit(
            'validation: a score of 9007199254740992, one above the largest, is 400 naming score',
            { score: 9007199254740992, streak: 1 },
            err(400, mentions('score')),
        ),
        invalidSubmit(
            'validation: a streak of 9007199254740992 is 400 naming streak',
            { score: 1, streak: 9007199254740992 },
            err(400, mentions('streak')),
        ),
        invalidSubmit(
            'validation: a score sent as null is 400 naming score',
            { score: null, streak: 1 },
            err(400, mentions('score')),
        ),
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
        refusedName('validation: a numeric nickname is 400 naming nickname', 42, err(400, mentions('[Nn]ickname'))),
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
        refusedName(
            'a nickname of 2 characters on a submit is 400 `Nickname must be at least 3 characters`',
            'Al',
            TOO_SHORT,
        ),
        refusedName(
            'a nickname of 17 characters on a submit is 400 `Nickname must be 16 characters or less`',
            'abcdefghijklmnopq',
            TOO_LONG,
        ),
        refusedName(
            'a nickname with a space on a submit is 400 `Nickname can only contain letters, numbers, and underscores`',
            'Al ice',
            BAD_CHARS,
        ),
        refusedName(
            'a nickname with a zero-width space, U200B, on a submit is 400 `Nickname can only contain letters, numbers, and underscores`',
            'Al\u200Bice',
            BAD_CHARS,
        ),
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
        invalidSubmit(
            'validation: a scoreboardId with a dot is 400 naming scoreboardId',
            { score: 1, streak: 1, scoreboardId: 'bad.id' },
            err(400, mentions('scoreboardId')),
        ),
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
    ],
    'later submits: independent maxima, plays, targeted submits, tokens ignored with time validation off': [
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
    ],
    'caps and the largest score': [
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
            name: 'nicknames are unique within a game: a first submit with a name taken in another game is accepted',
            ref: [OP.scores, 'rule-N1', 'rule-N3'],
            setup: [GAME2, submit({ playerId: DAVE, score: 1, streak: 1, nickname: GREAT_NAME })],
            request: score({ playerId: 'g2-player', score: 1, streak: 1, nickname: GREAT_NAME }, H2),
            expect: SUBMITTED,
        },
        {
            name: 'nicknames are unique within a game: a name taken in another game names the new player here too',
            ref: [OP.profile, 'rule-N1', 'rule-N3'],
            setup: [
                GAME2,
                submit({ playerId: DAVE, score: 1, streak: 1, nickname: GREAT_NAME }),
                submit({ playerId: 'g2-player', score: 1, streak: 1, nickname: GREAT_NAME }, H2),
            ],
            request: get('/players/g2-player/profile', H2),
            expect: profile(GREAT_NAME, 1, 1, 1),
        },
        {
            name: 'nicknames are unique within a game: a name taken in the same game falls back to Player_<number>',
            ref: [OP.profile, 'rule-N1', 'rule-N3'],
            setup: [
                GAME2,
                submit({ playerId: DAVE, score: 1, streak: 1, nickname: GREAT_NAME }),
                submit({ playerId: 'g2-player', score: 1, streak: 1, nickname: GREAT_NAME }, H2),
                submit({ playerId: 'g2-second', score: 1, streak: 1, nickname: GREAT_NAME }, H2),
            ],
            request: get('/players/g2-second/profile', H2),
            expect: profile(DEFAULT_NAME, 1, 1, 1),
        },
    ],
};
