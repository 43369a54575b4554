// Errors are values: every failure becomes an ApiFailure, and one function turns it into the
// status and `{ok: false, error}` envelope the contract promises.
import type { Response } from 'express';

import type { Status as CanisterStatus } from '../contract/canister';

/** Every status the API answers with: the canister's, and the gateway's own. */
export type Status = CanisterStatus | 405 | 413 | 500;

export class ApiFailure extends Error {
    constructor(
        readonly status: Status,
        message: string,
    ) {
        super(message);
    }
}

export function sendError(res: Response, error: unknown): void {
    const failure = error instanceof ApiFailure ? error : new ApiFailure(500, 'Internal error');
    if (!(error instanceof ApiFailure)) console.error('gateway: unexpected error:', error);
    res.status(failure.status).json({ ok: false, error: failure.message });
}

export function sendData(res: Response, data: unknown): void {
    res.status(200).json({ ok: true, data });
}
