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
const BASE64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;

/** Standard base64 (with or without `=` padding) as bytes; undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */ && text.length - end < 2) end--;
    if (end % 4 === 1 || (text.length !== end && text.length % 4 !== 0)) return undefined;
    const out = new Uint8Array(Math.floor((end * 3) / 4));
    let bits = 0;
    let value = 0;
    let at = 0;
    for (let i = 0; i < end; i++) {
        const code = text.charCodeAt(i);
        const v = code < 128 ? BASE64_VALUE[code]! : -1;
        if (v < 0) return undefined;
        value = ((value << 6) | v) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[at++] = (value >>> bits) & 0xff;
        }
    }
    return out;
}
