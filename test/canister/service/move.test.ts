// Moving a game between two canisters' stores: everything its reads show comes over, its
// writes wait while it moves, the source answers `moved` after, and forged chunks change nothing.
import { flushCallWrites } from '../../../canister/service/flush';
import { createBoard, resolveKey } from '../../../canister/service/games';
import { addWebhook, listWebhooks } from '../../../canister/service/webhooks';
import { ban, moderationLog } from '../../../canister/service/moderation';
import { moveAbort, moveInChunk, moveInEnd, moveOutBegin, moveOutChunk } from '../../../canister/service/move';
import { profile, unlockAchievements } from '../../../canister/service/players';
import { rolloverAll } from '../../../canister/service/rollover';
import * as reads from '../../../canister/service/reads';
import { readFeed } from '../../../canister/service/event-feed';
import { resolveSession, sessionProfile, signIn } from '../../../canister/service/accounts';
import { startSession } from '../../../canister/service/play-sessions';
import { analytics } from '../../../canister/service/analytics';
import { MESSAGES } from '../../../contract/messages';
import { harness, hashOf, key, moveGame, person, present, withGame, withReader, type Harness } from './harness';
import { submitBatch } from './submit';
import { Fail } from '../../../canister/domain/fail';
import { setHeapLimit } from '../../../canister/service/capacity';
import { flushStats } from '../../../canister/state/stats';

const G = 'moving-game';
const TARGET = 'rrkah-fqaaa-aaaaa-aaaaq-cai';

function call<T>(h: Harness, fn: () => T): T {
    const out = fn();
    flushCallWrites(h);
    return out;
}

function err(fn: () => unknown): ReturnType<Fail['toApiError']> {
    try {
        fn();
    } catch (e) {
        if (e instanceof Fail) return e.toApiError();
        throw e;
    }
    throw new Error('expected a failure');
}

