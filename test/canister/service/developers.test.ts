// The developer side on the service: dashboard sign-in and sessions, ownership of every
// developer method, game slots with requests, moderation (entries, wipes, bans), analytics,
// manual resets of custom boards, and deleting a game with everything in it.
import type { Identity } from '../../../contract/canister';
import { analytics } from '../../../canister/service/analytics';
import {
    approveRequest,
    deleteOwnGame,
    developerMe,
    developerSignIn,
    developerSignOut,
    listRequests,
    ownedGame,
    purgeSome,
    readOwnBoard,
    registerOwnGame,
    requestGames,
    resetOwnBoard,
} from '../../../canister/service/developers';
import { createBoard } from '../../../canister/service/games';
import { ban, moderationLog, removeBoardEntry, unban, wipePlayer } from '../../../canister/service/moderation';
import { listArchives, readArchive, readBoard, leaderboard } from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { suspicionLog } from '../../../canister/service/scores';
import { setCaps } from '../../../canister/service/games';
import { failure, harness, key, present, type Harness, hashOf, person, withReader } from './harness';
import { submitBatch } from './submit';

const ada = person('ada', 'local');
const eve = person('eve', 'local');

function signIn(h: Harness, who: Identity): string {
    return hashOf(developerSignIn(h, { identity: who }).sessionToken);
}

function submit(h: Harness, gameId: string, s: Record<string, unknown>) {
    const [r] = submitBatch(h, { submits: [{ apiKey: key(h, gameId), gameId, streak: 0, ...s }] });
    return r!;
}

test('a developer signs in, keeps one account per identity, and the session dies after 7 days or sign-out', () => {
    const h = harness();
    const first = developerSignIn(h, { identity: ada });
    const again = developerSignIn(h, { identity: ada });
    expect(again.developer.developerId).toBe(first.developer.developerId);
    expect(first.sessionToken).not.toBe(again.sessionToken);
    expect(developerMe(h, { sessionHash: hashOf(first.sessionToken) }).developer).toMatchObject({
        email: 'ada@example.com',
        allowance: 3,
        gameIds: [],
    });
    expect(failure(() => developerMe(h, { sessionHash: first.sessionToken }))).toMatchObject({ status: 401 });
    developerSignOut(h, { sessionHash: hashOf(first.sessionToken) });
    expect(failure(() => developerMe(h, { sessionHash: hashOf(first.sessionToken) })).status).toBe(401);
    const live = hashOf(again.sessionToken);
    h.advance(7 * 86_400 - 1);
    expect(developerMe(h, { sessionHash: live }).developer.developerId).toBe(first.developer.developerId);
    h.advance(1);
    expect(failure(() => developerMe(h, { sessionHash: live }))).toEqual({
        status: 401,
        message: 'Your dashboard session has ended: sign in again.',
    });
});

test("another developer's game is the same 404 as a game that does not exist, for every kind of method", () => {
    const h = harness();
    const adaSession = signIn(h, ada);
    const eveSession = signIn(h, eve);
    registerOwnGame(h, { sessionHash: adaSession, gameId: 'adas-game', name: 'Ada' });
    const notYours = { status: 404, message: 'Game not found among your games' };
    expect(failure(() => ownedGame(h, { sessionHash: eveSession, gameId: 'adas-game' }))).toEqual(notYours);
    expect(failure(() => ownedGame(h, { sessionHash: eveSession, gameId: 'no-such-game' }))).toEqual(notYours);
    expect(
        failure(() => readOwnBoard(h, { sessionHash: eveSession, gameId: 'adas-game', boardId: 'all-time' })),
    ).toEqual(notYours);
    expect(
        failure(() => deleteOwnGame(h, { sessionHash: eveSession, gameId: 'adas-game', confirm: 'adas-game' })),
    ).toEqual(notYours);
    expect(developerMe(h, { sessionHash: eveSession }).games).toEqual([]);
    expect(h.games.has('adas-game')).toBe(true);
});

test('three games by default; a request for more is listed for operators and approved once', () => {
    const h = harness();
    const s = signIn(h, ada);
    for (const id of ['game-one', 'game-two', 'game-three'])
        registerOwnGame(h, { sessionHash: s, gameId: id, name: id });
    expect(failure(() => registerOwnGame(h, { sessionHash: s, gameId: 'game-four', name: 'x' })).status).toBe(403);
    expect(failure(() => requestGames(h, { sessionHash: s, games: 0, message: '' })).status).toBe(400);
    const requested = requestGames(h, { sessionHash: s, games: 2, message: 'A jam weekend' });
    expect(requested.request).toMatchObject({ games: 2, message: 'A jam weekend' });
    expect(listRequests(h).map((d) => d.developerId)).toEqual([requested.developerId]);
    expect(approveRequest(h, { developerId: requested.developerId })).toMatchObject({ allowance: 5 });
    expect(listRequests(h)).toEqual([]);
    expect(failure(() => approveRequest(h, { developerId: requested.developerId })).status).toBe(404);
    registerOwnGame(h, { sessionHash: s, gameId: 'game-four', name: 'x' });
});

