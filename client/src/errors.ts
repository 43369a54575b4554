// LeaderboardError: every failure of the API as a value the caller can switch on (`kind`), with
// the HTTP status and the contract's message; which kind a reply is, from its status and text.
import { MESSAGES } from '../../contract/messages';

export type ErrorKind =
    /** 400 `Please wait 2 seconds between submissions.` (after the one wait-and-retry, or with waitOutRateLimit: false). */
    | 'rate-limited'
    /** 400: a field, a nickname, an id in a path. The message says which (`Invalid <field>: ...`). */
    | 'invalid'
    /** 400: the game's caps or time checks refused the score (generic by design, S6). */
    | 'rejected'
    /** 400: time validation is on and the play session token is missing, used, expired or foreign. */
    | 'play-session'
    /** 400: too many active play sessions for this player (end some). */
    | 'too-many-play-sessions'
    /** 404: no such board, player, archive or route (R1). */
    | 'not-found'
    /** 401/403 on a request that carried the session: it is gone; the client is anonymous again. */
    | 'session-dead'
    /** The player is banned from this game (writes are refused; reads still work). */
    | 'banned'
    /** 401/403 with the API key: missing, unknown or revoked key, or a deactivated game. */
    | 'unauthorized'
    /** 410: the device code expired before the player approved it. */
    | 'expired'
    /** 428: the device code is not approved yet (signIn keeps polling). */
    | 'pending'
    /** 5xx, 503, 429 or no answer at all, after the retries. */
    | 'unavailable'
    /** A direct read whose certificate did not verify: someone changed the answer on its way. */
    | 'not-verified'
    /** Anything else (an unexpected status or a body that is not the API's JSON). */
    | 'unknown';

export class LeaderboardError extends Error {
    override readonly name = 'LeaderboardError';
    constructor(
        /** What went wrong, to switch on. */
        readonly kind: ErrorKind,
        /** The contract's error text (or a description when there was no answer). */
        message: string,
        /** The HTTP status; 0 when no answer arrived. */
        readonly status: number,
        options?: { cause?: unknown },
    ) {
        super(message, options);
    }
}

const has = (message: string, part: string): boolean => message.toLowerCase().includes(part.toLowerCase());

/** The kind of an API error reply; `session` says whether the request carried X-Session-Token. */
export function kindOf(status: number, message: string, session: boolean): ErrorKind {
    if (has(message, MESSAGES.banned)) return 'banned';
    if (status === 401 || status === 403) return session ? 'session-dead' : 'unauthorized';
    if (status === 404) return 'not-found';
    if (status === 410) return 'expired';
    if (status === 428) return 'pending';
    if (status === 429 || status >= 500) return 'unavailable';
    if (status === 400) {
        if (message === MESSAGES.rateLimited) return 'rate-limited';
        if (message === MESSAGES.scoreRules || message === MESSAGES.streakRules || has(message, 'validation rules'))
            return 'rejected';
        if (message === MESSAGES.tooManyPlaySessions) return 'too-many-play-sessions';
        if (has(message, 'play session') || has(message, 'requires starting a session')) return 'play-session';
        return 'invalid';
    }
    return 'unknown';
}
