// Conformance cases of signed-in clients as the official SDKs drive them: every API-key route with a session, 401 only for dead sessions, old board names, an empty body gameId.
import type { Area, Case, CaseRequest, Expectation, Step } from './harness';
import { OP } from './harness';
import { ALICE, ALICE_NAME } from './players';
import { SUBMITTED, TEXT, boardNotFound, err, mentions, ok, profile } from './answers';
import { GAME2, GAME_ONLY, H, SESSION, SIGNED_IN, get, post, put, score, send, submit } from './requests';

/** X-Session-Token and X-Game-ID with the API key along: a client that keeps sending its key once signed in. */
const SESSION_AND_KEY = { ...SESSION, 'X-API-Key': '$KEY' };
/** A session token of the right shape that no one holds (never issued, or ended long ago). */
const DEAD_SESSION = { 'X-Session-Token': 'A'.repeat(43), 'X-Game-ID': '$GAME' };
const DEAD = err(401, 'Invalid or expired session');
/** Signed in, then a submit as the signed-in player: 42 points, streak 1, on every fan-out board. */
const PLAYED: readonly Step[] = [...SIGNED_IN, send(score({ score: 42, streak: 1 }, SESSION), SUBMITTED)];
const NO_ARCHIVE = err(404, 'This scoreboard has no archived periods yet');
const ARCHIVE_ID = '$GAME:daily:0';

/**
 * Every route an API key opens, as a signed-in SDK calls it (the anonymous id it still keeps in
 * the path), and what the signed-in player of PLAYED gets: the session's player, never the path's.
 */
const KEY_ROUTES: ReadonlyArray<{
    what: string;
    /** What a signed-in player gets, when the name alone does not say it. */
    note?: string;
    ref: string;
    request: (h: Record<string, string>) => CaseRequest;
    expect: Expectation;
}> = [
    {
        what: 'the board list',
        ref: OP.boards,
        request: (h) => get('/games/$GAME/scoreboards', h),
        expect: ok(expect.objectContaining({ gameId: '$GAME', scoreboards: expect.any(Array) })),
    },
    {
        what: 'a board',
        ref: OP.board,
        request: (h) => get('/games/$GAME/scoreboards/weekly?limit=10', h),
        expect: ok(
            expect.objectContaining({
                scoreboardId: 'weekly',
                entries: [expect.objectContaining({ rank: 1, nickname: 'Signed$T', score: 42, streak: 1 })],
                totalEntries: 1,
            }),
        ),
    },
    {
        what: 'the archives of a board',
        ref: OP.archives,
        request: (h) => get('/games/$GAME/scoreboards/daily/archives', h),
        expect: ok({ gameId: '$GAME', scoreboardId: 'daily', archives: [] }),
    },
    {
        what: 'the latest archive',
        note: 'none yet: 404, not 401',
        ref: OP.latest,
        request: (h) => get('/games/$GAME/scoreboards/daily/archives/latest?limit=10', h),
        expect: NO_ARCHIVE,
    },
    {
        what: 'an archive by board and id',
        note: 'unknown: 404, not 401',
        ref: OP.archive,
        request: (h) => get(`/games/$GAME/scoreboards/daily/archives/${ARCHIVE_ID}`, h),
        expect: err(404, 'Archive not found'),
    },
    {
        what: 'an archive by id alone',
        note: 'unknown: 404, not 401',
        ref: OP.archiveById,
        request: (h) => get(`/archives/${ARCHIVE_ID}`, h),
        expect: err(404, 'Archive not found'),
    },
    {
        what: 'the archive stats',
        ref: OP.archiveStats,
        request: (h) => get('/games/$GAME/archives/stats', h),
        expect: ok(expect.objectContaining({ gameId: '$GAME', totalArchives: 0 })),
    },
    {
        what: 'the player rank',
        note: 'of the signed-in player, whatever id the path names',
        ref: OP.rank,
        request: (h) => get(`/players/${ALICE}/rank?sort=score`, h),
        expect: ok({ rank: 1, score: 42, streak: 1, totalPlayers: 1 }),
    },
    {
        what: 'the player profile',
        note: 'of the signed-in player, whatever id the path names',
        ref: OP.profile,
        request: (h) => get(`/players/${ALICE}/profile`, h),
        expect: profile('Signed$T', 42, 1, 1),
    },
    {
        what: 'a nickname change',
        note: 'of the signed-in player, whatever id the path names',
        ref: OP.nickname,
        request: (h) => put(`/players/${ALICE}/nickname`, { nickname: 'Renamed$T' }, h),
        expect: ok({ nickname: 'Renamed$T', message: TEXT }),
    },
    {
        what: 'the game metadata',
        ref: OP.game,
        request: (h) => get('/game', h),
        expect: ok(expect.objectContaining({ gameId: '$GAME', totalPlayers: 1, isActive: true })),
    },
    {
        what: 'the game stats',
        ref: OP.gameStats,
        request: (h) => get('/game/stats', h),
        expect: ok(expect.objectContaining({ gameId: '$GAME', totalPlayers: 1, totalPlays: 1 })),
    },
];

