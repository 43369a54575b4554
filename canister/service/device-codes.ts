// The device-code flow (RFC 8628) on the canister: a game starts a code, the player approves it
// on the link page after signing in with an identity provider, the game redeems it once for a
// session. Pending codes are capped (service-wide, per game, per client address); wrong user
// codes are limited per client, and while they come fast service-wide new codes are longer, so
// that guessing stays infeasible without ever refusing a valid code to a client within its limit.
import type { Approval, DeviceCodeFound, ReplyOf, RequestOf, Result } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import { checkNickname } from '../../contract/rules';
import { newToken } from '../domain/tokens';
import {
    DEVICE_CODE_SECONDS,
    LONG_USER_CODE_LENGTH,
    POLL_INTERVAL_SECONDS,
    USER_CODE_LENGTH,
    newUserCode,
    normalizeUserCode,
    pollOutcome,
} from '../domain/device-codes';
import { tokenHash } from '../domain/sha256';
import { checkIdentity, signIn } from './accounts';
import type { Ctx, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { refuseWrite } from './move-gate';
import { requireGame } from '../state/game-state';
import type { DeviceCodeRecord } from '../state/records';

export const MAX_PENDING_CODES = 10_000;
export const MAX_PENDING_CODES_PER_GAME = 500;
/**
 * Codes one client address may start within a code's lifetime (5 minutes), whatever the game: a
 * player who restarts sign-in a few times, or the consoles of a household behind one router,
 * stay under it; one address flooding `POST /auth/device/code` gets the 503 of a full cap
 * (clients wait, then ask for a new code: one frees within 5 minutes) and holds at most 2% of a
 * game's 500 and 0.1% of the service's 10,000. Requests without a client (gateways older than
 * this field) are bounded by those caps only.
 */
export const CODES_PER_CLIENT = 10;
/** Wrong user codes allowed per client address per minute; past it that client is refused (429). */
export const WRONG_CODES_PER_CLIENT = 10;
/**
 * Wrong codes per minute service-wide past which new codes are long (16 letters) for an hour
 * after the last such minute. Nothing is refused for it: limits stop guessing, never players.
 *
 * Odds (S = 20^8 ≈ 2.6e10 short codes, 20^16 ≈ 6.6e20 long ones, P ≤ 10,000 pending codes):
 * below the threshold at most 600 × 5 = 3,000 guesses reach a code in its 5 minutes: a chance
 * of 3,000 × P / S to hit any code (1.2e-5 with 100 pending). An attacker with A addresses
 * (IPv6 counted by /64) trips the threshold and then has the short codes issued before it for
 * at most 5 more minutes, 10 guesses a minute per address: 50 × A × P / S expected hits (2e-3
 * for A = 10,000 and P = 100), once per hour of hardening. Long codes take G × P / 6.6e20: a
 * billion guesses against 10,000 pending long codes hit one with chance 1.5e-8.
 */
export const WRONG_CODES_SERVICE_WIDE = 600;
const LONG_CODES_US = 3600 * 1e6;
const WINDOW_US = 60_000_000;
/** Clients tracked per minute (heap): past it, new clients' wrong codes count only service-wide. */
const MAX_TRACKED_CLIENTS = 200_000;

const expiryKey = (expiresAt: number, hash: string): string => `${String(expiresAt).padStart(20, '0')}/${hash}`;

/**
 * Wrong codes in the current minute, when new codes are long until, and the codes each client
 * started within a code's lifetime, in time order (heap only: a restart forgives, which is fine).
 */
interface Limits {
    window: number;
    wrongTotal: number;
    wrongByClient: Map<string, number>;
    longCodesUntil: number;
    startedByClient: Map<string, number>;
    startedQueue: Array<{ until: number; client: string }>;
    startedHead: number;
    /** The long-codes time a directory last told its shards (codes part). */
    toldShardsUntil?: number;
}
/** One per store (the canister has one; each native test its own). */
const limitsOf = new WeakMap<object, Limits>();

function limits(ctx: Ctx): Limits {
    let l = limitsOf.get(ctx.store);
    if (l === undefined) {
        l = {
            window: 0,
            wrongTotal: 0,
            wrongByClient: new Map(),
            longCodesUntil: 0,
            startedByClient: new Map(),
            startedQueue: [],
            startedHead: 0,
        };
        limitsOf.set(ctx.store, l);
    }
    return l;
}

/** The client a gateway named (its normalised address), or undefined when it named none usable. */
function clientOf(client: unknown): string | undefined {
    return typeof client === 'string' && client.length > 0 && client.length <= 100 ? client : undefined;
}

/** The limits, their per-minute counts cleared when a new minute began. */
function refreshWindow(ctx: Ctx): Limits {
    const l = limits(ctx);
    const window = Math.floor(ctx.env.now() / WINDOW_US);
    if (window !== l.window) {
        l.window = window;
        l.wrongTotal = 0;
        l.wrongByClient.clear();
    }
    return l;
}

/** A client past its wrong codes this minute is refused, valid code or not (it blocks only itself). */
function checkWrongCodeLimit(ctx: Ctx, client: string): void {
    const l = refreshWindow(ctx);
    if ((l.wrongByClient.get(client) ?? 0) >= WRONG_CODES_PER_CLIENT) {
        throw new Fail(429, 'Too many wrong codes. Wait a minute, then check the code on your game screen.');
    }
}

function countWrongCode(ctx: Ctx, client: string): void {
    const l = limits(ctx);
    l.wrongTotal++;
    if (l.wrongTotal >= WRONG_CODES_SERVICE_WIDE) l.longCodesUntil = ctx.env.now() + LONG_CODES_US;
    const count = l.wrongByClient.get(client);
    if (count !== undefined || l.wrongByClient.size < MAX_TRACKED_CLIENTS)
        l.wrongByClient.set(client, (count ?? 0) + 1);
}

/** Counts a code the client starts, or refuses it past CODES_PER_CLIENT within a code's lifetime. */
function countStartedCode(ctx: Ctx, client: string | undefined): void {
    const l = limits(ctx);
    const now = ctx.env.now();
    while (l.startedHead < l.startedQueue.length && l.startedQueue[l.startedHead].until <= now) {
        const gone = l.startedQueue[l.startedHead++].client;
        const left = (l.startedByClient.get(gone) ?? 1) - 1;
        if (left > 0) l.startedByClient.set(gone, left);
        else l.startedByClient.delete(gone);
    }
    if (l.startedHead > 1024 && l.startedHead * 2 > l.startedQueue.length) {
        l.startedQueue.splice(0, l.startedHead);
        l.startedHead = 0;
    }
    if (client === undefined) return;
    const count = l.startedByClient.get(client) ?? 0;
    if (count >= CODES_PER_CLIENT) throw new Fail(503, MESSAGES.tooManyPendingCodes);
    l.startedByClient.set(client, count + 1);
    l.startedQueue.push({ until: now + DEVICE_CODE_SECONDS * 1e6, client });
}

/** Codes started now are long while wrong codes came fast service-wide (see WRONG_CODES_SERVICE_WIDE). */
const codeLength = (ctx: Ctx): number =>
    ctx.env.now() < limits(ctx).longCodesUntil ? LONG_USER_CODE_LENGTH : USER_CODE_LENGTH;

function pending(ctx: Ctx): { total: number; byGame: Record<string, number> } {
    return (
        ctx.store.meta.get('pendingDeviceCodes') ?? {
            total: 0,
            byGame: {},
        }
    );
}

function countPending(ctx: Ctx, gameId: string, delta: number): void {
    const p = pending(ctx);
    const byGame = Object.assign(Object.create(null) as Record<string, number>, p.byGame);
    byGame[gameId] = Math.max(0, (byGame[gameId] ?? 0) + delta);
    if (byGame[gameId] === 0) delete byGame[gameId];
    ctx.store.meta.set('pendingDeviceCodes', { total: Math.max(0, p.total + delta), byGame });
}

export function startDeviceCode(
    ctx: Ctx,
    req: Untrusted<RequestOf<'device_code_start'>>,
): ReplyOf<'device_code_start'> {
    const game = requireGame(ctx, req.gameId);
    if (!game.record.isActive) throw new Fail(403, MESSAGES.gameDeactivated);
    if (req.nickname !== undefined && req.nickname !== null) {
        // N4 applies the name only to a brand-new account, but a bad one is refused now.
        const error = checkNickname(req.nickname);
        if (error) throw new Fail(400, error);
    }
    sweepDeviceCodes(ctx, 50);
    const p = pending(ctx);
    if (p.total >= MAX_PENDING_CODES || (p.byGame[game.record.gameId] ?? 0) >= MAX_PENDING_CODES_PER_GAME)
        throw new Fail(503, MESSAGES.tooManyPendingCodes);
    countStartedCode(ctx, clientOf(req.client));
    const length = codeLength(ctx);
    let userCode = newUserCode(ctx.env.random, length);
    while (ctx.store.userCodes.get(userCode) !== undefined) userCode = newUserCode(ctx.env.random, length);
    const deviceCode = newToken(ctx.env.random);
    const hash = tokenHash(deviceCode);
    const now = ctx.env.now();
    const record: DeviceCodeRecord = {
        userCode,
        gameId: game.record.gameId,
        nickname: req.nickname === null ? undefined : (req.nickname as string | undefined),
        createdAt: now,
        expiresAt: now + DEVICE_CODE_SECONDS * 1e6,
        status: 'pending',
    };
    ctx.store.deviceCodes.set(hash, record);
    ctx.store.userCodes.set(userCode, hash);
    ctx.store.deviceCodeExpiry.set(expiryKey(record.expiresAt, hash), '');
    countPending(ctx, record.gameId, 1);
    return { deviceCode, userCode, expiresIn: DEVICE_CODE_SECONDS, interval: POLL_INTERVAL_SECONDS };
}

const WRONG_CODE =
    'That code is not valid or has expired. Check the code on your game screen, or start sign-in again in the game.';

/** A typed code as stored (undefined when malformed) and the device code it names here, if any. */
interface Typed {
    userCode?: string;
    hash?: string;
}

function typedCode(ctx: Ctx, input: unknown): Typed {
    const userCode = normalizeUserCode(input);
    return { userCode, hash: userCode === undefined ? undefined : ctx.store.userCodes.get(userCode) };
}

/** The typed code's record while it is pending and unexpired, else undefined. */
function pendingRecord(
    ctx: Ctx,
    { userCode, hash }: Typed,
): { hash: string; record: DeviceCodeRecord; userCode: string } | undefined {
    const record = hash === undefined ? undefined : ctx.store.deviceCodes.get(hash);
    if (userCode === undefined || hash === undefined || record === undefined) return undefined;
    if (record.status !== 'pending' || ctx.env.now() >= record.expiresAt) return undefined;
    return { hash, record, userCode };
}

/** The pending code a player typed, or a counted wrong try (404). */
function pendingCode(
    ctx: Ctx,
    userCodeInput: unknown,
    client: unknown,
    typed: Typed = typedCode(ctx, userCodeInput),
): { hash: string; record: DeviceCodeRecord; userCode: string } {
    const who = clientOf(client) ?? 'unknown';
    checkWrongCodeLimit(ctx, who);
    const pending = pendingRecord(ctx, typed);
    if (pending === undefined) {
        countWrongCode(ctx, who);
        throw new Fail(404, WRONG_CODE);
    }
    return pending;
}

/** What the link page shows of a pending code: its game and the seconds left. */
function codeView(ctx: Ctx, record: DeviceCodeRecord): DeviceCodeFound {
    return {
        gameId: record.gameId,
        gameName: requireGame(ctx, record.gameId).record.name,
        expiresIn: Math.ceil((record.expiresAt - ctx.env.now()) / 1e6),
    };
}

export function lookupDeviceCode(
    ctx: Ctx,
    req: Untrusted<RequestOf<'device_code_lookup'>>,
    typed?: Typed,
): ReplyOf<'device_code_lookup'> {
    const { record, userCode } = pendingCode(ctx, req.userCode, req.client, typed);
    return { userCode, ...codeView(ctx, record) };
}

/** The signed-in person approves a pending code: the game's next poll gets their session. */
export function approveDeviceCode(
    ctx: Ctx,
    req: Untrusted<RequestOf<'device_code_approve'>>,
    typed?: Typed,
): ReplyOf<'device_code_approve'> {
    const identity = checkIdentity(req.identity);
    const { hash, record } = pendingCode(ctx, req.userCode, req.client, typed);
    refuseWrite(ctx, record.gameId);
    const game = requireGame(ctx, record.gameId);
    record.status = 'approved';
    record.identity = identity;
    ctx.store.deviceCodes.set(hash, record);
    return { gameId: record.gameId, gameName: game.record.name };
}

/** A poll (docs/sign-in.md): 428 pending, 410 expired, 404 unknown or redeemed, 200 exactly once. */
export function redeemDeviceCode(ctx: Ctx, req: Untrusted<RequestOf<'device_code_redeem'>>): Approval {
    const hash =
        typeof req.deviceCodeHash === 'string' && /^[0-9a-f]{64}$/.test(req.deviceCodeHash)
            ? req.deviceCodeHash
            : undefined;
    const record = hash === undefined ? undefined : ctx.store.deviceCodes.get(hash);
    switch (pollOutcome(record, ctx.env.now())) {
        case 'gone':
            throw new Fail(404, 'Unknown or already used device code');
        case 'expired':
            throw new Fail(410, MESSAGES.expiredToken);
        case 'pending':
            throw new Fail(428, MESSAGES.authorizationPending);
        case 'approved':
            break;
    }
    const code = record!;
    refuseWrite(ctx, code.gameId);
    const approval = signIn(ctx, code.gameId, code.identity!, code.nickname);
    code.status = 'redeemed';
    code.identity = undefined;
    ctx.store.deviceCodes.set(hash!, code);
    ctx.store.userCodes.delete(code.userCode);
    countPending(ctx, code.gameId, -1);
    return approval;
}

/** Expired codes still answer polls with 410 this long before they are forgotten (then 404). */
const FORGET_AFTER_US = 3600 * 1e6;

/**
 * Sweeps codes past their lifetime, oldest first (at most `limit` steps): at expiry a code
 * frees its user code and its place under the caps; an hour later it is forgotten.
 */
export function sweepDeviceCodes(ctx: Ctx, limit = 200): number {
    const now = ctx.env.now();
    let swept = 0;
    while (swept < limit) {
        const head = ctx.store.deviceCodeExpiry.first(1)[0];
        if (head === undefined) break;
        const [at, hash] = head[0].split('/');
        if (Number(at) > now) break;
        const record = ctx.store.deviceCodes.get(hash);
        ctx.store.deviceCodeExpiry.delete(head[0]);
        if (record !== undefined && !record.released) {
            if (record.status !== 'redeemed') {
                ctx.store.userCodes.delete(record.userCode);
                countPending(ctx, record.gameId, -1);
            }
            ctx.store.deviceCodes.set(hash, { ...record, released: true, identity: undefined });
            ctx.store.deviceCodeExpiry.set(expiryKey(record.expiresAt + FORGET_AFTER_US, hash), '');
        } else if (record !== undefined) {
            ctx.store.deviceCodes.delete(hash);
        }
        swept++;
    }
    return swept;
}

// ---- codes part: user codes found through the directory ----------------------

/** What a directory needs to ask its shards (service/directory.ts's Remote has it). */
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
    if (l.window !== window) {
        // A new minute began while the shards answered: the guess counts in it.
        const count = l.wrongByClient.get(who);
        if (count !== undefined || l.wrongByClient.size < MAX_TRACKED_CLIENTS)
            l.wrongByClient.set(who, (count ?? 0) + 1);
    }
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
 * device_code_lookup: on a directory with shards, a code it does not hold is asked of every
 * shard (device_code_find); anywhere else (a shard, a single canister) it answers at once as
 * before. The client's limit is checked once, here.
 */
export function lookupAnywhere(
    ctx: Ctx,
    remote: ShardCalls,
    req: Untrusted<RequestOf<'device_code_lookup'>>,
): ReplyOf<'device_code_lookup'> | Promise<ReplyOf<'device_code_lookup'>> {
    // A code held here (the single canister's case) is read once, as it always was.
    const typed = typedCode(ctx, req.userCode);
    if (typed.hash !== undefined) return lookupDeviceCode(ctx, req, typed);
    const shards = shardsToAsk(ctx);
    if (shards.length === 0) return lookupDeviceCode(ctx, req, typed);
    const who = clientOf(req.client) ?? 'unknown';
    checkWrongCodeLimit(ctx, who);
    const userCode = typed.userCode;
    return findOnShards(ctx, remote, shards, userCode, who).then(({ found }) => ({ userCode: userCode!, ...found }));
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
    // A code held here (the single canister's case) is read once, as it always was.
    const typed = typedCode(ctx, req.userCode);
    if (typed.hash !== undefined) return approveDeviceCode(ctx, req, typed);
    const shards = shardsToAsk(ctx);
    if (shards.length === 0) return approveDeviceCode(ctx, req, typed);
    const identity = checkIdentity(req.identity);
    const who = clientOf(req.client) ?? 'unknown';
    checkWrongCodeLimit(ctx, who);
    const userCode = typed.userCode;
    return findOnShards(ctx, remote, shards, userCode, who).then(async ({ shard }) => {
        const reply = await remote.call(shard, 'device_code_approve', { userCode, client: req.client, identity });
        if ('err' in reply) {
            const { status, message, ...extra } = reply.err;
            throw new Fail(status, message, extra);
        }
        return reply.ok as ReplyOf<'device_code_approve'>;
    });
}

// ---- codes part: pending device codes move with their game (service/move.ts) -------------------

/** A game's codes a move takes along: pending or approved, not yet redeemed or released. */
export function codesOfGame(ctx: Ctx, gameId: string): Array<[string, DeviceCodeRecord]> {
    // Most games have none: the pending count says so without a scan.
    if ((pending(ctx).byGame[gameId] ?? 0) === 0) return [];
    const out: Array<[string, DeviceCodeRecord]> = [];
    // userCodes holds exactly the unreleased, unredeemed codes (at most MAX_PENDING_CODES).
    for (const [, hash] of ctx.store.userCodes.first(ctx.store.userCodes.size())) {
        const record = ctx.store.deviceCodes.get(hash);
        if (record?.gameId === gameId && record.status !== 'redeemed' && !record.released) out.push([hash, record]);
    }
    return out;
}

const HASH = /^[0-9a-f]{64}$/;

/** Whether a moved item is a device code of `gameId` as this release stores them. */
export function isMovedCode(gameId: string, hash: string, value: unknown): boolean {
    if (!HASH.test(hash) || value === null || typeof value !== 'object') return false;
    const r = value as Record<string, unknown>;
    return (
        r.gameId === gameId &&
        typeof r.userCode === 'string' &&
        normalizeUserCode(r.userCode) === r.userCode &&
        typeof r.expiresAt === 'number' &&
        typeof r.createdAt === 'number' &&
        (r.status === 'pending' || r.status === 'approved') &&
        r.released === undefined
    );
}

/**
 * The target takes a moved code: the game's poll here redeems it, a player's typed code is found
 * here. A user code already taken here (codes are drawn per canister) drops the moved one: that
 * player starts sign-in again, as when a code expires.
 */
export function importMovedCode(ctx: Ctx, hash: string, record: DeviceCodeRecord): void {
    if (ctx.store.deviceCodes.get(hash) !== undefined || ctx.store.userCodes.get(record.userCode) !== undefined) return;
    ctx.store.deviceCodes.set(hash, record);
    ctx.store.userCodes.set(record.userCode, hash);
    ctx.store.deviceCodeExpiry.set(expiryKey(record.expiresAt, hash), '');
    countPending(ctx, record.gameId, 1);
}

/** The source forgets a moved game's codes (their expiry entries are dropped by the sweep). */
export function forgetCodesOfGame(ctx: Ctx, gameId: string): void {
    const codes = codesOfGame(ctx, gameId);
    for (const [hash, record] of codes) {
        ctx.store.userCodes.delete(record.userCode);
        ctx.store.deviceCodes.delete(hash);
    }
    if (codes.length > 0) countPending(ctx, gameId, -codes.length);
}
