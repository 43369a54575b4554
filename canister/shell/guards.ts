// What every method passes before its own work: the caller against the row's `access`, the JSON
// request read, `actingDeveloper` honoured only from a shard's directory, and the gate of moving
// and moved games (the row's `moves`).
import { Principal, isController, msgArgData, msgCaller } from 'azle';

import { callerBytes } from '../azle-ic';
import { METHODS, type Access, type Method, type MethodRow } from '../../contract/canister';
import { latin1 } from '../candid-text';
import { bytesToText } from '../codecs';
import { Fail } from '../domain/fail';
import * as directory from '../service/directory';
import * as moveGate from '../service/move-gate';
import { ctx } from './state';

/**
 * The registered gateways, as their principals' bytes' characters (a caller is told by one native
 * conversion and a lookup, never by writing it as text: ~0.85 M instructions of base32 and CRC),
 * and the operators' principals as text.
 */
let gatewayBytes = new Set<string>();
let operators = new Set<string>();

/** Keeps the lists of gateways and operators (stable meta) and answers by them from now on. */
export function setAccessLists(lists: { gateways?: string[]; operators?: string[] }): void {
    if (lists.gateways !== undefined) ctx.store.meta.set('gateways', lists.gateways);
    if (lists.operators !== undefined) ctx.store.meta.set('operators', lists.operators);
    gatewayBytes = new Set((ctx.store.meta.get('gateways') ?? []).flatMap(principalBytes));
    operators = new Set(ctx.store.meta.get('operators') ?? []);
}

const REFUSED: Record<Access, string> = {
    public: '',
    gateway: 'This method is only for registered gateways and controllers',
    operator: 'This method is only for operators and controllers',
    gatewayOrOperator: 'This method is only for registered gateways, operators and controllers',
    controller: 'This method is only for controllers',
    shard: "This method is only for this directory's shards",
    directory: "This method is only for this shard's directory",
};

function authorized(access: Access): boolean {
    if (access === 'public') return true;
    const bytes = callerBytes();
    if ((access === 'gateway' || access === 'gatewayOrOperator') && gatewayBytes.has(latin1(bytes))) return true;
    const caller = Principal.fromUint8Array(bytes);
    // Between a directory and its own shards only (no controller, no operator).
    if (access === 'shard')
        return (
            ctx.isShard !== true && (ctx.store.meta.get('shards') ?? []).some((s) => s.canisterId === caller.toText())
        );
    if (access === 'directory') return ctx.isShard === true && ctx.store.meta.get('directory') === caller.toText();
    if (isController(caller)) return true;
    return (access === 'operator' || access === 'gatewayOrOperator') && operators.has(caller.toText());
}

/** A principal's text as gatewayBytes holds it (none for a text no principal has: it matches no caller). */
function principalBytes(text: string): string[] {
    try {
        return [latin1(Principal.fromText(text).toUint8Array())];
    } catch {
        return [];
    }
}

/**
 * The caller checked against the method's declared access, the request read (JSON, or as `read`
 * says), and a moving or moved game's calls turned away (gate): what every method does before
 * its own work.
 */
export function admitted(method: Method, read?: (arg: Uint8Array) => object): object {
    const access = METHODS[method].access;
    if (!authorized(access)) throw new Fail(403, REFUSED[access]);
    const req = read === undefined ? jsonRequest(msgArgData()) : read(msgArgData());
    // (Tested here: a call costs more than the tests, and most requests pass both.)
    if (ctx.moving.size !== 0 || ctx.movedTo.size !== 0) gate(method, req as { gameId?: unknown });
    if ('actingDeveloper' in req) actAs(req);
    return req;
}

/** A request of one Candid text holding a JSON object (every method's but the packed ones'). */
function jsonRequest(arg: Uint8Array): object {
    let req: unknown;
    try {
        req = JSON.parse(bytesToText(arg));
    } catch {
        throw new Fail(400, 'The argument must be one Candid text holding JSON');
    }
    if (req === null || typeof req !== 'object' || Array.isArray(req))
        throw new Fail(400, 'The request must be a JSON object');
    return req;
}

/**
 * `actingDeveloper`: a shard acts for the developer its directory names, and only for its
 * directory (the principal in meta); any other caller naming one is refused. It holds until the
 * method's first await (`handle` clears it).
 */
function actAs(req: object): void {
    const acting = (req as { actingDeveloper: unknown }).actingDeveloper;
    const own = ctx.store.meta.get('directory');
    if (own === undefined || msgCaller().toText() !== own || typeof acting !== 'string' || acting === '')
        throw new Fail(403, "actingDeveloper is only for calls from this shard's directory");
    ctx.actingDeveloper = acting;
}

/** While a game moves or has moved (service/move/): a moving game's writes wait (503 + Retry-After), a moved game's calls answer `moved`. */
function gate(method: Method, req: { gameId?: unknown }): void {
    const { kind, moves }: MethodRow = METHODS[method];
    if (moves === 'exempt' || (moves === 'exemptWhenRemote' && directory.isRemote(ctx, req.gameId))) return;
    if (kind === 'query') moveGate.refuseMoved(ctx, req.gameId);
    else moveGate.refuseWrite(ctx, req.gameId);
    if (moves === 'waitsForAll') moveGate.refuseWhileMoving(ctx);
}
