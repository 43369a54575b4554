// Review of implausible scores on the service (native): the rule (small boards never, outliers
// yes, lowest-first and streak boards), `flag` leaving the submit and the board as they are while
// its entry waits in the queue, the verdicts (dismiss, remove, ban) in the log and the events,
// and a board without review recording nothing; `hold` keeping the score off the board, its
// answer and everyone's reads, with its verdicts (approve, reject, ban).
import { implausible, parseReview, REVIEW } from '../../../contract/board-options';
import type { GameEvent } from '../../../contract/events';
import { readEvents } from '../../../canister/service/events';
import { createBoard, updateBoard } from '../../../canister/service/games';
import { moderationLog, removeBoardEntry } from '../../../canister/service/moderation';
import { aroundJson, boardRank, leaderboard, playerRank, readBoard } from '../../../canister/service/reads';
import { findPlayer, profile } from '../../../canister/service/players';
import { reviewQueue, settleReview } from '../../../canister/service/review';
import { rolloverAll } from '../../../canister/service/rollover';
import { deleteOwnGame, developerSignIn, purgeSome, registerOwnGame } from '../../../canister/service/developers';
import { failure, harnessWith, hashOf, key, person, withReader, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'review-game';
// The gateway's own-player reads (own_around, own_board_rank, own_player_rank).
const ownAround = (h: Harness, req: Parameters<typeof aroundJson>[1]) => aroundJson(h, req, true);
const ownBoardRank = (h: Harness, req: Parameters<typeof boardRank>[1]) => boardRank(h, req, true);
const ownPlayerRank = (h: Harness, req: Parameters<typeof playerRank>[1]) => playerRank(h, req, true);

describe('the rule', () => {
    test('small boards never trigger; past the factor does; lowest-first boards look below first / factor', () => {
        const n = REVIEW.minEntries;
        expect(implausible(1_000_000, 100, n - 1, false, 2)).toBe(false);
        expect(implausible(201, 100, n, false, 2)).toBe(true);
        expect(implausible(200, 100, n, false, 2)).toBe(false);
        expect(implausible(49, 100, n, true, 2)).toBe(true);
        expect(implausible(50, 100, n, true, 2)).toBe(false);
        expect(implausible(49_999, 100_000, n, true, 2)).toBe(true);
        expect(implausible(50_000, 100_000, n, true, 2)).toBe(false);
        expect(implausible(1, 100_000, n - 1, true, 2)).toBe(false);
        // A first of 0 judges nothing (every score would beat it by any factor).
        expect(implausible(5, 0, n, false, 2)).toBe(false);
        expect(implausible(301, 100, n, false, 3)).toBe(true);
        expect(implausible(299, 100, n, false, 3)).toBe(false);
    });

    test('the option: off, flag with the default factor or its own; anything else refused', () => {
        expect(parseReview({ mode: 'off' })).toEqual({ ok: null });
        expect(parseReview(null)).toEqual({ ok: null });
        expect(parseReview({ mode: 'flag' })).toEqual({ ok: { mode: 'flag', factor: 2 } });
        expect(parseReview({ mode: 'flag', factor: 1.5 })).toEqual({ ok: { mode: 'flag', factor: 1.5 } });
        for (const bad of ['flag', { mode: 'flag', factor: 1 }, { mode: 'flag', factor: 1e6 }, { mode: 'x' }, {}])
            expect(parseReview(bad)).toEqual({
                error: "Invalid review: must be { mode: 'off' } or { mode: 'flag' | 'hold', factor?: 1.1-1000 }",
            });
        expect(parseReview({ mode: 'flag', extra: 1 })).toHaveProperty('error');
    });
});

function submit(h: Harness, playerId: string, score: number, extra: Record<string, unknown> = {}): string {
    h.advance(3);
    const [r] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak: 0, ...extra }] });
    if (!('ok' in r!)) throw new Error(r!.err.message);
    return r.ok.message;
}