/** KEY_ROUTES signed in with `headers` (`style` names them in the case names). */
const signedIn = (style: string, headers: Record<string, string>): Case[] =>
    KEY_ROUTES.map((r) => ({
        name: `signed in, ${style}: ${r.what}${r.note === undefined ? '' : `, ${r.note}`}`,
        ref: [r.ref, 'rule-K2'],
        setup: PLAYED,
        request: r.request(headers),
        expect: r.expect,
    }));

/** KEY_ROUTES with a session no one holds: 401, the one answer that signs a player out. */
const deadSession: Case[] = KEY_ROUTES.map((r) => ({
    name: `a dead session: ${r.what} is 401`,
    ref: [r.ref, 'rule-K2'],
    request: r.request(DEAD_SESSION),
    expect: DEAD,
}));

/** Another game's path read with a live session of this game and its X-Game-ID: the usual mismatch, 400. */
const otherGamesPath = (what: string, ref: string, path: string): Case => ({
    name: `signed in, another game in the path: ${what} is 400, not 401`,
    ref: [ref, 'rule-K2'],
    setup: [GAME2, ...SIGNED_IN],
    request: get(path, SESSION),
    expect: err(400, mentions('does not match the game of the session')),
});

/** An old board id read with the API key: the board it stands for, on both hosts (R3). */
const oldName = (old: string, current: string, query: string): Case => ({
    name: `old names: ${old} reads the ${current} board, on both hosts`,
    ref: [OP.board, 'rule-R3'],
    setup: [submit({ playerId: ALICE, score: 900, streak: 9, nickname: ALICE_NAME })],
    request: get(`/games/$GAME/scoreboards/${old}${query}`),
    expect: ok(
        expect.objectContaining({
            scoreboardId: current,
            entries: [expect.objectContaining({ rank: 1, nickname: ALICE_NAME, score: 900 })],
            totalEntries: 1,
        }),
    ),
    direct: true,
});

