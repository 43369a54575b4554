// Players: profiles (created by their first submit), nicknames unique within their game
// (compared by skeleton: case and look-alikes folded) with the game's Player_<number> defaults
// and suffixing (rules N1-N4), achievements and profile reads.
import type { RequestOf } from '../../contract/canister';
import { MESSAGES } from '../../contract/messages';
import type { AchievementReply, NicknameReply, Profile } from '../../contract/schemas';
import { ns } from '../domain/json';
import { defaultNickname, defaultNumber, nameKey, suffixed } from '../domain/nicknames';
import { holdName, nameHolder, releaseName } from '../state/names';
import { MAX_ACHIEVEMENTS_PER_CALL, checkAchievementId, checkNickname, invalid } from '../../contract/rules';
import { dict, type PlayerRecord, type Stats } from '../state/records';
import { LAYOUT, type PlayerRow } from '../state/player-row';
import { playerKey } from '../state/store';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { requireGame } from '../state/game-state';
import { setSlot } from '../state/slots';
import { changeStats, liveStats, tickStats } from '../state/stats';
import { authTypeNames, registerAuthType, setPlayer } from '../state/tables';
import { refuseBanned } from './bans';
import { refuseClientWrite, refuseRetired, requirePlayerId, requirePlayerRef, resolveWriter } from './credentials';
import { assertRoomForNewPlayer, playerAdded } from './capacity';
import { heldAllTimeBest } from './held-view';

export const MAX_ACHIEVEMENTS_PER_PLAYER = 1000;

export function findPlayer(ctx: Ctx, gameId: string, playerId: string): PlayerRecord | undefined {
    return ctx.store.players.get(playerKey(gameId, playerId));
}

/** A player's slot, without decoding the rest of their record (reads that only rank need no more). */
export function findSlot(ctx: Ctx, gameId: string, playerId: string): number | undefined {
    return ctx.store.players.slot(playerKey(gameId, playerId));
}

/**
 * The slot of the player a read names (undefined: no such player), the id checked (400) only
 * when no player holds it: every stored id passed that check when its player was made, and a
 * found one needs no pattern test (~20 K instructions a read). A text no key can be made of
 * (a lone surrogate) is not found, and refused by the check. `keyBytes`: the key
 * `<gameId>/<playerId>` as the stable map holds it, when the caller has it (a packed rank read).
 */
export function namedSlot(ctx: Ctx, gameId: string, playerId: unknown, keyBytes?: Uint8Array): number | undefined {
    let slot: number | undefined;
    if (typeof playerId === 'string')
        try {
            slot = ctx.store.players.slot(keyBytes ?? playerKey(gameId, playerId));
        } catch {
            slot = undefined;
        }
    if (slot === undefined) requirePlayerRef(playerId);
    return slot;
}

/** The owner's game: owners are `<gameId>/<playerId>` (game ids hold no `/`). */
const gameOfOwner = (owner: string): string => owner.slice(0, owner.indexOf('/'));

/**
 * Whether `nickname` is free in the owner's game for the owner `owner` (their own current name,
 * `ownerName`, counts as free). A default name handed out is taken for good in its game, without
 * an entry in the nickname map (one B-tree entry less per player, ~190 bytes of stable memory
 * and ~0.25 M instructions).
 */
function nicknameFree(ctx: Ctx, nickname: string, owner: string, ownerName?: string): boolean {
    const gameId = gameOfOwner(owner);
    const holder = nameHolder(ctx, gameId, nickname);
    if (holder !== undefined) return holder === owner;
    const n = defaultNumber(nickname);
    if (n !== undefined && n < nextDefaultNumber(ctx, gameId))
        return ownerName !== undefined && nameKey(ownerName) === nameKey(nickname);
    return true;
}

function claim(ctx: Ctx, nickname: string, owner: string, previous?: string): void {
    if (previous !== undefined && nameKey(previous) !== nameKey(nickname)) releaseName(ctx, previous, owner);
    holdName(ctx, nickname, owner);
    // A chosen name of the default shape raises the game's mark (allocateDefault). Only names
    // starting with p/P can have it: the others skip defaultNumber's folding.
    if ((nickname.charCodeAt(0) | 32) !== 112) return;
    const n = defaultNumber(nickname);
    if (n === undefined) return;
    const stats = changeStats(ctx, gameOfOwner(owner));
    if (stats.chosenDefaultMax !== undefined && n > stats.chosenDefaultMax) stats.chosenDefaultMax = n;
}

/**
 * The number of the game's next default name to try: each game counts its own (kept with its
 * counters, which move with the game). A game without one yet goes on from the service-wide
 * counter of older releases (every default they handed out is below it; stores from before
 * that kept it in meta), a game of a fresh canister from 1.
 */
export function nextDefaultNumber(ctx: Ctx, gameId: string): number {
    return (
        liveStats(ctx, gameId).nextDefaultName ??
        liveStats(ctx, '*').nextDefaultName ??
        ctx.store.meta.get('nextDefaultName') ??
        1
    );
}

/**
 * A fresh Player_<n> that nobody in the game holds (users may pick names of that shape not handed
 * out yet): above the game's mark of such names no one does, and no B-tree read (~100 K
 * instructions) is needed to know it.
 */
function allocateDefault(ctx: Ctx, gameId: string, stats: Stats): string {
    let n = stats.nextDefaultName ?? nextDefaultNumber(ctx, gameId);
    const chosen = stats.chosenDefaultMax;
    while ((chosen === undefined || n <= chosen) && nameHolder(ctx, gameId, defaultNickname(n)) !== undefined) n++;
    stats.nextDefaultName = n + 1;
    return defaultNickname(n);
}

