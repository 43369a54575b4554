// Signed-in players: accounts keyed by (issuer, subject), their player in each game, signing in
// (a new session), the session's profile, and signing out.
import type { Approval, Identity, RegisteredAccount, RequestOf, SessionInfo } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import { checkNickname, invalid } from '../../contract/rules';
import type { Profile } from '../../contract/schemas';
import { ns } from '../domain/json';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { identityBan, identityHash } from './bans';
import { requireGame } from '../state/game-state';
import { SESSION_RENEW_US, accountPlayerId, liveSession, newSession, recordGame, touch } from './sign-in-sessions';
import { createPlayer, findPlayer, profileOf } from './players';
import type { AccountRecord, PlayerRecord } from '../state/records';
import { randomHex } from '../domain/tokens';
import { assertRoomForNewPlayer } from './capacity';

export const accountKey = (identity: Identity): string => `${identity.issuer}\n${identity.subject}`;

/**
 * Thrown on a shard by a sign-in of an identity it does not know (identities part): the entry
 * asks the directory's registry (identity_account), then runs the sign-in again with its answer
 * in `ctx.registered`. Nothing is written before it is thrown. Never thrown on a directory.
 */
export class NeedsRegistry {
    constructor(
        readonly identity: Identity,
        readonly nickname: string | undefined,
    ) {}
}

function text(field: string, value: unknown, max: number): string {
    if (typeof value !== 'string' || value.length > max || /[\u0000-\u001f\u007f]/.test(value))
        throw new Fail(400, invalid(field, `must be text of at most ${max} characters`));
    return value;
}

/** An identity as the gateway sends it, checked for shape (the gateway verified the ID token). */
export function checkIdentity(value: unknown): Identity {
    const v = (value ?? {}) as Record<string, unknown>;
    if (typeof v !== 'object') throw new Fail(400, invalid('identity', 'must be an object'));
    const identity = {
        issuer: text('identity.issuer', v.issuer, 300),
        subject: text('identity.subject', v.subject, 300),
        email: text('identity.email', v.email ?? '', 320),
        provider: text('identity.provider', v.provider, 32),
    };
    if (identity.issuer === '' || identity.subject === '' || !/^[a-z0-9_-]{1,32}$/.test(identity.provider)) {
        throw new Fail(400, invalid('identity', 'needs an issuer, a subject and a provider name'));
    }
    return identity;
}

/** The account of an identity, created on first sign-in; `nickname` seeds only a new one (N4). */
export function accountFor(
    ctx: Ctx,
    identity: Identity,
    nickname: string | undefined,
): { account: AccountRecord; isNew: boolean } {
    const existing = ctx.store.accountKeys.get(accountKey(identity));
    const account = existing === undefined ? undefined : ctx.store.accounts.get(existing);
    if (account !== undefined) {
        if (identity.email !== '' && identity.email !== account.email) {
            account.email = identity.email;
            ctx.store.accounts.set(account.accountId, account);
        }
        return { account, isNew: false };
    }
    // A shard takes the id (and the account's own name) from its directory, the identity registry.
    let registered: RegisteredAccount | undefined;
    if (ctx.isShard === true) {
        if (ctx.registered === undefined || ctx.registered.key !== accountKey(identity))
            throw new NeedsRegistry(identity, nickname);
        registered = ctx.registered.account;
    }
    const accountId = registered?.accountId ?? randomHex(ctx.env.random, 16);
    const created: AccountRecord = {
        accountId,
        issuer: identity.issuer,
        subject: identity.subject,
        email: identity.email,
        provider: identity.provider,
        nickname: registered === undefined ? nickname : registered.nickname,
        createdAt: registered?.createdAt ?? ctx.env.now(),
        games: [],
        gamesTracked: true,
    };
    created.identityHash = identityHash(created);
    ctx.store.accounts.set(accountId, created);
    ctx.store.accountKeys.set(accountKey(identity), accountId);
    return { account: created, isNew: registered?.isNew ?? true };
}

