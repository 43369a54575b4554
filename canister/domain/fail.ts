// The one error of the service: a status (as the HTTP API answers it) and a message. Anything
// else thrown is a bug: it traps, and the IC rolls the whole message back.
import type { Status } from '../../contract/canister';

export class Fail extends Error {
    constructor(
        readonly status: Status,
        message: string,
    ) {
        super(message);
    }
}