export const SIGNED_IN_CLIENTS: Area = {
    'rule K2: a session opens every route the API key opens, as the SDKs send it (X-Session-Token and X-Game-ID)':
        signedIn('session and game id', SESSION),
    'rule K2: a session opens every route the API key opens, with the API key sent along': signedIn(
        'session, game id and API key',
        SESSION_AND_KEY,
    ),
    'rule K2: with a session the player is the signed-in one, never the one a path names': [
        {
            name: 'signed in: a nickname change through the path of another player renames the signed-in player',
            ref: [OP.nickname, OP.authProfile, 'rule-K2'],
            setup: [...PLAYED, send(put(`/players/${ALICE}/nickname`, { nickname: 'Renamed$T' }, SESSION))],
            request: get('/auth/profile', SESSION),
            expect: ok(expect.objectContaining({ nickname: 'Renamed$T' })),
        },
        {
            name: 'signed in: the anonymous player of the path keeps the name a session tried to give',
            ref: [OP.nickname, 'rule-K2'],
            setup: [
                submit({ playerId: ALICE, score: 7, streak: 0, nickname: ALICE_NAME }),
                ...SIGNED_IN,
                send(put(`/players/${ALICE}/nickname`, { nickname: 'Hijack$T' }, SESSION)),
            ],
            request: get(`/players/${ALICE}/profile`),
            expect: profile(ALICE_NAME, 7, 0, 1),
        },
        {
            name: 'signed in: the rank read through the path of an anonymous player is the rank of the signed-in player',
            ref: [OP.rank, 'rule-K2'],
            setup: [submit({ playerId: ALICE, score: 900, streak: 9 }), ...PLAYED],
            request: get(`/players/${ALICE}/rank`, SESSION),
            expect: ok({ rank: 2, score: 42, streak: 1, totalPlayers: 2 }),
        },
    ],
    'rule K2: 401 only for a dead session, any other problem of a session request is not 401 or 403': [
        ...deadSession,
        otherGamesPath('the board list', OP.boards, '/games/$GAME2/scoreboards'),
        otherGamesPath('a board', OP.board, '/games/$GAME2/scoreboards/all-time'),
        otherGamesPath('the archive stats', OP.archiveStats, '/games/$GAME2/archives/stats'),
        otherGamesPath('an archive by id', OP.archiveById, '/archives/$GAME2:daily:0'),
        {
            name: 'signed in, with the X-Game-ID of another game: 401, the session belongs to its own game',
            ref: [OP.game, 'rule-K2'],
            setup: [GAME2, ...SIGNED_IN],
            request: get('/game', { 'X-Session-Token': '$SESSION', 'X-Game-ID': '$GAME2' }),
            expect: DEAD,
        },
        {
            name: 'signed in, without X-Game-ID: 400',
            ref: [OP.game, 'rule-K2'],
            setup: SIGNED_IN,
            request: get('/game', { 'X-Session-Token': '$SESSION' }),
            expect: err(400, 'X-Game-ID is required with X-Session-Token'),
        },
        {
            name: 'signed in, with the API key of another game sent along: 400',
            ref: [OP.boards, 'rule-K2'],
            setup: [GAME2, ...SIGNED_IN],
            request: get('/games/$GAME/scoreboards', { ...SESSION, 'X-API-Key': '$KEY2' }),
            expect: err(400, mentions('X-API-Key')),
        },
        {
            name: 'signed in, with an unknown API key of the game sent along: the session decides, 200',
            ref: [OP.game, 'rule-K2'],
            setup: SIGNED_IN,
            request: get('/game', { ...SESSION, 'X-API-Key': 'key_${GAME}_00000000000000000000' }),
            expect: ok(expect.objectContaining({ gameId: '$GAME' })),
        },
        {
            name: 'signed in, a game deactivated since: a submit is 400, not 403',
            ref: [OP.scores, 'rule-K2'],
            setup: [...PLAYED, { admin: 'admin_update_game', request: { gameId: '$GAME', isActive: false } }],
            request: score({ score: 50, streak: 1 }, SESSION),
            expect: err(400, 'This game is deactivated'),
        },
        {
            name: 'signed in, a game deactivated since: GET /game answers with isActive false',
            ref: [OP.game, 'rule-K2'],
            setup: [...SIGNED_IN, { admin: 'admin_update_game', request: { gameId: '$GAME', isActive: false } }],
            request: get('/game', SESSION),
            expect: ok(expect.objectContaining({ gameId: '$GAME', isActive: false })),
        },
        {
            name: 'signed in, a device code started in a game deactivated since: 400, not 403',
            ref: [OP.deviceCode, 'rule-K2'],
            setup: [...SIGNED_IN, { admin: 'admin_update_game', request: { gameId: '$GAME', isActive: false } }],
            request: post('/auth/device/code', {}, SESSION),
            expect: err(400, 'This game is deactivated'),
        },
        {
            name: 'signed in, with the server key sent along on a session route: 400, send one',
            ref: [OP.authProfile, 'rule-K2'],
            setup: [
                { admin: 'admin_rotate_server_key', request: { gameId: '$GAME' }, capture: { SKEY: 'serverKey' } },
                ...SIGNED_IN,
            ],
            request: get('/auth/profile', { ...SESSION, Authorization: 'Bearer $SKEY' }),
            expect: err(400, mentions('Send one credential')),
        },
        {
            name: 'signed in, reading the event feed, which takes the server key only: 400',
            ref: [OP.events, 'rule-K2'],
            setup: SIGNED_IN,
            request: get('/events', SESSION),
            expect: err(400, mentions('server key')),
        },
    ],
    'rule R3: the old board names all-time-new and weekly-scoreboard': [
        oldName('all-time-new', 'all-time', '?limit=10'),
        oldName('weekly-scoreboard', 'weekly', ''),
        {
            name: 'old names: as the Godot 4 SDK reads them signed in',
            ref: [OP.board, 'rule-R3', 'rule-K2'],
            setup: PLAYED,
            request: get('/games/$GAME/scoreboards/all-time-new?limit=100', SESSION),
            expect: ok(
                expect.objectContaining({
                    scoreboardId: 'all-time',
                    entries: [expect.objectContaining({ nickname: 'Signed$T', score: 42 })],
                }),
            ),
        },
        {
            name: 'old names: the archives of weekly-scoreboard are those of weekly',
            ref: [OP.archives, 'rule-R3'],
            request: get('/games/$GAME/scoreboards/weekly-scoreboard/archives'),
            expect: ok({ gameId: '$GAME', scoreboardId: 'weekly', archives: [] }),
            direct: true,
        },
        {
            name: 'old names: a game with a board of that id gets its own board',
            ref: [OP.board, 'rule-R3'],
            setup: [
                {
                    admin: 'admin_create_board',
                    request: { gameId: '$GAME', scoreboardId: 'weekly-scoreboard', type: 'targeted', name: 'Own' },
                },
                submit({ playerId: ALICE, score: 900, streak: 9 }),
            ],
            request: get('/games/$GAME/scoreboards/weekly-scoreboard'),
            expect: ok(expect.objectContaining({ scoreboardId: 'weekly-scoreboard', entries: [], totalEntries: 0 })),
            direct: true,
        },
        {
            name: 'old names: other unknown ids stay 404',
            ref: [OP.board, 'rule-R1', 'rule-R3'],
            request: get('/games/$GAME/scoreboards/monthly-scoreboard'),
            expect: boardNotFound('monthly-scoreboard'),
            direct: true,
        },
    ],
    'rule K3: an empty gameId in a body is the same as none': [
        {
            name: 'empty gameId: a submit with the API key',
            ref: [OP.scores, 'rule-K3'],
            request: post('/scores', { playerId: ALICE, gameId: '', score: 5, streak: 1 }),
            expect: SUBMITTED,
        },
        {
            name: 'empty gameId: a submit signed in',
            ref: [OP.scores, 'rule-K3', 'rule-K2'],
            setup: SIGNED_IN,
            request: post('/scores', { playerId: ALICE, gameId: '', score: 5, streak: 1 }, SESSION),
            expect: SUBMITTED,
        },
        {
            name: 'empty gameId: an achievement unlock',
            ref: [OP.achievements, 'rule-K3'],
            setup: [submit({ playerId: ALICE, score: 5, streak: 1 })],
            request: post('/achievements', { playerId: ALICE, gameId: '', achievementId: 'first' }),
            expect: ok(expect.objectContaining({ unlocked: 1, achievementId: 'first' })),
        },
        {
            name: 'empty gameId: a play session start',
            ref: [OP.start, 'rule-K3'],
            request: post('/play-sessions/start', { playerId: ALICE, gameId: '' }),
            expect: ok({ ok: TEXT, message: TEXT }),
        },
        {
            name: 'empty gameId: a device code start',
            ref: [OP.deviceCode, 'rule-K3'],
            request: post('/auth/device/code', { gameId: '' }, GAME_ONLY),
            expect: ok(expect.objectContaining({ user_code: TEXT })),
        },
        {
            name: 'empty gameId: the submit counts in the game of the credential',
            ref: [OP.scores, 'rule-K3'],
            setup: [send(post('/scores', { playerId: ALICE, gameId: '', score: 5, streak: 1 }), SUBMITTED)],
            request: get(`/players/${ALICE}/rank`, H),
            expect: ok({ rank: 1, score: 5, streak: 1, totalPlayers: 1 }),
        },
        {
            name: 'empty gameId: another game named in the body is still 400',
            ref: [OP.scores, 'rule-K3'],
            setup: [GAME2],
            request: post('/scores', { playerId: ALICE, gameId: '$GAME2', score: 5, streak: 1 }),
            expect: err(400, mentions('does not match')),
        },
    ],
};
