// Codes across shards: a directory asks its shards for a code it does not hold, and tells them when codes go long.
import type { DeviceCodeFound, ReplyOf, RequestOf, Result } from '../../../contract/canister';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import { checkIdentity } from '../accounts';
import { failOf } from '../directory/remote';
import {
    WRONG_CODE,
    approveDeviceCode,
    codeView,
    lookupDeviceCode,
    pendingRecord,
    typedCode,
    type Typed,
} from './codes';
import {
    LONG_CODES_US,
    MAX_TRACKED_CLIENTS,
    WINDOW_US,
    WRONG_CODES_SERVICE_WIDE,
    checkWrongCodeLimit,
    clientOf,
    countClientWrong,
    limits,
    refreshWindow,
} from './limits';

/** What a directory needs to ask its shards (the directory's Remote, service/directory/remote.ts, has it). */
export interface ShardCalls {
    call(
        canisterId: string,
        method: 'device_code_find' | 'device_code_approve' | 'set_long_codes_until',
        request: unknown,
    ): Promise<Result<unknown>>;
}

/** The shards a directory asks for a user code (ready ones, in creation order); none on a shard or a single canister. */
function shardsToAsk(ctx: Ctx): string[] {
    // Only a directory has `shards` (it creates them): one read, absent on a shard or a single canister.
    return (ctx.store.meta.get('shards') ?? []).filter((s) => s.ready !== false).map((s) => s.canisterId);
}

/** device_code_find on a shard (its directory only): the pending code's game, or 404; counts nothing. */
export function findDeviceCode(ctx: Ctx, req: Untrusted<RequestOf<'device_code_find'>>): DeviceCodeFound {
    const pending = pendingRecord(ctx, typedCode(ctx, req.userCode));
    if (pending === undefined) throw new Fail(404, WRONG_CODE);
    return codeView(ctx, pending.record);
}

/** set_long_codes_until on a shard (its directory only): new codes are long until then (the later of both). */
export function setLongCodesUntil(
    ctx: Ctx,
    req: Untrusted<RequestOf<'set_long_codes_until'>>,
): ReplyOf<'set_long_codes_until'> {
    const until = req.until;
    if (typeof until !== 'number' || !Number.isSafeInteger(until) || until < 0)
        throw new Fail(400, 'Invalid until: must be a time in microseconds');
    const l = limits(ctx);
    // No later than an hour from now: a directory's clock is the IC's, so this only bounds a bug.
    l.longCodesUntil = Math.max(l.longCodesUntil, Math.min(until, ctx.env.now() + LONG_CODES_US));
    return { longCodesUntil: l.longCodesUntil };
}

/**
 * The directory's lookup of a code it does not hold: the first shard that has it pending, in
 * the shards' order (codes are drawn per canister: two shards holding the same pending code is
 * a 1-in-10^6 event per 10,000 pending codes; both lookup and approve then take the first).
 * The client is counted once before the await (a burst of parallel guesses cannot pass the
 * per-client limit while the shards are asked), and forgiven when a shard has the code.
 */
async function findOnShards(
    ctx: Ctx,
    remote: ShardCalls,
    shards: string[],
    userCode: string | undefined,
    who: string,
): Promise<{ shard: string; found: DeviceCodeFound }> {
    const l = limits(ctx);
    const window = l.window;
    const tracked = l.wrongByClient.has(who) || l.wrongByClient.size < MAX_TRACKED_CLIENTS;
    if (tracked) l.wrongByClient.set(who, (l.wrongByClient.get(who) ?? 0) + 1);
    const forgive = (): void => {
        const count = l.wrongByClient.get(who);
        if (tracked && l.window === window && count !== undefined)
            if (count > 1) l.wrongByClient.set(who, count - 1);
            else l.wrongByClient.delete(who);
    };
    if (userCode !== undefined) {
        let replies: Array<Result<unknown>>;
        try {
            replies = await Promise.all(shards.map((id) => remote.call(id, 'device_code_find', { userCode })));
        } catch (e) {
            forgive(); // not a wrong code: the shards could not be asked (503)
            throw e;
        }
        const at = replies.findIndex((r) => 'ok' in r);
        if (at >= 0) {
            forgive();
            return { shard: shards[at], found: (replies[at] as { ok: DeviceCodeFound }).ok };
        }
    }
    // A wrong code, counted once service-wide here (the client was counted above).
    refreshWindow(ctx);
    // A new minute began while the shards answered: the guess counts in it.
    if (l.window !== window) countClientWrong(l, who);
    l.wrongTotal++;
    if (l.wrongTotal >= WRONG_CODES_SERVICE_WIDE) {
        const now = ctx.env.now();
        l.longCodesUntil = now + LONG_CODES_US;
        // Shards' new codes are long too: told when tripped, then at most once a minute.
        const told = l.toldShardsUntil ?? 0;
        if (told <= now || l.longCodesUntil - told >= WINDOW_US) {
            l.toldShardsUntil = l.longCodesUntil;
            await tellShardsLong(remote, shards, l.longCodesUntil);
        }
    }
    throw new Fail(404, WRONG_CODE);
}

