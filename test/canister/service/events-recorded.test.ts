// What the canister records in a game's event log: bans and wipes, new leaders and the players a
// submit passed inside a board's top N (by the board's order, operator and sortBy), closed
// periods, logged rejections, and every accepted submit only when the game asks for it.
import type { GameEvent } from '../../../contract/events';
import { readEvents } from '../../../canister/service/events';
import { flushCallWrites } from '../../../canister/service/flush';
import {
    deleteOwnGame,
    developerSignIn,
    purgeSome,
    registerOwnGame,
    resetOwnBoard,
} from '../../../canister/service/developers';
import { createBoard, gameView, setCaps, updateBoard, updateGame, boardView } from '../../../canister/service/games';
import { readArchive } from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { ban, removeBoardEntry, unban, wipePlayer } from '../../../canister/service/moderation';
import {
    harnessWith,
    failure,
    harness,
    hashOf,
    key,
    person,
    present,
    withGame,
    withReader,
    type Harness,
} from './harness';
import { submitBatch } from './submit';

const G = 'ev-game';

function setup(): Harness {
    const h = harnessWith(G);
    withReader(h, G);
    return h;
}

/** A game whose player `playerId` has an entry, and the newest event seq after that. */
function withEntry(playerId: string): { h: Harness; after: number } {
    const h = setup();
    submit(h, playerId, 5);
    return { h, after: readEvents(h, G, 0).latest };
}
const game = (h: Harness) => h.games.get(G)!;
/** The events after `after`, without id, seq, gameId and at. */
function events(h: Harness, after = 0): Array<Record<string, unknown>> {
    return readEvents(h, G, after, 100).events.map((e: GameEvent) => {
        const { id, seq, gameId, at, ...rest } = e;
        void [id, seq, gameId, at];
        return rest;
    });
}
function submit(h: Harness, playerId: string, score: number, extra: Record<string, unknown> = {}) {
    h.advance(3);
    const [r] = submitBatch(h, {
        submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak: 0, ...extra }],
    });
    if (!('ok' in r)) throw new Error(r.err.message);
    return r.ok;
}

describe('bans and wipes', () => {
    test('player_banned on every ban (with its reason), none on unban', () => {
        const { h, after } = withEntry('cheater');
        ban(h, game(h), { playerId: 'cheater', reason: 'aimbot' });
        ban(h, game(h), { playerId: 'never-seen' });
        unban(h, game(h), { playerId: 'cheater' });
        expect(events(h, after)).toEqual([
            { kind: 'player_banned', playerId: 'cheater', reason: 'aimbot' },
            { kind: 'player_banned', playerId: 'never-seen', reason: '' },
        ]);
    });

    test('a refused ban records nothing', () => {
        const h = setup();
        ban(h, game(h), { playerId: 'p' });
        expect(() => ban(h, game(h), { playerId: 'p' })).toThrow();
        expect(() => ban(h, game(h), { playerId: 'q', reason: 7 })).toThrow();
        expect(events(h).filter((e) => e.kind === 'player_banned')).toHaveLength(1);
    });

    test('player_wiped on a wipe (no board) and on one removed entry (its board)', () => {
        const { h, after } = withEntry('p1');
        removeBoardEntry(h, game(h), { playerId: 'p1', scoreboardId: 'daily' });
        wipePlayer(h, game(h), { playerId: 'p1' });
        expect(() => wipePlayer(h, game(h), { playerId: 'nobody' })).toThrow();
        expect(events(h, after)).toEqual([
            { kind: 'player_wiped', playerId: 'p1', scoreboardId: 'daily' },
            { kind: 'player_wiped', playerId: 'p1' },
        ]);
    });
});

