// Conformance cases of platform routes, preflight, unknown routes, credentials and the game.
import type { Case, Area } from './harness';
import { OP, TODAY } from './harness';
import { matcher, TEXT, err, ok, CORS, mentions } from './answers';
import { get, submit, H, post, score, SOME_SESSION, GAME2, LEVEL_1, OLD_PLUGIN } from './requests';
import { ALICE, NEWBIE, RANKED_SIX } from './players';

const POSITIVE = matcher('PositiveInteger', (v) => typeof v === 'number' && Number.isInteger(v) && v > 0);
const MAIN_BOARDS_META = [
    { scoreboardId: 'all-time', name: TEXT, period: 'allTime' },
    { scoreboardId: 'weekly', name: TEXT, period: 'weekly' },
    { scoreboardId: 'daily', name: TEXT, period: 'daily' },
    { scoreboardId: 'level-1', name: 'Level 1', period: 'allTime' },
];

/** A read of GET /game with a key that is no key of a registered game. */
const invalidKey = (name: string, headers: Record<string, string>): Case => ({
    name,
    ref: ['rule-K1', OP.game],
    request: get('/game', headers),
    expect: err(401, 'Invalid API key'),
});

export const PLATFORM: Area = {
    'platform routes, preflight, unknown routes': [
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
    ],
    credentials: [
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
        invalidKey('a well-formed key of no registered game: 401 `Invalid API key`', {
            'X-API-Key': 'key_$GAME-nope_12345678901234567890',
        }),
        invalidKey('a malformed key: 401 `Invalid API key`', { 'X-API-Key': 'not-a-key' }),
        invalidKey('a key of the game with fewer than 16 digits: 401 `Invalid API key`', {
            'X-API-Key': 'key_${GAME}_123',
            'X-Game-ID': '$GAME',
        }),
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
    ],
    'GET /game, /game/stats': [
        {
            name: 'GET /game: the exact key set with timeValidationEnabled false and the boards, and canisterUrl on a shard',
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
                canisterUrl: '$CANISTER_URL',
            }),
        },
        {
            name: 'GET /game by an old plugin without X-Game-ID',
            ref: [OP.game, 'rule-K1'],
            setup: [LEVEL_1],
            request: get('/game', OLD_PLUGIN),
            expect: ok(
                expect.objectContaining({
                    gameId: '$GAME',
                    timeValidationEnabled: false,
                    scoreboards: MAIN_BOARDS_META,
                }),
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
    ],
};
