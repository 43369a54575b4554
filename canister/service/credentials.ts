// Who a player write acts as, checked in the same call: an anonymous player by the game's API
// key and the player id it sends, a signed-in player by their session, or any player of the game
// by its server key (the hash the gateway sends) and the player id it sends.
import type { PlayerCredential } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import { PLAYER_ID, checkPlayerId } from '../../contract/rules';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { requireGame } from '../state/game-state';
import { accountPlayerId, liveSession, recordGame, touch } from './sign-in-sessions';
import { accountOf } from './bans';
import type { AccountRecord, PlayerRecord } from '../state/records';
import { playerKey } from '../state/store';

/** A player of an anonymous (API-key) request. */
export const AUTH_EXTERNAL = 'external';

export function requirePlayerId(playerId: unknown): string {
    const error = checkPlayerId(playerId);
    if (error) throw new Fail(400, error);
    return playerId as string;
}

/** A player id in a read: an anonymous one, or an account's (`@` + 32 hex digits). */
export function requirePlayerRef(playerId: unknown): string {
    // Only an account's id starts with `@` (0x40): an anonymous one meets one pattern, not two.
    if (typeof playerId === 'string' && playerId.charCodeAt(0) === 0x40 && ACCOUNT_PLAYER_ID.test(playerId))
        return playerId;
    return requirePlayerId(playerId);
}

const ACCOUNT_PLAYER_ID = /^@[0-9a-f]{32}$/;

/** Whether `id` is a player id a read may name: an anonymous one or an account's. */
export const isPlayerRef = (id: string): boolean => ACCOUNT_PLAYER_ID.test(id) || PLAYER_ID.test(id);

export interface Writer {
    game: GameState;
    /** The player the write acts as: the body's anonymous id, or the session's account player. */
    playerId: string;
    authType: string;
    account?: AccountRecord;
    /** Written with the game's server key. */
    server?: true;
}

/** Whether a server-key hash is the game's current one (compared as hashes: the key is never kept). */
export function serverKeyMatches(game: GameState | undefined, serverKeyHash: unknown): game is GameState {
    const kept = game?.record.serverKey?.hash;
    return kept !== undefined && typeof serverKeyHash === 'string' && serverKeyHash === kept;
}

/** The game of a server key: 401 for a wrong or absent one, 403 for a deactivated game. */
export function checkServerKey(ctx: Ctx, gameId: unknown, serverKeyHash: unknown): GameState {
    const game = typeof gameId === 'string' ? ctx.games.get(gameId) : undefined;
    if (!serverKeyMatches(game, serverKeyHash)) throw new Fail(401, MESSAGES.invalidServerKey);
    if (!game.record.isActive) throw new Fail(403, MESSAGES.gameDeactivated);
    return game;
}

/**
 * The game a write acts on, with its credential checked in this call: the game's current API
 * key, or a live session (renewed as it is used). A deactivated game is 403 for keys but 400
 * for sessions: on a session request 401/403 mean a dead session and make clients sign out.
 */
export function checkCredential(
    ctx: Ctx,
    req: Untrusted<{ gameId: string } & ({ apiKey: string } | { sessionHash: string } | { serverKeyHash: string })>,
): { game: GameState; account?: AccountRecord; server?: true } {
    if (req.serverKeyHash !== undefined)
        return { game: checkServerKey(ctx, req.gameId, req.serverKeyHash), server: true };
    if (req.sessionHash !== undefined) {
        const live = liveSession(ctx, req.sessionHash, req.gameId);
        const game = requireGame(ctx, req.gameId);
        if (!game.record.isActive) throw new Fail(400, MESSAGES.gameDeactivated);
        touch(ctx, live);
        recordGame(ctx, live.account, game.record.gameId);
        return { game, account: live.account };
    }
    const game = typeof req.gameId === 'string' ? ctx.games.get(req.gameId) : undefined;
    if (game === undefined || typeof req.apiKey !== 'string' || game.record.apiKey !== req.apiKey)
        throw new Fail(401, MESSAGES.invalidApiKey);
    if (!game.record.isActive) throw new Fail(403, MESSAGES.gameDeactivated);
    return { game };
}

/**
 * Who a player write acts as: with a session its account's player (a body player id is ignored);
 * with the server key the body's player: an anonymous id (made on its first write, as with the
 * API key) or an account's `@` id that already plays the game (404 otherwise).
 */
export function resolveWriter(ctx: Ctx, req: Untrusted<{ gameId: string } & PlayerCredential>): Writer {
    const { game, account, server } = checkCredential(ctx, req);
    if (server) {
        if (typeof req.playerId === 'string' && ACCOUNT_PLAYER_ID.test(req.playerId)) {
            const playerId = req.playerId;
            const owner = accountOf(ctx, playerId);
            if (owner === undefined || ctx.store.players.get(playerKey(game.record.gameId, playerId)) === undefined)
                throw new Fail(404, MESSAGES.playerNotFound);
            return { game, playerId, authType: owner.provider, account: owner, server };
        }
        return { game, playerId: requirePlayerId(req.playerId), authType: AUTH_EXTERNAL, server };
    }
    if (account !== undefined)
        return { game, playerId: accountPlayerId(account.accountId), authType: account.provider, account };
    return { game, playerId: requirePlayerId(req.playerId), authType: AUTH_EXTERNAL };
}

/** A retired player (merged into an account, or removed) writes nothing more: 400, with the way on. */
export function refuseRetired(player: Pick<PlayerRecord, 'retired'> | undefined): void {
    if (player?.retired !== undefined) {
        throw new Fail(
            400,
            "This player ID was merged into a signed-in account (or removed): send that account's X-Session-Token instead.",
        );
    }
}

/**
 * A score or achievement write of a game that takes them from its server only: refused for the
 * API key (403) and for sessions (400: 401/403 on a session request make clients sign out).
 */
export function refuseClientWrite(writer: Writer): void {
    if (writer.game.record.serverOnly === true && !writer.server)
        throw new Fail(writer.account === undefined ? 403 : 400, MESSAGES.serverOnly);
}
