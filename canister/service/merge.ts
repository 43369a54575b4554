// Moving a player into an account and taking players off the boards: the merge of an
// anonymous player into the signed-in player's account (every current period's entries merged
// by the board's order and operator, summed plays, united achievements; archives name the account from then on),
// and the removal of an account with everything it wrote.
import type { RequestOf } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import { invalid } from '../../contract/rules';
import { mergeBests } from '../domain/bests';
import { accountPlayer } from './accounts';
import { holdName, nameHolder, releaseName } from '../state/names';
import { isBanned, refuseBanned } from './bans';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { requireGame } from '../state/game-state';
import { endAllSessions, accountPlayerId, liveSession } from './sign-in-sessions';
import { MAX_ACHIEVEMENTS_PER_PLAYER, findPlayer } from './players';
import { isCurrentEntry, type EntryRecord, type PlayerRecord } from '../state/records';
import { updateStats } from '../state/stats';
import { playerKey } from '../state/store';
import { putEntry, removeEntry, setEntryMetadata, setPlayer } from '../state/tables';
import { mergedMetadata } from '../domain/metadata';
import { refuseRetired, requirePlayerId } from './credentials';
import { assertRoomForNewPlayer } from './capacity';

/** An anonymous player may be merged into an account only this soon after that session's sign-in. */
export const MERGE_WINDOW_US = 15 * 60_000_000;

/** Takes a player off every board of the game (heap tables); records are the caller's. */
function unlist(game: GameState, slot: number): void {
    removeEntry(game.global, slot);
    for (const table of game.boards.values()) removeEntry(table, slot);
}

/** Marks a player retired: off the boards, its slot forwarded (or -1), counted as retired. */
function retire(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    player: PlayerRecord,
    into?: { playerId: string; slot: number },
): void {
    unlist(game, player.slot);
    game.retired.set(player.slot, into?.slot ?? -1);
    // Its name is free again, unless the account it merged into took it over.
    releaseName(ctx, player.nickname, playerKey(game.record.gameId, playerId));
    ctx.store.achievements.delete(playerKey(game.record.gameId, playerId));
    const tombstone: PlayerRecord = {
        ...player,
        best: undefined,
        bestAt: undefined,
        bestMetadata: undefined,
        boards: Object.create(null),
        pace: Object.create(null),
        retired: into === undefined ? {} : { into: into.playerId, intoSlot: into.slot },
    };
    ctx.store.players.set(playerKey(game.record.gameId, playerId), tombstone);
    updateStats(ctx, game.record.gameId, (s) => ({ ...s, retired: (s.retired ?? 0) + 1 }));
}

