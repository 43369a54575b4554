// What Azle's native Candid printer writes for a `text` value is a Rust `{:?}` string literal;
// this turns one back into the exact string (no azle import: unit-tested natively).

const RUST_ESCAPE = /\\(u\{([0-9a-fA-F]{1,6})\}|'|0|[^])/g;

/** A Rust `{:?}` string literal (double quotes included) as the string it prints. */
export function parseRustString(literal: string): string {
    // The common case (ASCII identifiers, JSON) has none of the Rust-only escapes. indexOf, not
    // a regular expression: in the canister a regex test costs ~600 instructions per character.
    if (literal.indexOf('\\u{') < 0 && literal.indexOf("\\'") < 0 && literal.indexOf('\\0') < 0)
        return JSON.parse(literal) as string;
    const json = literal.replace(RUST_ESCAPE, (escape: string, what: string, hex: string | undefined) => {
        if (hex !== undefined) return jsonEscape(parseInt(hex, 16));
        if (what === "'") return "'";
        if (what === '0') return '\\u0000';
        return escape;
    });
    return JSON.parse(json) as string;
}

/** A code point as JSON `\uXXXX` escapes (a surrogate pair above U+FFFF). */
function jsonEscape(codePoint: number): string {
    const unit = (u: number): string => `\\u${u.toString(16).padStart(4, '0')}`;
    if (codePoint <= 0xffff) return unit(codePoint);
    const c = codePoint - 0x10000;
    return unit(0xd800 + (c >> 10)) + unit(0xdc00 + (c & 0x3ff));
}
