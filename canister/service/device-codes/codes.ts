// The codes of this canister: a game starts one, a signed-in player approves it, the game redeems it once; the sweep.
import type { Approval, DeviceCodeFound, ReplyOf, RequestOf } from '../../../contract/canister';
import { MESSAGES } from '../../../contract/messages';
import { checkNickname } from '../../../contract/rules';
import {
    DEVICE_CODE_SECONDS,
    POLL_INTERVAL_SECONDS,
    newUserCode,
    normalizeUserCode,
    pollOutcome,
} from '../../domain/device-codes';
import { Fail } from '../../domain/fail';
import { tokenHash } from '../../domain/sha256';
import { newToken } from '../../domain/tokens';
import type { Ctx, Untrusted } from '../../state/context';
import { requireGame } from '../../state/game-state';
import type { DeviceCodeRecord } from '../../state/records';
import { checkIdentity, signIn } from '../accounts';
import { refuseWrite } from '../move-gate';
import { checkWrongCodeLimit, clientOf, codeLength, countStartedCode, countWrongCode } from './limits';

export const MAX_PENDING_CODES = 10_000;
export const MAX_PENDING_CODES_PER_GAME = 500;

export const expiryKey = (expiresAt: number, hash: string): string => `${String(expiresAt).padStart(20, '0')}/${hash}`;

export function pending(ctx: Ctx): { total: number; byGame: Record<string, number> } {
    return (
        ctx.store.meta.get('pendingDeviceCodes') ?? {
            total: 0,
            byGame: {},
        }
    );
}

export function countPending(ctx: Ctx, gameId: string, delta: number): void {
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

export const WRONG_CODE =
    'That code is not valid or has expired. Check the code on your game screen, or start sign-in again in the game.';

/** A typed code as stored (undefined when malformed) and the device code it names here, if any. */
export interface Typed {
    userCode?: string;
    hash?: string;
}

export function typedCode(ctx: Ctx, input: unknown): Typed {
    const userCode = normalizeUserCode(input);
    return { userCode, hash: userCode === undefined ? undefined : ctx.store.userCodes.get(userCode) };
}

/** The typed code's record while it is pending and unexpired, else undefined. */
export function pendingRecord(
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
export function codeView(ctx: Ctx, record: DeviceCodeRecord): DeviceCodeFound {
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