/**
 * The first of `wanted`, `wanted_1`, `wanted_2`, ... that is free in the owner's game for the
 * owner (rule N2); undefined when none of the first `tries` suffixes is.
 */
function firstFree(
    ctx: Ctx,
    wanted: string,
    owner: string,
    ownerName: string | undefined,
    tries: number,
): string | undefined {
    let applied = wanted;
    for (let n = 1; !nicknameFree(ctx, applied, owner, ownerName); n++) {
        if (n > tries) return undefined;
        applied = suffixed(wanted, n);
    }
    return applied;
}

/**
 * Suffixes tried in order (N2): players of a game (anyone with its public API key) who took
 * `Name_1` ... `Name_100` cost a sign-in or a rename no long search. An account's name carried
 * into a game then gets a default name; a rename tries RANDOM_SUFFIX_TRIES random suffixes.
 */
const SUFFIX_TRIES = 100;
const RANDOM_SUFFIX_TRIES = 16;
const RANDOM_SUFFIXES = 1_000_000;

/** A free `wanted_<n>` with a random n above SUFFIX_TRIES, or undefined after RANDOM_SUFFIX_TRIES tries. */
function randomFree(ctx: Ctx, wanted: string, owner: string, ownerName?: string): string | undefined {
    for (let i = 0; i < RANDOM_SUFFIX_TRIES; i++) {
        const [a, b, c, d] = ctx.env.random(4);
        const n =
            SUFFIX_TRIES + 1 + ((((a << 24) | (b << 16) | (c << 8) | d) >>> 0) % (RANDOM_SUFFIXES - SUFFIX_TRIES));
        const name = suffixed(wanted, n);
        if (nicknameFree(ctx, name, owner, ownerName)) return name;
    }
    return undefined;
}

/**
 * A new profile for the player, counted as a player of the game. On a first submit (rule N1)
 * the chosen nickname when it is free in the game, else Player_<n>; with `suffixTaken` (an
 * account's name carried into a game) a taken name gets the first free suffix instead (N2),
 * Player_<n> only when the first SUFFIX_TRIES suffixes are taken.
 */
export function createPlayer(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    nickname: string | undefined,
    authType: string,
    suffixTaken = false,
): PlayerRecord {
    const { slot, name, chosen, now } = addPlayer(ctx, game, playerId, nickname, authType, suffixTaken);
    return {
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
}

/**
 * createPlayer's record as its stored arrays (state/player-row.ts; what rowOfPlayer makes of it),
 * for a first submit (rule N1): without the object between (~45 K instructions).
 */
export function createPlayerRow(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    nickname: string | undefined,
    authType: string,
): PlayerRow {
    const { slot, name, chosen, now } = addPlayer(ctx, game, playerId, nickname, authType, false);
    return [LAYOUT, slot, name, chosen ? 0 : 1, authType, now, 0, 0, 0, null, [], [], null, 0, 0];
}

/** A new player counted, named and given a slot (createPlayer's rules); its record is the caller's to make. */
function addPlayer(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    nickname: string | undefined,
    authType: string,
    suffixTaken: boolean,
): { slot: number; name: string; chosen: boolean; now: number } {
    const gameId = game.record.gameId;
    const owner = playerKey(gameId, playerId);
    const free =
        nickname === undefined
            ? undefined
            : suffixTaken
              ? firstFree(ctx, nickname, owner, undefined, SUFFIX_TRIES)
              : nicknameFree(ctx, nickname, owner)
                ? nickname
                : undefined;
    const chosen = free !== undefined;
    // Written on the tick: the slot chunk this call writes holds them till then (state/slots.ts).
    const stats = tickStats(ctx, gameId);
    const name = free ?? allocateDefault(ctx, gameId, stats);
    if (chosen) claim(ctx, name, owner);
    const slot = stats.players;
    stats.players = slot + 1;
    setSlot(ctx, gameId, slot, playerId);
    const now = ctx.env.now();
    if (registerAuthType(authType)) ctx.store.meta.set('authTypes', [...authTypeNames()]);
    setPlayer(game.players, slot, name, authType);
    playerAdded(ctx);
    return { slot, name, chosen, now };
}

/** Rule N1 on an existing profile: a free name renames; a taken one is silently ignored. */
export function renameIfFree(
    ctx: Ctx,
    game: GameState,
    playerId: string,
    player: Pick<PlayerRecord, 'slot' | 'nickname' | 'defaultName' | 'authType'>,
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
 * Rule N2 (PUT .../nickname): a taken name gets the first free numeric suffix of the first
 * SUFFIX_TRIES, else a free random one (409 when none of those tried is free); the reply says
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
    const applied =
        firstFree(ctx, wanted, owner, player.nickname, SUFFIX_TRIES) ?? randomFree(ctx, wanted, owner, player.nickname);
    if (applied === undefined) throw new Fail(409, MESSAGES.nicknameSuffixesTaken);
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
    const game = requireGame(ctx, req.gameId);
    const playerId = requirePlayerId(req.playerId);
    const player = findPlayer(ctx, game.record.gameId, playerId);
    if (player === undefined) throw new Fail(404, MESSAGES.playerNotFound);
    return profileOf(ctx, game, playerId, player);
}

/**
 * A player's profile as the API shows it (times in ns). Its best is the one the player sees:
 * with their held all-time score, if the all-time board holds one (held-view.ts).
 */
export function profileOf(ctx: Ctx, game: GameState, playerId: string, player: PlayerRecord): Profile {
    const best = heldAllTimeBest(ctx, game, playerId) ?? player.best;
    return {
        nickname: player.nickname,
        created: ns(player.created),
        gameProfile: {
            score: best?.score ?? 0,
            streak: best?.streak ?? 0,
            achievements: ctx.store.achievements.get(playerKey(game.record.gameId, playerId)) ?? [],
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
