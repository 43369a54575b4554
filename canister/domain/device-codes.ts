// Device codes (RFC 8628): the opaque device code a game polls with, the short user code a
// player types on another device, their lifetime, and what a poll answers in each state.

/** RFC 8628 §6.1: consonants only, no look-alikes and no vowels (no words). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
/** `XXXX-XXXX`: 20^8 ≈ 2.6e10 codes (34.6 bits), what players are shown normally. */
export const USER_CODE_LENGTH = 8;
/** `XXXX-XXXX-XXXX-XXXX`: 20^16 ≈ 6.6e20 codes (69 bits), issued while codes are being guessed. */
export const LONG_USER_CODE_LENGTH = 16;
export const DEVICE_CODE_SECONDS = 300;
export const POLL_INTERVAL_SECONDS = 5;

/** A user code from random bytes, without modulo bias (bytes >= 240 are drawn again). */
export function newUserCode(random: (n: number) => Uint8Array, length = USER_CODE_LENGTH): string {
    let code = '';
    while (code.length < length) {
        for (const b of random(length + 8)) {
            if (b < 240 && code.length < length) code += USER_CODE_ALPHABET[b % 20];
        }
    }
    return code;
}

/** What a player typed, as a stored code: case-insensitive, dashes and spaces ignored. */
export function normalizeUserCode(input: unknown): string | undefined {
    if (typeof input !== 'string' || input.length > 32) return undefined;
    const code = input.toUpperCase().replace(/[\s-]/g, '');
    if (code.length !== USER_CODE_LENGTH && code.length !== LONG_USER_CODE_LENGTH) return undefined;
    for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return undefined;
    return code;
}

export { formatUserCode } from '../../contract/user-codes';

export type DeviceCodeStatus = 'pending' | 'approved' | 'redeemed';

/** A poll's answer (docs/sign-in.md): 428 while pending, 200 once approved (exactly once), 410 after expiry, 404 when unknown or redeemed. */
export type PollOutcome = 'pending' | 'approved' | 'expired' | 'gone';

export function pollOutcome(
    code: { status: DeviceCodeStatus; expiresAt: number } | undefined,
    now: number,
): PollOutcome {
    if (code === undefined || code.status === 'redeemed') return 'gone';
    if (now >= code.expiresAt) return 'expired';
    return code.status;
}
