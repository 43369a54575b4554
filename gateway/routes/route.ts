// One endpoint of the HTTP API as data: method, path, credentials, input schemas, the schema of
// its response `data`, and its handler. The app serves the routes (gateway/routes/index.ts) and
// the API reference (/openapi.json, /docs) is generated from the same list.
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';

import type { SubmitRequest, Result } from '../../contract/canister';
import { FIELD } from '../../contract/messages';
import { PATH_ID, parsePlayerId, parseQuery } from '../../contract/rules';
import type { SubmitReply } from '../../contract/schemas';
import {
    CREDENTIAL_NAME,
    carriesSession,
    type Caller,
    type CredentialResolver,
    type ServerCaller,
    type SessionCaller,
} from './auth';
import type { FeedWatcher } from '../ic/feed-watcher';
import type { TtlCache } from '../http/cache';
import type { ClientLimit } from '../http/client-limit';
import type { CanisterClient } from '../ic/canister';
import type { ShardRouter } from '../ic/shards';
import { developerOf, type DeveloperSession } from '../developer/session';
import { ApiFailure, failureOf, sendData, sendError, toSessionRequest } from '../http/errors';
import { countSignInStep } from '../ops/metrics';
import type { Provider, SignInConfig } from '../sign-in/providers';
import { parseBody, tooDeep } from '../http/validation';
import type { AddressPolicy } from '../webhooks/address-policy';
import type { DeliveryOptions } from '../webhooks/deliver';

export const MAX_BODY = '64kb';
/** Arrays and objects in a JSON body nest at most this deep (every schema needs 2): nothing deeper reaches recursive code. */
export const MAX_JSON_DEPTH = 16;

/**
 * Who may call a route: anyone; a game client, by its API key (X-API-Key, X-Game-ID optional) or
 * a signed-in player's session (X-Session-Token with X-Game-ID), or the game's server by its
 * server key (Authorization: Bearer); a signed-in player only; just X-Game-ID (sign-in start);
 * the game's server key only (the feed); or a developer signed in to the dashboard (its session
 * cookie; writes also X-CSRF-Token).
 */
export type Auth = 'none' | 'keyOrSession' | 'session' | 'game' | 'server' | 'developer';

/** What each kind of route knows about its caller. */
export interface CallerOf {
    none: undefined;
    keyOrSession: Caller;
    session: SessionCaller;
    game: { gameId: string };
    server: ServerCaller;
    developer: DeveloperSession;
}

