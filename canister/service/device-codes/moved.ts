// Pending device codes move with their game (service/move/): the source lists and forgets them, the target takes them.
import { normalizeUserCode } from '../../domain/device-codes';
import type { Ctx } from '../../state/context';
import type { DeviceCodeRecord } from '../../state/records';
import { countPending, expiryKey, pending } from './codes';

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
