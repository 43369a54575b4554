// What every developer operation is: its input's schema (the contract's, where the JSON API has
// one) and one canister call from the checked input, its reply mapped. The dashboard's form
// actions (gateway/dashboard/actions/) and its JSON API (gateway/routes/dashboard-*.ts) both run
// these; each keeps only its own part: a form's fields and its redirect, or a JSON status and body.
import type { z } from 'zod';

import type { Method, Relayed, ReplyOf, Result } from '../../contract/canister';
import type { CanisterClient } from '../ic/canister';
import { ApiFailure, canisterFailure } from '../http/errors';
import { parseBody } from '../http/validation';
import type { DeliveryOptions } from '../webhooks/deliver';

/** What an operation reaches: the canister, and how this gateway reaches webhook endpoints. */
export interface Backend {
    canister: CanisterClient;
    webhookDelivery: DeliveryOptions;
}

/** The developer's session and one of their games, as every per-game method takes them. */
export interface DevGame {
    sessionHash: string;
    gameId: string;
}

export interface Operation<I, D, R> {
    /** The input's schema (contract/dashboard-schemas.ts); absent: the canister checks every field. */
    input?: z.ZodType<I>;
    /** The canister call of the checked input, its reply mapped to the operation's answer. */
    run(backend: Backend, dev: D, input: I): Promise<Result<R>>;
}

/** An operation, its types inferred from its schema and its `run`. */
export const operation = <I, D, R>(op: Operation<I, D, R>): Operation<I, D, R> => op;

/**
 * An operation that is the canister method itself: the input (checked by `input` when given,
 * else by the canister) with the developer's ids, the reply as it comes.
 */
export const method = <M extends Method, D extends object = DevGame, I = Relayed<M>>(
    name: M,
    input?: z.ZodType<I>,
): Operation<I, D, ReplyOf<M>> => ({
    input,
    run: ({ canister }, dev, i) => canister.relay(name, { ...(i as object), ...dev }),
});

/** An operation on input as sent (a form's fields): checked by its schema first, as a JSON body is. */
export async function perform<I, D, R>(
    op: Operation<I, D, R>,
    backend: Backend,
    dev: D,
    sent: unknown,
): Promise<Result<R>> {
    let input: I;
    try {
        input = op.input === undefined ? (sent as I) : parseBody(op.input, sent);
    } catch (error) {
        // parseBody refuses with a 400 naming the field, as the JSON API answers.
        if (error instanceof ApiFailure) return { err: { status: 400, message: error.message } };
        throw error;
    }
    return op.run(backend, dev, input);
}

/** A JSON route's answer: the reply, or its `{err}` thrown (gateway/errors.ts gives its status). */
export async function replyOf<R>(result: Promise<Result<R>>): Promise<R> {
    const r = await result;
    if ('err' in r) throw canisterFailure(r.err);
    return r.ok;
}
