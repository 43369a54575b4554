// The fast read of stored JSON: marked text reads back as written, in ASCII; anything else is
// left to the full decoder.
import { IDL } from '@dfinity/candid';

import { asciiCandidText, candidTextSpan, markJson, markedJson } from '../../canister/candid-text';

const text = (s: string): Uint8Array => new Uint8Array(IDL.encode([IDL.Text], [s]));
const roundTrip = (value: unknown): unknown => JSON.parse(markedJson(markJson(JSON.stringify(value), text))!);

test.each([
    ['a compact record', [1, 0, 'Player_1', [1234567, 0, 3, 0], [['weekly', 1, 0]]]],
    ['an object', { gameId: 'g-three', caps: {}, boards: [{ scoreboardId: 'all-time' }] }],
    ['non-ASCII text', { nickname: 'Zoë 😀 漢字', sep: '\u2028\u2029', quote: '"\\', lone: '\ud800x' }],
    ['a long value', { filler: 'x'.repeat(100_000) }],
    ['an empty string', ''],
])('%s reads back as written, stored as ASCII', (_name, value) => {
    expect(roundTrip(value)).toEqual(value);
    const stored = markJson(JSON.stringify(value), text);
    const span = candidTextSpan(stored)!;
    expect(stored.subarray(span.at).every((b) => b < 0x80)).toBe(true);
    // What any Candid decoder reads is the same JSON (the mark is whitespace).
    expect(JSON.parse(IDL.decode([IDL.Text], stored)[0] as string)).toEqual(value);
});

test('text without the mark is left to the full decoder', () => {
    expect(markedJson(text(JSON.stringify({ written: 'by an earlier release' })))).toBeUndefined();
    expect(markedJson(text(''))).toBeUndefined();
    expect(markedJson(new Uint8Array(IDL.encode([IDL.Text, IDL.Text], [' a', 'b'])))).toBeUndefined();
    expect(markedJson(new Uint8Array(IDL.encode([IDL.Nat], [32n])))).toBeUndefined();
    const good = text(' {}');
    expect(markedJson(good)).toBe(' {}');
    expect(markedJson(good.subarray(0, good.length - 1))).toBeUndefined(); // cut short
    expect(markedJson(new Uint8Array([...good, 0x41]))).toBeUndefined(); // a byte too many
    expect(markedJson(new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0, 1, 0x71, 0xff, 0xff]))).toBeUndefined();
    expect(markedJson(new Uint8Array())).toBeUndefined();
});

test('ASCII is told by size at every length of the length field, and one non-ASCII character is caught', () => {
    for (const n of [0, 1, 125, 126, 127, 128, 16_381, 16_382, 16_383, 16_384, 2_097_150, 2_097_151, 2_097_152]) {
        const json = JSON.stringify('x'.repeat(n));
        expect(markedJson(markJson(json, text))).toBe(` ${json}`);
        // A character of two UTF-8 bytes in place of one ASCII: the message is a byte longer.
        const wide = JSON.stringify(`é${'x'.repeat(Math.max(0, n - 1))}`);
        expect(markedJson(markJson(wide, text))).toBe(` ${wide.replace('é', '\\u00e9')}`);
    }
});

test('an ASCII request reads as any Candid decoder reads it; anything else is left to the full decoder', () => {
    for (const value of [
        '',
        '{"gameId":"g","score":1}',
        '\u0000\u007f "\\\'',
        'x'.repeat(20_000),
        JSON.stringify({ a: 'y'.repeat(9000) }),
    ])
        expect(asciiCandidText(text(value))).toBe(IDL.decode([IDL.Text], text(value))[0]);
    expect(asciiCandidText(text('{"nickname":"Zoë"}'))).toBeUndefined();
    expect(asciiCandidText(text(`${'x'.repeat(10_000)}é`))).toBeUndefined(); // past the first chunk
    expect(asciiCandidText(new Uint8Array(IDL.encode([IDL.Text, IDL.Text], ['a', 'b'])))).toBeUndefined();
    expect(asciiCandidText(new Uint8Array(IDL.encode([IDL.Nat], [32n])))).toBeUndefined();
    const good = text('{}');
    expect(asciiCandidText(good.subarray(0, good.length - 1))).toBeUndefined();
    expect(asciiCandidText(new Uint8Array([...good, 0x41]))).toBeUndefined();
    expect(asciiCandidText(new Uint8Array())).toBeUndefined();
});
