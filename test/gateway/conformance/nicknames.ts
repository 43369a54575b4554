// Conformance cases of nicknames: PUT /players/{id}/nickname and renames by later submits.
import type { Step, Expectation, Case, Area } from './harness';
import { OP } from './harness';
import {
    ok,
    TEXT,
    TOO_SHORT,
    TOO_LONG,
    BAD_CHARS,
    err,
    mentions,
    NOT_FOUND_PLAYER,
    profile,
    SUBMITTED,
    INT,
    DEFAULT_NAME,
} from './answers';
import { submit, wait, put, send, get, score, SPACED } from './requests';
import {
    ALICE,
    ALICE_NAME,
    DAVE,
    GREAT_NAME,
    BOB,
    CAROL,
    GHOST,
    DAVE_NAME,
    EVE,
    RENAMED,
    RENAMED_BY_SCORE,
} from './players';

/** Alice holds Alice$T, Dave holds DaveTheGreat$T and may submit again. */
const ALICE_AND_DAVE: readonly Step[] = [
    submit({ playerId: ALICE, score: 1, streak: 1, nickname: ALICE_NAME }),
    submit({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
    wait(3),
];
/** A PUT nickname of a player with a profile, refused by rule N3 with `expected`. */
const refusedRename = (name: string, nickname: unknown, expected: Expectation): Case => ({
    name,
    ref: [OP.nickname, 'rule-N3'],
    setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
    request: put(`/players/${ALICE}/nickname`, { nickname }),
    expect: expected,
});

export const NICKNAMES: Area = {
    'PUT /players/{id}/nickname': [
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
        refusedRename('PUT nickname of 2 characters: `Nickname must be at least 3 characters`', 'Al', TOO_SHORT),
        refusedRename(
            'PUT nickname of 17 characters: `Nickname must be 16 characters or less`',
            'abcdefghijklmnopq',
            TOO_LONG,
        ),
        refusedRename(
            'PUT nickname with a hyphen: `Nickname can only contain letters, numbers, and underscores`',
            'Ali-ce',
            BAD_CHARS,
        ),
        refusedRename(
            'PUT nickname with a space: `Nickname can only contain letters, numbers, and underscores`',
            'Al ice',
            BAD_CHARS,
        ),
        refusedRename(
            'PUT nickname with a zero-width space, U200B: `Nickname can only contain letters, numbers, and underscores`',
            'Al\u200Bice',
            BAD_CHARS,
        ),
        refusedRename('PUT nickname: a numeric nickname is 400 naming nickname', 42, err(400, mentions('[Nn]ickname'))),
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
    ],
    'nicknames on later submits': [
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
            setup: ALICE_AND_DAVE,
            request: score({ playerId: DAVE, score: 250, streak: 9, nickname: 'ALICE${T}' }),
            expect: SUBMITTED,
        },
        {
            name: 'a taken nickname on a later submit neither renames nor suffixes',
            ref: [OP.profile, 'rule-N1'],
            setup: [...ALICE_AND_DAVE, submit({ playerId: DAVE, score: 250, streak: 9, nickname: 'ALICE${T}' })],
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
    ],
};
