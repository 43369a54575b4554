// Conformance cases of player sign-in: device codes, id tokens, sessions, merging an anonymous player.
import type { Area } from './harness';
import { OP } from './harness';
import { TOKEN, TEXT, INT, ok, err, TOO_SHORT, BAD_CHARS, SUBMITTED, NOT_FOUND_PLAYER } from './answers';
import {
    post,
    GAME_ONLY,
    GAME2,
    startCode,
    approve,
    redeem,
    wait,
    SIGNED_IN,
    get,
    SESSION,
    SOME_SESSION,
    put,
    send,
    score,
    submit,
    SPACED,
} from './requests';
import { ALICE, BOB } from './players';

const APPROVAL = {
    sessionId: TOKEN,
    nickname: TEXT,
    email: TEXT,
    gameProfile: {
        score: INT,
        streak: INT,
        achievements: expect.any(Array),
        playCount: INT,
        lastPlayed: expect.anything(),
    },
    isNewUser: expect.any(Boolean),
    provider: 'local',
};

export const SIGN_IN: Area = {
    'device code: POST /auth/device/code': [
        {
            name: 'device code: the start answer with a code to type, the link page URLs and a QR code',
            ref: OP.deviceCode,
            request: post('/auth/device/code', { nickname: 'Starter$T' }, GAME_ONLY),
            expect: ok({
                device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
                user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
                verification_url: expect.stringMatching(/\/link$/),
                verification_url_complete: expect.stringMatching(
                    /\/link\?code=[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/,
                ),
                expires_in: 300,
                interval: 5,
                qr_data_url: expect.stringMatching(/^data:image\/png;base64,/),
            }),
        },
        {
            name: 'device code: without X-Game-ID it is 400',
            ref: OP.deviceCode,
            request: post('/auth/device/code', {}, {}),
            expect: err(400),
        },
        {
            name: 'device code: an API key of another game is 400',
            ref: OP.deviceCode,
            setup: [GAME2],
            request: post('/auth/device/code', {}, { 'X-Game-ID': '$GAME', 'X-API-Key': '$KEY2' }),
            expect: err(400),
        },
        {
            name: 'device code: an unknown game is 404',
            ref: OP.deviceCode,
            request: post('/auth/device/code', {}, { 'X-Game-ID': 'no-such-game' }),
            expect: err(404),
        },
        {
            name: 'device code: the nickname rules apply',
            ref: [OP.deviceCode, 'rule-N3'],
            request: post('/auth/device/code', { nickname: 'x' }, GAME_ONLY),
            expect: TOO_SHORT,
        },
    ],
    'device token: POST /auth/device/token': [
        {
            name: 'device token: 428 authorization_pending before the player approves',
            ref: OP.deviceToken,
            setup: [startCode()],
            request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
            expect: err(428, 'authorization_pending'),
        },
        {
            name: 'device token: once approved, 200 with the session and the profile',
            ref: OP.deviceToken,
            setup: [startCode('Approved$T'), approve('bea')],
            request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
            expect: ok({ ...APPROVAL, nickname: 'Approved$T', email: 'bea@example.com', isNewUser: true }),
        },
        {
            name: 'device token: a redeemed code is 404',
            ref: OP.deviceToken,
            setup: [startCode(), approve('cy'), redeem()],
            request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
            expect: err(404),
        },
        {
            name: 'device token: an unknown code is 404',
            ref: OP.deviceToken,
            request: post('/auth/device/token', { device_code: 'x'.repeat(43) }, GAME_ONLY),
            expect: err(404),
        },
        {
            name: 'device token: without device_code it is 400',
            ref: OP.deviceToken,
            request: post('/auth/device/token', {}, GAME_ONLY),
            expect: err(400),
        },
        {
            name: 'device token: 410 expired_token after 300 s',
            ref: OP.deviceToken,
            clock: true,
            setup: [startCode(), wait(120), wait(120), wait(61)],
            request: post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY),
            expect: err(410, 'expired_token'),
        },
    ],
    'id tokens: POST /auth/google, /auth/apple': [
        {
            name: 'id token: Google sign-in not configured on this server is 400',
            ref: OP.google,
            request: post('/auth/google', { id_token: 'a.b.c' }, GAME_ONLY),
            expect: err(400, 'Sign-in with google is not configured on this server'),
        },
        {
            name: 'id token: Apple sign-in without a token is 400',
            ref: OP.apple,
            request: post('/auth/apple', {}, GAME_ONLY),
            expect: err(400),
        },
    ],
    'sessions: what a signed-in player reads and changes': [
        {
            name: 'session: the auth profile of the signed-in player',
            ref: OP.authProfile,
            setup: SIGNED_IN,
            request: get('/auth/profile', SESSION),
            expect: ok(expect.objectContaining({ nickname: 'Signed$T', email: 'ada@example.com', provider: 'local' })),
        },
        {
            name: 'session: the auth profile without a session is 401',
            ref: OP.authProfile,
            request: get('/auth/profile', SOME_SESSION),
            expect: err(401),
        },
        {
            name: 'session: a nickname change of the signed-in player',
            ref: [OP.profileNickname, 'rule-N2'],
            setup: SIGNED_IN,
            request: put('/profile/nickname', { nickname: 'Renamed$T' }, SESSION),
            expect: ok(expect.objectContaining({ nickname: 'Renamed$T' })),
        },
        {
            name: 'session: a nickname change with a bad name is 400',
            ref: [OP.profileNickname, 'rule-N3'],
            setup: SIGNED_IN,
            request: put('/profile/nickname', { nickname: 'no spaces' }, SESSION),
            expect: BAD_CHARS,
        },
        {
            name: 'session: a submit acts as the signed-in player, whatever playerId the body names',
            ref: OP.scores,
            setup: [...SIGNED_IN, send(score({ playerId: 'someone-else', score: 42, streak: 1 }, SESSION), SUBMITTED)],
            request: get('/players/someone-else/profile'),
            expect: NOT_FOUND_PLAYER,
        },
        {
            name: 'session: the board rank of the signed-in player',
            ref: OP.boardRank,
            setup: [...SIGNED_IN, send(score({ score: 42, streak: 1 }, SESSION), SUBMITTED)],
            request: get('/games/$GAME/scoreboards/daily/rank', SESSION),
            expect: ok({ found: true, rank: 1, score: 42, streak: 1, totalPlayers: 1 }),
        },
        {
            name: 'session: logout, then the session is 401',
            ref: OP.logout,
            setup: [...SIGNED_IN, send(post('/auth/logout', {}, SESSION))],
            request: get('/auth/profile', SESSION),
            expect: err(401),
        },
        {
            name: 'session: deleting the account ends its sessions',
            ref: OP.deleteAccount,
            setup: [...SIGNED_IN, send({ method: 'DELETE', path: '/auth/account', headers: SESSION })],
            request: get('/auth/profile', SESSION),
            expect: err(401),
        },
        {
            name: 'session: dead after 30 days',
            ref: OP.authProfile,
            clock: true,
            setup: [...SIGNED_IN, ...Array.from({ length: 30 }, () => wait(86_400)), wait(1)],
            request: get('/auth/profile', SESSION),
            expect: err(401),
        },
    ],
    'merging an anonymous player: POST /migrate-account': [
        {
            name: 'merge: an anonymous player joins the signed-in account',
            ref: OP.migrate,
            setup: [submit({ playerId: ALICE, score: 900, streak: 9 }), ...SIGNED_IN],
            request: post('/migrate-account', { deviceId: ALICE }, SESSION),
            expect: ok(expect.objectContaining({ migratedGames: 1 })),
        },
        {
            name: 'merge: only once per sign-in',
            ref: OP.migrate,
            setup: [
                submit({ playerId: ALICE, score: 900, streak: 9 }),
                submit({ playerId: BOB, score: 1, streak: 1 }),
                ...SIGNED_IN,
                send(post('/migrate-account', { deviceId: ALICE }, SESSION)),
            ],
            request: post('/migrate-account', { deviceId: BOB }, SESSION),
            expect: err(400),
        },
        {
            name: 'merge: a merged anonymous id can no longer submit',
            ref: [OP.migrate, OP.scores],
            setup: [
                submit({ playerId: ALICE, score: 900, streak: 9 }),
                ...SIGNED_IN,
                send(post('/migrate-account', { deviceId: ALICE }, SESSION)),
                SPACED,
            ],
            request: score({ playerId: ALICE, score: 1, streak: 1 }),
            expect: err(400),
        },
        {
            name: 'merge: an unknown anonymous id is 404',
            ref: OP.migrate,
            setup: SIGNED_IN,
            request: post('/migrate-account', { deviceId: 'dev_1700000000_ffffffff' }, SESSION),
            expect: err(404),
        },
        {
            name: 'merge: without a session it is 401',
            ref: OP.migrate,
            request: post('/migrate-account', { deviceId: ALICE }, SOME_SESSION),
            expect: err(401),
        },
    ],
};
