// A developer's dashboard session in the browser: the token the canister issued lives only in
// an HttpOnly cookie; every canister call carries its SHA-256; every write carries the CSRF
// token of ../http/csrf.ts bound to the session cookie and must come from this origin.
import { createHash } from 'node:crypto';

import type { Request, Response } from 'express';

import { csrfAllowed, csrfToken } from '../http/csrf';
import { ApiFailure } from '../http/errors';
import { cookie } from '../sign-in/sealed-cookie';
import type { SignInConfig } from '../sign-in/providers';

export const SESSION_COOKIE = 'lb_dev';
const SESSION_DAYS = 7;

export interface DeveloperSession {
    /** What the canister knows the session by. */
    sessionHash: string;
    /** The token every form and JSON write of this session must carry. */
    csrf: string;
}

export const secureCookies = (signIn: SignInConfig): boolean => signIn.publicUrl.startsWith('https:');

export function setSessionCookie(res: Response, signIn: SignInConfig, token: string): void {
    res.cookie(SESSION_COOKIE, token, {
        httpOnly: true,
        secure: secureCookies(signIn),
        sameSite: 'lax',
        path: '/dashboard',
        maxAge: SESSION_DAYS * 86_400_000,
    });
}

export function clearSessionCookie(res: Response, signIn: SignInConfig): void {
    res.clearCookie(SESSION_COOKIE, {
        httpOnly: true,
        secure: secureCookies(signIn),
        sameSite: 'lax',
        path: '/dashboard',
    });
}

/** The request's session (not yet checked with the canister), or undefined without a cookie. */
export function sessionOf(req: Request, signIn: SignInConfig): DeveloperSession | undefined {
    const token = cookie(req, SESSION_COOKIE);
    if (token === undefined || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
    return {
        sessionHash: createHash('sha256').update(token).digest('hex'),
        csrf: csrfToken(signIn.secret, 'dashboard', token),
    };
}

/** Whether a write carries its session's CSRF token (form field or header) and comes from this origin. */
export function writeAllowed(req: Request, session: DeveloperSession, signIn: SignInConfig): boolean {
    return csrfAllowed(req, session.csrf, signIn.publicUrl);
}

/** The developer of a JSON API request: their session; a write must carry its CSRF token too. */
export function developerOf(req: Request, signIn: SignInConfig): DeveloperSession {
    const session = sessionOf(req, signIn);
    if (session === undefined) throw new ApiFailure(401, 'Sign in to the dashboard first.');
    if (req.method !== 'GET' && req.method !== 'HEAD' && !writeAllowed(req, session, signIn))
        throw new ApiFailure(403, 'Missing or wrong X-CSRF-Token.');
    return session;
}
