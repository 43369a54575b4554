// Random identifiers from the canister's CSPRNG: tokens for the wire (base64url) and hex ids.

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A token for the wire: 32 random bytes (256 bits) as 43 base64url characters. */
export function newToken(random: (n: number) => Uint8Array): string {
    const bytes = random(33); // 33 bytes: 264 bits, 44 characters; the first 43 carry the first 256+ bits
    let out = '';
    for (let i = 0; i < 33; i += 3) {
        const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
        out += BASE64URL[(n >> 18) & 63] + BASE64URL[(n >> 12) & 63] + BASE64URL[(n >> 6) & 63] + BASE64URL[n & 63];
    }
    return out.slice(0, 43);
}

/** `bytes` random bytes as lower-case hex (ids: accounts, developers, play sessions, webhooks, leases). */
export function randomHex(random: (n: number) => Uint8Array, bytes: number): string {
    let hex = '';
    for (const b of random(bytes)) hex += (b < 16 ? '0' : '') + b.toString(16);
    return hex;
}
