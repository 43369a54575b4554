// The one error of the service: a status (as the HTTP API answers it), a message, and for a
// game that is moving or elsewhere, when to retry and whether to ask the directory. Anything
// else thrown is a bug: it traps, and the IC rolls the whole message back.
import type { ApiError, Status } from '../../contract/canister';

export class Fail extends Error {
    constructor(
        readonly status: Status,
        message: string,
        readonly extra: Pick<ApiError, 'retryAfter' | 'moved'> = {},
    ) {
        super(message);
    }

    /** The error as a method answers it. */
    toApiError(): ApiError {
        return { status: this.status, message: this.message, ...this.extra };
    }
}