/** A game with a reader, boards 'flagged' (flag, factor 2), 'plain' (no review), 'times' (lowest first, flag), 20 players each. */
function setup(): Harness {
    const h = harnessWith(G);
    withReader(h, G);
    createBoard(h, { gameId: G, scoreboardId: 'flagged', type: 'targeted', review: { mode: 'flag' } });
    createBoard(h, { gameId: G, scoreboardId: 'plain', type: 'targeted' });
    createBoard(h, { gameId: G, scoreboardId: 'times', type: 'targeted', sortOrder: 'asc', review: { mode: 'flag' } });
    for (let i = 0; i < REVIEW.minEntries; i++) {
        submit(h, `p${i}`, 100 + i, { scoreboardId: 'flagged' });
        submit(h, `p${i}`, 100 + i, { scoreboardId: 'plain' });
        submit(h, `p${i}`, 10_000 + i, { scoreboardId: 'times' });
    }
    return h;
}

const dev = { sessionHash: '', gameId: G };
const queue = (h: Harness) => reviewQueue(h, h.games.get(G)!, { ...dev });
const rows = (h: Harness, boardId: string) =>
    readBoard(h, { gameId: G, boardId, limit: 3 }).entries.map((e) => [e.nickname, e.score]);
const events = (h: Harness, after: number) =>
    readEvents(h, G, after, 100).events.map((e: GameEvent) => {
        const { id, seq, gameId, at, ...rest } = e;
        void [id, seq, gameId, at];
        return rest;
    });

describe('flag', () => {
    test('an implausible score is accepted as on a board without review, and waits in the queue', () => {
        const h = setup();
        expect(queue(h)).toEqual([]);
        const after = readEvents(h, G, 0).latest;
        const plain = submit(h, 'p0', 1000, { scoreboardId: 'plain' });
        const flagged = submit(h, 'p0', 1000, { scoreboardId: 'flagged' });
        expect(flagged).toBe(plain);
        expect(rows(h, 'flagged')).toEqual(rows(h, 'plain'));
        expect(rows(h, 'flagged')[0]).toEqual(['Player_1', 1000]);
        expect(queue(h)).toEqual([
            expect.objectContaining({
                scoreboardId: 'flagged',
                playerId: 'p0',
                kind: 'flagged',
                score: 1000,
                first: 119,
            }),
        ]);
        const kinds = events(h, after).map((e) => e.kind);
        expect(kinds.filter((k) => k === 'score_flagged')).toHaveLength(1);
        expect(events(h, after).find((e) => e.kind === 'score_flagged')).toEqual({
            kind: 'score_flagged',
            scoreboardId: 'flagged',
            playerId: 'p0',
            score: 1000,
            streak: 0,
            first: 119,
        });
    });

    test('plausible scores, small boards and boards without review flag nothing', () => {
        const h = setup();
        submit(h, 'p1', 238, { scoreboardId: 'flagged' }); // exactly 2 x 119: not beyond
        submit(h, 'p2', 10_000, { scoreboardId: 'plain' });
        createBoard(h, { gameId: G, scoreboardId: 'small', type: 'targeted', review: { mode: 'flag', factor: 1.1 } });
        for (let i = 0; i < REVIEW.minEntries - 1; i++) submit(h, `p${i}`, 10 ** (i % 6), { scoreboardId: 'small' });
        submit(h, 'p3', 10 ** 9, { scoreboardId: 'small' });
        expect(queue(h)).toEqual([]);
    });

    test('lowest-first: a time below first / factor is flagged; a second flag of one entry replaces the first', () => {
        const h = setup();
        submit(h, 'p5', 5000, { scoreboardId: 'times' }); // first 10,000 / 2: not below
        expect(queue(h)).toEqual([]);
        submit(h, 'p5', 2499, { scoreboardId: 'times' });
        submit(h, 'p5', 1000, { scoreboardId: 'times' });
        expect(queue(h)).toEqual([
            expect.objectContaining({ scoreboardId: 'times', playerId: 'p5', score: 1000, first: 2499 }),
        ]);
    });

    test('the queue keeps the newest REVIEW.queue flags: the oldest leaves it unreviewed', () => {
        const h = setup();
        const game = h.games.get(G)!;
        for (let i = 0; i <= REVIEW.queue; i++) {
            submit(h, `f${i}`, 1000, { scoreboardId: 'flagged' });
            // Off the board again (not a verdict): the first is back to 119 for the next one.
            removeBoardEntry(h, game, { ...dev, scoreboardId: 'flagged', playerId: `f${i}` } as never);
        }
        const all = reviewQueue(h, game, { ...dev, limit: REVIEW.queue + 10 });
        expect(all).toHaveLength(REVIEW.queue);
        expect(all[0]!.playerId).toBe(`f${REVIEW.queue}`);
        expect(all.at(-1)!.playerId).toBe('f1');
        expect(h.store.reviews.size()).toBe(REVIEW.queue);
        expect(
            failure(() =>
                settleReview(h, game, { ...dev, scoreboardId: 'flagged', playerId: 'f0', action: 'dismiss' }),
            ),
        ).toEqual({ status: 404, message: "'f0' has no entry waiting for review on this board" });
    });

    test('review turns on and off by update; absent means off', () => {
        const h = setup();
        updateBoard(h, { gameId: G, scoreboardId: 'plain', review: { mode: 'flag', factor: 5 } });
        expect(h.games.get(G)!.record.boards.find((b) => b.scoreboardId === 'plain')!.review).toEqual({
            mode: 'flag',
            factor: 5,
        });
        submit(h, 'p1', 500, { scoreboardId: 'plain' });
        expect(queue(h)).toEqual([]);
        submit(h, 'p2', 3000, { scoreboardId: 'plain' });
        expect(queue(h)).toHaveLength(1);
        updateBoard(h, { gameId: G, scoreboardId: 'plain', review: { mode: 'off' } });
        expect(h.games.get(G)!.record.boards.find((b) => b.scoreboardId === 'plain')!).not.toHaveProperty('review');
        submit(h, 'p3', 10 ** 7, { scoreboardId: 'plain' });
        expect(queue(h)).toHaveLength(1);
        expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'plain', review: 'hold' }))).toEqual({
            status: 400,
            message: "Invalid review: must be { mode: 'off' } or { mode: 'flag' | 'hold', factor?: 1.1-1000 }",
        });
    });
});

