// Short-lived state of a sign-in flow (OIDC state, nonce, PKCE verifier, the device code being
// approved) travels in a cookie sealed with the gateway secret (JWE, A256GCM): any gateway
// instance can finish a flow another started, and a browser can neither read nor forge it.
import { hkdfSync } from 'node:crypto';

import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';
import * as jose from 'jose';

export interface CookieOptions {
    /** https public URLs get Secure and SameSite=None (Apple answers with a cross-site POST). */
    secure: boolean;
    path: string;
}

export function sealKey(secret: Uint8Array, purpose: string): Uint8Array {
    return new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), `leaderboard ${purpose}`, 32));
}

export async function setSealed(
    res: Response,
    name: string,
    key: Uint8Array,
    value: Record<string, unknown>,
    maxAgeSeconds: number,
    o: CookieOptions,
): Promise<void> {
    const jwt = await new jose.EncryptJWT(value)
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt()
        .setExpirationTime(`${maxAgeSeconds}s`)
        .encrypt(key);
    res.cookie(name, jwt, {
        httpOnly: true,
        secure: o.secure,
        sameSite: o.secure ? 'none' : 'lax',
        path: o.path,
        maxAge: maxAgeSeconds * 1000,
    });
}

/** The cookie's contents, or undefined when missing, tampered with or expired. */
export async function readSealed(
    req: Request,
    name: string,
    key: Uint8Array,
): Promise<Record<string, unknown> | undefined> {
    const value = cookie(req, name);
    if (value === undefined) return undefined;
    try {
        const { payload } = await jose.jwtDecrypt(value, key);
        return payload;
    } catch {
        return undefined;
    }
}

export function clearCookie(res: Response, name: string, o: CookieOptions): void {
    res.clearCookie(name, { httpOnly: true, secure: o.secure, sameSite: o.secure ? 'none' : 'lax', path: o.path });
}

/** A cookie of the request. */
export function cookie(req: Request, name: string): string | undefined {
    return parseCookies(req.get('Cookie') ?? '')[name];
}
