// Play sessions for time validation: tokens from the CSPRNG, at most 3 active per player per
// game, single-use, expiring after the game's session lifetime; ending is idempotent and
// expired sessions are swept away so the state stays bounded.
import type { RequestOf } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import { invalid } from '../../contract/rules';
import type { Message, PlaySessionStarted } from '../../contract/schemas';
import type { PlaySession } from '../domain/anti-cheat';
import { playerKey } from '../state/store';
import { MAX_ACTIVE_PLAY_SESSIONS, MAX_PLAY_SESSION_TOKEN } from '../../contract/rules';
import { refuseBanned } from './bans';
import { checkCredential, refuseRetired, resolveWriter } from './credentials';
import type { Ctx, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { randomHex } from '../domain/tokens';
import { assertRoomForNewPlayer } from './capacity';

const expiryKey = (expiresAt: number, token: string): string => `${String(expiresAt).padStart(20, '0')}/${token}`;

const newToken = (ctx: Ctx): string => `ps_${randomHex(ctx.env.random, 16)}`;

export function startSession(ctx: Ctx, req: Untrusted<RequestOf<'start_play_session'>>): PlaySessionStarted {
    const { game, playerId, account, server } = resolveWriter(ctx, req);
    const gameId = game.record.gameId;
    const player = ctx.store.players.get(playerKey(gameId, playerId));
    refuseRetired(player);
    refuseBanned(ctx, game, playerId, player, account, account !== undefined && !server);
    // A session for a player the game has never seen: their submit would be a new player.
    if (player === undefined) assertRoomForNewPlayer(ctx);
    const now = ctx.env.now();
    const key = playerKey(gameId, playerId);
    const active = (ctx.store.activeSessions.get(key)?.tokens ?? []).filter((t) => t.expiresAt > now);
    if (active.length >= MAX_ACTIVE_PLAY_SESSIONS) throw new Fail(400, MESSAGES.tooManyPlaySessions);
    const token = newToken(ctx);
    const expiresAt = now + game.record.timeValidation.sessionLifetimeSeconds * 1e6;
    const session: PlaySession = { token, gameId, playerId, startedAt: now, expiresAt, used: false };
    ctx.store.sessions.set(token, session);
    ctx.store.sessionExpiry.set(expiryKey(expiresAt, token), '');
    ctx.store.activeSessions.set(key, { tokens: [...active, { token, expiresAt }] });
    return { ok: token, message: 'Play session started.' };
}

/** Frees the player's capacity; unknown or already-ended tokens are 404 (clients ignore it). */
export function endSession(ctx: Ctx, req: Untrusted<RequestOf<'end_play_session'>>): Message {
    const gameId = checkCredential(ctx, req).game.record.gameId;
    const token = req.playSessionToken;
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_PLAY_SESSION_TOKEN) {
        throw new Fail(400, invalid('playSessionToken', `must be a string of 1-${MAX_PLAY_SESSION_TOKEN} characters`));
    }
    const session = ctx.store.sessions.get(token);
    if (session === undefined || session.gameId !== gameId) throw new Fail(404, 'Play session not found');
    const key = playerKey(session.gameId, session.playerId);
    const active = ctx.store.activeSessions.get(key)?.tokens ?? [];
    if (!active.some((t) => t.token === token)) throw new Fail(404, 'Play session already ended');
    release(ctx, session);
    return { message: 'Play session ended.' };
}

export function sessionOf(ctx: Ctx, token: string | undefined): PlaySession | undefined {
    return token === undefined || token.length > MAX_PLAY_SESSION_TOKEN ? undefined : ctx.store.sessions.get(token);
}

/** Marks a session used by a submit: it can serve no other submit and no longer counts as active. */
export function consumeSession(ctx: Ctx, session: PlaySession): void {
    ctx.store.sessions.set(session.token, { ...session, used: true });
    release(ctx, session);
}

function release(ctx: Ctx, session: PlaySession): void {
    const key = playerKey(session.gameId, session.playerId);
    const rest = (ctx.store.activeSessions.get(key)?.tokens ?? []).filter((t) => t.token !== session.token);
    if (rest.length === 0) ctx.store.activeSessions.delete(key);
    else ctx.store.activeSessions.set(key, { tokens: rest });
}

/** Drops sessions that expired (oldest first, at most `limit`); returns how many. */
export function sweepSessions(ctx: Ctx, limit = 500): number {
    const now = ctx.env.now();
    let swept = 0;
    // The queue is in expiry order and usually nothing is due: look at the head first.
    const head = ctx.store.sessionExpiry.first(1)[0];
    if (head === undefined || Number(head[0].split('/')[0]) > now) return 0;
    for (;;) {
        const batch = ctx.store.sessionExpiry.first(25);
        for (const [key] of batch) {
            const [at, token] = key.split('/');
            if (Number(at) > now || swept >= limit) return swept;
            const session = ctx.store.sessions.get(token);
            if (session !== undefined) {
                release(ctx, session);
                ctx.store.sessions.delete(token);
            }
            ctx.store.sessionExpiry.delete(key);
            swept++;
        }
        if (batch.length < 25) return swept;
    }
}