/** A targeted board `b` (all-time) with these options; `eventTop` set on its record. */
function board(h: Harness, options: Record<string, unknown> = {}, eventTop?: number, id = 'b'): string {
    createBoard(h, { gameId: G, scoreboardId: id, type: 'targeted', ...options });
    if (eventTop !== undefined) game(h).record.boards.find((b) => b.scoreboardId === id)!.eventTop = eventTop;
    return id;
}
const on = (id: string) => ({ scoreboardId: id });
/** Submits each player's score to board `b`, in order. */
function seed(h: Harness, b: string, scores: Record<string, number>): void {
    for (const [p, score] of Object.entries(scores)) submit(h, p, score, on(b));
}
/** Who passed whom: `by > player` with their new ranks, and `leader` events. */
function moves(h: Harness, after: number): string[] {
    return events(h, after).map((e) => {
        if (e.kind === 'overtaken') {
            const { player, by } = e as {
                player: { playerId: string; rank: number };
                by: { playerId: string; rank: number };
            };
            return `${by.playerId}@${by.rank} > ${player.playerId}@${player.rank}`;
        }
        if (e.kind === 'new_leader') {
            const { leader, previous } = e as { leader: { playerId: string }; previous?: { playerId: string } };
            return `leader ${leader.playerId}${previous ? ` from ${previous.playerId}` : ''}`;
        }
        return String(e.kind);
    });
}
const latest = (h: Harness) => readEvents(h, G, 0).latest;

