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