export function migrateAccount(
    ctx: Ctx,
    req: Untrusted<RequestOf<'migrate_account'>>,
): { message: string; migratedGames: number; migratedScoreboards: number } {
    const live = liveSession(ctx, req.sessionHash, req.gameId);
    const game = requireGame(ctx, req.gameId);
    const gameId = game.record.gameId;
    const now = ctx.env.now();
    if (live.session.merged)
        throw new Fail(400, 'This sign-in already merged a player: each sign-in may merge one anonymous player.');
    if (now - live.session.signedInAt > MERGE_WINDOW_US) {
        throw new Fail(400, 'Merging is possible only within 15 minutes of signing in: sign in again, then merge.');
    }
    if (typeof req.deviceId !== 'string')
        throw new Fail(400, invalid('deviceId', 'is required: the anonymous playerId'));
    const deviceId = requirePlayerId(req.deviceId);
    const anon = findPlayer(ctx, gameId, deviceId);
    const anonAchievements = ctx.store.achievements.get(playerKey(gameId, deviceId));
    if (anon === undefined && anonAchievements === undefined) throw new Fail(404, MESSAGES.playerNotFound);
    refuseRetired(anon);
    // A ban follows the person: a banned account takes in nothing, a banned id goes nowhere.
    const accountId = accountPlayerId(live.account.accountId);
    refuseBanned(ctx, game, accountId, findPlayer(ctx, gameId, accountId), live.account);
    if (isBanned(ctx, game, deviceId, anon))
        throw new Fail(
            400,
            `'${deviceId}' is banned from this game: a banned player cannot be merged into an account.`,
        );

    // The account's own player is created here when it has none in this game yet.
    if (findPlayer(ctx, gameId, accountId) === undefined) assertRoomForNewPlayer(ctx);
    const target = accountPlayer(ctx, game, live.account);
    let boards = 0;
    if (anon !== undefined) {
        // Entries by each board's rule (best by its order, the later one, or the total): the
        // profile's (the standard boards' rule) and every current period's.
        if (anon.best !== undefined) {
            const rule = game.record.standardBoards ?? {};
            const ours = target.best && { ...target.best, metadata: target.bestMetadata };
            target.best = mergeBests(target.best, anon.best, rule, target.bestAt ?? 0, anon.bestAt ?? 0)!;
            target.bestAt = Math.max(target.bestAt ?? 0, anon.bestAt ?? 0);
            const allTime = game.record.boards.find((b) => b.scoreboardId === 'all-time');
            const metadata = mergedMetadata(target.best, allTime?.sortBy ?? 'score', ours, {
                ...anon.best,
                metadata: anon.bestMetadata,
            });
            if (metadata === undefined) delete target.bestMetadata;
            else target.bestMetadata = metadata;
            putEntry(game.global, target.slot, target.best, target.bestAt);
            setEntryMetadata(game.global, target.slot, metadata);
            boards++;
        }
        for (const board of game.record.boards) {
            const theirs = anon.boards[board.scoreboardId];
            if (!isCurrentEntry(theirs, board)) continue;
            const ours = target.boards[board.scoreboardId];
            const mine = isCurrentEntry(ours, board) ? ours : undefined;
            const best = mergeBests(mine, theirs, board, mine?.submittedAt ?? 0, theirs.submittedAt)!;
            const submittedAt = Math.max(mine?.submittedAt ?? 0, theirs.submittedAt);
            const entry: EntryRecord = { ...best, period: board.periodStart, submittedAt, serial: board.serial };
            const metadata = mergedMetadata(best, board.sortBy, mine, theirs);
            if (metadata !== undefined) entry.metadata = metadata;
            target.boards[board.scoreboardId] = entry;
            const table = game.boards.get(board.scoreboardId);
            if (table !== undefined) {
                putEntry(table, target.slot, best, submittedAt);
                setEntryMetadata(table, target.slot, metadata);
            }
            boards++;
        }
        target.playCount += anon.playCount;
        target.lastPlayed = Math.max(target.lastPlayed, anon.lastPlayed);
        target.created = Math.min(target.created, anon.created);
        // A name the player chose on this device follows them, unless the account chose one.
        if (target.defaultName && !anon.defaultName) {
            releaseName(ctx, target.nickname, playerKey(gameId, accountId));
            // (Unless another holds its key: a look-alike both took before names were compared so.)
            if (nameHolder(ctx, gameId, anon.nickname) === playerKey(gameId, deviceId))
                holdName(ctx, anon.nickname, playerKey(gameId, accountId));
            target.nickname = anon.nickname;
            target.defaultName = false;
            setPlayer(game.players, target.slot, target.nickname, target.authType);
        }
    }
    // Achievements: the union.
    const united = ctx.store.achievements.get(playerKey(gameId, accountId)) ?? [];
    for (const id of anonAchievements ?? [])
        if (!united.includes(id) && united.length < MAX_ACHIEVEMENTS_PER_PLAYER) united.push(id);
    if (united.length > 0) ctx.store.achievements.set(playerKey(gameId, accountId), united);
    ctx.store.players.set(playerKey(gameId, accountId), target);
    if (anon !== undefined) {
        retire(ctx, game, deviceId, anon, { playerId: accountId, slot: target.slot });
    } else {
        ctx.store.achievements.delete(playerKey(gameId, deviceId));
    }
    live.session.merged = true;
    ctx.store.playerSessions.set(live.hash, live.session);
    return { message: `Merged ${deviceId} into your account.`, migratedGames: 1, migratedScoreboards: boards };
}

/**
 * The player removes their account: its players leave every board (their achievements go too),
 * its sessions die. An account from before every write recorded its game is looked for in
 * every game (two B-tree reads per game, once).
 */
export function deleteAccount(ctx: Ctx, req: Untrusted<RequestOf<'delete_account'>>): { message: string } {
    const { account } = liveSession(ctx, req.sessionHash, req.gameId);
    forgetAccount(ctx, account.accountId);
    return { message: 'Your account and its entries were removed.' };
}

/** The account's player in one game retired (off the boards), whether or not the account is still here. */
export function retireAccountPlayer(ctx: Ctx, gameId: string, accountId: string): void {
    const game = ctx.games.get(gameId);
    const playerId = accountPlayerId(accountId);
    const player = game === undefined ? undefined : findPlayer(ctx, gameId, playerId);
    if (game !== undefined && player !== undefined && player.retired === undefined) retire(ctx, game, playerId, player);
}

/**
 * Removes an account here, if this canister has it (delete_account, and across shards
 * account_deleted / account_forget): its players in every game, their entries and
 * achievements, its sessions, its record. An account unknown here changes nothing.
 */
export function forgetAccount(ctx: Ctx, accountId: string): boolean {
    const account = ctx.store.accounts.get(accountId);
    if (account === undefined) return false;
    const playerId = accountPlayerId(account.accountId);
    for (const gameId of account.gamesTracked ? account.games : ctx.games.keys()) {
        const game = ctx.games.get(gameId);
        const player = game === undefined ? undefined : findPlayer(ctx, gameId, playerId);
        if (game !== undefined && player !== undefined && player.retired === undefined)
            retire(ctx, game, playerId, player);
        else if (player === undefined) ctx.store.achievements.delete(playerKey(gameId, playerId));
    }
    endAllSessions(ctx, account.accountId);
    ctx.store.accountKeys.delete(`${account.issuer}\n${account.subject}`);
    ctx.store.accounts.delete(account.accountId);
    return true;
}