/**
 * The account's player in a game, created the first time the account plays it, named (names are
 * per game) after `seed` (the nickname of this sign-in, N4: the account has no name in this game
 * yet) or else the account's own name, with the first free suffix when that is taken here (N2).
 */
export function accountPlayer(ctx: Ctx, game: GameState, account: AccountRecord, seed?: string): PlayerRecord {
    const playerId = accountPlayerId(account.accountId);
    recordGame(ctx, account, game.record.gameId);
    const existing = findPlayer(ctx, game.record.gameId, playerId);
    if (existing !== undefined) return existing;
    // A banned identity's new account claims no name here (a banned player changes no names).
    const banned = identityBan(ctx, game, identityHash(account)) !== undefined;
    const name = banned ? undefined : (seed ?? account.nickname);
    return createPlayer(ctx, game, playerId, name, account.provider, true);
}

/** Signs the identity in to a game: its account (new or existing), a player there, and a session. */
export function signIn(ctx: Ctx, gameId: unknown, identity: Identity, nickname: unknown): Approval {
    const game = requireGame(ctx, gameId);
    if (!game.record.isActive) throw new Fail(403, MESSAGES.gameDeactivated);
    let seed: string | undefined;
    if (nickname !== undefined && nickname !== null) {
        const error = checkNickname(nickname);
        if (error) throw new Fail(400, error);
        seed = nickname as string;
    }
    // An identity new to the game would be a new player: refused on a full canister before any change.
    const known = ctx.store.accountKeys.get(accountKey(identity));
    if (known === undefined || findPlayer(ctx, game.record.gameId, accountPlayerId(known)) === undefined)
        assertRoomForNewPlayer(ctx);
    const { account, isNew } = accountFor(ctx, identity, seed);
    const player = accountPlayer(ctx, game, account, seed);
    ctx.store.players.set(`${game.record.gameId}/${accountPlayerId(account.accountId)}`, player);
    const sessionId = newSession(ctx, account, game.record.gameId);
    return {
        sessionId,
        nickname: player.nickname,
        email: account.email,
        gameProfile: profileOf(ctx, game, accountPlayerId(account.accountId), player).gameProfile,
        isNewUser: isNew,
        provider: account.provider,
    };
}

/** A session for reads through the gateway: the player it acts as, and whether to renew it. */
export function resolveSession(ctx: Ctx, req: Untrusted<RequestOf<'resolve_session'>>): SessionInfo {
    const live = liveSession(ctx, req.sessionHash, req.gameId);
    requireGame(ctx, req.gameId);
    return {
        playerId: accountPlayerId(live.account.accountId),
        provider: live.account.provider,
        renewDue: ctx.env.now() - live.session.renewedAt >= SESSION_RENEW_US,
    };
}

export function renewSession(ctx: Ctx, req: Untrusted<RequestOf<'renew_session'>>): null {
    touch(ctx, liveSession(ctx, req.sessionHash, req.gameId));
    return null;
}

export function sessionProfile(
    ctx: Ctx,
    req: Untrusted<RequestOf<'session_profile'>>,
): Profile & { email: string; provider: string } {
    const live = liveSession(ctx, req.sessionHash, req.gameId);
    const game = requireGame(ctx, req.gameId);
    const playerId = accountPlayerId(live.account.accountId);
    const player = findPlayer(ctx, game.record.gameId, playerId);
    const profile: Profile =
        player === undefined
            ? {
                  nickname: live.account.nickname ?? '',
                  created: ns(live.account.createdAt),
                  gameProfile: {
                      score: 0,
                      streak: 0,
                      achievements: [],
                      playCount: 0,
                      lastPlayed: ns(live.account.createdAt),
                  },
              }
            : profileOf(ctx, game, playerId, player);
    return { ...profile, email: live.account.email, provider: live.account.provider };
}

export function logout(ctx: Ctx, req: Untrusted<RequestOf<'logout'>>): { message: string } {
    const live = liveSession(ctx, req.sessionHash, req.gameId);
    ctx.store.playerSessions.delete(live.hash);
    return { message: 'Signed out.' };
}
