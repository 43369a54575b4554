// Errors are values: every failure becomes an ApiFailure, and one function turns it into the
// status and `{ok: false, error}` envelope the contract promises.
import type { Response } from 'express';

export type Status = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 428 | 429 | 500 | 503;

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
