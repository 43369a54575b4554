// Who is calling, from headers only (never query strings): an API key (key_<gameId>_<digits>,
// X-Game-ID optional and agreeing), a signed-in player's X-Session-Token with X-Game-ID, or a
// game's server (Authorization: Bearer skey_<gameId>_..., hashed like session tokens). Each
// credential is taken only where it belongs: the server key never as X-API-Key, the API key
// never as Bearer, the server key never on routes for clients only (sign-in, sessions). A
// session opens every route the API key opens (rule K2), and a request that carries one is
// answered 401 only when that session is dead: every official client signs out on 401 or 403.
// Lookups are remembered for a few seconds (CREDENTIAL_TTL_MS): reads may trail a rotation, a
// deactivation or a sign-out by that much; writes never do, as they carry the key or the
// session's hash to the canister, which checks it again in the same call.
import { createHash } from 'node:crypto';

import type { Request } from 'express';

import type { KeyInfo, PlayerCredential, Result, SessionInfo } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import { API_KEY, SERVER_KEY } from '../../contract/rules';
import { ttlCache } from '../http/cache';
import type { CanisterClient } from '../ic/canister';
import { ApiFailure, canisterFailure } from '../http/errors';

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

/** A game's server (its secret server key): acts for any player of its game, reads the feed. */
export interface ServerCaller {
    kind: 'server';
    gameId: string;
    serverKeyHash: string;
}

export type Caller = KeyCaller | SessionCaller | ServerCaller;

/** How messages name each credential ("the game of the API key"). */
export const CREDENTIAL_NAME: Record<Caller['kind'], string> = {
    apiKey: 'API key',
    session: 'session',
    server: 'server key',
};

