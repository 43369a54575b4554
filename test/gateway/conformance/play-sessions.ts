// Conformance cases of play sessions, with time validation off and on.
import type { SendStep, AdminStep, Step, Area } from './harness';
import { OP } from './harness';
import { err, mentions, ok, TOKEN, TEXT, RULES, NOT_FOUND_PLAYER, SUBMITTED, profile, DEFAULT_NAME } from './answers';
import { H, send, post, GAME2, get, score, CAPS, H2, refused, wait, submit } from './requests';

const SESSION_REQUIRED = err(400, expect.stringContaining('requires starting a session'));
const SESSION_PROBLEM = err(400, mentions('play session'));
const startSession = (playerId: string, capture: string, headers: Record<string, string> = H): SendStep =>
    send(post('/play-sessions/start', { gameId: headers['X-Game-ID'] ?? '$GAME', playerId }, headers), STARTED, {
        [capture]: 'data.ok',
    });
const TIME_VALIDATION: AdminStep = {
    admin: 'admin_set_time_validation',
    request: { gameId: '$GAME', enabled: true, minPlaySeconds: 5, sessionLifetimeSeconds: 60 },
};
const STARTED = ok({ ok: TOKEN, message: TEXT });
/** `session-player` holds three active play sessions, the most one player may hold. */
const THREE_STARTED: readonly Step[] = [
    startSession('session-player', 'PS1'),
    startSession('session-player', 'PS2'),
    startSession('session-player', 'PS3'),
];

export const PLAY_SESSIONS: Area = {
    'play sessions, time validation off': [
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
            setup: THREE_STARTED,
            request: post('/play-sessions/start', { gameId: '$GAME', playerId: 'session-player' }),
            expect: err(400, 'Too many active play sessions. End or wait for current play sessions to expire.'),
        },
        {
            name: 'play sessions: the cap is per player',
            ref: [OP.start, 'rule-L2'],
            setup: THREE_STARTED,
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
    ],
    'time validation on: minimum play 5 s, tokens live 60 s': [
        {
            name: 'GET /game: exactly gameId, name, description, totalPlayers, totalPlays, isActive, timeValidationEnabled, scoreboards, and canisterUrl on a shard',
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
                canisterUrl: '$CANISTER_URL',
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
    ],
};
