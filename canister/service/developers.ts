// Game developers: accounts keyed by (issuer, subject) like players' but separate from them,
// dashboard sessions (tokens kept only as hashes, 7 days, renewed on use), the game-slot
// allowance with requests for more, and the ownership check every developer method starts with.
import { dropReviews } from './review';
import type { BoardView, DeveloperView, GameView, Identity, ReplyOf, RequestOf } from '../../contract/canister';
import { boardNotFound } from '../../contract/messages';
import { clampLimit, invalid } from '../../contract/rules';
import { dropDays } from './analytics';
import { playerBanned } from './bans';
import { releaseName } from '../state/names';
import { MODERATION_KEEP } from './moderation';
import { dropReporterDay, dropReports } from './reports';
import { boardOf, boardPage, liveTable, readBoard } from './reads';
import { filterValues } from '../state/filters';
import { archiveKey, archivePeriod, rollover } from './rollover';
import { purgeGameLeagues } from './leagues';
import { SUSPICION_KEEP } from './scores';
import { dropSlots, slotPlayer, slotPlayers } from '../state/slots';
import { forgetPlayerIds } from './board-events';
import { dropRingSlots, eventSlots } from './events';
import { dropStats, statsOf } from '../state/stats';
import { playerKey } from '../state/store';
import { newToken, randomHex } from '../domain/tokens';
import { ns } from '../domain/json';
import { tokenHash } from '../domain/sha256';
import { checkIdentity } from './accounts';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { Fail } from '../domain/fail';
import { boardView, developerOf, gameView, registerGame } from './games';
import { newBoardTable, saveGame } from '../state/game-state';
import { boardsWithGrants, dropSomeBoardGrants } from './rewards';
import type { DeveloperRecord, DeveloperSessionRecord, PurgeRecord } from '../state/records';

export const DEVELOPER_SESSION_US = 7 * 86_400_000_000;
const RENEW_US = 3_600_000_000;
const HASH = /^[0-9a-f]{64}$/;
const DEAD = 'Your dashboard session has ended: sign in again.';

const identityKey = (identity: Identity): string => `${identity.issuer}\n${identity.subject}`;

export function developerView(d: DeveloperRecord): DeveloperView {
    return {
        developerId: d.developerId,
        email: d.email,
        allowance: d.allowance,
        gameIds: d.gameIds,
        request: d.request === undefined ? undefined : { ...d.request, at: ns(d.request.at) },
    };
}

/** Signs a developer in (their record made on first sign-in); the token goes to them once. */
export function developerSignIn(
    ctx: Ctx,
    req: Untrusted<RequestOf<'dev_sign_in'>>,
): { sessionToken: string; developer: DeveloperView } {
    const identity = checkIdentity(req.identity);
    let developerId = ctx.store.developerKeys.get(identityKey(identity));
    if (developerId === undefined) {
        developerId = `dev_${randomHex(ctx.env.random, 12)}`;
        ctx.store.developerKeys.set(identityKey(identity), developerId);
    }
    const developer = { ...developerOf(ctx, developerId), email: identity.email, provider: identity.provider };
    ctx.store.developers.set(developerId, developer);
    const sessionToken = newToken(ctx.env.random);
    const now = ctx.env.now();
    const session: DeveloperSessionRecord = {
        developerId,
        createdAt: now,
        renewedAt: now,
        expiresAt: now + DEVELOPER_SESSION_US,
    };
    ctx.store.developerSessions.set(tokenHash(sessionToken), session);
    return { sessionToken, developer: developerView(developer) };
}

/** The developer of a live dashboard session (401 otherwise); used in an update, it renews. */
export function liveDeveloper(ctx: Ctx, sessionHash: unknown, renew: boolean): DeveloperRecord {
    // A shard's call from its directory: the directory checked the session (service/directory/forward.ts).
    if (ctx.actingDeveloper !== undefined) return developerOf(ctx, ctx.actingDeveloper);
    const hash = typeof sessionHash === 'string' && HASH.test(sessionHash) ? sessionHash : undefined;
    const session = hash === undefined ? undefined : ctx.store.developerSessions.get(hash);
    const now = ctx.env.now();
    if (hash === undefined || session === undefined || now >= session.expiresAt) throw new Fail(401, DEAD);
    if (renew && now - session.renewedAt >= RENEW_US) {
        ctx.store.developerSessions.set(hash, { ...session, renewedAt: now, expiresAt: now + DEVELOPER_SESSION_US });
    }
    return developerOf(ctx, session.developerId);
}

