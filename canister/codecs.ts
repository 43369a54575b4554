// Text and JSON to bytes and back through Azle's native Candid text codec: in this runtime a
// UTF-8 or Candid conversion written in JavaScript costs ~3-14 K instructions per character;
// the native path costs well under 1 K.
// The one use of the printed form: a message of one text value prints as that text's literal, and
// the native printer is the fast way to UTF-8 here. No field of a record is ever read from print.
// eslint-disable-next-line no-restricted-imports
import { candidDecode, candidEncode } from 'azle';

import { asciiCandidText, markJson, markedJson } from './candid-text';
import { candidLiteral } from './domain/json';
import { parseRustString } from './rust-string';

/** A string as the bytes of a Candid `text` value. */
export function textToBytes(text: string): Uint8Array {
    // JSON string literals are valid Candid text literals for the characters JSON.stringify
    // leaves raw; callers pass JSON (control characters already escaped) or plain identifiers.
    return candidEncode(`(${JSON.stringify(text)})`);
}

/**
 * A reply's JSON text (domain/json.ts `stringify`) as the bytes of a Candid `text` value:
 * textToBytes(stringify(value)), without quoting again a payload rendered quoted (`rawJson`).
 */
export function replyBytes(value: unknown): Uint8Array {
    return candidEncode(`(${candidLiteral(value)})`);
}

/**
 * Back from textToBytes (or from any Candid message holding one text value), exactly: any
 * valid UTF-8 round-trips. ASCII text (requests nearly always) is read as it is, at about half
 * the cost (candid-text.ts); other text goes through the native decoder, which prints it as a
 * Rust string literal: the JSON escapes plus `\'`, `\0` and `\u{hex}` (for every character
 * Rust deems unprintable: U+200B, U+00AD, U+FEFF, U+0085, U+2028, ...), which become JSON
 * escapes here.
 */
export function bytesToText(bytes: Uint8Array): string {
    const ascii = asciiCandidText(bytes);
    if (ascii !== undefined) return ascii;
    const printed = candidDecode(bytes);
    return parseRustString(printed.slice(printed.indexOf('"'), printed.lastIndexOf('"') + 1));
}

/**
 * A stable map's key (an id nearly always) as textToBytes writes it: a key without a quote or a
 * backslash goes into the Candid literal as it is (~18 K instructions of JSON.stringify saved).
 * The bytes are the same: JSON escapes nothing else but control characters, which Candid reads
 * raw as the same bytes (`\n`, `\t`, `\r`) or refuses escaped (`\u0001`: textToBytes throws).
 */
export function keyToBytes(key: string): Uint8Array {
    return key.indexOf('"') < 0 && key.indexOf('\\') < 0 ? candidEncode(`("${key}")`) : textToBytes(key);
}

export const textCodec = { toBytes: textToBytes, fromBytes: bytesToText };

/** The JSON text of a stored value: marked (read directly), or of an earlier release (the full decoder). */
export const storedJson = (bytes: Uint8Array): string => markedJson(bytes) ?? bytesToText(bytes);

/**
 * Values of type V as JSON text, written marked for the fast read (candid-text.ts); text
 * without the mark (earlier releases) is read through the native decoder.
 */
export function textJsonCodec<V>(encode: (value: V) => string, decode: (json: string) => V) {
    return {
        toBytes: (value: V): Uint8Array => markJson(encode(value), textToBytes),
        fromBytes: (bytes: Uint8Array): V => decode(storedJson(bytes)),
    };
}

/** Values of type V as JSON; `revive` restores what JSON cannot say (e.g. prototype-free maps). */
export function jsonCodec<V>(revive: (parsed: V) => V = (v) => v) {
    return textJsonCodec<V>(JSON.stringify, (json) => revive(JSON.parse(json) as V));
}

export const bytesCodec = {
    toBytes: (value: Uint8Array): Uint8Array => value,
    fromBytes: (bytes: Uint8Array): Uint8Array => bytes,
};

/** A string's UTF-8 bytes (natively: the bytes of the Candid text value without its header). */
export function utf8Bytes(text: string): Uint8Array {
    const candid = textToBytes(text);
    // "DIDL", 0 types, 1 value of type text (0x71), then the length as LEB128, then the bytes.
    let at = 7;
    while (candid[at] & 0x80) at++;
    return candid.subarray(at + 1);
}
