// The contract's rules: the plain checks the canister uses and the gateway's schemas built from
// the same patterns and messages answer alike; query parameters are read one way everywhere.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { API_VERSION } from '../../contract/http';
import {
    checkAchievementId,
    checkCount,
    checkNickname,
    checkPlayerId,
    parseLimit,
    parseQuery,
    parseSort,
    type Check,
} from '../../contract/rules';
import { AchievementBody, NicknameBody, SubmitBody } from '../../contract/schemas';
import { parseBody } from '../../gateway/http/validation';

/** The gateway's message for `value` in `field` of a body, or undefined when it passes. */
function gatewayMessage(
    schema: Parameters<typeof parseBody>[0],
    base: Record<string, unknown>,
    field: string,
    value: unknown,
): string | undefined {
    try {
        parseBody(schema, { ...base, [field]: value });
        return undefined;
    } catch (e) {
        return (e as Error).message;
    }
}

const SAMPLES: unknown[] = [
    '',
    'a',
    'ab',
    'abc',
    'Player_1',
    'x'.repeat(16),
    'x'.repeat(17),
    'x'.repeat(64),
    'x'.repeat(65),
    'x'.repeat(100),
    'x'.repeat(101),
    'has space',
    'hy-phen',
    'dot.ted',
    'co:lon',
    'ünï',
    '\u200b',
    'a\u2028b',
    '__proto__',
    'constructor',
    0,
    1,
    -1,
    1.5,
    2 ** 53 - 1,
    2 ** 53,
    '5',
    true,
    null,
    [],
    {},
];

const CASES: Array<[string, Check, Parameters<typeof parseBody>[0], Record<string, unknown>]> = [
    ['nickname', checkNickname, NicknameBody, {}],
    ['playerId', checkPlayerId, SubmitBody, { score: 1, streak: 1 }],
    ['score', (v) => checkCount('score', v), SubmitBody, { playerId: 'p1', streak: 1 }],
    ['streak', (v) => checkCount('streak', v), SubmitBody, { playerId: 'p1', score: 1 }],
    ['achievementId', checkAchievementId, AchievementBody, { playerId: 'p1' }],
];

test.each(CASES)('the gateway schema and the canister check agree on %s', (field, check, schema, base) => {
    for (const value of SAMPLES) {
        const canister = check(value);
        const gateway = gatewayMessage(schema, base, field, value);
        // null is "absent" for optional body fields (some engines send it); the canister never sees it.
        if (value === null && field !== 'score' && field !== 'streak' && field !== 'nickname') continue;
        expect({ field, value, accepted: gateway === undefined }).toEqual({
            field,
            value,
            accepted: canister === undefined,
        });
        if (canister !== undefined && typeof value === 'string')
            expect({ field, value, gateway }).toEqual({ field, value, gateway: canister });
    }
});

test('a present field of the wrong type is named as invalid, not as missing', () => {
    for (const score of [1.5, '5', true]) {
        expect(gatewayMessage(SubmitBody, { playerId: 'p1', streak: 1 }, 'score', score)).toBe(
            checkCount('score', score),
        );
    }
    expect(gatewayMessage(SubmitBody, { playerId: 'p1', streak: 1 }, 'nothing', 1)).toBe('Invalid score: is required');
});

test('?limit: default, clamps, integers only, given once', () => {
    const limit = (q: string) => parseLimit(parseQuery(q));
    expect(limit('')).toEqual({ ok: 100 });
    expect(limit('limit=')).toEqual({ ok: 100 });
    expect(limit('limit=0')).toEqual({ ok: 1 });
    expect(limit('limit=5000')).toEqual({ ok: 1000 });
    expect(limit('limit=-3')).toEqual({ ok: 1 });
    expect(limit('limit=7')).toEqual({ ok: 7 });
    for (const bad of ['limit=abc', 'limit=1.5', 'limit=1&limit=3', 'limit[]=5', 'limit%5B%5D=5', 'limit=1e3']) {
        expect(limit(bad)).toEqual({ error: expect.stringMatching(/^Invalid limit: /) });
    }
});

test('?sort: score by default, streak, nothing else, given once', () => {
    const sort = (q: string) => parseSort(parseQuery(q));
    expect(sort('')).toEqual({ ok: 'score' });
    expect(sort('sort=streak')).toEqual({ ok: 'streak' });
    for (const bad of ['sort=rank', 'sort[]=score', 'sort=score&sort=streak'])
        expect(sort(bad)).toEqual({ error: expect.stringMatching(/^Invalid sort: /) });
});

test('the API version is stated once: the contract and package.json agree', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
        version: string;
    };
    expect(pkg.version).toBe(API_VERSION);
});
