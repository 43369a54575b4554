// The ASCII fast path in front of the canister's TextDecoder: the same strings and the same
// errors as the decoder behind it, for ASCII and for everything else (non-ASCII, a BOM,
// invalid UTF-8 with `fatal`, streaming, other labels), and the decoder behind it never asked
// for ASCII.
import { asciiText, withAsciiFastPath } from '../../canister/ascii-text-decoder';

/** Node's own decoder, counting what reaches it. */
let reached = 0;
class Counting extends TextDecoder {
    override decode(input?: AllowSharedBufferSource, options?: TextDecodeOptions): string {
        reached++;
        return super.decode(input, options);
    }
}
const Fast = withAsciiFastPath(Counting);
const bytes = (...b: number[]) => new Uint8Array(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

beforeEach(() => (reached = 0));

test.each([
    ['a Host header', utf8('5s2ji-faaaa-aaaaa-qaaaq-cai.raw.localhost:4943'), 0],
    ['a URL with a query', utf8('/games/g/scoreboards/all-time?limit=10&offset=0'), 0],
    ['empty', bytes(), 0],
    ['all 128 ASCII codes', new Uint8Array(Array.from({ length: 128 }, (_, i) => i)), 0],
    ['long ASCII (past one fromCharCode chunk)', utf8('x'.repeat(20_000)), 0],
    ['non-ASCII', utf8('Zoë 😀 漢字'), 1],
    ['a BOM first', bytes(0xef, 0xbb, 0xbf, 0x41), 1],
])('%s decodes as the decoder behind it does', (_name, input, behind) => {
    expect(new Fast('utf8', { fatal: true }).decode(input)).toBe(
        new TextDecoder('utf8', { fatal: true }).decode(input),
    );
    expect(reached).toBe(behind);
});

test('a view into a larger buffer decodes only its own bytes', () => {
    const whole = utf8('xxHOSTxx');
    expect(new Fast().decode(whole.subarray(2, 6))).toBe('HOST');
    expect(new Fast().decode(new DataView(whole.buffer, 2, 4))).toBe('HOST');
});

test('invalid UTF-8 with fatal still throws; without, still replaces', () => {
    expect(() => new Fast('utf-8', { fatal: true }).decode(bytes(0x41, 0xff))).toThrow(/encoded data was not valid/);
    expect(new Fast('utf-8').decode(bytes(0x41, 0xff))).toBe('A\ufffd');
});

test('streaming and other labels go to the decoder behind it', () => {
    expect(new Fast('utf-8').decode(utf8('ab'), { stream: true })).toBe('ab');
    expect(new Fast('utf-16le').decode(bytes(0x41, 0x00))).toBe('A');
    expect(reached).toBe(2);
});

test('asciiText: undefined for any byte past 0x7f', () => {
    expect(asciiText(bytes(0x41, 0x80))).toBeUndefined();
    expect(asciiText(utf8('plain'))).toBe('plain');
});

test('every label of UTF-8 reaches a decoder that knows UTF-8 only as "utf-8" (the canister\'s)', () => {
    const labels: string[] = [];
    class Utf8Only extends TextDecoder {
        constructor(label?: string, options?: TextDecoderOptions) {
            labels.push(String(label));
            if (label !== undefined && label !== 'utf-8') throw new Error('Encoding not supported');
            super(label, options);
        }
    }
    const OnUtf8Only = withAsciiFastPath(Utf8Only);
    for (const label of ['utf8', ' UTF-8 ', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8'])
        expect(new OnUtf8Only(label, { fatal: true }).decode(utf8('Zoë'))).toBe('Zoë');
    expect(new OnUtf8Only().decode(utf8('Zoë'))).toBe('Zoë');
    expect(new Set(labels)).toEqual(new Set(['utf-8']));
    expect(() => new OnUtf8Only('latin1')).toThrow('Encoding not supported');
});
