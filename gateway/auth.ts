// Credentials from headers only (never query strings): the API key names the game
// (key_<gameId>_<digits>); X-Game-ID is optional and must agree with it. The key is checked
// with the canister and remembered for a few seconds (KEY_TTL_MS): reads may trail a rotation
// or deactivation by that much; writes never do, as they carry the key to the canister, which
// checks it again in the same call.
import type { Request } from 'express';

import type { KeyInfo } from '../contract/canister';
import { MESSAGES } from '../contract/messages';
import { API_KEY } from '../contract/rules';
import { ttlCache } from './cache';
import type { CanisterClient } from './canister';
import { ApiFailure } from './errors';

export interface Credentials {
    apiKey?: string;
    gameId?: string;
    session?: string;
}

export function credentials(req: Request): Credentials {
    const header = (name: string): string | undefined => {
        const value = req.get(name)?.trim();
        return value === undefined || value === '' ? undefined : value;
    };
    return { apiKey: header('X-API-Key'), gameId: header('X-Game-ID'), session: header('X-Session-Token') };
}

/** A request's API key and the game it belongs to. */
export interface KeyAccess {
    gameId: string;
    apiKey: string;
}

export interface KeyResolver {
    /** The request's key and its game, or a 400/401/403 ApiFailure; writes carry the key on to the canister. */
    resolve(req: Request): Promise<KeyAccess>;
}

/** How long a key lookup is trusted for reads (writes are checked by the canister anyway). */
const KEY_TTL_MS = 5_000;

export function keyResolver(canister: CanisterClient, ttlMs = KEY_TTL_MS, clock?: () => number): KeyResolver {
    const known = ttlCache<KeyInfo | 'invalid'>(ttlMs, undefined, clock);
    async function lookup(apiKey: string): Promise<KeyInfo | 'invalid'> {
        const cached = known.get(apiKey);
        if (cached !== undefined) return cached;
        const reply = await canister.call('resolve_key', { apiKey });
        const info = 'ok' in reply ? reply.ok : 'invalid';
        known.set(apiKey, info, ttlMs);
        return info;
    }
    async function resolve(req: Request): Promise<KeyAccess> {
        const { apiKey, gameId, session } = credentials(req);
        if (apiKey === undefined) {
            // Sign-in (device codes) is not offered yet: any session token is unknown, i.e. dead.
            if (session !== undefined) throw new ApiFailure(401, MESSAGES.deadSession);
            throw new ApiFailure(401, MESSAGES.missingApiKey);
        }
        const embedded = API_KEY.exec(apiKey)?.[1];
        if (embedded === undefined) throw new ApiFailure(401, MESSAGES.invalidApiKey);
        if (gameId !== undefined && gameId !== embedded) {
            throw new ApiFailure(400, `X-Game-ID '${gameId}' does not match the game of the API key ('${embedded}')`);
        }
        const info = await lookup(apiKey);
        if (info === 'invalid') throw new ApiFailure(401, MESSAGES.invalidApiKey);
        if (!info.isActive) throw new ApiFailure(403, MESSAGES.gameDeactivated);
        return { gameId: info.gameId, apiKey };
    }
    return { resolve };
}
