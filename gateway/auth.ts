// Who is calling, from headers only (never query strings): an API key (key_<gameId>_<digits>,
// X-Game-ID optional and agreeing), or a signed-in player's X-Session-Token with X-Game-ID.
// Lookups are remembered for a few seconds (CREDENTIAL_TTL_MS): reads may trail a rotation, a
// deactivation or a sign-out by that much; writes never do, as they carry the key or the
// session's hash to the canister, which checks it again in the same call.
import { createHash } from 'node:crypto';

import type { Request } from 'express';

import type { KeyInfo, Result, SessionInfo } from '../contract/canister';
import { MESSAGES } from '../contract/messages';
import { API_KEY } from '../contract/rules';
import { ttlCache } from './cache';
import type { CanisterClient } from './canister';
import { ApiFailure } from './errors';

/** A game's API key holder. */
export interface KeyCaller {
    kind: 'apiKey';
    gameId: string;
    apiKey: string;
}

/** A signed-in player: the session travels on as the hash of its token. */
export interface SessionCaller {
    kind: 'session';
    gameId: string;
    sessionHash: string;
    /** The account's player id in the game. */
    playerId: string;
}

export type Caller = KeyCaller | SessionCaller;

export interface CredentialResolver {
    /** An API key (401 without one, 403 for a deactivated game). */
    apiKey(req: Request): Promise<KeyCaller>;
    /** A live session (401 without one or with a dead one). */
    session(req: Request): Promise<SessionCaller>;
    /** Either: X-Session-Token is sent instead of X-API-Key. */
    player(req: Request): Promise<Caller>;
    /** Only X-Game-ID (device-code routes); an API key sent along must agree. */
    gameOnly(req: Request): Promise<{ gameId: string }>;
}

/** How long a lookup is trusted for reads (writes are checked by the canister anyway). */
export const CREDENTIAL_TTL_MS = 5_000;

/** The SHA-256 (hex) of a token: what gateways send the canister instead of the token. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A session token's shape: 43 base64url characters (256 bits). Anything else is dead on sight. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function header(req: Request, name: string): string | undefined {
    const value = req.get(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
}

export function credentialResolver(
    canister: CanisterClient,
    ttlMs = CREDENTIAL_TTL_MS,
    clock?: () => number,
): CredentialResolver {
    const keys = ttlCache<KeyInfo | 'invalid'>(ttlMs, undefined, clock);
    const sessions = ttlCache<Result<SessionInfo>>(ttlMs, undefined, clock);
    const renewing = ttlCache<true>(60_000, undefined, clock);

    async function keyInfo(apiKey: string): Promise<KeyInfo | 'invalid'> {
        const cached = keys.get(apiKey);
        if (cached !== undefined) return cached;
        const reply = await canister.call('resolve_key', { apiKey });
        const info = 'ok' in reply ? reply.ok : 'invalid';
        // A deactivated game is not remembered: activating it again takes effect at once.
        if (info === 'invalid' || info.isActive) keys.set(apiKey, info);
        return info;
    }

    async function apiKey(req: Request): Promise<KeyCaller> {
        const key = header(req, 'X-API-Key');
        const gameId = header(req, 'X-Game-ID');
        if (key === undefined) {
            if (header(req, 'X-Session-Token') !== undefined)
                throw new ApiFailure(401, 'This endpoint needs the API key (X-API-Key), not a session');
            throw new ApiFailure(401, MESSAGES.missingApiKey);
        }
        const embedded = API_KEY.exec(key)?.[1];
        if (embedded === undefined) throw new ApiFailure(401, MESSAGES.invalidApiKey);
        if (gameId !== undefined && gameId !== embedded) {
            throw new ApiFailure(400, `X-Game-ID '${gameId}' does not match the game of the API key ('${embedded}')`);
        }
        const info = await keyInfo(key);
        if (info === 'invalid') throw new ApiFailure(401, MESSAGES.invalidApiKey);
        if (!info.isActive) throw new ApiFailure(403, MESSAGES.gameDeactivated);
        return { kind: 'apiKey', gameId: info.gameId, apiKey: key };
    }

    async function session(req: Request): Promise<SessionCaller> {
        const token = header(req, 'X-Session-Token');
        if (token === undefined) throw new ApiFailure(401, 'This endpoint needs a signed-in player (X-Session-Token)');
        // 401/403 on a session request mean a dead session (clients sign out): other problems are 400.
        if (header(req, 'X-API-Key') !== undefined)
            throw new ApiFailure(400, 'Send X-Session-Token or X-API-Key, not both');
        const gameId = header(req, 'X-Game-ID');
        if (gameId === undefined) throw new ApiFailure(400, 'X-Game-ID is required with X-Session-Token');
        if (!SESSION_TOKEN.test(token)) throw new ApiFailure(401, MESSAGES.deadSession);
        const sessionHash = hashToken(token);
        const cacheKey = `${sessionHash}/${gameId}`;
        let reply = sessions.get(cacheKey);
        if (reply === undefined) {
            reply = await canister.call('resolve_session', { sessionHash, gameId });
            sessions.set(cacheKey, reply);
        }
        if ('err' in reply) throw new ApiFailure(reply.err.status === 401 ? 401 : 400, reply.err.message);
        if (reply.ok.renewDue && renewing.get(sessionHash) === undefined) {
            // Reads are queries: the lifetime is written back by one update at most a minute apart.
            renewing.set(sessionHash, true);
            canister.call('renew_session', { sessionHash, gameId }).then(
                () => sessions.delete(cacheKey),
                () => renewing.delete(sessionHash),
            );
        }
        return { kind: 'session', gameId, sessionHash, playerId: reply.ok.playerId };
    }

    return {
        apiKey,
        session,
        player: (req) =>
            header(req, 'X-API-Key') === undefined && header(req, 'X-Session-Token') !== undefined
                ? session(req)
                : apiKey(req),
        async gameOnly(req) {
            const gameId = header(req, 'X-Game-ID');
            const key = header(req, 'X-API-Key');
            if (key !== undefined) {
                const caller = await apiKey(req);
                return { gameId: caller.gameId };
            }
            if (gameId === undefined) throw new ApiFailure(400, 'X-Game-ID is required');
            return { gameId };
        },
    };
}

/** The credential a player write carries to the canister. */
export function credentialOf(
    caller: Caller,
    playerId: string,
): { apiKey: string; playerId: string } | { sessionHash: string } {
    return caller.kind === 'apiKey' ? { apiKey: caller.apiKey, playerId } : { sessionHash: caller.sessionHash };
}