describe('new_leader and overtaken', () => {
    test('the first entry of a board leads it (no previous); a fan-out submit records it on each board', () => {
        const h = setup();
        submit(h, 'p1', 10, { nickname: 'Ann' });
        const all = events(h);
        expect(all.map((e) => [e.kind, e.scoreboardId])).toEqual([
            ['new_leader', 'all-time'],
            ['new_leader', 'weekly'],
            ['new_leader', 'daily'],
        ]);
        expect(all[0]).toEqual({
            kind: 'new_leader',
            scoreboardId: 'all-time',
            leader: { rank: 1, playerId: 'p1', nickname: 'Ann', score: 10, streak: 0 },
        });
    });

    test('a new entry passes those down to rank N+1; an entry moving up passes those it was behind', () => {
        const h = setup();
        const b = board(h, {}, 3);
        seed(h, b, { a: 50, b: 40, c: 30, d: 20 });
        let after = latest(h);
        submit(h, 'e', 45, on(b));
        expect(moves(h, after)).toEqual(['e@2 > b@3', 'e@2 > c@4']);
        after = latest(h);
        submit(h, 'd', 35, on(b)); // 5th -> 4th: outside the top 3, nothing
        expect(moves(h, after)).toEqual([]);
        submit(h, 'd', 42, on(b)); // 4th -> 3rd: passes b (3rd before); c was 5th
        expect(moves(h, after)).toEqual(['d@3 > b@4']);
        after = latest(h);
        submit(h, 'e', 60, on(b));
        const all = events(h, after);
        expect(moves(h, after)).toEqual(['leader e from a', 'e@1 > a@2']);
        expect(all[0]).toEqual({
            kind: 'new_leader',
            scoreboardId: b,
            leader: { rank: 1, playerId: 'e', nickname: expect.any(String), score: 60, streak: 0 },
            previous: { rank: 2, playerId: 'a', nickname: expect.any(String), score: 50, streak: 0 },
        });
        expect(all[1]).toMatchObject({ player: { rank: 2, playerId: 'a', score: 50 }, by: { rank: 1, score: 60 } });
        // A leader beating its own best passes nobody.
        after = latest(h);
        submit(h, 'e', 70, on(b));
        expect(moves(h, after)).toEqual([]);
    });

    test('on a tiebreak board an equal score with a better tiebreak passes; shared ranks need both equal', () => {
        const h = setup();
        const b = board(h, { tiebreak: 'asc' }, 3);
        for (const [p, tiebreak] of [
            ['a', 100],
            ['b', 200],
            ['c', undefined],
        ] as const)
            submit(h, p, 50, { ...on(b), tiebreak });
        let after = latest(h);
        submit(h, 'c', 50, { ...on(b), tiebreak: 150 }); // 3rd -> 2nd: passes b
        expect(moves(h, after)).toEqual(['c@2 > b@3']);
        after = latest(h);
        submit(h, 'b', 50, { ...on(b), tiebreak: 50 }); // 3rd -> 1st
        expect(moves(h, after)).toEqual(['leader b from a', 'b@1 > a@2', 'b@1 > c@3']);
        after = latest(h);
        submit(h, 'c', 50, { ...on(b), tiebreak: 300 }); // not a better tiebreak: not a new best, nothing
        expect(moves(h, after)).toEqual([]);
        const s = board(h, { tiebreak: 'asc', ties: 'shared' }, 3, 's');
        seed(h, s, { x: 10, y: 10 });
        after = latest(h);
        submit(h, 'z', 10, { ...on(s), tiebreak: 1 }); // a tiebreak beats none: passes x and y
        expect(moves(h, after)).toEqual(['leader z from x', 'z@1 > x@2', 'z@1 > y@2']);
    });

    test('one submit emits at most N overtaken, and none for a board with eventTop 0', () => {
        const h = setup();
        const b = board(h, {}, 2);
        const quiet = board(h, {}, 0, 'quiet');
        for (let i = 1; i <= 8; i++) {
            submit(h, `p${i}`, i, on(b));
            submit(h, `p${i}`, i, on(quiet));
        }
        let after = latest(h);
        submit(h, 'top', 100, on(b));
        expect(moves(h, after)).toEqual(['leader top from p8', 'top@1 > p8@2', 'top@1 > p7@3']);
        after = latest(h);
        submit(h, 'top', 100, on(quiet));
        expect(moves(h, after)).toEqual([]);
        expect(events(h).filter((e) => e.scoreboardId === quiet)).toEqual([]);
    });

    test('lower-is-better boards rank by their order', () => {
        const h = setup();
        const b = board(h, { sortOrder: 'asc' }, 3);
        for (const [p, time] of [
            ['a', 100],
            ['b', 200],
            ['c', 300],
        ] as const)
            submit(h, p, time, on(b));
        let after = latest(h);
        submit(h, 'c', 150, on(b));
        expect(moves(h, after)).toEqual(['c@2 > b@3']);
        after = latest(h);
        submit(h, 'c', 400, on(b)); // worse: kept best, nothing written
        submit(h, 'b', 90, on(b));
        expect(moves(h, after)).toEqual(['leader b from a', 'b@1 > a@2', 'b@1 > c@3']);
    });

    test('a latest board: an entry going down passes nobody', () => {
        const h = setup();
        const b = board(h, { operator: 'latest' }, 3);
        submit(h, 'a', 50, on(b));
        submit(h, 'b', 40, on(b));
        const after = latest(h);
        submit(h, 'a', 10, on(b));
        submit(h, 'a', 20, on(b));
        expect(moves(h, after)).toEqual([]);
        submit(h, 'a', 45, on(b));
        expect(moves(h, after)).toEqual(['leader a from b', 'a@1 > b@2']);
    });

    test('shared ties: only players strictly passed, with the ranks the board shows', () => {
        const h = setup();
        const b = board(h, { ties: 'shared' }, 3);
        seed(h, b, { a: 50, b: 40, c: 40, d: 30 });
        let after = latest(h);
        submit(h, 'e', 40, on(b)); // level with b and c (2nd): d is 5th now, outside the top 3
        expect(moves(h, after)).toEqual([]);
        after = latest(h);
        submit(h, 'd', 45, on(b)); // from 5th (30) to 2nd: passes b, c and e (40, now all 3rd)
        expect(moves(h, after)).toEqual(['d@2 > b@3', 'd@2 > c@3', 'd@2 > e@3']);
        after = latest(h);
        submit(h, 'b', 50, on(b)); // level with a (1st): passes d only; c and e were level with b
        expect(moves(h, after)).toEqual(['b@1 > d@3']);
        after = latest(h);
        submit(h, 'b', 55, on(b)); // a was level with b, not ahead: nobody passed, no new leader
        expect(moves(h, after)).toEqual([]);
        after = latest(h);
        submit(h, 'c', 60, on(b)); // b 55, a 50, d 45 were inside the top 3
        expect(moves(h, after)).toEqual(['leader c from b', 'c@1 > b@2', 'c@1 > a@3', 'c@1 > d@4']);
    });

    test('streak boards rank by streak', () => {
        const h = setup();
        const b = board(h, { sortBy: 'streak' }, 3);
        submit(h, 'a', 0, { ...on(b), streak: 5 });
        submit(h, 'b', 0, { ...on(b), streak: 3 });
        let after = latest(h);
        submit(h, 'b', 999, on(b)); // a better score, the same streak: no move
        expect(moves(h, after)).toEqual([]);
        after = latest(h);
        submit(h, 'b', 0, { ...on(b), streak: 6 });
        expect(moves(h, after)).toEqual(['leader b from a', 'b@1 > a@2']);
        expect(events(h, after)[0]).toMatchObject({ leader: { streak: 6, score: 999 }, previous: { streak: 5 } });
    });

    test('a retry that writes nothing and a banned player emit nothing', () => {
        const h = setup();
        const b = board(h, {}, 3);
        submit(h, 'a', 10, on(b));
        submit(h, 'b', 20, on(b));
        const after = latest(h);
        // An exact retry within the window gets its answer again.
        const [r] = submitBatch(h, {
            submits: [{ apiKey: key(h, G), gameId: G, playerId: 'b', score: 20, streak: 0, ...on(b) }],
        });
        expect(r).toMatchObject({ ok: {} });
        ban(h, game(h), { playerId: 'a' });
        h.advance(3);
        const [refused] = submitBatch(h, {
            submits: [{ apiKey: key(h, G), gameId: G, playerId: 'a', score: 99, streak: 0, ...on(b) }],
        });
        expect(refused).toMatchObject({ err: { status: 403 } });
        expect(moves(h, after)).toEqual(['player_banned']);
    });

    test('the cached cut of a board follows removals: a wiped top player lets the next one in', () => {
        const h = setup();
        const b = board(h, {}, 2);
        seed(h, b, { a: 50, b: 40, c: 30, d: 20 });
        wipePlayer(h, game(h), { playerId: 'a' });
        const after = latest(h);
        submit(h, 'd', 35, on(b)); // b 40, d 35, c 30: d passes c (now 3rd, 2nd before)
        expect(moves(h, after)).toEqual(['d@2 > c@3']);
    });
});