describe('verdicts', () => {
    const settle = (h: Harness, playerId: string, action: string, scoreboardId = 'flagged') =>
        settleReview(h, h.games.get(G)!, { ...dev, scoreboardId, playerId, action } as never);

    test('dismiss keeps the entry; remove takes it off; ban removes it and bans; each logged with an event', () => {
        const h = setup();
        for (const [p, score] of [
            ['p0', 1000],
            ['p1', 3000],
            ['p2', 9000],
        ] as const)
            submit(h, p, score, { scoreboardId: 'flagged' });
        expect(queue(h).map((r) => r.playerId)).toEqual(['p2', 'p1', 'p0']);
        const after = readEvents(h, G, 0).latest;
        expect(settle(h, 'p0', 'dismiss').message).toBe("Player_1's entry stays on flagged.");
        expect(settle(h, 'p1', 'remove').message).toBe("Removed Player_2's flagged entry from flagged.");
        expect(settle(h, 'p2', 'ban').message).toBe("Removed Player_3's flagged entry from flagged and banned them.");
        expect(queue(h)).toEqual([]);
        expect(rows(h, 'flagged')).toEqual([
            ['Player_1', 1000],
            ['Player_20', 119],
            ['Player_19', 118],
        ]);
        expect(readBoard(h, { gameId: G, boardId: 'flagged', limit: 1 }).totalEntries).toBe(18);
        expect(
            submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, playerId: 'p2', score: 1, streak: 0 }] }),
        ).toEqual([{ err: { status: 403, message: 'This player is banned from this game.' } }]);
        expect(
            moderationLog(h, h.games.get(G)!, { ...dev })
                .map((e) => e.action)
                .slice(0, 4),
        ).toEqual(['ban', 'review-ban', 'review-remove', 'review-dismiss']);
        expect(
            events(h, after)
                .filter((e) => e.kind === 'score_reviewed')
                .map((e) => [e.playerId, (e as { verdict: string }).verdict]),
        ).toEqual([
            ['p0', 'dismissed'],
            ['p1', 'removed'],
            ['p2', 'banned'],
        ]);
        expect(failure(() => settle(h, 'p0', 'dismiss'))).toEqual({
            status: 404,
            message: "'p0' has no entry waiting for review on this board",
        });
        expect(failure(() => settle(h, 'p0', 'pardon'))).toEqual({
            status: 400,
            message: 'Invalid action: must be dismiss, remove, ban, approve, reject',
        });
    });

    test('a verdict after the period ended removes nothing of the new period', () => {
        const h = harnessWith(G);
        createBoard(h, { gameId: G, scoreboardId: 'day', type: 'targeted', period: 'daily', review: { mode: 'flag' } });
        for (let i = 0; i < REVIEW.minEntries; i++) submit(h, `p${i}`, 100 + i, { scoreboardId: 'day' });
        submit(h, 'p0', 5000, { scoreboardId: 'day' });
        h.advance(86_400);
        rolloverAll(h);
        submit(h, 'p0', 7, { scoreboardId: 'day' });
        settle(h, 'p0', 'remove', 'day');
        expect(rows(h, 'day')).toEqual([['Player_1', 7]]);
    });
});