export function developerSignOut(ctx: Ctx, req: Untrusted<RequestOf<'dev_sign_out'>>): { message: string } {
    liveDeveloper(ctx, req.sessionHash, false);
    ctx.store.developerSessions.delete(req.sessionHash as string);
    return { message: 'Signed out.' };
}

/**
 * The game a developer method acts on: it must be one of the session's developer's games. Any
 * other game, existing or not, is the same 404, so nothing is learnt about other developers.
 */
export function ownedGame(
    ctx: Ctx,
    req: Untrusted<{ sessionHash: string; gameId: string }>,
    renew = true,
): { game: GameState; developer: DeveloperRecord } {
    const developer = liveDeveloper(ctx, req.sessionHash, renew);
    // For its directory, a shard goes by the game's owner: a moved-in game need not be in the list.
    const owns = (gameId: string): boolean =>
        ctx.actingDeveloper !== undefined
            ? ctx.games.get(gameId)?.record.developerId === ctx.actingDeveloper
            : developer.gameIds.includes(gameId);
    const game = typeof req.gameId === 'string' && owns(req.gameId) ? ctx.games.get(req.gameId) : undefined;
    if (game === undefined) throw new Fail(404, 'Game not found among your games');
    return { game, developer };
}

export function developerMe(
    ctx: Ctx,
    req: Untrusted<RequestOf<'dev_me'>>,
): { developer: DeveloperView; games: GameView[] } {
    const developer = liveDeveloper(ctx, req.sessionHash, false);
    const games = developer.gameIds
        .map((id) => ctx.games.get(id)?.record)
        .filter((r) => r !== undefined)
        .map(gameView);
    return { developer: developerView(developer), games };
}

/** A developer asks operators for more game slots; one request stands at a time. */
export function requestGames(ctx: Ctx, req: Untrusted<RequestOf<'dev_request_games'>>): DeveloperView {
    const developer = liveDeveloper(ctx, req.sessionHash, true);
    const games = req.games;
    if (typeof games !== 'number' || !Number.isInteger(games) || games < 1 || games > 100)
        throw new Fail(400, invalid('games', 'must be a whole number from 1 to 100'));
    const message = req.message ?? '';
    if (typeof message !== 'string' || message.length > 1000)
        throw new Fail(400, invalid('message', 'must be text of at most 1000 characters'));
    const updated = { ...developer, request: { games, message, at: ctx.env.now() } };
    ctx.store.developers.set(developer.developerId, updated);
    const requesters = ctx.store.meta.get('requesters') ?? [];
    if (!requesters.includes(developer.developerId))
        ctx.store.meta.set('requesters', [...requesters, developer.developerId]);
    return developerView(updated);
}

/** Operators: the standing requests for more game slots. */
export function listRequests(ctx: Ctx): DeveloperView[] {
    const out: DeveloperView[] = [];
    for (const id of ctx.store.meta.get('requesters') ?? []) {
        const d = ctx.store.developers.get(id);
        if (d?.request !== undefined) out.push(developerView(d));
    }
    return out;
}

/** Operators: grants a request (the allowance grows by what was asked). */
export function approveRequest(ctx: Ctx, req: Untrusted<RequestOf<'admin_approve_request'>>): DeveloperView {
    const developer = typeof req.developerId === 'string' ? ctx.store.developers.get(req.developerId) : undefined;
    if (developer?.request === undefined) throw new Fail(404, 'No request from that developer');
    const updated: DeveloperRecord = {
        ...developer,
        allowance: developer.allowance + developer.request.games,
        request: undefined,
    };
    ctx.store.developers.set(developer.developerId, updated);
    const requesters = ctx.store.meta.get('requesters') ?? [];
    ctx.store.meta.set(
        'requesters',
        requesters.filter((id) => id !== developer.developerId),
    );
    return developerView(updated);
}

