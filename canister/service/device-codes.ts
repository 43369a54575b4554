// The device-code flow (RFC 8628) on the canister: a game starts a code, the player approves it
// on the link page after signing in with an identity provider, the game redeems it once for a
// session. Pending codes are capped (service-wide and per game); wrong user codes are limited
// per client and service-wide, so guessing a live code within its 5 minutes is infeasible.
import type { Approval, ReplyOf, RequestOf } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import { checkNickname } from '../../contract/rules';
import {
    DEVICE_CODE_SECONDS,
    POLL_INTERVAL_SECONDS,
    newToken,
    newUserCode,
    normalizeUserCode,
    pollOutcome,
} from '../domain/device-codes';
import { tokenHash } from '../domain/sha256';
import { checkIdentity, signIn } from './accounts';
import type { Ctx, Untrusted } from './context';
import { Fail } from './fail';
import { requireGame } from './game-state';
import type { DeviceCodeRecord } from './records';

export const MAX_PENDING_CODES = 10_000;
export const MAX_PENDING_CODES_PER_GAME = 500;
/** Wrong user codes allowed per client per window, and service-wide (a hostile gateway aside). */
export const WRONG_CODES_PER_CLIENT = 10;
export const WRONG_CODES_SERVICE_WIDE = 600;
const WINDOW_US = 60_000_000;

const expiryKey = (expiresAt: number, hash: string): string => `${String(expiresAt).padStart(20, '0')}/${hash}`;

/** Counters of wrong codes in the current minute (heap only: a restart forgives, which is fine). */
const wrong = { window: 0, total: 0, byClient: new Map<string, number>() };

function checkWrongCodeLimit(ctx: Ctx, client: string): void {
    const window = Math.floor(ctx.env.now() / WINDOW_US);
    if (window !== wrong.window) {
        wrong.window = window;
        wrong.total = 0;
        wrong.byClient.clear();
    }
    if ((wrong.byClient.get(client) ?? 0) >= WRONG_CODES_PER_CLIENT || wrong.total >= WRONG_CODES_SERVICE_WIDE) {
        throw new Fail(429, 'Too many wrong codes. Wait a minute, then check the code on your game screen.');
    }
}

function countWrongCode(client: string): void {
    wrong.total++;
    wrong.byClient.set(client, (wrong.byClient.get(client) ?? 0) + 1);
    if (wrong.byClient.size > 10_000) wrong.byClient.clear();
}

function pending(ctx: Ctx): { total: number; byGame: Record<string, number> } {
    return (
        (ctx.store.meta.get('pendingDeviceCodes') as { total: number; byGame: Record<string, number> } | undefined) ?? {
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
    let userCode = newUserCode(ctx.env.random);
    while (ctx.store.userCodes.get(userCode) !== undefined) userCode = newUserCode(ctx.env.random);
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

/** The pending code a player typed, or a counted wrong try (404). */
function pendingCode(
    ctx: Ctx,
    userCodeInput: unknown,
    client: unknown,
): { hash: string; record: DeviceCodeRecord; userCode: string } {
    const who = typeof client === 'string' && client.length <= 100 ? client : 'unknown';
    checkWrongCodeLimit(ctx, who);
    const userCode = normalizeUserCode(userCodeInput);
    const hash = userCode === undefined ? undefined : ctx.store.userCodes.get(userCode);
    const record = hash === undefined ? undefined : ctx.store.deviceCodes.get(hash);
    if (
        userCode === undefined ||
        hash === undefined ||
        record === undefined ||
        record.status !== 'pending' ||
        ctx.env.now() >= record.expiresAt
    ) {
        countWrongCode(who);
        throw new Fail(
            404,
            'That code is not valid or has expired. Check the code on your game screen, or start sign-in again in the game.',
        );
    }
    return { hash, record, userCode };
}

export function lookupDeviceCode(
    ctx: Ctx,
    req: Untrusted<RequestOf<'device_code_lookup'>>,
): ReplyOf<'device_code_lookup'> {
    const { record, userCode } = pendingCode(ctx, req.userCode, req.client);
    const game = requireGame(ctx, record.gameId);
    return {
        userCode,
        gameId: record.gameId,
        gameName: game.record.name,
        expiresIn: Math.ceil((record.expiresAt - ctx.env.now()) / 1e6),
    };
}

/** The signed-in person approves a pending code: the game's next poll gets their session. */
export function approveDeviceCode(
    ctx: Ctx,
    req: Untrusted<RequestOf<'device_code_approve'>>,
): ReplyOf<'device_code_approve'> {
    const identity = checkIdentity(req.identity);
    const { hash, record } = pendingCode(ctx, req.userCode, req.client);
    const game = requireGame(ctx, record.gameId);
    record.status = 'approved';
    record.identity = identity;
    ctx.store.deviceCodes.set(hash, record);
    return { gameId: record.gameId, gameName: game.record.name };
}

/** A poll (decisions.md): 428 pending, 410 expired, 404 unknown or redeemed, 200 exactly once. */
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