test('deleting a game removes its review queue, and only its', () => {
    const h = setup();
    submit(h, 'p0', 1000, { scoreboardId: 'flagged' });
    const s = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash: s, gameId: 'doomed', name: 'Doomed' });
    createBoard(h, { gameId: 'doomed', scoreboardId: 'level', type: 'targeted', review: { mode: 'flag' } });
    const send = (playerId: string, score: number) =>
        submitBatch(h, {
            submits: [
                { apiKey: key(h, 'doomed'), gameId: 'doomed', playerId, score, streak: 0, scoreboardId: 'level' },
            ],
        });
    for (let i = 0; i < REVIEW.minEntries; i++) send(`d${i}`, 10 + i);
    h.advance(3);
    send('d0', 1000);
    expect(h.store.reviews.size()).toBe(2);
    deleteOwnGame(h, { sessionHash: s, gameId: 'doomed', confirm: 'doomed' });
    while (purgeSome(h, 1000));
    expect(h.store.reviews.size()).toBe(1);
    expect(h.store.reviewQueue.size()).toBe(1);
    expect(queue(h)).toEqual([expect.objectContaining({ playerId: 'p0' })]);
});

describe('hold', () => {
    const settle = (h: Harness, playerId: string, action: string, scoreboardId = 'held') =>
        settleReview(h, h.games.get(G)!, { ...dev, scoreboardId, playerId, action } as never);
    const everyone = (h: Harness) =>
        leaderboard(h, { gameId: G, limit: 3 }).leaderboard.map((e) => [e.nickname, e.score]);

    /** setup() plus board 'held' (hold, factor 2) and all-time on hold, 20 players on each. */
    function holding(): Harness {
        const h = setup();
        createBoard(h, { gameId: G, scoreboardId: 'held', type: 'targeted', review: { mode: 'hold' } });
        updateBoard(h, { gameId: G, scoreboardId: 'all-time', review: { mode: 'hold' } });
        for (let i = 0; i < REVIEW.minEntries; i++) {
            submit(h, `p${i}`, 100 + i, { scoreboardId: 'held' });
            submit(h, `p${i}`, 100 + i);
        }
        return h;
    }

    test('a held score: the same answer, off the board, the bests and the events but score_held', () => {
        const h = holding();
        const after = readEvents(h, G, 0).latest;
        const boardBefore = rows(h, 'held');
        const globalBefore = everyone(h);
        const plain = submit(h, 'p0', 1000, { scoreboardId: 'plain' });
        const held = submit(h, 'p0', 1000, { scoreboardId: 'held', metadata: { map: 'x' } });
        expect(held).toBe(plain);
        // The fan-out submit: all-time holds it (its answer is the one of an unheld submit).
        const fanout = submit(h, 'p1', 5000);
        expect(fanout).toBe(submit(h, 'p2', 5000, { scoreboardId: 'plain' }));
        expect(rows(h, 'held')).toEqual(boardBefore);
        expect(everyone(h)).toEqual(globalBefore);
        expect(findPlayer(h, G, 'p0')!.boards['held']).toMatchObject({ score: 100 });
        expect(findPlayer(h, G, 'p1')!.best).toMatchObject({ score: 101 });
        expect(boardRank(h, { gameId: G, boardId: 'held', playerId: 'p0' })).toMatchObject({ rank: 20, score: 100 });
        expect(readBoard(h, { gameId: G, boardId: 'held', limit: 1 }).entries[0]!.nickname).toBe('Player_20');
        // The held board and all-time record nothing but score_held (plain made its new_leader and overtaken).
        const about = (e: Record<string, unknown>) => e.scoreboardId === 'held' || e.scoreboardId === 'all-time';
        expect(events(h, after).filter(about)).toEqual([
            { kind: 'score_held', scoreboardId: 'held', playerId: 'p0', score: 1000, streak: 0, first: 119 },
            { kind: 'score_held', scoreboardId: 'all-time', playerId: 'p1', score: 5000, streak: 0, first: 119 },
        ]);
        expect(queue(h).map((r) => [r.kind, r.scoreboardId, r.playerId, r.score])).toEqual([
            ['held', 'all-time', 'p1', 5000],
            ['held', 'held', 'p0', 1000],
        ]);
        // One per player and board: a better one replaces it, a worse one leaves it.
        submit(h, 'p0', 900, { scoreboardId: 'held' });
        submit(h, 'p0', 2000, { scoreboardId: 'held' });
        expect(
            queue(h)
                .filter((r) => r.scoreboardId === 'held')
                .map((r) => r.score),
        ).toEqual([2000]);
        // A later plausible submit goes on the board as today.
        submit(h, 'p0', 150, { scoreboardId: 'held' });
        expect(rows(h, 'held')[0]).toEqual(['Player_1', 150]);
    });

    test('its own player sees it in their rank and around-me; nobody else, and no anonymous read', () => {
        const h = holding();
        submit(h, 'p0', 1000, { scoreboardId: 'held', metadata: { map: 'x' } });
        submit(h, 'n0', 500, { scoreboardId: 'held' }); // a new player: no public entry at all
        submit(h, 'p1', 5000); // all-time
        // Their profile's best is the held one (or a cheater would see the hold there); others' are theirs.
        expect(profile(h, { gameId: G, playerId: 'p1' }).gameProfile.score).toBe(5000);
        expect(profile(h, { gameId: G, playerId: 'p2' }).gameProfile.score).toBe(102);
        const ref = { gameId: G, boardId: 'held' };
        const held = { ...ref, playerId: 'p0' };
        expect(ownBoardRank(h, { ...held, percentile: true })).toEqual({
            found: true,
            rank: 1,
            score: 1000,
            streak: 0,
            totalPlayers: 20,
            percentile: 5,
        });
        expect(boardRank(h, held)).toMatchObject({ rank: 20, score: 100, totalPlayers: 20 });
        expect(ownBoardRank(h, { ...ref, playerId: 'n0' })).toMatchObject({ rank: 1, score: 500, totalPlayers: 21 });
        expect(boardRank(h, { ...ref, playerId: 'n0' })).toMatchObject({ found: false, totalPlayers: 20 });
        const row = (e: { rank: number; nickname: string; score: number }) => [e.rank, e.nickname, e.score];
        const mine = ownAround(h, { ...held, before: 1, after: 2 });
        expect(mine.rank).toBe(1);
        expect(mine.entries.map(row)).toEqual([
            [1, 'Player_1', 1000],
            [2, 'Player_20', 119],
            [3, 'Player_19', 118],
        ]);
        expect(mine.entries[0]).toMatchObject({ metadata: { map: 'x' } });
        const theirs = ownAround(h, { ...ref, playerId: 'n0', before: 1, after: 1 });
        expect(theirs.entries.map(row)).toEqual([
            [1, findPlayer(h, G, 'n0')!.nickname, 500],
            [2, 'Player_20', 119],
        ]);
        // Another player's own reads, and every anonymous read, are the board as it is.
        for (const other of ['p5', 'p19'])
            expect(ownAround(h, { ...ref, playerId: other })).toEqual(aroundJson(h, { ...ref, playerId: other }));
        expect(ownBoardRank(h, { ...ref, playerId: 'p19' })).toEqual(boardRank(h, { ...ref, playerId: 'p19' }));
        expect(JSON.stringify(aroundJson(h, held))).not.toContain('1000');
        expect(ownPlayerRank(h, { gameId: G, playerId: 'p1' })).toMatchObject({ rank: 1, score: 5000 });
        expect(playerRank(h, { gameId: G, playerId: 'p1' })).toMatchObject({ score: 101 });
        expect(ownPlayerRank(h, { gameId: G, playerId: 'p2' })).toEqual(playerRank(h, { gameId: G, playerId: 'p2' }));
    });

    test('approve: on the board as if submitted then, with its events; reject: gone; ban: gone and banned', () => {
        const h = holding();
        submit(h, 'p0', 1000, { scoreboardId: 'held', metadata: { map: 'x' } });
        const heldAt = h.env.now();
        submit(h, 'p1', 3000, { scoreboardId: 'held' });
        submit(h, 'p2', 9000, { scoreboardId: 'held' });
        submit(h, 'p3', 7000);
        expect(failure(() => settle(h, 'p0', 'dismiss'))).toEqual({
            status: 400,
            message: 'Invalid action: a held score takes approve, reject, ban',
        });
        const after = readEvents(h, G, 0).latest;
        h.advance(60);
        expect(settle(h, 'p0', 'approve').message).toBe("Approved Player_1's held score on held.");
        expect(settle(h, 'p1', 'reject').message).toBe("Rejected Player_2's held score on held.");
        expect(settle(h, 'p2', 'ban').message).toBe("Rejected Player_3's held score on held and banned them.");
        expect(settle(h, 'p3', 'approve', 'all-time').message).toBe("Approved Player_4's held score on All-time.");
        expect(queue(h)).toEqual([]);
        expect(rows(h, 'held')).toEqual([
            ['Player_1', 1000],
            ['Player_20', 119],
            ['Player_19', 118],
        ]);
        // The banned player's public entry was never the held score: it stays (a ban removes nothing by itself).
        expect(readBoard(h, { gameId: G, boardId: 'held', limit: 1 }).totalEntries).toBe(20);
        expect(findPlayer(h, G, 'p0')!.boards['held']).toMatchObject({ score: 1000, submittedAt: heldAt });
        expect(findPlayer(h, G, 'p0')!.boards['held']!.metadata).toBe('{"map":"x"}');
        expect(everyone(h)[0]).toEqual(['Player_4', 7000]);
        expect(
            events(h, after)
                .filter((e) => e.kind !== 'overtaken')
                .map((e) => [
                    e.kind,
                    (e as { scoreboardId?: string }).scoreboardId,
                    (e as { verdict?: string }).verdict,
                ]),
        ).toEqual([
            ['new_leader', 'held', undefined],
            ['score_reviewed', 'held', 'approved'],
            ['score_reviewed', 'held', 'rejected'],
            ['score_reviewed', 'held', 'banned'],
            ['player_banned', undefined, undefined],
            ['new_leader', 'all-time', undefined],
            ['score_reviewed', 'all-time', 'approved'],
        ]);
        expect(
            moderationLog(h, h.games.get(G)!, { ...dev })
                .map((e) => e.action)
                .slice(0, 5),
        ).toEqual(['review-approve', 'ban', 'review-ban', 'review-reject', 'review-approve']);
    });

    test('approve after its period closed writes nothing to the new period', () => {
        const h = harnessWith(G);
        createBoard(h, { gameId: G, scoreboardId: 'day', type: 'targeted', period: 'daily', review: { mode: 'hold' } });
        for (let i = 0; i < REVIEW.minEntries; i++) submit(h, `p${i}`, 100 + i, { scoreboardId: 'day' });
        submit(h, 'p0', 5000, { scoreboardId: 'day' });
        h.advance(86_400);
        rolloverAll(h);
        submit(h, 'p1', 7, { scoreboardId: 'day' });
        expect(settle(h, 'p0', 'approve', 'day').message).toBe(
            "Approved Player_1's held score, but nothing was written: its period on day has closed, or the player was merged or removed.",
        );
        expect(rows(h, 'day')).toEqual([['Player_2', 7]]);
    });
});