test('moderation: one entry removed, a player wiped (archives too), bans refuse submits until lifted, all logged', () => {
    const h = harness('2026-03-04T12:00:00Z');
    const s = signIn(h, ada);
    const G = 'mod-game';
    registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Mod' });
    const dev = { sessionHash: s, gameId: G };
    submit(h, G, { playerId: 'cheater', score: 999_999 });
    submit(h, G, { playerId: 'honest', score: 10 });
    // A day later the daily board's first period is archived with both players in it.
    h.advance(86_400);
    rolloverAll(h);
    submit(h, G, { playerId: 'cheater', score: 500_000 });
    submit(h, G, { playerId: 'honest', score: 20 });

    const page = present(readOwnBoard(h, { ...dev, boardId: 'daily' }));
    expect(page.entries.map((e) => [e.playerId, e.score, e.banned])).toEqual([
        ['cheater', 500_000, false],
        ['honest', 20, false],
    ]);
    expect(removeBoardEntry(h, h.games.get(G)!, { ...dev, scoreboardId: 'daily', playerId: 'cheater' }).message).toBe(
        "Removed Player_1's entry from Daily.",
    );
    expect(readBoard(h, { gameId: G, boardId: 'daily' }).entries.map((e) => e.score)).toEqual([20]);
    expect(leaderboard(h, { gameId: G }).leaderboard[0]!.score).toBe(999_999); // all-time untouched
    expect(
        failure(() => removeBoardEntry(h, h.games.get(G)!, { ...dev, scoreboardId: 'daily', playerId: 'cheater' })),
    ).toMatchObject({ status: 404 });

    wipePlayer(h, h.games.get(G)!, { ...dev, playerId: 'cheater', archives: true });
    expect(leaderboard(h, { gameId: G }).leaderboard.map((e) => e.score)).toEqual([20]);
    expect(readArchive(h, { gameId: G, boardId: 'daily' })).toMatchObject({ totalEntries: 1 });
    expect(listArchives(h, { gameId: G, boardId: 'daily' }).archives[0]).toMatchObject({ entryCount: 1, topScore: 10 });

    ban(h, h.games.get(G)!, { ...dev, playerId: 'cheater', reason: 'impossible scores' });
    ban(h, h.games.get(G)!, { ...dev, playerId: 'never-seen' });
    expect(failure(() => ban(h, h.games.get(G)!, { ...dev, playerId: 'cheater' })).status).toBe(409);
    h.advance(3);
    expect(submit(h, G, { playerId: 'cheater', score: 1 })).toEqual({
        err: { status: 403, message: 'This player is banned from this game.' },
    });
    expect(submit(h, G, { playerId: 'never-seen', score: 1 })).toEqual({
        err: { status: 403, message: 'This player is banned from this game.' },
    });
    expect(readOwnBoard(h, { ...dev, boardId: 'all-time' }).totalEntries).toBe(1);
    unban(h, h.games.get(G)!, { ...dev, playerId: 'never-seen' });
    unban(h, h.games.get(G)!, { ...dev, playerId: 'cheater' });
    expect(submit(h, G, { playerId: 'never-seen', score: 5 })).toMatchObject({ ok: {} });
    expect(submit(h, G, { playerId: 'cheater', score: 7 })).toMatchObject({ ok: {} });
    expect(moderationLog(h, h.games.get(G)!, dev).map((e) => [e.action, e.playerId])).toEqual([
        ['unban', 'cheater'],
        ['unban', 'never-seen'],
        ['ban', 'never-seen'],
        ['ban', 'cheater'],
        ['wipe-player', 'cheater'],
        ['remove-entry', 'cheater'],
    ]);
});

test('the suspicion log of a game is filtered by player for its developer', () => {
    const h = harness();
    const s = signIn(h, ada);
    registerOwnGame(h, { sessionHash: s, gameId: 'capped', name: 'Capped' });
    setCaps(h, { gameId: 'capped', maxScore: 100 });
    submit(h, 'capped', { playerId: 'p1', score: 1000 });
    submit(h, 'capped', { playerId: 'p2', score: 2000 });
    expect(suspicionLog(h, { gameId: 'capped' }).map((e) => e.playerId)).toEqual(['p2', 'p1']);
    expect(suspicionLog(h, { gameId: 'capped', playerId: 'p1' }).map((e) => e.score)).toEqual([1000]);
    expect(failure(() => suspicionLog(h, { gameId: 'capped', playerId: 'bad id!' })).status).toBe(400);
});

