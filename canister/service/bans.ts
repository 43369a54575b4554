// Who is banned from a game, and the refusal of their writes: a player id's ban (on its record,
// or under `bans` when it had no record yet) and an account's ban kept also under its identity
// (issuer and subject, hashed), so that it holds when the account is deleted and made again.
// A banned player writes nothing to the game (submits, achievements, nickname, play sessions,
// merges); reads still work.
import { MESSAGES } from '../../contract/messages';
import { tokenHash } from '../domain/sha256';
import type { Ctx, GameState } from '../state/context';
import { Fail } from '../domain/fail';
import type { AccountRecord, BanRecord, PlayerRecord } from '../state/records';
import { playerKey } from '../state/store';

export const BANNED_MESSAGE = MESSAGES.banned;

/** The identity of an account as a hash (nothing personal is kept after the account is removed). */
export function identityHash(account: Pick<AccountRecord, 'issuer' | 'subject' | 'identityHash'>): string {
    return (
        account.identityHash ??
        tokenHash(`${encodeURIComponent(account.issuer)}\n${encodeURIComponent(account.subject)}`)
    );
}

/** Where an identity's ban in a game is kept: `~` starts no player id, so no player's key is it. */
export const identityBanKey = (gameId: string, hash: string): string => `${gameId}/~${hash}`;

/** The ban of an account's identity in a game. */
export function identityBan(ctx: Ctx, game: GameState, hash: string): BanRecord | undefined {
    if ((game.record.identityBans ?? 0) === 0) return undefined;
    const ban = ctx.store.bans.get(identityBanKey(game.record.gameId, hash));
    return current(game, ban) ? ban : undefined;
}

/**
 * Whether a ban kept under `bans` is this game's: bans of ids without a record are not found
 * when a game is deleted, so one of a deleted game of the same id (made before this one) does not count.
 */
const current = (game: GameState, ban: BanRecord | undefined): ban is BanRecord =>
    ban !== undefined && ban.at >= game.record.createdAt;

/**
 * Whether this player id (with its record, and its account for an account's player) is banned:
 * a ban on its record, one made before it had a record (looked up only while the game has
 * such bans), or a ban of its account's identity (only while the game has those).
 */
export function isBanned(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    player: Pick<PlayerRecord, 'banned'> | undefined,
    account?: AccountRecord,
): boolean {
    if (player?.banned !== undefined) return true;
    if (
        (game.record.pendingBans ?? 0) > 0 &&
        current(game, ctx.store.bans.get(playerKey(game.record.gameId, playerId)))
    )
        return true;
    return account !== undefined && identityBan(ctx, game, identityHash(account)) !== undefined;
}

/** The account behind an account's `@…` id, while it exists. */
export function accountOf(ctx: Ctx, playerId: string): AccountRecord | undefined {
    return playerId.startsWith('@') ? ctx.store.accounts.get(playerId.slice(1)) : undefined;
}

/** isBanned for a player id alone (the dashboard): its account is read only while the game has identity bans. */
export function playerBanned(ctx: Ctx, game: GameState, playerId: string, player: PlayerRecord | undefined): boolean {
    const account = (game.record.identityBans ?? 0) > 0 ? accountOf(ctx, playerId) : undefined;
    return isBanned(ctx, game, playerId, player, account);
}

/**
 * Refuses a banned player's write: 403 with the API key or the server key, 400 with a session
 * (on session requests 401/403 mean a dead session and make clients sign out).
 */
export function refuseBanned(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    player: Pick<PlayerRecord, 'banned'> | undefined,
    account?: AccountRecord,
    session = account !== undefined,
): void {
    if (isBanned(ctx, game, playerId, player, account)) throw new Fail(session ? 400 : 403, BANNED_MESSAGE);
}