export interface CredentialResolver {
    /**
     * A game client's credential: a live session (X-Game-ID required; an API key sent along must
     * be of that game, and the session decides), else the API key (401 without one, 403 for a
     * deactivated game), or the server key as Bearer.
     */
    keyOrSession(req: Request): Promise<Caller>;
    /** The server key only (Authorization: Bearer): the feed. */
    server(req: Request): Promise<ServerCaller>;
    /** A live session (401 without one or with a dead one); no API key along. */
    session(req: Request): Promise<SessionCaller>;
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

export const SERVER_AUTH = {
    notHere:
        'This endpoint is for game clients: the server key (Authorization: Bearer) is not accepted here. Use the API key or a player session.',
    asApiKey:
        'A server key goes in Authorization: Bearer, never in X-API-Key (and never in a game client: it is secret).',
    apiKeyAsBearer: "Authorization: Bearer takes the game's server key; the API key goes in X-API-Key.",
    sendOne: 'Send one credential: Authorization: Bearer (the server key), X-API-Key or X-Session-Token, not several',
    needed: "This endpoint needs the game's server key (Authorization: Bearer <server key>)",
    clientOnFeed:
        "This endpoint needs the game's server key (Authorization: Bearer <server key>): the API key and player sessions cannot read it",
} as const;

/**
 * Whether the request carries a Bearer credential. Other Authorization schemes (a proxy's Basic
 * auth, say) are none of the API's business and are ignored, as they always were.
 */
const hasBearer = (req: Request): boolean => /^Bearer(?:\s|$)/i.test(header(req, 'Authorization') ?? '');

/** Whether the request carries a session: then 401 and 403 are for a dead one only (rule K2). */
export const carriesSession = (req: Request): boolean => header(req, 'X-Session-Token') !== undefined;

/** The Authorization header's Bearer token (none: undefined; a malformed one is 401). */
function bearer(req: Request): string | undefined {
    if (!hasBearer(req)) return undefined;
    const match = /^Bearer +(\S+)$/i.exec(header(req, 'Authorization')!);
    if (match === null)
        throw new ApiFailure(401, `${MESSAGES.invalidServerKey}: send Authorization: Bearer <server key>`);
    return match[1];
}

export function credentialResolver(
    canister: CanisterClient,
    ttlMs = CREDENTIAL_TTL_MS,
    clock?: () => number,
): CredentialResolver {
    const keys = ttlCache<KeyInfo | 'invalid'>(ttlMs, undefined, clock);
    const serverKeys = ttlCache<KeyInfo | 'invalid'>(ttlMs, undefined, clock);
    const sessions = ttlCache<Result<SessionInfo>>(ttlMs, undefined, clock);
    const renewing = ttlCache<true>(60_000, undefined, clock);

    async function keyInfo(apiKey: string): Promise<KeyInfo | 'invalid'> {
        const cached = keys.get(apiKey);
        if (cached !== undefined) return cached;
        const reply = await canister.call('resolve_key', { apiKey });
        // A game that moved (or is unavailable) is no wrong key: its 503 goes to the client, unremembered.
        if ('err' in reply && reply.err.status === 503) throw canisterFailure(reply.err);
        const info = 'ok' in reply ? reply.ok : 'invalid';
        // A deactivated game is not remembered: activating it again takes effect at once.
        if (info === 'invalid' || info.isActive) keys.set(apiKey, info);
        return info;
    }

    async function serverKeyInfo(gameId: string, serverKeyHash: string): Promise<KeyInfo | 'invalid'> {
        const cacheKey = `${serverKeyHash}/${gameId}`;
        const cached = serverKeys.get(cacheKey);
        if (cached !== undefined) return cached;
        const reply = await canister.call('resolve_server_key', { gameId, serverKeyHash });
        if ('err' in reply && reply.err.status === 503) throw canisterFailure(reply.err);
        const info = 'ok' in reply ? reply.ok : 'invalid';
        if (info === 'invalid' || info.isActive) serverKeys.set(cacheKey, info);
        return info;
    }

    /** The server key of a Bearer header (any other credential sent along is 400). */
    async function server(req: Request): Promise<ServerCaller> {
        const token = bearer(req);
        if (token === undefined) {
            if (header(req, 'X-API-Key') !== undefined || carriesSession(req))
                throw new ApiFailure(401, SERVER_AUTH.clientOnFeed);
            throw new ApiFailure(401, SERVER_AUTH.needed);
        }
        if (header(req, 'X-API-Key') !== undefined || carriesSession(req))
            throw new ApiFailure(400, SERVER_AUTH.sendOne);
        if (API_KEY.test(token)) throw new ApiFailure(401, SERVER_AUTH.apiKeyAsBearer);
        const gameId = SERVER_KEY.exec(token)?.[1];
        if (gameId === undefined) throw new ApiFailure(401, MESSAGES.invalidServerKey);
        const named = header(req, 'X-Game-ID');
        if (named !== undefined && named !== gameId)
            throw new ApiFailure(400, `X-Game-ID '${named}' does not match the game of the server key ('${gameId}')`);
        const serverKeyHash = hashToken(token);
        const info = await serverKeyInfo(gameId, serverKeyHash);
        if (info === 'invalid') throw new ApiFailure(401, MESSAGES.invalidServerKey);
        if (!info.isActive) throw new ApiFailure(403, MESSAGES.gameDeactivated);
        return { kind: 'server', gameId, serverKeyHash };
    }

    /** Routes for clients only: a Bearer is refused there, whatever it holds (along with a session: send one). */
    function refuseBearer(req: Request): void {
        if (hasBearer(req))
            throw carriesSession(req)
                ? new ApiFailure(400, SERVER_AUTH.sendOne)
                : new ApiFailure(401, SERVER_AUTH.notHere);
    }

    async function apiKey(req: Request): Promise<KeyCaller> {
        const key = header(req, 'X-API-Key');
        if (key !== undefined && SERVER_KEY.test(key)) throw new ApiFailure(401, SERVER_AUTH.asApiKey);
        const gameId = header(req, 'X-Game-ID');
        if (key === undefined) throw new ApiFailure(401, MESSAGES.missingApiKey);
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

    /**
     * A live session. `keyAlong`: an X-API-Key sent too is taken if it is of the session's game
     * (the session decides who is calling; the key is not looked up), else refused.
     */
    async function session(req: Request, keyAlong = false): Promise<SessionCaller> {
        refuseBearer(req);
        const token = header(req, 'X-Session-Token');
        if (token === undefined) throw new ApiFailure(401, 'This endpoint needs a signed-in player (X-Session-Token)');
        // 401/403 on a session request mean a dead session (clients sign out): other problems are 400.
        const key = header(req, 'X-API-Key');
        if (key !== undefined && !keyAlong) throw new ApiFailure(400, 'Send X-Session-Token or X-API-Key, not both');
        const gameId = header(req, 'X-Game-ID');
        if (gameId === undefined) throw new ApiFailure(400, 'X-Game-ID is required with X-Session-Token');
        if (key !== undefined && API_KEY.exec(key)?.[1] !== gameId)
            throw new ApiFailure(400, `X-API-Key sent with X-Session-Token is not an API key of the game '${gameId}'`);
        if (!SESSION_TOKEN.test(token)) throw new ApiFailure(401, MESSAGES.deadSession);
        const sessionHash = hashToken(token);
        const cacheKey = `${sessionHash}/${gameId}`;
        let reply = sessions.get(cacheKey);
        if (reply === undefined) {
            reply = await canister.call('resolve_session', { sessionHash, gameId });
            // A game that moves (503) is no answer about the session: asked again next time.
            if (!('err' in reply) || reply.err.status !== 503) sessions.set(cacheKey, reply);
        }
        if ('err' in reply) throw canisterFailure(reply.err);
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
        keyOrSession: (req) => (hasBearer(req) ? server(req) : carriesSession(req) ? session(req, true) : apiKey(req)),
        server,
        session: (req) => session(req),
        async gameOnly(req) {
            refuseBearer(req);
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
export function credentialOf(caller: Caller, playerId: string): PlayerCredential {
    switch (caller.kind) {
        case 'apiKey':
            return { apiKey: caller.apiKey, playerId };
        case 'server':
            return { serverKeyHash: caller.serverKeyHash, playerId };
        case 'session':
            return { sessionHash: caller.sessionHash };
    }
}

/** The credential of a write that names no player (ending a play session). */
export function gameCredential(
    caller: Caller,
): { apiKey: string } | { sessionHash: string } | { serverKeyHash: string } {
    switch (caller.kind) {
        case 'apiKey':
            return { apiKey: caller.apiKey };
        case 'server':
            return { serverKeyHash: caller.serverKeyHash };
        case 'session':
            return { sessionHash: caller.sessionHash };
    }
}
