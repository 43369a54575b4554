// Conformance cases of archives: before any period ended, and the daily rollover.
import type { Step, Area } from './harness';
import { DAY_START, NEXT_DAY_START, OP, WEEK_START } from './harness';
import { TEXT, ok, err, boardNotFound, mentions, SUBMITTED, boardEntry } from './answers';
import { wait, submit, get, LEVEL_1, score } from './requests';
import { RENAMED, CAROL, DAILY_ARCHIVE_ID, ARCHIVED_ENTRIES, ALICE, RENAMED_BY_SCORE } from './players';

/** RENAMED, then a day later (a `clock` case: from Wednesday to Thursday) Carol submits in the new daily period. */
const ROLLED_OVER: readonly Step[] = [...RENAMED, wait(86_400), submit({ playerId: CAROL, score: 5, streak: 1 })];
const DAILY_ARCHIVE = {
    archiveId: DAILY_ARCHIVE_ID,
    config: { name: TEXT, period: 'daily', sortBy: 'score', periodStart: DAY_START, periodEnd: NEXT_DAY_START },
    entries: ARCHIVED_ENTRIES,
    totalEntries: 5,
};

export const ARCHIVES: Area = {
    'archives before any period ended': [
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
                    request: {
                        gameId: '$GAME',
                        scoreboardId: 'boss',
                        type: 'targeted',
                        period: 'weekly',
                        name: 'Boss',
                    },
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
    ],
    'a day later, on a clock of their own: the daily board rolled over, its period is archived': [
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
    ],
};
