// Players: profiles (created by their first submit), service-wide unique nicknames (compared
// by skeleton: case and look-alikes folded) with the Player_<number> defaults and suffixing
// (rules N1-N4), achievements and profile reads.
import type { RequestOf } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import type { AchievementReply, NicknameReply, Profile } from '../../contract/schemas';
import { ns } from '../domain/json';
import { defaultNickname, defaultNumber, nameKey, suffixed } from '../domain/nicknames';
import { holdName, nameHolder, releaseName } from '../state/names';
import { MAX_ACHIEVEMENTS_PER_CALL, checkAchievementId, checkNickname, invalid } from '../../contract/rules';
import { dict, type PlayerRecord } from '../state/records';
import { playerKey } from '../state/store';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { requireGame } from '../state/game-state';
import { setSlot } from '../state/slots';
import { statsOf, updateStats } from '../state/stats';
import { authTypeNames, registerAuthType, setPlayer } from '../state/tables';
import { refuseBanned } from './bans';
import { refuseClientWrite, refuseRetired, requirePlayerId, resolveWriter } from './credentials';
import { assertRoomForNewPlayer, playerAdded } from './room';

export const MAX_ACHIEVEMENTS_PER_PLAYER = 1000;

export function findPlayer(ctx: Ctx, gameId: string, playerId: string): PlayerRecord | undefined {
    return ctx.store.players.get(playerKey(gameId, playerId));
}

/**
 * Whether `nickname` is free for the owner `owner` (their own current name, `ownerName`, counts
 * as free). A default name handed out is taken for good, without an entry in the nickname map
 * (one B-tree entry less per player, ~190 bytes of stable memory and ~0.25 M instructions).
 */
function nicknameFree(ctx: Ctx, nickname: string, owner: string, ownerName?: string): boolean {
    const holder = nameHolder(ctx, nickname);
    if (holder !== undefined) return holder === owner;
    const n = defaultNumber(nickname);
    if (n !== undefined && n < nextDefaultNumber(ctx))
        return ownerName !== undefined && nameKey(ownerName) === nameKey(nickname);
    return true;
}

function claim(ctx: Ctx, nickname: string, owner: string, previous?: string): void {
    if (previous !== undefined && nameKey(previous) !== nameKey(nickname)) releaseName(ctx, previous, owner);
    holdName(ctx, nickname, owner);
}

/** The number of the next default name to try. */
function nextDefaultNumber(ctx: Ctx): number {
    // The counter lives with the platform's counters (written once per call); stores from
    // before that keep it in meta.
    return statsOf(ctx, '*').nextDefaultName ?? ctx.store.meta.get('nextDefaultName') ?? 1;
}

/** A fresh Player_<n> that nobody holds (users may pick names of that shape not handed out yet). */
function allocateDefault(ctx: Ctx): string {
    let n = nextDefaultNumber(ctx);
    while (nameHolder(ctx, defaultNickname(n)) !== undefined) n++;
    updateStats(ctx, '*', (s) => ({ ...s, nextDefaultName: n + 1 }));
    return defaultNickname(n);
}

/**
 * A new profile for the player (their first submit): the chosen nickname when it is free,
 * else Player_<n> (rule N1); counted as a player of the game.
 */
export function createPlayer(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    nickname: string | undefined,
    authType: string,
): PlayerRecord {
    const gameId = game.record.gameId;
    const owner = playerKey(gameId, playerId);
    const chosen = nickname !== undefined && nicknameFree(ctx, nickname, owner);
    const name = chosen ? nickname! : allocateDefault(ctx);
    if (chosen) claim(ctx, name, owner);
    const slot = statsOf(ctx, gameId).players;
    updateStats(ctx, gameId, (s) => ({ ...s, players: s.players + 1 }));
    setSlot(ctx, gameId, slot, playerId);
    const now = ctx.env.now();
    if (registerAuthType(authType)) ctx.store.meta.set('authTypes', [...authTypeNames()]);
    const player: PlayerRecord = {
        slot,
        nickname: name,
        defaultName: !chosen,
        authType,
        created: now,
        playCount: 0,
        lastPlayed: now,
        boards: dict(),
        pace: dict(),
    };
    setPlayer(game.players, slot, name, authType);
    playerAdded(ctx);
    return player;
}

/** Rule N1 on an existing profile: a free name renames; a taken one is silently ignored. */
export function renameIfFree(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    player: PlayerRecord,
    nickname: string,
): boolean {
    const owner = playerKey(game.record.gameId, playerId);
    if (nickname === player.nickname || !nicknameFree(ctx, nickname, owner, player.nickname)) return false;
    claim(ctx, nickname, owner, player.nickname);
    player.nickname = nickname;
    player.defaultName = false;
    setPlayer(game.players, player.slot, nickname, player.authType);
    return true;
}

