// How one method call runs: admitted by the guards, its use case run, its writes flushed and its
// instructions counted after an update, and `{"ok": ...}` or `{"err": {status, message}}` replied.
import { msgReply, performanceCounter } from 'azle';

import { METHODS, type Method, type ReplyOf, type RequestOf, type Result } from '../../contract/canister';
import { replyBytes } from '../codecs';
import { Fail } from '../domain/fail';
import * as capacity from '../service/capacity';
import { flushCallWrites } from '../service/flush';
import type { Ctx, Untrusted } from '../state/context';
import { admitted } from './guards';
import { touched } from './renders';
import { ctx } from './state';

/**
 * How a packed method's request is read and its reply written (packed-ranks.ts), or the request
 * of one taking bytes (shard-chunks.ts); absent: JSON text.
 */
export interface Wire {
    request: (arg: Uint8Array) => object;
    reply: (reply: Result<unknown>) => Uint8Array;
}

/** A method's use case: what it does with the canister's state and its (unchecked) request. */
export type UseCase<M extends Method> = (ctx: Ctx, req: Untrusted<RequestOf<M>>) => ReplyOf<M> | Promise<ReplyOf<M>>;
/** The use case of every method of the contract's table. */
export type UseCases = { [M in Method]: UseCase<M> };

/**
 * Runs one method: checks the caller against the method's declared access, reads the JSON
 * request (a packed one: packed-ranks.ts), replies `{"ok": ...}` or `{"err": {status, message}}`. An answer at hand is sent in
 * the same message (no await: a method that never awaits costs what it did); a promise (a method
 * awaiting other canisters) is answered once it settles: the caller and the argument are read
 * before its first await, and `actingDeveloper` holds only until then. A rejected inter-canister
 * call is a Fail (503). Anything thrown but a Fail is a bug: it traps, and the IC rolls the whole
 * message back.
 */
export function handle<M extends Method>(method: M, useCase: UseCase<M>, wire?: Wire): void | Promise<void> {
    let reply: Result<ReplyOf<M>>;
    const update = METHODS[method].kind === 'update';
    try {
        const req = admitted(method, wire?.request);
        const out = useCase(ctx, req as Untrusted<RequestOf<M>>);
        if (out instanceof Promise) return settleLater(method, req, out, wire);
        reply = { ok: out };
        if (update) touched(method, req as Record<string, unknown>, reply.ok);
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        reply = { err: e.toApiError() };
    } finally {
        ctx.actingDeveloper = undefined;
    }
    finish(update, reply, wire);
}

async function settleLater<M extends Method>(
    method: M,
    req: object,
    out: Promise<ReplyOf<M>>,
    wire: Wire | undefined,
): Promise<void> {
    let reply: Result<ReplyOf<M>>;
    try {
        reply = { ok: await out };
        touched(method, req as Record<string, unknown>, reply.ok);
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        reply = { err: e.toApiError() };
    }
    finish(METHODS[method].kind === 'update', reply, wire);
}

/** Replies; after an update first writes the call's buffered writes and counts its instructions. */
function finish(update: boolean, reply: Result<unknown>, wire: Wire | undefined): void {
    // After every update, so nothing is lost to an upgrade (a player counted but not written
    // would have their slot handed out again; one whose slot is not written would not be rebuilt).
    if (update) {
        flushCallWrites(ctx);
        capacity.noteInstructions(ctx, Number(performanceCounter(0)));
    }
    msgReply(wire === undefined ? replyBytes(reply) : wire.reply(reply));
}
