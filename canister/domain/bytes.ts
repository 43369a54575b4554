// Byte helpers shared by the canister's encoders.

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
