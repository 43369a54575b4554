// The canister's reading of Rust-printed text literals: every string comes back exactly.
import { parseRustString } from '../../canister/rust-string';

/** What Rust's `{:?}` prints for a string, as measured from Azle's candidDecode. */
const cases: Array<[string, string]> = [
    ['"a\\u{200b}b"', 'a\u200bb'],
    ['"soft\\u{ad}hy"', 'soft\u00adhy'],
    ['"bom\\u{feff}"', 'bom\ufeff'],
    ['"nel\\u{85}"', 'nel\u0085'],
    ['"ls\\u{2028}ps\\u{2029}"', 'ls\u2028ps\u2029'],
    ['"q\\\'uote\\""', 'q\'uote"'],
    ['"nul\\0x"', 'nul\u0000x'],
    ['"tab\\t\\n\\r\\\\"', 'tab\t\n\r\\'],
    ['"\\u{301}start"', '\u0301start'],
    ['"tag\\u{e0041}"', 'tag\u{e0041}'],
    ['"emoji😀 Ω漢字"', 'emoji😀 Ω漢字'],
    ['"back\\\\u{41}slash"', 'back\\u{41}slash'],
    ['"back\\\\0"', 'back\\0'],
    ['"{\\"json\\":\\"x\\\\u0001\\"}"', '{"json":"x\\u0001"}'],
];

test.each(cases)('%s', (printed, text) => {
    expect(parseRustString(printed)).toBe(text);
});
