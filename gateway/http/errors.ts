// Errors are values: every failure becomes an ApiFailure, and one function turns it into the
// status and `{ok: false, error}` envelope the contract promises.
import type { Response } from 'express';

import type { ApiError, Status as CanisterStatus } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';

/** Every status the API answers with: the canister's, and the gateway's own. */
export type Status = CanisterStatus | 405 | 413 | 500;

/** A canister's reject as the agent reports it: the IC's reject code (5: the canister's error) and its error code and text. */
export interface CanisterReject {
    code: number;
    errorCode?: string;
    message: string;
}

export class ApiFailure extends Error {
    constructor(
        readonly status: Status,
        message: string,
        /** Seconds for the `Retry-After` header (a game that is moving, a canister out of reach). */
        readonly retryAfter?: number,
        /** The canister's reject behind a 503 (absent: the canister answered, or was not reached). */
        readonly reject?: CanisterReject,
    ) {
        super(message);
    }
}

/** The reference's words for the 503 a new player meets on a canister past its heap line (canister/service/capacity.ts). */
export const SHARD_FULL_ERROR =
    'a new player of a game whose canister is full (`Retry-After`: an hour); players who already played are not refused';

/** A canister's `{err}` as the failure the client gets. */
export function canisterFailure(err: ApiError): ApiFailure {
    return new ApiFailure(err.status, err.message, err.retryAfter);
}

/**
 * What a failure is for the client: an ApiFailure as it is; what Express and its body parsers
 * reject (bad JSON, too large, bad %-encoding) as a 400 or 413; anything else a logged 500.
 */
export function failureOf(error: unknown): ApiFailure {
    if (error instanceof ApiFailure) return error;
    const { type, status, limit } = (error ?? {}) as { type?: unknown; status?: unknown; limit?: unknown };
    if (typeof type === 'string' && typeof status === 'number') {
        if (type === 'entity.parse.failed') return new ApiFailure(400, 'Invalid JSON body');
        if (type === 'entity.too.large')
            return new ApiFailure(413, `Request body is larger than ${Math.round(Number(limit) / 1024)}kb`);
        return new ApiFailure(400, 'Invalid request body');
    }
    // Express marks input it cannot decode (e.g. bad %-encoding in the path) with status 400.
    if (status === 400) return new ApiFailure(400, 'Invalid request: malformed URL encoding');
    console.error('gateway: unexpected error:', error);
    return new ApiFailure(500, 'Internal error');
}

/**
 * The failure as the answer to a request that carries X-Session-Token: every official client
 * takes 401 or 403 there for a dead session and signs its player out (rule K2), so they are kept
 * for a dead session only; any other refusal (a deactivated game, a credential the route does not
 * take) is a 400 with the same words.
 */
export function toSessionRequest(failure: ApiFailure): ApiFailure {
    if (failure.status !== 401 && failure.status !== 403) return failure;
    if (failure.status === 401 && failure.message === MESSAGES.deadSession) return failure;
    return new ApiFailure(400, failure.message, failure.retryAfter);
}

export function sendError(res: Response, error: unknown): void {
    const failure = failureOf(error);
    if (failure.retryAfter !== undefined) res.setHeader('Retry-After', String(failure.retryAfter));
    res.status(failure.status).json({ ok: false, error: failure.message });
}

export function sendData(res: Response, data: unknown): void {
    res.status(200).json({ ok: true, data });
}

/** `Retry-After` of the 503 a client gets when the canister cannot be reached or rejects the call. */
export const UNAVAILABLE_RETRY_SECONDS = 2;
/** `Retry-After` of the 503 of a frozen canister: topping it up takes an operator (the directory checks every 6 hours). */
export const OUT_OF_CYCLES_RETRY_SECONDS = 300;

/** The IC's reject of a call to a canister below its freezing threshold (updates and queries alike). */
export const outOfCycles = (reject: CanisterReject | undefined): boolean => reject?.errorCode === 'IC0207';

/** The 503 a failed canister call becomes: why, when it is known, and when to try again. */
export function unavailable(reject: CanisterReject | undefined): ApiFailure {
    return outOfCycles(reject)
        ? new ApiFailure(503, MESSAGES.outOfCycles, OUT_OF_CYCLES_RETRY_SECONDS, reject)
        : new ApiFailure(503, MESSAGES.unavailable, UNAVAILABLE_RETRY_SECONDS, reject);
}
