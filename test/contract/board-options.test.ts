// The board options' checks and derived values: what every host parses, computes and shows alike.
import {
    checkMetadata,
    formatScore,
    parseBoardOptions,
    percentile,
    METADATA_MAX_BYTES,
} from '../../contract/board-options';
import { SubmitBody } from '../../contract/schemas';
import { parseBody } from '../../gateway/http/validation';

describe('parseBoardOptions', () => {
    test('absent fields stay absent; known values pass', () => {
        expect(parseBoardOptions({})).toEqual({ ok: {} });
        expect(
            parseBoardOptions({
                sortOrder: 'asc',
                operator: 'sum',
                ties: 'shared',
                format: { kind: 'decimal', places: 2 },
                tiebreak: 'asc',
            }),
        ).toEqual({
            ok: {
                sortOrder: 'asc',
                operator: 'sum',
                ties: 'shared',
                format: { kind: 'decimal', places: 2 },
                tiebreak: 'asc',
            },
        });
    });
    test.each([
        [{ sortOrder: 'lowest' }, 'Invalid sortOrder: must be desc or asc'],
        [{ operator: 'max' }, 'Invalid operator: must be best, latest or sum'],
        [{ ties: true }, 'Invalid ties: must be distinct or shared'],
        [{ tiebreak: 'lower' }, 'Invalid tiebreak: must be asc or desc'],
        [{ tiebreak: 1 }, 'Invalid tiebreak: must be asc or desc'],
        [{ format: 'time' }, 'Invalid format'],
        [{ format: { kind: 'decimal', places: 7 } }, 'Invalid format'],
        [{ format: { kind: 'decimal' } }, 'Invalid format'],
        [{ format: { kind: 'number', places: 2 } }, 'Invalid format'],
        [{ format: { kind: 'milliseconds', extra: 1 } }, 'Invalid format'],
    ])('%j is refused', (request, message) => {
        const parsed = parseBoardOptions(request);
        expect('error' in parsed && parsed.error.startsWith(message)).toBe(true);
    });
});

describe('percentile', () => {
    test('the leader of a big board is in the top 0.1 %, the last at 100, an empty board 0', () => {
        expect(percentile(1, 1_000_000)).toBe(0.1);
        expect(percentile(30, 1000)).toBe(3);
        expect(percentile(31, 1000)).toBe(3.1);
        expect(percentile(1000, 1000)).toBe(100);
        expect(percentile(1, 1)).toBe(100);
        expect(percentile(1, 0)).toBe(0);
    });
});

describe('formatScore', () => {
    test('numbers, times in milliseconds, fixed decimals', () => {
        expect(formatScore(1234, { kind: 'number' })).toBe('1234');
        expect(formatScore(0, { kind: 'milliseconds' })).toBe('0:00.000');
        expect(formatScore(83_456, { kind: 'milliseconds' })).toBe('1:23.456');
        expect(formatScore(3_723_004, { kind: 'milliseconds' })).toBe('1:02:03.004');
        expect(formatScore(12_345, { kind: 'decimal', places: 2 })).toBe('123.45');
        expect(formatScore(5, { kind: 'decimal', places: 3 })).toBe('0.005');
    });
});

describe('checkMetadata', () => {
    test('a small object of up to two levels is fine', () => {
        expect(checkMetadata({ car: 'red', laps: [1, 2, 3], tuning: { grip: 3 } })).toBeUndefined();
        expect(checkMetadata({})).toBeUndefined();
    });
    test.each([
        ['a list', [1, 2]],
        ['a string', 'red'],
        ['null', null],
        ['three levels', { a: { b: { c: 1 } } }],
        ['a list in a list', { a: [[1]] }],
        ['too long', { text: 'x'.repeat(METADATA_MAX_BYTES) }],
        ['too long in UTF-8', { text: 'é'.repeat(125) }],
        ['a __proto__ key', JSON.parse('{"__proto__": {"a": 1}}')],
        ['a control character', { text: 'a\u0001' }],
    ])('%s is refused', (_what, value) => {
        expect(checkMetadata(value)).toMatch(/^Invalid metadata: /);
    });

    test('the gateway schema for POST /scores answers with the same words', () => {
        const samples: unknown[] = [
            { car: 'red' },
            {},
            [1],
            'x',
            null,
            0,
            false,
            { a: { b: { c: 1 } } },
            { t: 'x'.repeat(METADATA_MAX_BYTES) },
            { t: 'é'.repeat(125) },
            JSON.parse('{"x": {"__proto__": 1}}'),
            { 'k\n': 1 },
        ];
        for (const metadata of samples) {
            let gateway: string | undefined;
            try {
                parseBody(SubmitBody, { playerId: 'p1', score: 1, streak: 1, metadata });
            } catch (e) {
                gateway = (e as Error).message;
            }
            expect({ metadata, gateway }).toEqual({ metadata, gateway: checkMetadata(metadata) });
        }
    });
});