describe('period_closed', () => {
    const DAY = 86_400;
    test('a period ending records its archive id, times, size and top N (the board eventTop)', () => {
        const h = setup();
        game(h).record.boards.find((b) => b.scoreboardId === 'daily')!.eventTop = 2;
        game(h).record.boards.find((b) => b.scoreboardId === 'weekly')!.eventTop = 0;
        for (const [p, score] of [
            ['a', 30],
            ['b', 50],
            ['c', 40],
        ] as const)
            submit(h, p, score, { nickname: `Nick${p.toUpperCase()}` });
        const after = latest(h);
        h.advance(DAY);
        rolloverAll(h);
        const closed = present(readEvents(h, G, after).events).filter((e) => e.kind === 'period_closed');
        const daily = closed.find((e) => e.scoreboardId === 'daily')!;
        const start = Date.parse('2026-03-04T00:00:00Z') * 1e6;
        expect(daily).toMatchObject({
            archiveId: `${G}:daily:${start}`,
            periodStart: start,
            periodEnd: start + DAY * 1e9,
            totalEntries: 3,
            top: [
                { rank: 1, playerId: 'b', nickname: 'NickB', score: 50, streak: 0 },
                { rank: 2, playerId: 'c', nickname: 'NickC', score: 40, streak: 0 },
            ],
        });
        // The id reads the archive back.
        const archive = readArchive(h, { gameId: G, boardId: 'daily', archiveId: daily.archiveId });
        expect(archive.entries.map((e) => e.score)).toEqual([50, 40, 30]);
        // Weekly did not end; an empty period (the next day's daily) closes without an event.
        expect(closed.map((e) => e.scoreboardId)).toEqual(['daily']);
        const quiet = latest(h);
        h.advance(DAY);
        rolloverAll(h);
        expect(events(h, quiet)).toEqual([]);
    });

    test('eventTop 0 lists no one; a developer reset of a custom board closes its period', () => {
        const h = harness();
        const s = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
        registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Reset' });
        withReader(h, G);
        createBoard(h, { gameId: G, scoreboardId: 'season', type: 'custom', days: 0 });
        game(h).record.boards.find((b) => b.scoreboardId === 'season')!.eventTop = 0;
        submit(h, 'a', 50);
        const after = latest(h);
        h.advance(60);
        resetOwnBoard(h, { sessionHash: s, gameId: G, scoreboardId: 'season' });
        expect(events(h, after)).toEqual([
            {
                kind: 'period_closed',
                scoreboardId: 'season',
                archiveId: expect.stringMatching(/^ev-game:season:\d+$/),
                periodStart: expect.anything(),
                periodEnd: expect.anything(),
                totalEntries: 1,
                top: [],
            },
        ]);
        const again = latest(h);
        resetOwnBoard(h, { sessionHash: s, gameId: G, scoreboardId: 'season' }); // nothing in it
        expect(events(h, again)).toEqual([]);
    });
});

