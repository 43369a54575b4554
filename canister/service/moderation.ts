// A developer's moderation of their game: removing one entry, wiping a player from every
// board (archives optionally), banning a player id or account so it writes nothing more to the
// game (an account's ban also holds for its identity: bans.ts), and the game's moderation log
// (a ring of MODERATION_KEEP actions).
import type { ModerationEntry, RequestOf } from '../../contract/canister';
import { boardNotFound } from '../../contract/messages';
import { checkBoardId, invalid } from '../../contract/rules';
import { ns } from '../domain/json';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { saveGame } from '../state/game-state';
import { findPlayer } from './players';
import { accountOf, identityBanKey, identityHash, isBanned } from './bans';
import {
    isCurrentEntry,
    type BanRecord,
    type BoardRecord,
    type ModerationRecord,
    type PlayerRecord,
} from '../state/records';
import { playerKey } from '../state/store';
import { removeEntry } from '../state/tables';
import { requirePlayerRef } from './credentials';
import { recordEvent } from './events';

export const MODERATION_KEEP = 1000;
/** Wipes that also hide a player's archived entries, per game (kept in the game record). */
export const MAX_ARCHIVE_WIPES = 500;
const MAX_REASON = 200;

/** Appends an action to the game's moderation log. */
export function logModeration(ctx: Ctx, game: GameState, entry: Omit<ModerationRecord, 'at'>): void {
    const seq = game.record.moderationSeq ?? 0;
    ctx.store.moderation.set(`${game.record.gameId}/${seq % MODERATION_KEEP}`, { ...entry, at: ctx.env.now() });
    game.record.moderationSeq = seq + 1;
    saveGame(ctx, game);
}

function existingPlayer(ctx: Ctx, game: GameState, playerId: unknown): { playerId: string; player: PlayerRecord } {
    const id = requirePlayerRef(playerId);
    const player = findPlayer(ctx, game.record.gameId, id);
    if (player === undefined || player.retired !== undefined) throw new Fail(404, `No player '${id}' in this game`);
    return { playerId: id, player };
}

/** Removes a player's entry from one board's current period (all-time: their best, also on /leaderboard). */
export function removeBoardEntry(
    ctx: Ctx,
    game: GameState,
    req: Untrusted<RequestOf<'dev_remove_entry'>>,
): { message: string } {
    const error = checkBoardId(req.scoreboardId);
    if (error) throw new Fail(400, error);
    const board = game.record.boards.find((b) => b.scoreboardId === req.scoreboardId);
    if (board === undefined) throw new Fail(404, boardNotFound(String(req.scoreboardId)));
    const { playerId, player } = existingPlayer(ctx, game, req.playerId);
    if (!takeEntry(ctx, game, board, playerId, player)) throw new Fail(404, `'${playerId}' has no entry on this board`);
    logModeration(ctx, game, {
        action: 'remove-entry',
        playerId,
        scoreboardId: board.scoreboardId,
        detail: `${player.nickname}'s entry removed`,
    });
    return { message: `Removed ${player.nickname}'s entry from ${board.name}.` };
}

/**
 * Takes a player's entry off one board's current period (saved, `player_wiped` recorded); false
 * when they have none there. The caller logs the action.
 */
export function takeEntry(
    ctx: Ctx,
    game: GameState,
    board: BoardRecord,
    playerId: string,
    player: PlayerRecord,
): boolean {
    if (board.scoreboardId === 'all-time') {
        if (player.best === undefined) return false;
        player.best = undefined;
        player.bestAt = undefined;
        delete player.bestMetadata;
        removeEntry(game.global, player.slot);
    } else {
        if (!isCurrentEntry(player.boards[board.scoreboardId], board)) return false;
        delete player.boards[board.scoreboardId];
        const table = game.boards.get(board.scoreboardId);
        if (table !== undefined) removeEntry(table, player.slot);
    }
    ctx.store.players.set(playerKey(game.record.gameId, playerId), player);
    recordEvent(ctx, game, { kind: 'player_wiped', playerId, scoreboardId: board.scoreboardId });
    return true;
}

/** Takes a player off every board of the game; with `archives`, off its archived periods too. */
export function wipePlayer(
    ctx: Ctx,
    game: GameState,
    req: Untrusted<RequestOf<'dev_wipe_player'>>,
): { message: string } {
    if (req.archives !== undefined && typeof req.archives !== 'boolean')
        throw new Fail(400, invalid('archives', 'must be true or false'));
    const { playerId, player } = existingPlayer(ctx, game, req.playerId);
    const wipes = game.record.archiveWipes ?? [];
    if (req.archives === true && wipes.length >= MAX_ARCHIVE_WIPES)
        throw new Fail(403, `A game may hide at most ${MAX_ARCHIVE_WIPES} players from its archives.`);
    player.best = undefined;
    player.bestAt = undefined;
    delete player.bestMetadata;
    for (const id of Object.keys(player.boards)) delete player.boards[id];
    removeEntry(game.global, player.slot);
    for (const table of game.boards.values()) removeEntry(table, player.slot);
    ctx.store.players.set(playerKey(game.record.gameId, playerId), player);
    // Archives are immutable records: reads leave out this slot's entries from periods before now.
    if (req.archives === true) game.record.archiveWipes = [...wipes, { slot: player.slot, before: ctx.env.now() }];
    logModeration(ctx, game, {
        action: 'wipe-player',
        playerId,
        detail: `${player.nickname} wiped from every board${req.archives === true ? ' and archive' : ''}`,
    });
    recordEvent(ctx, game, { kind: 'player_wiped', playerId });
    return { message: `Removed ${player.nickname} from every board${req.archives === true ? ' and archive' : ''}.` };
}

