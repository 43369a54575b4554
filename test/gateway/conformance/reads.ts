// Conformance cases of reads: the leaderboard, player ranks, boards (also served by the canister), paging and around me.
import type { Step, Case, CaseRequest, Expectation, Area } from './harness';
import { OP } from './harness';
import {
    matcher,
    err,
    entry,
    NS,
    TEXT,
    ok,
    mentions,
    NOT_FOUND_PLAYER,
    boardEntry,
    DEFAULT_NAME,
    boardNotFound,
    SUBMITTED,
} from './answers';
import { submit, get, OLD_PLUGIN, score, SOME_SESSION, SIGNED_IN, send, SESSION } from './requests';
import { DAVE_NAME, ALICE_NAME, LB_BY_SCORE, RANKED, ALICE, EVE, CAROL, GHOST, RANKED_SIX } from './players';

/** A period start that may be 0 (boards that never reset). */
const TIME = matcher(
    'IntegerNanosecondsOrZero',
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e19,
);
const LIMIT_TWICE = err(400, 'Invalid limit: give it once, as a plain value');
const LB_BY_STREAK = [
    entry(1, '$EVE_NAME', 50, 20),
    entry(2, DAVE_NAME, 250, 9),
    entry(3, ALICE_NAME, 250, 9),
    entry(4, '$BOB_NAME', 250, 7),
    entry(5, '$CAROL_NAME', 10, 0),
];
const BOARD_ENTRIES = LB_BY_SCORE.map((e) => ({ ...e, submittedAt: NS }));
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
const LONG_ID = 'a'.repeat(65);

/** Five players on the weekly board: 500, 400, 300, 200, 100 points. */
const FIVE_ON_A_BOARD: readonly Step[] = [500, 400, 300, 200, 100].map((points, i) =>
    submit({ playerId: `dev_1700000000_0000000${i}`, score: points, streak: 0 }),
);
/** GET /leaderboard`query` after RANKED: `leaderboard`, out of all five ranked players. */
const rankedLeaderboard = (name: string, query: string, leaderboard: unknown[]): Case => ({
    name,
    ref: OP.leaderboard,
    setup: RANKED,
    request: get(`/leaderboard${query}`),
    expect: ok({ leaderboard, total: 5 }),
});
/** A period board after RANKED: the whole board, from its period start `lastReset`, on both hosts. */
const rankedBoard = (name: string, scoreboardId: string, period: string, lastReset: unknown): Case => ({
    name,
    ref: [OP.board, 'rule-S1'],
    setup: RANKED,
    request: get(`/games/$GAME/scoreboards/${scoreboardId}`),
    expect: ok({
        scoreboardId,
        config: { name: TEXT, description: TEXT, period, sortBy: 'score', lastReset },
        entries: BOARD_ENTRIES,
        totalEntries: 5,
    }),
    direct: true,
});

/** The all-time board after RANKED read with `?limit=`: the first `entries`, out of all five, on both hosts. */
const limitedBoard = (name: string, limit: string, entries: unknown[]): Case => ({
    name,
    ref: OP.board,
    setup: RANKED,
    request: get(`/games/$GAME/scoreboards/all-time?limit=${limit}`),
    expect: ok({ scoreboardId: 'all-time', config: expect.any(Object), entries, totalEntries: 5 }),
    direct: true,
});
/** A board read whose answer the contract leaves open (a `limit` it does not define): the same on both hosts. */
const sameOnBothHosts = (name: string, limit: string): Case => ({
    name,
    ref: OP.board,
    setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
    request: get(`/games/$GAME/scoreboards/all-time?limit=${limit}`),
    expect: { status: expect.any(Number), body: expect.objectContaining({ ok: expect.any(Boolean) }) },
    direct: true,
});
/** A read whose path holds a malformed id: refused on both hosts. */
const badPathId = (name: string, ref: Case['ref'], request: CaseRequest, expected: Expectation): Case => ({
    name,
    ref,
    request,
    expect: expected,
    direct: true,
});

export const READS: Area = {
    'GET /leaderboard': [
        rankedLeaderboard(
            'GET /leaderboard: by score, ranks 1-based and distinct, ties to who reached the value first, total = ranked players',
            '',
            LB_BY_SCORE,
        ),
        rankedLeaderboard(
            'GET /leaderboard with sort=score and limit=2: two entries, total still all ranked players',
            '?sort=score&limit=2',
            LB_BY_SCORE.slice(0, 2),
        ),
        rankedLeaderboard(
            'GET /leaderboard with sort=streak: by best streak, ties to who reached it first',
            '?sort=streak',
            LB_BY_STREAK,
        ),
        rankedLeaderboard(
            'GET /leaderboard with sort=streak and limit=1',
            '?sort=streak&limit=1',
            LB_BY_STREAK.slice(0, 1),
        ),
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
    ],
    'GET /players/{id}/rank': [
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
    ],
    'board reads, also served directly by the canister': [
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
        rankedBoard(
            'board read all-time: scoreboardId, config, entries, totalEntries, default limit',
            'all-time',
            'allTime',
            TIME,
        ),
        rankedBoard(
            'the weekly board got every fan-out submit, its period started Monday 00:00 UTC',
            'weekly',
            'weekly',
            '$WEEK_START',
        ),
        rankedBoard(
            'the daily board got every fan-out submit, its period started 00:00 UTC',
            'daily',
            'daily',
            '$DAY_START',
        ),
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
        limitedBoard('board limit=2: two entries, totalEntries is the whole board', '2', BOARD_ENTRIES.slice(0, 2)),
        limitedBoard('board limit=0 clamps to 1', '0', BOARD_ENTRIES.slice(0, 1)),
        limitedBoard('board limit=-7 clamps to 1', '-7', BOARD_ENTRIES.slice(0, 1)),
        limitedBoard('board limit=5000 clamps to 1000: all five entries, no error', '5000', BOARD_ENTRIES),
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
        sameOnBothHosts('board limit=abc: whatever the answer, both hosts give the same one', 'abc'),
        sameOnBothHosts('board limit=2.5: whatever the answer, both hosts give the same one', '2.5'),
        badPathId('path ids: a board id with a dot is 400', OP.board, get('/games/$GAME/scoreboards/bad.id'), err(400)),
        badPathId(
            'path ids: a board id of 65 characters is 400',
            OP.board,
            get(`/games/$GAME/scoreboards/${LONG_ID}`),
            err(400),
        ),
        badPathId(
            'path ids: a game id of 65 characters is 400',
            OP.boards,
            get(`/games/${LONG_ID}/scoreboards`),
            err(400),
        ),
        badPathId(
            'path ids: a game id with a dot is 400, checked before any credential',
            [OP.board, 'rule-K1'],
            get('/games/conf.main/scoreboards/daily', {}),
            err(400),
        ),
        badPathId(
            'path ids: a bad game id in the board list path is 400 without credentials',
            [OP.boards, 'rule-K1'],
            get('/games/bad.game/scoreboards', {}),
            err(400, mentions('gameId')),
        ),
        badPathId(
            'path ids: a game id of 65 characters in an archive path is 400 without credentials',
            [OP.archives, 'rule-K1'],
            get(`/games/${LONG_ID}/scoreboards/daily/archives`, {}),
            err(400, mentions('gameId')),
        ),
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
    ],
    'paging and around me': [
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
    ],
};