test('analytics: submissions, plays, new and returning players, providers and boards per day, 90 days kept', () => {
    const h = harness('2026-03-04T12:00:00Z');
    const s = signIn(h, ada);
    const G = 'stats-game';
    registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Stats' });
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
    submit(h, G, { playerId: 'a', score: 1 });
    submit(h, G, { playerId: 'b', score: 1 });
    h.advance(3);
    submit(h, G, { playerId: 'a', score: 2, scoreboardId: 'level-1' });
    h.advance(86_400);
    submit(h, G, { playerId: 'a', score: 3 });
    submit(h, G, { playerId: 'c', score: 3 });
    const game = h.games.get(G)!;
    const report = analytics(h, game, { sessionHash: s, gameId: G, days: 2 });
    expect(report.days).toEqual([
        {
            day: '2026-03-04',
            submissions: 3,
            plays: 3,
            activePlayers: 2,
            newPlayers: 2,
            returningPlayers: 0,
        },
        {
            day: '2026-03-05',
            submissions: 2,
            plays: 2,
            activePlayers: 2,
            newPlayers: 1,
            returningPlayers: 1,
        },
    ]);
    expect(report.providers).toEqual([{ provider: 'external', players: 4 }]);
    expect(report.boards[0]).toEqual({ scoreboardId: 'all-time', submissions: 4 });
    expect(report.boards).toContainEqual({ scoreboardId: 'level-1', submissions: 1 });
    expect(analytics(h, game, { sessionHash: s, gameId: G }).days).toHaveLength(30);
    expect(analytics(h, game, { sessionHash: s, gameId: G, days: 1000 }).days).toHaveLength(90);
    // 90 days on, the ring holds nothing of those days.
    h.advance(90 * 86_400);
    expect(analytics(h, game, { sessionHash: s, gameId: G, days: 90 }).days.every((d) => d.submissions === 0)).toBe(
        true,
    );
});

test('a custom board is reset by hand (its period archived); calendar boards are not', () => {
    const h = harness();
    const s = signIn(h, ada);
    const G = 'reset-game';
    registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Reset' });
    createBoard(h, { gameId: G, scoreboardId: 'season', type: 'custom', days: 0 });
    submit(h, G, { playerId: 'a', score: 50 });
    h.advance(60);
    resetOwnBoard(h, { sessionHash: s, gameId: G, scoreboardId: 'season' });
    expect(readBoard(h, { gameId: G, boardId: 'season' }).entries).toEqual([]);
    expect(readArchive(h, { gameId: G, boardId: 'season' }).entries.map((e) => e.score)).toEqual([50]);
    h.advance(3);
    submit(h, G, { playerId: 'a', score: 10 });
    expect(readBoard(h, { gameId: G, boardId: 'season' }).entries.map((e) => e.score)).toEqual([10]);
    expect(failure(() => resetOwnBoard(h, { sessionHash: s, gameId: G, scoreboardId: 'weekly' }))).toMatchObject({
        status: 400,
    });
});

test('deleting a game needs its id typed again; it is gone at once and its records are purged before the id is free', () => {
    const h = harness();
    const s = signIn(h, ada);
    const G = 'doomed';
    const { apiKey } = registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Doomed' });
    withReader(h, G); // its event log is purged too
    for (let i = 0; i < 100; i++) submit(h, G, { playerId: `p${i}`, score: i, nickname: `Doomed_${i}` });
    expect(failure(() => deleteOwnGame(h, { sessionHash: s, gameId: G, confirm: 'doome' })).status).toBe(400);
    expect(h.games.has(G)).toBe(true);
    deleteOwnGame(h, { sessionHash: s, gameId: G, confirm: G });
    expect(h.games.has(G)).toBe(false);
    expect(h.store.apiKeys.get(apiKey)).toBeUndefined();
    expect(developerMe(h, { sessionHash: s }).developer.gameIds).toEqual([]);
    expect(failure(() => registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Again' })).status).toBe(409);
    // In steps that end inside a chunk of slots: the next step still finds the rest of it.
    expect(purgeSome(h, 30)).toBe(true);
    expect(h.store.players.size()).toBe(70);
    expect(purgeSome(h, 30)).toBe(true);
    expect(purgeSome(h, 30)).toBe(true);
    expect(h.store.players.size()).toBe(10);
    expect(purgeSome(h, 100)).toBe(true); // the players are gone; the game's event log goes next
    expect(h.store.players.size()).toBe(0);
    expect(h.store.slotChunks.size()).toBe(0);
    expect(h.store.nicknames.size()).toBe(0); // every name of the game is free again
    expect(failure(() => registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Again' })).status).toBe(409);
    let steps = 0;
    while (purgeSome(h, 100)) steps++;
    expect(steps).toBeLessThan(40); // its events: at most EVENTS_KEEP, 100 a step here
    expect(h.store.events.size()).toBe(0);
    const again = registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Again' });
    expect(again.game.boards.map((b) => b.scoreboardId)).toEqual(['all-time', 'weekly', 'daily']);
    expect(submit(h, G, { playerId: 'p1', score: 1, nickname: 'Doomed_1' })).toMatchObject({ ok: {} });
});
