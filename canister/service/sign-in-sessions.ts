// Player sessions: 256-bit tokens handed to the player once and kept only as their SHA-256,
// 30 days long, renewed on use but written back at most once a day, valid only for the game
// they were signed in for; dead when expired, logged out, or their account removed (401 on
// every session request then, and on any request for another game); and the record of the
// games an account writes to (its removal removes its players there).
import { MESSAGES } from '../../contract/messages';
import { newToken } from '../domain/tokens';
import { tokenHash } from '../domain/sha256';
import type { Ctx } from '../state/context';
import { Fail } from '../domain/fail';
import type { AccountRecord, PlayerSessionRecord } from '../state/records';

export const SESSION_LIFETIME_US = 30 * 86_400_000_000;
/** Sessions are renewed on use, but written back at most this often (reads stay queries). */
export const SESSION_RENEW_US = 86_400_000_000;
/** The player id of an account in a game: `@` cannot start an anonymous id, so none can pose as one. */
export const accountPlayerId = (accountId: string): string => `@${accountId}`;

const HASH = /^[0-9a-f]{64}$/;

/** A new session of the account for a game; the token goes to the player once, its hash is kept. */
export function newSession(ctx: Ctx, account: AccountRecord, gameId: string): string {
    const token = newToken(ctx.env.random);
    const hash = tokenHash(token);
    const now = ctx.env.now();
    const session: PlayerSessionRecord = {
        accountId: account.accountId,
        gameId,
        signedInAt: now,
        renewedAt: now,
        expiresAt: now + SESSION_LIFETIME_US,
    };
    ctx.store.playerSessions.set(hash, session);
    const list = ctx.store.accountSessions.get(account.accountId) ?? [];
    ctx.store.accountSessions.set(account.accountId, [
        ...list.filter((h) => ctx.store.playerSessions.get(h) !== undefined),
        hash,
    ]);
    return token;
}

export interface LiveSession {
    hash: string;
    session: PlayerSessionRecord;
    account: AccountRecord;
}

/**
 * The live session behind a hash, for the game the request names; 401 for anything dead
 * (expired, logged out, account removed) and for a session of another game (or none named, or
 * a deleted game whose id was registered again): a session acts only in the game it was signed
 * in for, and the client signs in again there.
 */
export function liveSession(ctx: Ctx, sessionHash: unknown, gameId: unknown): LiveSession {
    const hash = typeof sessionHash === 'string' && HASH.test(sessionHash) ? sessionHash : undefined;
    const session = hash === undefined ? undefined : ctx.store.playerSessions.get(hash);
    const game = session === undefined || session.gameId !== gameId ? undefined : ctx.games.get(session.gameId);
    const account =
        session === undefined || game === undefined || session.signedInAt < game.record.createdAt
            ? undefined
            : ctx.store.accounts.get(session.accountId);
    if (hash === undefined || session === undefined || account === undefined || ctx.env.now() >= session.expiresAt) {
        throw new Fail(401, MESSAGES.deadSession);
    }
    return { hash, session, account };
}

/**
 * Notes a game the account writes to in `account.games` (removing the account looks there):
 * every write of an account's player goes through here or through accountPlayer.
 */
export function recordGame(ctx: Ctx, account: AccountRecord, gameId: string): void {
    if (account.games.includes(gameId)) return;
    account.games.push(gameId);
    ctx.store.accounts.set(account.accountId, account);
}

/** A session used in an update call: its lifetime renews (written at most once a day). */
export function touch(ctx: Ctx, live: LiveSession): void {
    const now = ctx.env.now();
    if (now - live.session.renewedAt < SESSION_RENEW_US) return;
    live.session.renewedAt = now;
    live.session.expiresAt = now + SESSION_LIFETIME_US;
    ctx.store.playerSessions.set(live.hash, live.session);
}

/** Every session of an account ends (account removal). */
export function endAllSessions(ctx: Ctx, accountId: string): void {
    for (const hash of ctx.store.accountSessions.get(accountId) ?? []) ctx.store.playerSessions.delete(hash);
    ctx.store.accountSessions.delete(accountId);
}
