// Principals' texts, remembered: `toText` is base32 and a CRC in JavaScript (~5 µs), and the
// replica's API names the same few canisters on every request.
import type { Principal } from '@dfinity/principal';

/** The most texts kept: a long run of distinct principals starts the cache afresh. */
const MAX = 1024;
const texts = new Map<string, string>();

export function principalText(p: Principal): string {
    const bytes = p.toUint8Array();
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    let text = texts.get(key);
    if (text === undefined) {
        if (texts.size >= MAX) texts.clear();
        text = p.toText();
        texts.set(key, text);
    }
    return text;
}