describe('submit_rejected', () => {
    test('a rejection logged in the suspicion log records its reason; a paced one records nothing', () => {
        const h = setup();
        const b = board(h);
        setCaps(h, { gameId: G, maxScore: 1000 });
        const after = latest(h);
        const send = (score: number, extra: Record<string, unknown> = {}) =>
            submitBatch(h, {
                submits: [{ apiKey: key(h, G), gameId: G, playerId: 'sus', score, streak: 2, ...extra }],
            });
        h.advance(3);
        send(5000);
        send(6000); // inside the 2 s window: not logged (the rate-limit answer)
        h.advance(3);
        send(7000, on(b));
        expect(events(h, after)).toEqual([
            {
                kind: 'submit_rejected',
                playerId: 'sus',
                score: 5000,
                streak: 2,
                reason: 'score 5000 is above the cap of 1000',
            },
            {
                kind: 'submit_rejected',
                scoreboardId: b,
                playerId: 'sus',
                score: 7000,
                streak: 2,
                reason: 'score 7000 is above the cap of 1000',
            },
        ]);
    });
});

describe('score_submitted', () => {
    test('recorded for every accepted submit only when the game asks (everySubmitEvents), with board and metadata', () => {
        const h = setup();
        const b = board(h, {}, 0);
        submit(h, 'p', 1, on(b));
        expect(events(h).filter((e) => e.kind === 'score_submitted')).toEqual([]);
        expect(gameView(game(h).record)).not.toHaveProperty('everySubmitEvents');
        expect(failure(() => updateGame(h, { gameId: G, everySubmitEvents: 'yes', name: 'Renamed' }))).toEqual({
            status: 400,
            message: 'Invalid everySubmitEvents: must be true or false',
        });
        expect(game(h).record.name).toBe('My Game');
        expect(gameView(updateGame(h, { gameId: G, everySubmitEvents: true }))).toMatchObject({
            everySubmitEvents: true,
        });
        const after = latest(h);
        submit(h, 'p', 0, on(b)); // accepted, writes nothing on the board: still a submit
        submit(h, 'q', 7, { ...on(b), metadata: { car: 'red' } });
        const [retry] = submitBatch(h, {
            submits: [
                {
                    apiKey: key(h, G),
                    gameId: G,
                    playerId: 'q',
                    score: 7,
                    streak: 0,
                    ...on(b),
                    metadata: { car: 'red' },
                },
            ],
        });
        expect(retry).toMatchObject({ ok: {} }); // an exact retry: its answer again, nothing recorded
        submit(h, 'r', 3); // fan-out: one event, no board
        expect(events(h, after).filter((e) => e.kind === 'score_submitted')).toEqual([
            { kind: 'score_submitted', scoreboardId: b, playerId: 'p', score: 0, streak: 0 },
            { kind: 'score_submitted', scoreboardId: b, playerId: 'q', score: 7, streak: 0, metadata: { car: 'red' } },
            { kind: 'score_submitted', playerId: 'r', score: 3, streak: 0 },
        ]);
        updateGame(h, { gameId: G, everySubmitEvents: false });
        expect(gameView(game(h).record).everySubmitEvents).toBe(false);
        const off = latest(h);
        submit(h, 'p', 2, on(b));
        expect(events(h, off)).toEqual([]);
    });

    test('recorded while a webhook that is not paused subscribes to it', () => {
        const h = setup();
        const b = board(h, {}, 0);
        const hooks = (list: Array<{ kinds: string[]; paused: boolean }>) => {
            game(h).record.webhooks = list.map((w, i) => ({ webhookId: `wh${i}`, ...w })) as never;
        };
        hooks([
            { kinds: ['new_leader'], paused: false },
            { kinds: ['score_submitted'], paused: true },
        ]);
        let after = latest(h);
        submit(h, 'p', 1, on(b));
        expect(events(h, after)).toEqual([]);
        hooks([{ kinds: ['new_leader', 'score_submitted'], paused: false }]);
        after = latest(h);
        submit(h, 'p', 2, on(b));
        expect(events(h, after).map((e) => e.kind)).toEqual(['score_submitted']);
    });
});

