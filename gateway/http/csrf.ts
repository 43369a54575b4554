// The one CSRF scheme of the gateway's forms (the dashboard's, the link page's) and of the
// dashboard API's writes: a token bound to a cookie the browser holds (an HMAC of it with the
// gateway secret), sent back in the form's `csrf` field or X-CSRF-Token, compared in constant
// time, and only from this origin.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { Request, Response } from 'express';

/** The token of the forms whose cookie holds `bound` (`purpose` keeps pages' tokens apart). */
export function csrfToken(secret: Uint8Array, purpose: string, bound: string): string {
    return createHmac('sha256', secret).update(`${purpose} csrf\n${bound}`).digest('base64url');
}

/**
 * A fresh cookie to bind a page's forms to (the link page: a player has no session). The
 * dashboard binds its forms to the session cookie instead, so it sets none of these.
 */
export function setCsrfCookie(
    res: Response,
    name: string,
    o: { secure: boolean; path: string; maxAgeSeconds: number },
): string {
    const value = randomBytes(24).toString('base64url');
    res.cookie(name, value, {
        httpOnly: true,
        secure: o.secure,
        sameSite: 'strict',
        path: o.path,
        maxAge: o.maxAgeSeconds * 1000,
    });
    return value;
}

/** Whether a write carries `expected` (form field or header) and comes from `publicUrl`'s origin. */
export function csrfAllowed(req: Request, expected: string | undefined, publicUrl: string): boolean {
    const sent = (req.body as Record<string, unknown> | undefined)?.csrf ?? req.get('X-CSRF-Token');
    if (expected === undefined || typeof sent !== 'string' || sent.length !== expected.length) return false;
    if (!timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) return false;
    const origin = req.get('Origin');
    return origin === undefined || origin === new URL(publicUrl).origin;
}
