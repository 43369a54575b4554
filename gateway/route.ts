// One endpoint of the HTTP API as data: method, path, credentials, input schemas, the schema of
// its response `data`, and its handler. The app serves the routes (gateway/routes/index.ts) and
// the API reference (/openapi.json, /docs) is generated from the same list.
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';

import type { SubmitRequest, Result } from '../contract/canister';
import { MESSAGES } from '../contract/messages';
import { parseQuery } from '../contract/rules';
import type { SubmitReply } from '../contract/schemas';
import type { KeyAccess, KeyResolver } from './auth';
import type { TtlCache } from './cache';
import type { CanisterClient } from './canister';
import { ApiFailure, sendData, sendError } from './errors';
import { parseBody } from './validation';

export const MAX_BODY = '64kb';

/**
 * Who may call a route: anyone, a game's API key (X-API-Key; X-Game-ID optional), or a
 * signed-in player (X-Session-Token; until sign-in exists every session is unknown, so 401).
 */
export type Auth = 'none' | 'apiKey' | 'session';

/** What handlers share: the canister, key resolution, the read cache, the submit batcher. */
export interface RouteContext {
    canister: CanisterClient;
    keys: KeyResolver;
    /** Board reads, for about 30 s (R2); a TTL of 0 turns it off. */
    reads: TtlCache<unknown>;
    submit(request: SubmitRequest): Promise<Result<SubmitReply>>;
}

/** A path parameter: its shape (checked before credentials: 400 before reaching the backend) and meaning. */
export interface PathParam {
    pattern: RegExp;
    description: string;
    /** Its name in error messages, when not the parameter's own. */
    label?: string;
    /** Only described, not checked here (e.g. archive ids: an unknown one is a 404 of the canister's). */
    unchecked?: boolean;
}

export interface RouteInput<B> {
    req: Request;
    /** The validated body (routes without a body schema get undefined). */
    body: B;
    /** Path parameters, %-decoded, checked against their declared patterns. */
    params: Record<string, string>;
    /** The raw query string (after `?`), and its parameters. */
    search: string;
    query: Map<string, string[]>;
    /** The caller's API key and its game (routes with auth 'apiKey'). */
    key: KeyAccess;
}

export interface Route<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
    method: 'get' | 'post' | 'put';
    /** OpenAPI template: `{name}` is a path parameter. */
    path: string;
    /** Anchor of the operation in the reference (/docs#<id>). */
    id: string;
    summary: string;
    /** More, in plain text, with the contract's rule ids where they apply. */
    description?: string;
    auth: Auth;
    params?: Record<string, PathParam>;
    /** Query parameters, for the reference. */
    query?: z.ZodObject;
    body?: B;
    /** The response's `data`. */
    data: D;
    /** Error statuses beyond the ones every route of its auth can give, with when. */
    errors?: Record<number, string>;
    handle(ctx: RouteContext, input: RouteInput<z.output<B>>): Promise<z.output<D>>;
}

/** A route, with the body type inferred from its schema. */
export function route<B extends z.ZodType = z.ZodUndefined, D extends z.ZodType = z.ZodType>(r: Route<B, D>): Route {
    return r as unknown as Route;
}

/** Routes that take a body parse it as JSON whatever the Content-Type says (not every engine sets it). */
const jsonBody = express.json({ limit: MAX_BODY, type: () => true, strict: false });

/** `/players/{playerId}/profile` -> `/players/:playerId/profile` (Express's syntax). */
export const expressPath = (template: string): string => template.replace(/\{(\w+)\}/g, ':$1');

/** The Express handlers that serve a route: credentials first, then the body, then the handler. */
export function serve(ctx: RouteContext, r: Route): RequestHandler[] {
    const run: RequestHandler = (req: Request, res: Response) => {
        (async () => {
            const params = Object.assign(
                Object.create(null) as Record<string, string>,
                req.params as Record<string, string>,
            );
            for (const [name, p] of Object.entries(r.params ?? {})) {
                if (!p.unchecked && !p.pattern.test(params[name])) {
                    throw new ApiFailure(400, `Invalid ${p.label ?? name} in path: must match ${p.pattern.source}`);
                }
            }
            if (r.auth === 'session')
                throw new ApiFailure(
                    401,
                    req.get('X-Session-Token')
                        ? MESSAGES.deadSession
                        : 'This endpoint needs a signed-in player (X-Session-Token)',
                );
            const key = r.auth === 'apiKey' ? await ctx.keys.resolve(req) : (undefined as unknown as KeyAccess);
            const body = r.body === undefined ? undefined : parseBody(r.body, req.body);
            const q = req.originalUrl.indexOf('?');
            const search = q < 0 ? '' : req.originalUrl.slice(q + 1);
            return r.handle(ctx, { req, body, params, search, query: parseQuery(search), key });
        })().then(
            (data) => sendData(res, data),
            (error: unknown) => sendError(res, error),
        );
    };
    return r.body === undefined ? [run] : [jsonBody, run];
}

/** A canister read through the board-read cache (R2: about 30 s). */
export async function cachedRead<T>(ctx: RouteContext, key: string, read: () => Promise<T>): Promise<T> {
    const hit = ctx.reads.get(key) as T | undefined;
    if (hit !== undefined) return hit;
    const value = await read();
    ctx.reads.set(key, value);
    return value;
}

/** A game named in a body or path must be the key's game. */
export function sameGame(keyGame: string, named: string | undefined, where: string): void {
    if (named !== undefined && named !== keyGame) {
        throw new ApiFailure(400, `${where} '${named}' does not match the game of the API key ('${keyGame}')`);
    }
}