/** A game with boards, archives, events, a webhook, achievements, a ban, a signed-in and anonymous players. */
function playedGame(h: Harness): { session: string; serverKey: string } {
    withGame(h, G);
    const serverKey = withReader(h, G);
    call(h, () => createBoard(h, { gameId: G, scoreboardId: 'weekly-race', type: 'custom', days: 7 }));
    call(h, () => createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted', sortOrder: 'asc' }));
    const game = h.games.get(G)!;
    call(h, () => addWebhook(h, game, { url: 'https://hooks.example/x', kinds: ['new_leader'] }));
    for (let i = 0; i < 30; i++) {
        call(h, () =>
            submitBatch(h, {
                submits: [
                    {
                        gameId: G,
                        apiKey: key(h, G),
                        playerId: `p${i}`,
                        score: 100 + i * 7,
                        streak: i % 5,
                        nickname: i % 3 === 0 ? `Name${i}` : undefined,
                    },
                    {
                        gameId: G,
                        apiKey: key(h, G),
                        playerId: `p${i}`,
                        score: 50 - i,
                        streak: 0,
                        scoreboardId: 'level-1',
                        metadata: { lap: i },
                    },
                ],
            }),
        );
    }
    call(h, () =>
        unlockAchievements(h, { apiKey: key(h, G), gameId: G, playerId: 'p1', achievementIds: ['first', 'second'] }),
    );
    call(h, () => ban(h, game, { gameId: G, playerId: 'p2', reason: 'cheat' }));
    call(h, () => ban(h, game, { gameId: G, playerId: 'nobody-yet', reason: 'pre-emptive' }));
    const approval = call(h, () => signIn(h, G, person('alice'), 'Alice'));
    h.advance(3);
    call(h, () =>
        submitBatch(h, { submits: [{ gameId: G, sessionHash: hashOf(approval.sessionId), score: 999, streak: 3 }] }),
    );
    // A period closes: the custom board archives one.
    h.advance(8 * 86_400);
    call(h, () => rolloverAll(h));
    call(h, () => submitBatch(h, { submits: [{ gameId: G, apiKey: key(h, G), playerId: 'p5', score: 5, streak: 1 }] }));
    call(h, () => startSession(h, { gameId: G, apiKey: key(h, G), playerId: 'p6' }));
    return { session: approval.sessionId, serverKey };
}

/** Every read of the game, as JSON a client would get. */
function everyRead(h: Harness, session: string): unknown {
    const g = { gameId: G };
    const game = h.games.get(G)!;
    return present({
        leaderboard: reads.leaderboard(h, g),
        streaks: reads.leaderboard(h, { ...g, sort: 'streak' }),
        boards: reads.listBoards(h, g),
        weekly: reads.readBoard(h, { ...g, boardId: 'weekly-race' }),
        level: reads.readBoard(h, { ...g, boardId: 'level-1' }),
        daily: reads.readBoard(h, { ...g, boardId: 'daily' }),
        archives: reads.listArchives(h, { ...g, boardId: 'weekly-race' }),
        archive: reads.readArchive(h, { ...g, boardId: 'weekly-race' }),
        archiveStats: reads.archiveStats(h, g),
        rank: reads.playerRank(h, { ...g, playerId: 'p7', percentile: true }),
        around: reads.around(h, { ...g, boardId: 'level-1', playerId: 'p9' }),
        info: reads.gameInfo(h, g),
        stats: reads.gameStats(h, g),
        profiles: ['p1', 'p2', 'p3', 'p6', 'p29'].map((playerId) => profile(h, { ...g, playerId })),
        mine: sessionProfile(h, { gameId: G, sessionHash: hashOf(session) }),
        session: resolveSession(h, { gameId: G, sessionHash: hashOf(session) }),
        events: readFeed(h, { gameId: G, serverKeyHash: game.record.serverKey!.hash }),
        moderation: moderationLog(h, game, {}),
        analytics: analytics(h, game, { days: 30 }),
        webhooks: listWebhooks(h, game),
        key: resolveKey(h, game.record.apiKey),
    });
}

const move = (src: Harness, dst: Harness) => moveGame(src, dst, G, TARGET);

test('a moved game reads on the target exactly as it did on the source', () => {
    const src = harness();
    const { session } = playedGame(src);
    const before = everyRead(src, session);
    const dst = harness();
    dst.time = src.time;
    move(src, dst);
    expect(everyRead(dst, session)).toEqual(before);
    // The players go on writing there: the signed-in one with their session, the anonymous by id.
    dst.advance(3);
    const [mine, anon] = call(dst, () =>
        submitBatch(dst, {
            submits: [
                { gameId: G, sessionHash: hashOf(session), score: 5000, streak: 1 },
                { gameId: G, apiKey: key(dst, G), playerId: 'p3', score: 4000, streak: 1 },
            ],
        }),
    );
    expect(mine).toMatchObject({ ok: {} });
    expect(anon).toMatchObject({ ok: {} });
    expect(
        reads
            .leaderboard(dst, { gameId: G })
            .leaderboard.slice(0, 2)
            .map((e) => e.nickname),
    ).toEqual(['Alice', 'Name3']);
});

test('writes wait while the game moves; afterwards the source answers moved, for its API key too', () => {
    const src = harness();
    playedGame(src);
    const apiKey = key(src, G);
    call(src, () => moveOutBegin(src, { gameId: G }));
    src.advance(3);
    const [refused] = call(src, () =>
        submitBatch(src, { submits: [{ gameId: G, apiKey, playerId: 'p1', score: 1, streak: 1 }] }),
    );
    expect(refused).toEqual({ err: { status: 503, message: MESSAGES.gameMoving, retryAfter: 5 } });
    // Reads go on.
    expect(reads.leaderboard(src, { gameId: G }).leaderboard.length).toBeGreaterThan(0);
    const dst = harness();
    move(src, dst);
    expect(err(() => resolveKey(src, apiKey))).toEqual({ status: 503, message: MESSAGES.gameMoved, moved: true });
    const [moved] = call(src, () =>
        submitBatch(src, { submits: [{ gameId: G, apiKey, playerId: 'p1', score: 1, streak: 1 }] }),
    );
    expect(moved).toEqual({ err: { status: 503, message: MESSAGES.gameMoved, moved: true } });
});

test('an abort on the source lets writes go on; a half import dropped on the target leaves it empty', () => {
    const src = harness();
    playedGame(src);
    const begun = call(src, () => moveOutBegin(src, { gameId: G }));
    const dst = harness();
    call(dst, () => moveInChunk(dst, { gameId: G, index: 0, data: moveOutChunk(src, { gameId: G, index: 0 }).data }));
    call(src, () => moveAbort(src, { gameId: G }));
    src.advance(3);
    const [ok] = call(src, () =>
        submitBatch(src, { submits: [{ gameId: G, apiKey: key(src, G), playerId: 'p1', score: 1, streak: 1 }] }),
    );
    expect(ok).toMatchObject({ ok: {} });
    call(dst, () => moveAbort(dst, { gameId: G }));
    expect(begun.chunks).toBeGreaterThan(0);
    expect(dst.games.has(G)).toBe(false);
});

test('forged chunks and a wrong checksum are refused and change nothing; a target that has the game refuses it', () => {
    const src = harness();
    playedGame(src);
    let begun = call(src, () => moveOutBegin(src, { gameId: G }));
    while (!begun.ready) begun = call(src, () => moveOutBegin(src, { gameId: G }));
    const dst = harness();
    withGame(dst, 'other-game');
    const first = moveOutChunk(src, { gameId: G, index: 0 }).data;
    // The chunk of G sent as another game's: its records name G.
    expect(err(() => moveInChunk(dst, { gameId: 'other-game', index: 0, data: first })).status).toBe(409);
    expect(err(() => moveInChunk(dst, { gameId: 'third-game', index: 0, data: first })).status).toBe(400);
    const forged = first.replace(/"moving-game\//, '"other-game/');
    if (forged !== first) expect(err(() => moveInChunk(dst, { gameId: G, index: 0, data: forged })).status).toBe(400);
    expect(dst.store.meta.get('moveIn')).toBeUndefined();
    for (let index = 0; index < begun.chunks; index++)
        call(dst, () => moveInChunk(dst, { gameId: G, index, data: moveOutChunk(src, { gameId: G, index }).data }));
    expect(err(() => moveInEnd(dst, { gameId: G, chunks: begun.chunks, checksum: '0'.repeat(64) })).status).toBe(409);
    expect(dst.games.has(G)).toBe(false);
    call(dst, () => moveInEnd(dst, { gameId: G, chunks: begun.chunks, checksum: begun.checksum }));
    // Moving it again onto a canister that has it: refused.
    expect(err(() => moveInChunk(dst, { gameId: G, index: 0, data: first })).status).toBe(409);
});

test('a target past its heap line takes no game (503 shardFull-like, nothing written)', () => {
    const src = harness();
    playedGame(src);
    const begun = call(src, () => moveOutBegin(src, { gameId: G }));
    const dst = harness();
    setHeapLimit(dst, 0);
    const refusal = err(() =>
        moveInChunk(dst, { gameId: G, index: 0, data: moveOutChunk(src, { gameId: G, index: 0 }).data }),
    );
    expect(refusal).toMatchObject({ status: 503, retryAfter: expect.any(Number) });
    expect(dst.store.meta.get('moveIn')).toBeUndefined();
    expect(begun.chunks).toBeGreaterThan(0);
});

test("default names go on where the source's left off, even for a game of an older release", () => {
    const src = harness();
    withGame(src, G);
    const anon = (h: Harness, playerId: string): void => {
        const [r] = call(h, () =>
            submitBatch(h, { submits: [{ gameId: G, apiKey: key(h, G), playerId, score: 1, streak: 0 }] }),
        );
        expect(r).toMatchObject({ ok: {} });
    };
    for (let i = 0; i < 5; i++) anon(src, `a${i}`);
    // An older release counted defaults service-wide: the game has no counter of its own (its
    // counters as the tick writes them, then without it).
    flushStats(src);
    const { nextDefaultName: _own, ...stats } = src.store.stats.get(G)!;
    src.store.stats.set(G, stats);
    src.store.stats.set('*', { ...(src.store.stats.get('*') ?? stats), nextDefaultName: 6 });
    src.stats.clear();
    const names = (h: Harness): string[] =>
        reads.leaderboard(h, { gameId: G, limit: 100 }).leaderboard.map((e) => e.nickname);
    const before = names(src);
    const dst = harness();
    move(src, dst);
    anon(dst, 'newcomer');
    const after = names(dst);
    expect(new Set(after).size).toBe(after.length);
    expect(after.length).toBe(before.length + 1);
});
