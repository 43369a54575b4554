// Byte helpers shared by the canister's encoders. The replica has its own concatBytes
// (replica/bytes.ts): it imports nothing of ours, and this file runs in the canister.

/** `parts` one after another in one buffer. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
    let size = 0;
    for (const p of parts) size += p.length;
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
        out.set(p, at);
        at += p.length;
    }
    return out;
}

/** `n` (a non-negative integer) as unsigned LEB128, appended to `out`, which is returned. */
export function leb128(n: number, out: number[] = []): number[] {
    do {
        let byte = n % 128;
        n = Math.floor(n / 128);
        if (n > 0) byte |= 0x80;
        out.push(byte);
    } while (n > 0);
    return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each base64 digit's value (-1: not a digit), by character code. */
const BASE64_VALUE = new Int32Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;

const digit = (text: string, i: number): number => {
    const code = text.charCodeAt(i);
    return code < 128 ? BASE64_VALUE[code]! : -1;
};

/**
 * Standard base64 (with or without `=` padding) as bytes; undefined when it is not base64.
 * Four digits to three bytes per step: in the canister every operation is interpreted, so the
 * loop does as few as it can (a megabyte of shard wasm arrives in one message).
 */
export function fromBase64(text: string): Uint8Array | undefined {
    let end = text.length;
    if (end % 4 === 0 && end > 0 && text.charCodeAt(end - 1) === 61 /* = */)
        end -= text.charCodeAt(end - 2) === 61 ? 2 : 1;
    const tail = end % 4;
    if (tail === 1) return undefined;
    const whole = end - tail;
    const out = new Uint8Array((whole / 4) * 3 + (tail === 0 ? 0 : tail - 1));
    let at = 0;
    let bad = 0;
    for (let i = 0; i < whole; i += 4) {
        const a = digit(text, i);
        const b = digit(text, i + 1);
        const c = digit(text, i + 2);
        const d = digit(text, i + 3);
        bad |= a | b | c | d;
        const v = (a << 18) | (b << 12) | (c << 6) | d;
        out[at] = v >> 16;
        out[at + 1] = v >> 8;
        out[at + 2] = v;
        at += 3;
    }
    if (tail > 0) {
        const a = digit(text, whole);
        const b = digit(text, whole + 1);
        const c = tail === 3 ? digit(text, whole + 2) : 0;
        bad |= a | b | c;
        const v = (a << 18) | (b << 12) | (c << 6);
        out[at] = v >> 16;
        if (tail === 3) out[at + 1] = v >> 8;
    }
    return bad < 0 ? undefined : out;
}
