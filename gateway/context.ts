// What route handlers share: the canister, key resolution, the read cache, the submit batcher,
// and the wrapper that turns a handler's value or failure into the response envelope.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { SubmitReply, SubmitRequest } from '../canister/api';
import type { Reply } from '../canister/interface';
import type { KeyResolver } from './auth';
import type { TtlCache } from './cache';
import type { CanisterClient } from './canister';
import { sendData, sendError } from './errors';

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