/** Refuses every write of a player id (or an account's `@…` id, and its identity) in this game from now on. */
export function ban(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_ban'>>): { message: string } {
    const playerId = requirePlayerRef(req.playerId);
    const reason = req.reason ?? '';
    if (typeof reason !== 'string' || reason.length > MAX_REASON)
        throw new Fail(400, invalid('reason', `must be text of at most ${MAX_REASON} characters`));
    const gameId = game.record.gameId;
    const player = findPlayer(ctx, gameId, playerId);
    const account = accountOf(ctx, playerId);
    if (isBanned(ctx, game, playerId, player, account)) throw new Fail(409, `'${playerId}' is already banned`);
    const record: BanRecord = { at: ctx.env.now(), reason };
    if (account !== undefined) {
        // The person behind the account stays banned here if they delete it and sign in again.
        record.identity = identityHash(account);
        ctx.store.bans.set(identityBanKey(gameId, record.identity), { at: record.at, reason });
        game.record.identityBans = (game.record.identityBans ?? 0) + 1;
    }
    if (player !== undefined) ctx.store.players.set(playerKey(gameId, playerId), { ...player, banned: record });
    else {
        ctx.store.bans.set(playerKey(gameId, playerId), record);
        game.record.pendingBans = (game.record.pendingBans ?? 0) + 1;
    }
    logModeration(ctx, game, { action: 'ban', playerId, detail: reason === '' ? 'banned' : `banned: ${reason}` });
    recordEvent(ctx, game, { kind: 'player_banned', playerId, reason });
    return { message: `'${playerId}' is banned: it writes nothing more to this game.` };
}

/** Lifts a ban: the player id's, and the identity's of its account (also after the account was removed). */
export function unban(ctx: Ctx, game: GameState, req: Untrusted<RequestOf<'dev_unban'>>): { message: string } {
    const playerId = requirePlayerRef(req.playerId);
    const gameId = game.record.gameId;
    const player = findPlayer(ctx, gameId, playerId);
    const account = accountOf(ctx, playerId);
    if (!isBanned(ctx, game, playerId, player, account)) throw new Fail(404, `'${playerId}' is not banned`);
    const pending = ctx.store.bans.get(playerKey(gameId, playerId));
    const identities = new Set<string | undefined>([player?.banned?.identity, pending?.identity]);
    if (account !== undefined) identities.add(identityHash(account));
    if (player?.banned !== undefined)
        ctx.store.players.set(playerKey(gameId, playerId), { ...player, banned: undefined });
    // A ban made before the player had a record stays under bans until lifted.
    if (pending !== undefined) {
        ctx.store.bans.delete(playerKey(gameId, playerId));
        game.record.pendingBans = Math.max(0, (game.record.pendingBans ?? 0) - 1);
    }
    for (const hash of identities) {
        if (hash === undefined || ctx.store.bans.get(identityBanKey(gameId, hash)) === undefined) continue;
        ctx.store.bans.delete(identityBanKey(gameId, hash));
        game.record.identityBans = Math.max(0, (game.record.identityBans ?? 0) - 1);
    }
    logModeration(ctx, game, { action: 'unban', playerId, detail: 'ban lifted' });
    return { message: `'${playerId}' may submit again.` };
}

/** The game's moderation actions, newest first. */
export function moderationLog(
    ctx: Ctx,
    game: GameState,
    req: Untrusted<RequestOf<'dev_moderation_log'>>,
): ModerationEntry[] {
    const limit =
        typeof req.limit === 'number' && Number.isFinite(req.limit)
            ? Math.max(1, Math.min(MODERATION_KEEP, Math.floor(req.limit)))
            : 100;
    const end = game.record.moderationSeq ?? 0;
    const out: ModerationEntry[] = [];
    for (let seq = end - 1; seq >= Math.max(0, end - MODERATION_KEEP) && out.length < limit; seq--) {
        const entry = ctx.store.moderation.get(`${game.record.gameId}/${seq % MODERATION_KEEP}`);
        if (entry !== undefined) out.push({ ...entry, at: ns(entry.at) });
    }
    return out;
}