/** Every shard's new codes long until `until` (best effort: a shard that does not answer counts its own). */
async function tellShardsLong(remote: ShardCalls, shards: string[], until: number): Promise<void> {
    await Promise.all(shards.map((id) => remote.call(id, 'set_long_codes_until', { until }).catch(() => undefined)));
}

/**
 * The typed code and the shards to ask for it: none when it is held here (read once: the single
 * canister's case) or when there are no shards (a shard, a single canister): answered here.
 */
function whereAsked(ctx: Ctx, input: unknown): { typed: Typed; shards: string[] } {
    const typed = typedCode(ctx, input);
    return { typed, shards: typed.hash !== undefined ? [] : shardsToAsk(ctx) };
}

/** Asks the shards for a typed code not held here, the client's limit checked once, here. */
function askShards(
    ctx: Ctx,
    remote: ShardCalls,
    shards: string[],
    typed: Typed,
    client: unknown,
): Promise<{ shard: string; found: DeviceCodeFound }> {
    const who = clientOf(client) ?? 'unknown';
    checkWrongCodeLimit(ctx, who);
    return findOnShards(ctx, remote, shards, typed.userCode, who);
}

/**
 * device_code_lookup: on a directory with shards, a code it does not hold is asked of every
 * shard (device_code_find); anywhere else (a shard, a single canister) it answers at once. The
 * client's limit is checked once, here.
 */
export function lookupAnywhere(
    ctx: Ctx,
    remote: ShardCalls,
    req: Untrusted<RequestOf<'device_code_lookup'>>,
): ReplyOf<'device_code_lookup'> | Promise<ReplyOf<'device_code_lookup'>> {
    const { typed, shards } = whereAsked(ctx, req.userCode);
    if (shards.length === 0) return lookupDeviceCode(ctx, req, typed);
    const userCode = typed.userCode;
    return askShards(ctx, remote, shards, typed, req.client).then(({ found }) => ({ userCode: userCode!, ...found }));
}

/**
 * device_code_approve: on a directory with shards, a code it does not hold is found on its
 * shard (device_code_find) and approved there: the directory calls the shard's own
 * device_code_approve (it is the shard's controller, so it passes the gateway access), which
 * re-checks the code, the game's move gate and the identity as it would for a gateway.
 */
export function approveAnywhere(
    ctx: Ctx,
    remote: ShardCalls,
    req: Untrusted<RequestOf<'device_code_approve'>>,
): ReplyOf<'device_code_approve'> | Promise<ReplyOf<'device_code_approve'>> {
    const { typed, shards } = whereAsked(ctx, req.userCode);
    if (shards.length === 0) return approveDeviceCode(ctx, req, typed);
    const identity = checkIdentity(req.identity);
    const userCode = typed.userCode;
    return askShards(ctx, remote, shards, typed, req.client).then(async ({ shard }) => {
        const reply = await remote.call(shard, 'device_code_approve', { userCode, client: req.client, identity });
        if ('err' in reply) throw failOf(reply.err);
        return reply.ok as ReplyOf<'device_code_approve'>;
    });
}