/**
 * Rule N2 (PUT .../nickname): a taken name gets the first free numeric suffix; the reply says
 * which name was applied. The player must have a profile.
 */
export function setNickname(ctx: Ctx, req: Untrusted<RequestOf<'set_nickname'>>): NicknameReply {
    const { game, playerId, account, server } = resolveWriter(ctx, req);
    const error = checkNickname(req.nickname);
    if (error) throw new Fail(400, error);
    const wanted = req.nickname as string;
    const gameId = game.record.gameId;
    const player = findPlayer(ctx, gameId, playerId);
    if (player === undefined) throw new Fail(404, MESSAGES.playerNotFound);
    refuseRetired(player);
    refuseBanned(ctx, game, playerId, player, account, account !== undefined && !server);
    const owner = playerKey(gameId, playerId);
    let applied = wanted;
    for (let n = 1; !nicknameFree(ctx, applied, owner, player.nickname); n++) applied = suffixed(wanted, n);
    if (applied !== player.nickname) {
        claim(ctx, applied, owner, player.nickname);
        player.nickname = applied;
        player.defaultName = false;
        ctx.store.players.set(owner, player);
        setPlayer(game.players, player.slot, applied, player.authType);
    }
    return {
        nickname: applied,
        message:
            applied === wanted
                ? `Nickname set to ${applied}.`
                : `'${wanted}' is taken; your nickname is now ${applied}.`,
    };
}

export function profile(ctx: Ctx, req: Untrusted<RequestOf<'profile'>>): Profile {
    const gameId = requireGame(ctx, req.gameId).record.gameId;
    const playerId = requirePlayerId(req.playerId);
    const player = findPlayer(ctx, gameId, playerId);
    if (player === undefined) throw new Fail(404, MESSAGES.playerNotFound);
    return profileOf(ctx, gameId, playerId, player);
}

/** A player's profile as the API shows it (times in ns). */
export function profileOf(ctx: Ctx, gameId: string, playerId: string, player: PlayerRecord): Profile {
    return {
        nickname: player.nickname,
        created: ns(player.created),
        gameProfile: {
            score: player.best?.score ?? 0,
            streak: player.best?.streak ?? 0,
            achievements: ctx.store.achievements.get(playerKey(gameId, playerId)) ?? [],
            playCount: player.playCount,
            lastPlayed: ns(player.lastPlayed),
        },
    };
}

/**
 * Unlocks achievements (idempotent; re-sending an unlocked id succeeds). Anonymous players'
 * achievements are kept server-side even before their first submit.
 */
export function unlockAchievements(ctx: Ctx, req: Untrusted<RequestOf<'unlock_achievements'>>): AchievementReply {
    const writer = resolveWriter(ctx, req);
    refuseClientWrite(writer);
    const gameId = writer.game.record.gameId;
    const playerId = writer.playerId;
    const ids = req.achievementIds;
    if (!Array.isArray(ids) || ids.length === 0)
        throw new Fail(400, invalid('achievementIds', 'must be a non-empty list'));
    if (ids.length > MAX_ACHIEVEMENTS_PER_CALL)
        throw new Fail(400, invalid('achievementIds', `may hold at most ${MAX_ACHIEVEMENTS_PER_CALL} ids`));
    for (const id of ids) {
        const error = checkAchievementId(id);
        if (error) throw new Fail(400, error);
    }
    const player = findPlayer(ctx, gameId, playerId);
    refuseRetired(player);
    refuseBanned(ctx, writer.game, playerId, player, writer.account, writer.account !== undefined && !writer.server);
    const key = playerKey(gameId, playerId);
    const stored = ctx.store.achievements.get(key);
    // Achievements kept for a player the game has never seen: a new player of the game.
    if (player === undefined && stored === undefined) assertRoomForNewPlayer(ctx);
    const unlocked = stored ?? [];
    const have = new Set(unlocked);
    const results: AchievementReply['results'] = [];
    let added = 0;
    for (const id of ids as string[]) {
        if (have.has(id)) {
            results.push({ achievementId: id, success: true, message: 'Already unlocked' });
        } else if (have.size >= MAX_ACHIEVEMENTS_PER_PLAYER) {
            results.push({
                achievementId: id,
                success: false,
                message: `A player may unlock at most ${MAX_ACHIEVEMENTS_PER_PLAYER} achievements`,
            });
        } else {
            have.add(id);
            unlocked.push(id);
            added++;
            results.push({ achievementId: id, success: true, message: 'Unlocked' });
        }
    }
    if (added > 0) ctx.store.achievements.set(key, unlocked);
    return { unlocked: added, total: unlocked.length, results };
}
