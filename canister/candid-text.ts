// Stored JSON as Candid text that reads back without the native Candid printer: the service
// writes it as ASCII (other characters escaped) behind a leading space, which JSON ignores and
// JSON.stringify never writes. Text with that mark is read with String.fromCharCode, and no
// character check (~55 K instructions for a 200-byte record, against ~260 K for the printer
// and a parse of what it prints; a regular-expression check alone would cost ~600 per
// character in the canister). Text without the mark (written by earlier releases, or any
// other value) is left to the caller's full decoder. Any other one-text message that is all
// ASCII (a request's JSON, nearly always) is read the same way once a native Math.max has
// found no byte above 0x7f. No azle import: unit-tested natively.

/** "DIDL", no type table, one value, of type text (0x71). */
export const HEADER = [0x44, 0x49, 0x44, 0x4c, 0x00, 0x01, 0x71];
const MARK = 0x20;
/** Arguments per String.fromCharCode or Math.max call (well under any engine's limit). */
const CHUNK = 8192;

/** Where the text of a one-text Candid message starts and how many bytes it has, if it is one. */
export function candidTextSpan(bytes: Uint8Array): { at: number; length: number } | undefined {
    const at = candidTextStart(bytes);
    return at < 0 ? undefined : { at, length: bytes.length - at };
}

/** Where the text of a one-text Candid message starts (it runs to the end), or -1 if it is none: candidTextSpan without its object. */
export function candidTextStart(bytes: Uint8Array): number {
    const size = bytes.length;
    // Unrolled, against literals: in the canister a loop's own steps cost more than the comparisons.
    if (
        size < HEADER.length + 1 ||
        bytes[0] !== 0x44 ||
        bytes[1] !== 0x49 ||
        bytes[2] !== 0x44 ||
        bytes[3] !== 0x4c ||
        bytes[4] !== 0x00 ||
        bytes[5] !== 0x01 ||
        bytes[6] !== 0x71
    )
        return -1;
    // The length as LEB128: one byte below 128 bytes of text.
    const length = bytes[7];
    if (length >= 0x80) return valueStart(bytes, 7);
    return 8 + length === size ? 8 : -1;
}

/**
 * Where the bytes of a message's one value start, when the LEB128 length at `at` says they run
 * to its end (a text's or a blob's), or -1.
 */
export function valueStart(bytes: Uint8Array, at: number): number {
    let length = 0;
    for (let scale = 1; ; scale *= 128) {
        if (at >= bytes.length || scale > 0x10000000) return -1;
        const b = bytes[at++];
        length += (b & 0x7f) * scale;
        if (b < 0x80) break;
    }
    return at + length === bytes.length ? at : -1;
}

/**
 * Each byte as the character of its value, one native call per CHUNK bytes (in the canister a
 * loop costs ~2 K instructions a byte, the call a few hundred).
 */
export function latin1(bytes: Uint8Array): string {
    if (bytes.length <= CHUNK) return String.fromCharCode.apply(null, bytes as unknown as number[]);
    let text = '';
    for (let from = 0; from < bytes.length; from += CHUNK)
        text += String.fromCharCode.apply(
            null,
            bytes.subarray(from, Math.min(from + CHUNK, bytes.length)) as unknown as number[],
        );
    return text;
}

/** Whether every byte is ASCII (below 0x80): by the largest, found natively. */
function isAscii(bytes: Uint8Array): boolean {
    for (let from = 0; from < bytes.length; from += CHUNK) {
        const part = bytes.length <= CHUNK ? bytes : bytes.subarray(from, Math.min(from + CHUNK, bytes.length));
        if (Math.max.apply(null, part as unknown as number[]) > 0x7f) return false;
    }
    return true;
}

/**
 * The text of a one-text Candid message when all of it is ASCII (its bytes are then its
 * characters, and valid UTF-8): a request's JSON nearly always. Undefined for any other
 * message, which the caller decodes in full.
 */
export function asciiCandidText(bytes: Uint8Array): string | undefined {
    const span = candidTextSpan(bytes);
    if (span === undefined) return undefined;
    const text = bytes.subarray(span.at);
    // A request fits one native call each way (in the canister a function call costs ~4 K).
    if (text.length <= CHUNK) {
        const codes = text as unknown as number[];
        return Math.max.apply(null, codes) > 0x7f ? undefined : String.fromCharCode.apply(null, codes);
    }
    return isAscii(text) ? latin1(text) : undefined;
}

/** The marked JSON text of a one-text Candid message (mark included), or undefined if it has no mark. */
export function markedJson(bytes: Uint8Array): string | undefined {
    const span = candidTextSpan(bytes);
    if (span === undefined || span.length === 0 || bytes[span.at] !== MARK) return undefined;
    return latin1(bytes.subarray(span.at));
}

const NON_ASCII = /[^\x00-\x7f]/g;

/** The size of a one-text Candid message whose text has `length` bytes: header, length as LEB128, text. */
function messageSize(length: number): number {
    let size = HEADER.length + 1 + length;
    for (let rest = length >>> 7; rest > 0; rest >>>= 7) size++;
    return size;
}

/**
 * JSON text as the marked, ASCII Candid text that markedJson reads; `encode` is the native
 * text encoder. ASCII is told by size (a UTF-8 byte per character, and the size grows with the
 * text's bytes), without reading the bytes.
 */
export function markJson(json: string, encode: (text: string) => Uint8Array): Uint8Array {
    const bytes = encode(` ${json}`);
    if (bytes.length === messageSize(json.length + 1)) return bytes;
    return encode(` ${json.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`);
}
