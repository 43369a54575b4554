// What route handlers share: the canister, key resolution, the read cache, the submit batcher,
// and the wrapper that turns a handler's value or failure into the response envelope.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

import type { SubmitReply, SubmitRequest } from '../canister/api';
import type { Reply } from '../canister/interface';
import type { KeyResolver } from './auth';
import type { TtlCache } from './cache';
import type { CanisterClient } from './canister';
import { sendData, sendError } from './errors';

export const MAX_BODY = '64kb';

/** Routes that take a body parse it as JSON whatever the Content-Type says (not every engine sets it). */
export const jsonBody = express.json({ limit: MAX_BODY, type: () => true, strict: false });

export interface RouteContext {
    canister: CanisterClient;
    keys: KeyResolver;
    /** Board reads, for about 30 s (R2); a TTL of 0 turns it off. */
    reads: TtlCache<unknown>;
    submit(request: SubmitRequest): Promise<Reply<SubmitReply>>;
}

/** An Express handler from a function that returns the response's `data` (or throws an ApiFailure). */
export function handle(fn: (req: Request) => Promise<unknown>): RequestHandler {
    return (req: Request, res: Response, _next: NextFunction) => {
        fn(req).then(
            (data) => sendData(res, data),
            (error: unknown) => sendError(res, error),
        );
    };
}

/** A canister read through the board-read cache. */
export async function cachedRead<T>(ctx: RouteContext, key: string, read: () => Promise<T>): Promise<T> {
    const hit = ctx.reads.get(key) as T | undefined;
    if (hit !== undefined) return hit;
    const value = await read();
    ctx.reads.set(key, value);
    return value;
}
