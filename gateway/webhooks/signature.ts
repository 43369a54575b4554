// Signs a webhook body as `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` under the
// endpoint's secret, and checks such a header (what receivers do: tests and docs/webhooks.md).
import { createHmac, timingSafeEqual } from 'node:crypto';

import { signedPayload } from '../../contract/webhooks';

/** How far a signature's timestamp may be from the receiver's clock (replays older than this fail). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The hex HMAC-SHA256 of `"<timestamp>.<body>"`, keyed by the secret's UTF-8 bytes (the whole `whsec_...` string). */
export function hmacHex(secret: string, timestamp: number, body: string): string {
    return createHmac('sha256', secret).update(signedPayload(timestamp, body), 'utf8').digest('hex');
}

/** The `X-Signature` value of `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
    return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/**
 * Why a delivery's `X-Signature` does not prove `body` came from the service under `secret`,
 * or undefined when it does: the header's shape, the HMAC (compared in constant time; any of
 * several `v1=` values may match, for secret rotation), and the timestamp within `toleranceSeconds`
 * of `nowSeconds`.
 */
export function verifySignature(
    secret: string,
    header: string | undefined,
    body: string,
    nowSeconds: number,
    toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): string | undefined {
    if (typeof header !== 'string' || header.length > 1000) return 'no signature';
    let timestamp: number | undefined;
    const signatures: string[] = [];
    for (const part of header.split(',')) {
        const [key, value] = part.trim().split('=', 2);
        if (key === 't' && /^\d{1,12}$/.test(value ?? '')) timestamp = Number(value);
        else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')) signatures.push(value!);
    }
    if (timestamp === undefined || signatures.length === 0) return 'malformed signature';
    const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
    if (!signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected))) return 'signature mismatch';
    if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return 'timestamp outside the tolerance';
    return undefined;
}
