// Conformance cases of POST /achievements.
import type { Expectation, Area } from './harness';
import { OP } from './harness';
import { matcher, ok, TEXT, err, mentions, profile, DEFAULT_NAME } from './answers';
import { submit, post, send, GAME2, get } from './requests';
import { ALICE, EVE, ALICE_NAME } from './players';

/** The same members in any order. */
const setOf = (items: string[]): any =>
    matcher(
        `SetOf(${JSON.stringify(items)})`,
        (v) => Array.isArray(v) && v.length === items.length && items.every((i) => v.includes(i)),
    );
const HUNDRED_IDS = Array.from({ length: 100 }, (_, i) => `ach_${i}`);
/** The answer to one `achievementId`: `unlocked` newly unlocked (0 or 1), `total` the player's count. */
const oneUnlock = (achievementId: string, unlocked: number, total: number): Expectation =>
    ok({ achievementId, unlocked, total, results: [{ achievementId, success: true, message: TEXT }] });

export const ACHIEVEMENTS: Area = {
    'POST /achievements': [
        {
            name: 'achievements: one achievementId, body without gameId: achievementId, unlocked, total, results',
            ref: [OP.achievements, 'rule-A1'],
            setup: [submit({ playerId: ALICE, score: 1, streak: 1 })],
            request: post('/achievements', { playerId: ALICE, achievementId: 'first_win' }),
            expect: oneUnlock('first_win', 1, 1),
        },
        {
            name: 'achievements: a batch with one already unlocked id, every result success true',
            ref: [OP.achievements, 'rule-A1'],
            setup: [
                submit({ playerId: ALICE, score: 1, streak: 1 }),
                send(post('/achievements', { playerId: ALICE, achievementId: 'first_win' })),
            ],
            request: post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] }),
            expect: ok({
                unlocked: 2,
                total: 3,
                results: ['first_win', 'level_5', 'speed_run'].map((achievementId) => ({
                    achievementId,
                    success: true,
                    message: TEXT,
                })),
            }),
        },
        {
            name: 'achievements: re-sending an unlocked id is idempotent, success true and nothing new',
            ref: [OP.achievements, 'rule-A1'],
            setup: [
                submit({ playerId: ALICE, score: 1, streak: 1 }),
                send(post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] })),
            ],
            request: post('/achievements', { playerId: ALICE, achievementId: 'level_5' }),
            expect: oneUnlock('level_5', 0, 3),
        },
        {
            name: 'achievements: the documented form with gameId in the body',
            ref: OP.achievements,
            setup: [
                submit({ playerId: ALICE, score: 1, streak: 1 }),
                send(post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] })),
            ],
            request: post('/achievements', { playerId: ALICE, gameId: '$GAME', achievementId: 'combo_10' }),
            expect: ok({
                achievementId: 'combo_10',
                unlocked: 1,
                total: 4,
                results: [{ achievementId: 'combo_10', success: true, message: TEXT }],
            }),
        },
        {
            name: 'achievements: a batch of exactly 100 ids',
            ref: OP.achievements,
            setup: [submit({ playerId: EVE, score: 1, streak: 1 })],
            request: post('/achievements', { playerId: EVE, achievementIds: HUNDRED_IDS }),
            expect: ok({
                unlocked: 100,
                total: 100,
                results: HUNDRED_IDS.map((achievementId) => ({ achievementId, success: true, message: TEXT })),
            }),
        },
        {
            name: 'achievements: 101 ids is 400',
            ref: OP.achievements,
            request: post('/achievements', { playerId: EVE, achievementIds: [...HUNDRED_IDS, 'ach_100'] }),
            expect: err(400, mentions('achievementIds')),
        },
        {
            name: 'achievements: neither achievementId nor achievementIds is 400',
            ref: OP.achievements,
            request: post('/achievements', { playerId: EVE }),
            expect: err(400, mentions('achievementId')),
        },
        {
            name: 'achievements: achievementIds not a list is 400',
            ref: OP.achievements,
            request: post('/achievements', { playerId: EVE, achievementIds: 'first_win' }),
            expect: err(400, mentions('achievementIds')),
        },
        {
            name: 'achievements: an achievementId with a space is 400 naming achievementId',
            ref: OP.achievements,
            request: post('/achievements', { playerId: EVE, achievementId: 'bad id' }),
            expect: err(400, mentions('achievementId')),
        },
        {
            name: 'achievements: a missing playerId is 400',
            ref: OP.achievements,
            request: post('/achievements', { achievementId: 'first_win' }),
            expect: err(400, mentions('playerId')),
        },
        {
            name: 'achievements: a gameId of another game is 400',
            ref: OP.achievements,
            setup: [GAME2],
            request: post('/achievements', { playerId: ALICE, gameId: '$GAME2', achievementId: 'x_1' }),
            expect: err(400, mentions('gameId')),
        },
        {
            name: 'achievements: without an API key is 401 `Missing API key`',
            ref: [OP.achievements, 'rule-K1'],
            request: post('/achievements', { playerId: ALICE, achievementId: 'x_1' }, {}),
            expect: err(401, 'Missing API key'),
        },
        {
            name: 'achievements are read from the profile: gameProfile.achievements',
            ref: [OP.profile, 'rule-A1'],
            setup: [
                submit({ playerId: ALICE, score: 250, streak: 9, nickname: ALICE_NAME }),
                send(post('/achievements', { playerId: ALICE, achievementId: 'first_win' })),
                send(post('/achievements', { playerId: ALICE, achievementIds: ['first_win', 'level_5', 'speed_run'] })),
                send(post('/achievements', { playerId: ALICE, gameId: '$GAME', achievementId: 'combo_10' })),
            ],
            request: get(`/players/${ALICE}/profile`),
            expect: profile(ALICE_NAME, 250, 9, 1, setOf(['first_win', 'level_5', 'speed_run', 'combo_10'])),
        },
        {
            name: 'achievements unlocked before the first submit are kept for the player',
            ref: [OP.achievements, OP.profile, 'rule-A1'],
            setup: [
                send(post('/achievements', { playerId: ALICE, achievementId: 'early_bird' })),
                submit({ playerId: ALICE, score: 1, streak: 1 }),
            ],
            request: get(`/players/${ALICE}/profile`),
            expect: profile(DEFAULT_NAME, 1, 1, 1, ['early_bird']),
        },
    ],
};
