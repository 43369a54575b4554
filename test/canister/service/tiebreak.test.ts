// Boards with a tiebreak through the service on in-memory maps: reads rendered as text equal the
// object reads, upgrades (snapshot and rebuilt from records) keep the order, archives keep the
// tiebreaks and their shared ranks, an account merge keeps the better tiebreak, backups carry it.
import { signIn } from '../../../canister/service/accounts';
import { createBoard } from '../../../canister/service/games';
import { migrateAccount } from '../../../canister/service/merge';
import { readArchive, readBoard, readBoardJson } from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { expectSameAfterUpgrades, harness, hashOf, key, person, present, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const DAY = 86_400;

/** A fan-out submit: the monthly board 'race' has the option, the standard boards do not. */
function send(h: Harness, playerId: string, score: number, tiebreak?: number) {
    const submit = { apiKey: key(h, G), gameId: G, playerId, score, streak: 0, tiebreak };
    const [r] = submitBatch(h, { submits: [submit] });
    expect(r).toEqual({ ok: expect.anything() });
}

const rows = (h: Harness, boardId: string) =>
    readBoard(h, { gameId: G, boardId, limit: 100 }).entries.map((e) => [e.rank, e.nickname, e.score, e.tiebreak]);

function race(): Harness {
    const h = harness('2026-03-04T12:00:00Z');
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'race', type: 'monthly', tiebreak: 'asc', ties: 'shared' });
    for (const [p, score, tiebreak] of [
        ['a', 10, 300],
        ['b', 10, 200],
        ['c', 10, undefined],
        ['d', 10, 200],
        ['e', 12, 900],
    ] as const)
        send(h, p, score, tiebreak);
    return h;
}

test('text reads equal the object reads; upgrades keep the order and the tiebreaks', () => {
    const h = race();
    const expected = [
        [1, 'Player_5', 12, 900],
        [2, 'Player_2', 10, 200],
        [2, 'Player_4', 10, 200],
        [4, 'Player_1', 10, 300],
        [5, 'Player_3', 10, undefined],
    ];
    expect(rows(h, 'race')).toEqual(expected);
    expect(present(readBoardJson(h, { gameId: G, boardId: 'race', limit: 100 }))).toEqual(
        present(readBoard(h, { gameId: G, boardId: 'race', limit: 100 })),
    );
    expect(rows(h, 'weekly').map((r) => r[3])).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expectSameAfterUpgrades(h, () => rows(h, 'race'));
    expect(rows(h, 'race')).toEqual(expected);
});

test('an archive keeps the order, the tiebreaks and ranks shared only by equal tiebreaks', () => {
    const h = race();
    h.advance(40 * DAY);
    rolloverAll(h);
    const archive = readArchive(h, { gameId: G, boardId: 'race' });
    expect(archive.entries.map((e) => [e.rank, e.score, e.tiebreak])).toEqual([
        [1, 12, 900],
        [2, 10, 200],
        [2, 10, 200],
        [4, 10, 300],
        [5, 10, undefined],
    ]);
    expect(rows(h, 'race')).toEqual([]);
});

test("an account merge keeps the better tiebreak of equal scores (best), and the entry's rank", () => {
    const h = race();
    const s = signIn(h, G, person('alice-1', 'google', 'alice@example.com'), undefined);
    const sessionHash = hashOf(s.sessionId);
    const [mine] = submitBatch(h, {
        submits: [{ gameId: G, sessionHash, score: 10, streak: 0, tiebreak: 250 }],
    });
    expect(mine).toEqual({ ok: expect.anything() });
    h.advance(6);
    send(h, 'anon', 10, 100);
    migrateAccount(h, { sessionHash, gameId: G, deviceId: 'anon' });
    const merged = readBoard(h, { gameId: G, boardId: 'race', limit: 100 }).entries;
    expect(merged.map((e) => [e.rank, e.score, e.tiebreak])).toEqual([
        [1, 12, 900],
        [2, 10, 100],
        [3, 10, 200],
        [3, 10, 200],
        [5, 10, 300],
        [6, 10, undefined],
    ]);
});