/** Registers a game for the signed-in developer, within their allowance. */
export function registerOwnGame(
    ctx: Ctx,
    req: Untrusted<RequestOf<'dev_register_game'>>,
): { game: GameView; apiKey: string } {
    const developer = liveDeveloper(ctx, req.sessionHash, true);
    if (purging(ctx).some((p) => p.gameId === req.gameId))
        throw new Fail(409, `Game ID '${String(req.gameId)}' is still being deleted: try again in a few minutes.`);
    const { game, apiKey } = registerGame(ctx, { ...req, developerId: developer.developerId });
    return { game: gameView(game), apiKey };
}

/** A deleted game whose records are still being removed, a few thousand players per timer tick. */

const purging = (ctx: Ctx): PurgeRecord[] => ctx.store.meta.get('purging') ?? [];

/** What starts a queued purge's steps at once (the shell's timers); none: the 30 s tick takes them. */
let purgeStarter: (() => void) | undefined;
export const installPurgeStarter = (start: () => void): void => void (purgeStarter = start);

/** Queues a game's records for removal in bounded steps (purgeSome), started at once where it can be. */
export function queuePurge(ctx: Ctx, purge: PurgeRecord): void {
    ctx.store.meta.set('purging', [...purging(ctx), purge]);
    purgeStarter?.();
}

/**
 * Deletes a game: it is gone at once (key, reads, writes, the developer's slot), and its
 * records are removed by `purgeSome` over the next timer ticks; its id is free after that.
 */
export function deleteOwnGame(ctx: Ctx, req: Untrusted<RequestOf<'dev_delete_game'>>): { message: string } {
    const { game, developer } = ownedGame(ctx, req);
    if (req.confirm !== game.record.gameId)
        throw new Fail(400, invalid('confirm', 'must repeat the game ID to delete it'));
    return deleteGame(ctx, game, developer);
}

/**
 * admin_delete_game (an operator's restore with --replace): as its developer would delete it.
 * On a directory, a game on a shard is deleted there (directory/forward.ts deleteRemoteGame).
 */
export function deleteAnyGame(ctx: Ctx, req: Untrusted<RequestOf<'admin_delete_game'>>): { message: string } {
    const game = typeof req.gameId === 'string' ? ctx.games.get(req.gameId) : undefined;
    if (game === undefined) throw new Fail(404, 'Game not found');
    if (req.confirm !== game.record.gameId)
        throw new Fail(400, invalid('confirm', 'must repeat the game ID to delete it'));
    const developer = ctx.store.developers.get(game.record.developerId);
    return deleteGame(ctx, game, developer);
}

function deleteGame(ctx: Ctx, game: GameState, developer: DeveloperRecord | undefined): { message: string } {
    const gameId = game.record.gameId;
    const archives = game.record.boards.flatMap((b) =>
        b.archives.map((start) => archiveKey(gameId, b.scoreboardId, start)),
    );
    ctx.store.apiKeys.delete(game.record.apiKey);
    purgeGameLeagues(ctx, game);
    forgetPlayerIds(ctx, game);
    ctx.store.games.delete(gameId);
    ctx.games.delete(gameId);
    ctx.rebuilding.delete(gameId);
    if (developer !== undefined)
        ctx.store.developers.set(developer.developerId, {
            ...developer,
            gameIds: developer.gameIds.filter((id) => id !== gameId),
        });
    const players = statsOf(ctx, gameId).players;
    const purge: PurgeRecord = { gameId, next: 0, players, archives };
    const events = eventSlots(ctx, gameId);
    if (events > 0) purge.events = events;
    if ((game.record.webhooks ?? []).length > 0)
        purge.webhooks = game.record.webhooks!.map((w) => `${gameId}/${w.webhookId}`);
    const grantBoards = boardsWithGrants(ctx, game.record);
    if (grantBoards.length > 0) purge.grantBoards = grantBoards;
    queuePurge(ctx, purge);
    return { message: `Game '${gameId}' and all of its data were deleted.` };
}