/** What handlers share: the canister, key resolution, the read cache, the submit batcher. */
export interface RouteContext {
    /** Every method sent to the canister it belongs to (gateway/ic/shards.ts). */
    canister: CanisterClient;
    /** Where games live: a game's own canister (`forGame`), the directory, every canister. */
    router: ShardRouter;
    credentials: CredentialResolver;
    /** Reports per public client address and minute, on the gateway's clock (POST .../reports). */
    reportLimit: ClientLimit;
    /** Board reads, for about 30 s (R2); a TTL of 0 turns it off. */
    reads: TtlCache<unknown>;
    submit(request: SubmitRequest): Promise<Result<SubmitReply>>;
    /** Long polling of the event feed. */
    feed: FeedWatcher;
    signIn: SignInConfig;
    providerNamed(name: string): Provider | undefined;
    /** How this gateway delivers webhooks (its address policy, DNS, timeouts): "send a test event". */
    webhookDelivery: DeliveryOptions;
    /** Which webhook URLs a developer may save (WEBHOOK_ALLOW; the same policy delivery enforces). */
    webhookPolicy: AddressPolicy;
    /** The direct-read URL of a game's own canister when it is not {canister_url} (GET /game). */
    canisterUrlOf(gameId: string): Promise<string | undefined>;
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

export interface RouteInput<B, A extends Auth = Auth> {
    req: Request;
    /** The response: only routes that answer with a `file` write it themselves. */
    res: Response;
    /** The validated body (routes without a body schema get undefined). */
    body: B;
    /** Path parameters, %-decoded, checked against their declared patterns. */
    params: Record<string, string>;
    /** The raw query string (after `?`), and its parameters. */
    search: string;
    query: Map<string, string[]>;
    /** Who is calling, as the route's auth kind establishes it. */
    caller: CallerOf[A];
}

export interface Route<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType, A extends Auth = Auth> {
    method: 'get' | 'post' | 'put' | 'delete';
    /** OpenAPI template: `{name}` is a path parameter. */
    path: string;
    /** Anchor of the operation in the reference (/docs#<id>). */
    id: string;
    summary: string;
    /** More, in plain text, with the contract's rule ids where they apply. */
    description?: string;
    auth: A;
    params?: Record<string, PathParam>;
    /** Query parameters, for the reference. */
    query?: z.ZodObject;
    body?: B;
    /** A request without any body counts as `{}` (every field of `body` is optional). */
    bodyOptional?: boolean;
    /** The response's `data`. */
    data: D;
    /** Error statuses beyond the ones every route of its auth can give, with when. */
    errors?: Record<number, string>;
    handle(ctx: RouteContext, input: RouteInput<z.output<B>, A>): Promise<z.output<D>>;
    /** Answers in another form than the JSON envelope (pages); the handler then writes the response itself. */
    raw?: boolean;
    /**
     * Answers with a download of this media type instead of the JSON envelope (`data` is not
     * sent): the handler writes it to `res` as it goes. A failure before its first byte is the
     * usual JSON error; after it the connection is cut, so the client sees an incomplete download.
     */
    file?: { mediaType: string; description: string };
    /** A step of player sign-in: its answers are counted by outcome under this name (GET /metrics). */
    signInStep?: string;
}

/** A route, with the body and caller types inferred from its schema and auth kind. */
export function route<B extends z.ZodType = z.ZodUndefined, D extends z.ZodType = z.ZodType, A extends Auth = Auth>(
    r: Route<B, D, A>,
): Route {
    return r;
}

function callerOf(ctx: RouteContext, auth: Auth, req: Request): Promise<CallerOf[Auth]> {
    switch (auth) {
        case 'none':
            return Promise.resolve(undefined);
        case 'keyOrSession':
            return ctx.credentials.keyOrSession(req);
        case 'session':
            return ctx.credentials.session(req);
        case 'game':
            return ctx.credentials.gameOnly(req);
        case 'server':
            return ctx.credentials.server(req);
        case 'developer':
            return Promise.resolve(developerOf(req, ctx.signIn));
    }
}

/** Routes that take a body parse it as JSON whatever the Content-Type says (not every engine sets it). */
const jsonBody = express.json({ limit: MAX_BODY, type: () => true, strict: false });
const depthCap: RequestHandler = (req, _res, next) =>
    next(tooDeep(req.body, MAX_JSON_DEPTH) ? new ApiFailure(400, 'Invalid JSON body: nested too deep') : undefined);

/** `/players/{playerId}/profile` -> `/players/:playerId/profile` (Express's syntax). */
export const expressPath = (template: string): string => template.replace(/\{(\w+)\}/g, ':$1');

/** The Express handlers that serve a route: credentials first, then the body, then the handler. */
export function serve(ctx: RouteContext, r: Route): RequestHandler[] {
    const run: RequestHandler = (req: Request, res: Response, next) => {
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
            const caller = await callerOf(ctx, r.auth, req);
            const sent: unknown = req.body === undefined && r.bodyOptional === true ? {} : req.body;
            const body = r.body === undefined ? undefined : parseBody(r.body, sent);
            const q = req.originalUrl.indexOf('?');
            const search = q < 0 ? '' : req.originalUrl.slice(q + 1);
            return r.handle(ctx, { req, res, body, params, search, query: parseQuery(search), caller });
        })()
            .then(
                (data) => {
                    if (r.file === undefined) sendData(res, data);
                    else if (!res.writableEnded && !res.destroyed) res.end();
                },
                (error: unknown) => {
                    if (!res.headersSent)
                        return sendError(res, carriesSession(req) ? toSessionRequest(failureOf(error)) : error);
                    console.error(`gateway: ${r.id} stopped after its first byte:`, failureOf(error).message);
                    res.destroy();
                },
            )
            // An answer that cannot be written (e.g. a reply JSON cannot encode) goes to Express's error handling.
            .catch(next);
    };
    const handlers = r.body === undefined ? [run] : [jsonBody, depthCap, run];
    const step = r.signInStep;
    if (step === undefined) return handlers;
    // Marked first: a body refused before the handler still counts as the step's outcome.
    const mark: RequestHandler = (_req, res, next) => {
        countSignInStep(res, step);
        next();
    };
    return [mark, ...handlers];
}

/** A canister read through the board-read cache (R2: about 30 s). */
export async function cachedRead<T>(ctx: RouteContext, key: string, read: () => Promise<T>): Promise<T> {
    const hit = ctx.reads.get(key) as T | undefined;
    if (hit !== undefined) return hit;
    const value = await read();
    ctx.reads.set(key, value);
    return value;
}

/**
 * The player a write acts as: the body's playerId with an API key or the server key (required
 * then); with a session the canister uses the account's player and a body playerId is ignored.
 */
export function writerOf(caller: Caller, playerId: string | undefined): string {
    if (caller.kind === 'session') return playerId ?? '';
    if (playerId === undefined) throw new ApiFailure(400, 'Invalid playerId: is required');
    return playerId;
}

/** The player a read is about: the signed-in one with a session (rule K2), else the one the request names. */
export const playerOf = (caller: Caller, named: string): string =>
    caller.kind === 'session' ? caller.playerId : named;

/** The player a read by `?playerId=` is about: the signed-in one with a session (rule K2), else the query's (required). */
export function queriedPlayer(caller: Caller, query: Map<string, string[]>): string {
    if (caller.kind === 'session') return caller.playerId;
    const parsed = parsePlayerId(query);
    if ('error' in parsed) throw new ApiFailure(400, parsed.error);
    return parsed.ok;
}

/** The session a session route's call names: the session and its game. */
export const sessionOf = (caller: CallerOf['session']): { sessionHash: string; gameId: string } => ({
    sessionHash: caller.sessionHash,
    gameId: caller.gameId,
});

/** A board's path parameter (named `scoreboardId` in messages, as in bodies). */
export const BOARD_ID: PathParam = { pattern: PATH_ID, label: 'scoreboardId', description: FIELD.scoreboardId };

/** The path parameters of a route on one board. */
export const BOARD_PARAMS = {
    gameId: { pattern: PATH_ID, description: 'the game' },
    boardId: BOARD_ID,
} satisfies Record<string, PathParam>;

/** A game named in a body or path must be the credential's game. */
export function sameGame(caller: Caller | { gameId: string }, named: string | undefined, where: string): void {
    if (named !== undefined && named !== caller.gameId) {
        const of = 'kind' in caller ? `the ${CREDENTIAL_NAME[caller.kind]}` : 'the request';
        throw new ApiFailure(400, `${where} '${named}' does not match the game of ${of} ('${caller.gameId}')`);
    }
}