describe('the eventTop setting', () => {
    test('0 to 25 on create and update; shown only once set; anything else refused, nothing changed', () => {
        const h = setup();
        expect(boardView(createBoard(h, { gameId: G, scoreboardId: 'plain', type: 'targeted' }))).not.toHaveProperty(
            'eventTop',
        );
        expect(
            boardView(createBoard(h, { gameId: G, scoreboardId: 'top3', type: 'targeted', eventTop: 3 })),
        ).toMatchObject({ eventTop: 3 });
        const refused = { status: 400, message: 'Invalid eventTop: must be a whole number from 0 to 25' };
        for (const eventTop of [-1, 26, 2.5, '3', null, true])
            expect(
                failure(() => createBoard(h, { gameId: G, scoreboardId: 'bad', type: 'targeted', eventTop })),
            ).toEqual(refused);
        expect(game(h).record.boards.map((b) => b.scoreboardId)).not.toContain('bad');
        expect(
            failure(() => updateBoard(h, { gameId: G, scoreboardId: 'top3', name: 'Renamed', eventTop: 99 })),
        ).toEqual(refused);
        const top3 = game(h).record.boards.find((b) => b.scoreboardId === 'top3')!;
        expect([top3.name, top3.eventTop]).toEqual(['top3', 3]);
        expect(updateBoard(h, { gameId: G, scoreboardId: 'daily', eventTop: 0 })).toMatchObject({ eventTop: 0 });
        expect(updateBoard(h, { gameId: G, scoreboardId: 'top3', eventTop: 25 })).toMatchObject({ eventTop: 25 });
        // The new setting applies at once: daily records no top events any more.
        const after = latest(h);
        submit(h, 'p', 5);
        expect(events(h, after).map((e) => e.scoreboardId)).toEqual(['all-time', 'weekly']);
    });
});

describe('a deleted game', () => {
    test('its events and webhook records go with it, in bounded steps', () => {
        const h = harness();
        const s = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
        registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Doomed' });
        withReader(h, G);
        withGame(h, 'other-game');
        withReader(h, 'other-game');
        for (let i = 0; i < 40; i++) ban(h, game(h), { playerId: `p${i}` });
        ban(h, h.games.get('other-game')!, { playerId: 'x' });
        flushCallWrites(h);
        game(h).record.webhooks = [{ webhookId: 'wh1', kinds: ['player_banned'], paused: false }];
        h.store.webhooks.set(`${G}/wh1`, {} as never);
        h.store.webhooks.set('other-game/wh1', {} as never);
        deleteOwnGame(h, { sessionHash: s, gameId: G, confirm: G });
        expect(h.store.events.size()).toBe(41);
        const steps: number[] = [];
        while (purgeSome(h, 15)) steps.push(h.store.events.size());
        expect(steps).toEqual([26, 11]);
        expect(h.store.events.size()).toBe(1); // the other game's
        expect(h.store.webhooks.get(`${G}/wh1`)).toBeUndefined();
        expect(h.store.webhooks.get('other-game/wh1')).toBeDefined();
        expect(readEvents(h, 'other-game', 0).events).toHaveLength(1);
        // The id made again starts a log of its own.
        registerOwnGame(h, { sessionHash: s, gameId: G, name: 'Again' });
        expect(readEvents(h, G, 0)).toEqual({ events: [], next: 0, latest: 0 });
    });
});
