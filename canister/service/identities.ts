// Player identities across shards: the directory's account records are the
// identity registry (identity_account); a shard asks it once per identity it does not know; an
// account removed anywhere is removed on the directory and forgotten by every shard, retried
// from a stable pending list until each shard confirmed.
import type { Identity, RegisteredAccount, RequestOf, Result } from '../../contract/canister';
import { checkNickname, invalid } from '../../contract/rules';
import type { Ctx, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { NeedsRegistry, accountFor, accountKey, checkIdentity } from './accounts';
import { deleteAccount, forgetAccount, retireAccountPlayer } from './merge';
import { endAllSessions, liveSession } from './sign-in-sessions';
import type { Remote } from './directory';

const ACCOUNT_ID = /^[0-9a-f]{32}$/;
/** At most this many account_forget calls per fan-out (the rest wait for the next). */
const FORGET_CALLS_PER_RUN = 100;
const REMOVED = 'Your account and its entries were removed.';
/** How long a shard remembers an account it forgot (longer than any call in flight takes). */
const FORGOTTEN_KEEP_US = 10 * 60 * 1_000_000;

type Message = { message: string };

/**
 * Accounts this shard forgot lately -> when (heap: the race it closes lasts one call). A sign-in
 * whose registry answer was sent before the account's removal and arrives after its
 * account_forget must not bring the account back here.
 */
const forgottenLately = new Map<string, number>();

function rememberForgotten(ctx: Ctx, accountId: string): void {
    const now = ctx.env.now();
    for (const [id, at] of forgottenLately) if (now - at > FORGOTTEN_KEEP_US) forgottenLately.delete(id);
    forgottenLately.set(accountId, now);
}

function requireAccountId(value: unknown): string {
    if (typeof value !== 'string' || !ACCOUNT_ID.test(value))
        throw new Fail(400, invalid('accountId', 'must be 32 lowercase hex digits'));
    return value;
}

/** The registry (directory): the account of an identity, created when new; N4: the nickname seeds only a new one. */
export function identityAccount(ctx: Ctx, req: Untrusted<RequestOf<'identity_account'>>): RegisteredAccount {
    if (ctx.isShard === true) throw new Fail(400, 'This canister is a shard: ask its directory');
    const identity = checkIdentity(req.identity);
    let seed: string | undefined;
    if (req.nickname !== undefined && req.nickname !== null) {
        const error = checkNickname(req.nickname);
        if (error) throw new Fail(400, error);
        seed = req.nickname as string;
    }
    const { account, isNew } = accountFor(ctx, identity, seed);
    const reply: RegisteredAccount = { accountId: account.accountId, createdAt: account.createdAt, isNew };
    if (account.nickname !== undefined) reply.nickname = account.nickname;
    return reply;
}

/** An answer of another canister as ours: its `ok`, or its error thrown again. */
function okOf<T>(result: Result<unknown>): T {
    if ('err' in result) {
        const { status, message, retryAfter } = result.err;
        throw new Fail(status, message, retryAfter === undefined ? {} : { retryAfter });
    }
    return result.ok as T;
}

function directoryOf(ctx: Ctx): string {
    const directory = ctx.store.meta.get('directory');
    if (directory === undefined) throw new Fail(503, 'This shard knows no directory', { retryAfter: 5 });
    return directory;
}

function checkRegistered(value: unknown, identity: Identity): { key: string; account: RegisteredAccount } {
    const v = (value ?? {}) as Partial<RegisteredAccount>;
    if (
        typeof v.accountId !== 'string' ||
        !ACCOUNT_ID.test(v.accountId) ||
        typeof v.createdAt !== 'number' ||
        (v.nickname !== undefined && typeof v.nickname !== 'string')
    )
        throw new Fail(503, 'The directory answered identity_account with something unexpected', { retryAfter: 5 });
    const account: RegisteredAccount = { accountId: v.accountId, createdAt: v.createdAt, isNew: v.isNew === true };
    if (v.nickname !== undefined) account.nickname = v.nickname;
    return { key: accountKey(identity), account };
}

/**
 * A sign-in on a shard (sign_in, device_code_redeem): `run` as it is when the identity is known
 * here (no call at all); else the directory's registry is asked once and `run` runs again with
 * its answer, re-checking everything that may have changed meanwhile (the game, its state, the
 * room, the code; an account a concurrent sign-in created here meanwhile is used as it is).
 */
export async function withRegistry<T>(ctx: Ctx, remote: Remote, run: () => T): Promise<T> {
    let needs: NeedsRegistry;
    try {
        return run();
    } catch (e) {
        if (!(e instanceof NeedsRegistry)) throw e;
        needs = e;
    }
    const request: RequestOf<'identity_account'> = { identity: needs.identity };
    if (needs.nickname !== undefined) request.nickname = needs.nickname;
    const answer = await remote.call(directoryOf(ctx), 'identity_account', request);
    ctx.registered = checkRegistered(okOf(answer), needs.identity);
    if (forgottenLately.has(ctx.registered.account.accountId)) {
        ctx.registered = undefined;
        throw new Fail(503, 'This account was just removed. Sign in again to start a new one.', { retryAfter: 1 });
    }
    try {
        return run();
    } finally {
        ctx.registered = undefined;
    }
}

/**
 * A moved game's accounts, once it is active here: any this shard forgot while the game was on
 * its way (its records were staged before the removal) is forgotten again, its player in that
 * game retired and its sessions ended even when the account record itself went meanwhile.
 */
export function forgetMovedAccounts(ctx: Ctx, gameId: string, accountIds: Iterable<string>): void {
    for (const accountId of accountIds) {
        if (!forgottenLately.has(accountId)) continue;
        retireAccountPlayer(ctx, gameId, accountId);
        endAllSessions(ctx, accountId);
        forgetAccount(ctx, accountId);
    }
}

/** Whether the directory has shards to tell of a removed account (delete_account turns async only then). */
export function hasShards(ctx: Ctx): boolean {
    return ctx.isShard !== true && (ctx.store.meta.get('shards') ?? []).length > 0;
}

/** Notes that every shard but `except` has yet to forget the account. */
function addPending(ctx: Ctx, accountId: string, except?: string): void {
    const shards = (ctx.store.meta.get('shards') ?? []).map((s) => s.canisterId).filter((id) => id !== except);
    if (shards.length === 0) return;
    const pending = ctx.store.meta.get('forgetPending') ?? {};
    pending[accountId] = [...new Set([...(pending[accountId] ?? []), ...shards])];
    ctx.store.meta.set('forgetPending', pending);
    retryDue = true;
}

/**
 * delete_account where the service has several canisters. On a shard: the session checked before
 * any await, then the directory removes the account (and has the other shards forget it) before
 * this shard does: directory unreachable, 503 and nothing removed. On a directory with shards:
 * removed here at once, then forgotten on every shard.
 */
export async function deleteAcross(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<RequestOf<'delete_account'>>,
): Promise<Message> {
    const { account } = liveSession(ctx, req.sessionHash, req.gameId);
    const accountId = account.accountId;
    if (ctx.isShard === true) {
        okOf(await remote.call(directoryOf(ctx), 'account_deleted', { accountId }));
        forgetAccount(ctx, accountId);
    } else {
        deleteAccount(ctx, req);
        addPending(ctx, accountId);
        await forgetOnShards(ctx, remote);
    }
    return { message: REMOVED };
}

/**
 * account_deleted (the directory, from one of its shards): its record and its own games'
 * players go, then every other shard forgets the account (awaited; a shard that did not
 * confirm stays in the pending list and is asked again later). The answer does not wait on them.
 */
export async function accountDeleted(
    ctx: Ctx,
    remote: Remote,
    caller: string,
    req: Untrusted<RequestOf<'account_deleted'>>,
): Promise<Message> {
    if (ctx.isShard === true) throw new Fail(400, 'This canister is a shard: ask its directory');
    const accountId = requireAccountId(req.accountId);
    forgetAccount(ctx, accountId);
    addPending(ctx, accountId, caller);
    await forgetOnShards(ctx, remote);
    return { message: 'The account was removed.' };
}

/** account_forget (a shard, from its directory): the account's players, sessions and record here go. */
export function accountForget(ctx: Ctx, req: Untrusted<RequestOf<'account_forget'>>): Message {
    const accountId = requireAccountId(req.accountId);
    rememberForgotten(ctx, accountId);
    return { message: forgetAccount(ctx, accountId) ? 'The account was removed.' : 'No such account here.' };
}

/** Some removed account is still to be forgotten by some shard (read from meta once at start). */
let retryDue = false;

export function loadPending(ctx: Ctx): void {
    retryDue = Object.keys(ctx.store.meta.get('forgetPending') ?? {}).length > 0;
}

export const forgetRetryDue = (): boolean => retryDue;

/**
 * Asks every shard still owing a confirmation to forget its accounts (at most
 * FORGET_CALLS_PER_RUN calls, in parallel); each confirmed pair leaves the pending list.
 * account_forget is idempotent: two runs asking the same shard at once do no harm.
 */
export async function forgetOnShards(ctx: Ctx, remote: Remote): Promise<number> {
    const pairs: Array<[string, string]> = [];
    for (const [accountId, shards] of Object.entries(ctx.store.meta.get('forgetPending') ?? {}))
        for (const shard of shards) if (pairs.length < FORGET_CALLS_PER_RUN) pairs.push([accountId, shard]);
    const confirmed = await Promise.all(
        pairs.map(([accountId, shard]) =>
            remote.call(shard, 'account_forget', { accountId }).then(
                (result) => 'ok' in result,
                () => false,
            ),
        ),
    );
    // Read again: other calls may have changed the list while these were out.
    const pending = ctx.store.meta.get('forgetPending') ?? {};
    pairs.forEach(([accountId, shard], i) => {
        if (!confirmed[i] || pending[accountId] === undefined) return;
        pending[accountId] = pending[accountId].filter((s) => s !== shard);
        if (pending[accountId].length === 0) delete pending[accountId];
    });
    if (Object.keys(pending).length === 0) ctx.store.meta.delete('forgetPending');
    else ctx.store.meta.set('forgetPending', pending);
    retryDue = Object.keys(pending).length > 0;
    return Object.keys(pending).length;
}
