// SHA-256 as hex, for the session and device tokens and the server keys the canister creates: it
// stores only their hashes. Gateways hash the tokens clients send (with Node's crypto), so the
// canister never hashes on a request. The one SHA-256 of the canister is certification/sha256.ts.
import { asciiBytes, sha256 } from './certification/sha256';

/** The SHA-256 digest of `message`, as 64 lowercase hex digits. */
export function sha256Hex(message: Uint8Array): string {
    let hex = '';
    for (const byte of sha256(message)) hex += byte.toString(16).padStart(2, '0');
    return hex;
}

/** The hash of a token as sent over the wire (ASCII). */
export function tokenHash(token: string): string {
    return sha256Hex(asciiBytes(token));
}