/** Removes up to `budget` records of deleted games; returns whether any purge is still going. */
export function purgeSome(ctx: Ctx, budget: number): boolean {
    const list = purging(ctx);
    if (list.length === 0) return false;
    const p = list[0]!;
    const ids = slotPlayers(ctx, p.gameId, p.next, Math.max(0, Math.min(budget, p.players - p.next)));
    dropSlots(ctx, p.gameId, p.next, p.next + ids.length, p.players);
    p.next += ids.length;
    for (const playerId of ids) {
        if (playerId === null) continue;
        const key = playerKey(p.gameId, playerId);
        const player = ctx.store.players.get(key);
        if (player !== undefined) releaseName(ctx, player.nickname, key);
        ctx.store.players.delete(key);
        ctx.store.achievements.delete(key);
        ctx.store.activeSessions.delete(key);
        ctx.store.bans.delete(key);
        ctx.store.grants.delete(key);
        dropReporterDay(ctx, p.gameId, playerId);
    }
    if (p.next < p.players) {
        ctx.store.meta.set('purging', list);
        return true;
    }
    // Then its event ring (up to EVENTS_KEEP slots) in steps of what is left of the budget.
    const events = p.events ?? 0;
    if (events > 0) {
        const end = Math.max(0, events - Math.max(0, budget - ids.length));
        dropRingSlots(ctx, p.gameId, end, events);
        p.events = end;
        if (end > 0) {
            ctx.store.meta.set('purging', list);
            return true;
        }
    }
    // Then its boards' lists of grants, a board's a step (rewards.ts).
    if (p.grantBoards !== undefined) {
        if (!dropSomeBoardGrants(ctx, p.gameId, p.grantBoards)) delete p.grantBoards;
        ctx.store.meta.set('purging', list);
        return true;
    }
    // The players are gone: the game's bounded rings and counters go in one step.
    for (const key of p.webhooks ?? []) ctx.store.webhooks.delete(key);
    for (const key of p.archives) ctx.store.archives.delete(key);
    for (let i = 0; i < SUSPICION_KEEP; i++) ctx.store.suspicion.delete(`${p.gameId}/${i}`);
    for (let i = 0; i < MODERATION_KEEP; i++) ctx.store.moderation.delete(`${p.gameId}/${i}`);
    dropReports(ctx, p.gameId);
    dropReviews(ctx, p.gameId);
    dropDays(ctx, p.gameId);
    dropStats(ctx, p.gameId);
    ctx.store.meta.set('purging', list.slice(1));
    return list.length > 1;
}

/** A page of a board's current period with player ids and bans, for its developer. */
export function readOwnBoard(ctx: Ctx, req: Untrusted<RequestOf<'dev_read_board'>>): ReplyOf<'dev_read_board'> {
    const { game } = ownedGame(ctx, req, false);
    const filter = req.filter;
    const board = readBoard(ctx, { gameId: game.record.gameId, boardId: req.boardId, limit: 1, filter });
    const offset = typeof req.offset === 'number' && Number.isInteger(req.offset) && req.offset >= 0 ? req.offset : 0;
    const limit = clampLimit(req.limit, 50);
    const entries = boardPage(ctx, game, board.scoreboardId, offset, limit, filter).map((e) => {
        const playerId = slotPlayer(ctx, game.record.gameId, e.slot) ?? '';
        const player = playerId === '' ? undefined : ctx.store.players.get(playerKey(game.record.gameId, playerId));
        const { slot: _slot, ...entry } = e;
        return { ...entry, playerId, banned: playerId !== '' && playerBanned(ctx, game, playerId, player) };
    });
    const reply = { scoreboardId: board.scoreboardId, totalEntries: board.totalEntries, offset, entries };
    const record = boardOf(game, board.scoreboardId);
    const table = liveTable(ctx, game, record);
    if (record.filters === undefined) return reply;
    const filters = record.filters.map((key) => ({ key, values: table === undefined ? [] : filterValues(table, key) }));
    return { ...reply, filters };
}

/** Starts a custom board's next period now: the current one is archived. */
export function resetOwnBoard(ctx: Ctx, req: Untrusted<RequestOf<'dev_reset_board'>>): BoardView {
    const { game } = ownedGame(ctx, req);
    const board = game.record.boards.find((b) => b.scoreboardId === req.scoreboardId);
    if (board === undefined) throw new Fail(404, boardNotFound(String(req.scoreboardId)));
    if (board.period !== 'custom')
        throw new Fail(
            400,
            'Only custom boards can be reset by hand: daily, weekly and monthly boards reset on the calendar.',
        );
    rollover(ctx, game, board);
    const now = ctx.env.now();
    archivePeriod(ctx, game, board, now);
    board.anchor = now;
    board.periodStart = now;
    game.periodEnds.delete(board.scoreboardId);
    game.boards.set(board.scoreboardId, newBoardTable(board, now));
    saveGame(ctx, game);
    return boardView(board);
}
