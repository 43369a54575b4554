// Boards filtered by an entry's metadata (board option `filters`): every filtered read equals the
// unfiltered board narrowed to the value and ranked again, kept so through submits, metadata
// changes, removals, merges, rollover, a change of filters and upgrades; bad filters are 400s.
import { MAX_FILTER_VALUES, filterValueOf } from '../../../contract/board-options';
import type { BoardEntry } from '../../../contract/schemas';
import { signIn } from '../../../canister/service/accounts';
import { developerSignIn, readOwnBoard, registerOwnGame } from '../../../canister/service/developers';
import { createBoard, updateBoard } from '../../../canister/service/games';
import { migrateAccount } from '../../../canister/service/merge';
import { removeBoardEntry } from '../../../canister/service/moderation';
import { around, boardRank, leaderboard, readBoard } from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { keyIndex, valueIn } from '../../../canister/state/filters';
import { expectSameAfterUpgrades, failure, harness, hashOf, key, person, present, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const COUNTRIES = ['DE', 'FR', 'US', 'de'];
const BOARDS = ['all-time', 'weekly', 'lap'];

function submit(h: Harness, s: Record<string, unknown>) {
    const [result] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, streak: 0, ...s }] });
    return result;
}

/** A game whose developer (the session returned) declared filters on all-time, weekly and a targeted board. */
function game(h: Harness): string {
    const sessionHash = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash, gameId: G, name: 'My Game' });
    createBoard(h, { gameId: G, scoreboardId: 'lap', type: 'targeted', sortOrder: 'asc', filters: ['country'] });
    updateBoard(h, { gameId: G, scoreboardId: 'all-time', filters: ['country', 'mode'] });
    updateBoard(h, { gameId: G, scoreboardId: 'weekly', filters: ['mode', 'country'], ties: 'shared' });
    return sessionHash;
}

/** Rounds of submits: values and metadata move around (some entries lose theirs, some have an integer mode). */
function play(h: Harness, rounds: number, players = 40): void {
    for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < players; i++) {
            const n = i * 7 + r * 13;
            const metadata =
                n % 11 === 0
                    ? undefined
                    : { country: COUNTRIES[(i + r * (i % 3)) % 4], mode: n % 5 === 0 ? 2 : 'hard' };
            const score = (n * 37) % 97;
            submit(h, { playerId: `p${i}`, score, streak: n % 9, ...(metadata ? { metadata } : {}) });
            submit(h, { playerId: `p${i}`, score, scoreboardId: 'lap', ...(metadata ? { metadata } : {}) });
        }
        h.advance(3);
    }
}

const all = (h: Harness, boardId: string): BoardEntry[] =>
    present(readBoard(h, { gameId: G, boardId, limit: 1000 })).entries;

/** What a filtered read must show: the board's entries with that value, ranked among themselves. */
function expected(h: Harness, boardId: string, k: string, value: string, shared: boolean): BoardEntry[] {
    const kept = all(h, boardId).filter((e) => filterValueOf(e.metadata, k) === value);
    return kept.map((e, i) => ({ ...e, rank: shared && i > 0 && e.score === kept[i - 1].score ? NaN : i + 1 }));
}

function ranked(entries: BoardEntry[]): BoardEntry[] {
    // Shared ranks: an entry equal to the one above shows that one's rank.
    for (let i = 0; i < entries.length; i++) if (Number.isNaN(entries[i].rank)) entries[i].rank = entries[i - 1].rank;
    return entries;
}

/** Every filtered read of every board and value agrees with the unfiltered board. */
function expectInStep(h: Harness): void {
    for (const boardId of BOARDS) {
        const shared = boardId === 'weekly';
        const keys = boardId === 'lap' ? ['country'] : ['country', 'mode'];
        for (const k of keys)
            for (const value of [...COUNTRIES, 'hard', '2', 'XX']) {
                const filter = `${k}:${value}`;
                const want = ranked(expected(h, boardId, k, value, shared));
                const got = present(readBoard(h, { gameId: G, boardId, limit: 1000, filter }));
                expect({ filter, boardId, entries: got.entries, total: got.totalEntries }).toEqual({
                    filter,
                    boardId,
                    entries: want,
                    total: want.length,
                });
                // Paging inside the filter: the second page goes on from the first.
                const page = present(readBoard(h, { gameId: G, boardId, limit: 3, offset: 2, filter })).entries;
                expect(page).toEqual(want.slice(2, 5));
            }
    }
}

test('filtered reads equal the board narrowed to the value, through submits and metadata changes', () => {
    const h = harness();
    game(h);
    play(h, 4);
    expectInStep(h);
    // A filter is a real narrowing: every country's entries add up to those with one.
    const withCountry = all(h, 'lap').filter((e) => filterValueOf(e.metadata, 'country') !== undefined).length;
    const sizes = COUNTRIES.map(
        (c) => readBoard(h, { gameId: G, boardId: 'lap', filter: `country:${c}` }).totalEntries,
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(withCountry);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
});

test("rank and around-me are counted inside the filter; the global leaderboard follows all-time's filters", () => {
    const h = harness();
    game(h);
    play(h, 2);
    for (const boardId of ['weekly', 'lap']) {
        const want = ranked(expected(h, boardId, 'country', 'FR', boardId === 'weekly'));
        const third = want[2];
        const playerId = `p${Number(third.nickname.replace('Player_', '')) - 1}`;
        expect(boardRank(h, { gameId: G, boardId, playerId, filter: 'country:FR' })).toEqual({
            found: true,
            rank: third.rank,
            score: third.score,
            streak: third.streak,
            totalPlayers: want.length,
        });
        const window = present(around(h, { gameId: G, boardId, playerId, before: 1, after: 1, filter: 'country:FR' }));
        expect(window).toEqual({ rank: third.rank, entries: want.slice(1, 4) });
        // A player outside the value: no rank there, though ranked on the board.
        const other = all(h, boardId).find((e) => filterValueOf(e.metadata, 'country') === 'DE')!;
        const otherId = `p${Number(other.nickname.replace('Player_', '')) - 1}`;
        expect(boardRank(h, { gameId: G, boardId, playerId: otherId, filter: 'country:FR' })).toMatchObject({
            found: false,
            totalPlayers: want.length,
        });
        expect(failure(() => around(h, { gameId: G, boardId, playerId: otherId, filter: 'country:FR' }))).toEqual({
            status: 404,
            message: 'Player has no entry on this scoreboard',
        });
    }
    const byStreak = present(leaderboard(h, { gameId: G, sort: 'streak', limit: 1000, filter: 'mode:hard' }));
    const modes = new Map(all(h, 'all-time').map((e) => [e.nickname, filterValueOf(e.metadata, 'mode')]));
    const full = present(leaderboard(h, { gameId: G, sort: 'streak', limit: 1000 })).leaderboard;
    const want = full.filter((e) => modes.get(e.nickname) === 'hard').map((e, i) => ({ ...e, rank: i + 1 }));
    expect(byStreak).toEqual({ leaderboard: want, total: want.length });
});

test('removals, merges and rollover keep the filters in step', () => {
    const h = harness();
    game(h);
    play(h, 2);
    const g = h.games.get(G)!;
    for (const boardId of BOARDS) removeBoardEntry(h, g, { gameId: G, scoreboardId: boardId, playerId: 'p3' } as never);
    removeBoardEntry(h, g, { gameId: G, scoreboardId: 'all-time', playerId: 'p5' } as never);
    expectInStep(h);
    // A device's entries merged into an account: the account's entry takes the winning metadata.
    const s = signIn(h, G, person('alice'), undefined);
    submitBatch(h, {
        submits: [{ sessionHash: hashOf(s.sessionId), gameId: G, score: 1, streak: 0, metadata: { country: 'US' } }],
    });
    migrateAccount(h, { sessionHash: hashOf(s.sessionId), gameId: G, deviceId: 'p7' });
    expectInStep(h);
    h.advance(8 * 86_400);
    rolloverAll(h);
    expect(readBoard(h, { gameId: G, boardId: 'weekly', filter: 'country:DE' }).totalEntries).toBe(0);
    play(h, 1, 10);
    expectInStep(h);
});

test('an upgrade rebuilds the filter indexes, from the snapshot and from the records', () => {
    const h = harness();
    game(h);
    play(h, 3);
    const view = () => [
        ...BOARDS.flatMap((boardId) =>
            COUNTRIES.map((c) => present(readBoard(h, { gameId: G, boardId, limit: 1000, filter: `country:${c}` }))),
        ),
        // The global table's streak index is filtered too (loaded in its own order on restore).
        ...COUNTRIES.map((c) =>
            present(leaderboard(h, { gameId: G, sort: 'streak', limit: 1000, filter: `country:${c}` })),
        ),
    ];
    expect(view().some((b) => 'entries' in b && b.entries.length > 0)).toBe(true);
    expectSameAfterUpgrades(h, view);
    expectInStep(h);
});

test('changing filters rebuilds them from the entries; [] removes them', () => {
    const h = harness();
    const sessionHash = game(h);
    play(h, 2);
    updateBoard(h, { gameId: G, scoreboardId: 'lap', filters: ['mode'] });
    const want = expected(h, 'lap', 'mode', 'hard', false);
    expect(present(readBoard(h, { gameId: G, boardId: 'lap', limit: 1000, filter: 'mode:hard' })).entries).toEqual(
        want,
    );
    expect(failure(() => readBoard(h, { gameId: G, boardId: 'lap', filter: 'country:DE' }))).toEqual({
        status: 400,
        message: "Invalid filter: 'country' is not a filter of board 'lap' (its filters: mode)",
    });
    // The dashboard's picker: the key's values with their counts, most first.
    const page = readOwnBoard(h, { sessionHash, gameId: G, boardId: 'lap', filter: 'mode:hard' });
    expect(page.totalEntries).toBe(want.length);
    expect(page.filters![0].key).toBe('mode');
    expect(page.filters![0].values[0]).toEqual({ value: 'hard', entries: want.length });
    updateBoard(h, { gameId: G, scoreboardId: 'lap', filters: [] });
    expect(h.games.get(G)!.record.boards.find((b) => b.scoreboardId === 'lap')).not.toHaveProperty('filters');
    expect(failure(() => readBoard(h, { gameId: G, boardId: 'lap', filter: 'mode:hard' }))).toEqual({
        status: 400,
        message: "Invalid filter: 'mode' is not a filter of board 'lap' (it has none)",
    });
});

test('bad declarations and bad filters are 400s that change nothing; an unknown value is an empty board', () => {
    const h = harness();
    game(h);
    play(h, 1);
    const before = present(h.games.get(G)!.record.boards);
    const bad = 'Invalid filters: must be a list of at most 3 different metadata keys of 1-32 letters, digits, _ or -';
    for (const filters of [['a', 'b', 'c', 'd'], ['a', 'a'], ['a:b'], [''], 'country', [1], ['x'.repeat(33)]]) {
        expect(failure(() => updateBoard(h, { gameId: G, scoreboardId: 'lap', filters } as never))).toEqual({
            status: 400,
            message: bad,
        });
        expect(
            failure(() => createBoard(h, { gameId: G, scoreboardId: 'new', type: 'targeted', filters } as never)),
        ).toEqual({ status: 400, message: bad });
    }
    expect(present(h.games.get(G)!.record.boards)).toEqual(before);
    const malformed = "Invalid filter: must be <key>:<value>, a key of the board's filters and its value";
    for (const filter of ['country', ':DE', 7, ['country:DE'], 'coun try:DE'])
        expect(failure(() => readBoard(h, { gameId: G, boardId: 'weekly', filter } as never))).toEqual({
            status: 400,
            message: malformed,
        });
    expect(failure(() => leaderboard(h, { gameId: G, filter: 'car:red' }))).toMatchObject({ status: 400 });
    const none = present(readBoard(h, { gameId: G, boardId: 'weekly', filter: 'country:Atlantis' }));
    expect([none.entries, none.totalEntries]).toEqual([[], 0]);
    expect(boardRank(h, { gameId: G, boardId: 'weekly', playerId: 'p1', filter: 'country:' })).toMatchObject({
        found: false,
        totalPlayers: 0,
    });
});

test(`a key indexes at most ${MAX_FILTER_VALUES} values at a time: past that an entry stays on the board, unfiltered`, () => {
    const h = harness();
    game(h);
    for (let i = 0; i <= MAX_FILTER_VALUES; i++)
        submit(h, { playerId: `c${i}`, score: i, scoreboardId: 'lap', metadata: { country: `C${i}` } });
    const last = `country:C${MAX_FILTER_VALUES}`;
    expect(readBoard(h, { gameId: G, boardId: 'lap', filter: 'country:C0' }).totalEntries).toBe(1);
    expect(readBoard(h, { gameId: G, boardId: 'lap', filter: last }).totalEntries).toBe(0);
    expect(readBoard(h, { gameId: G, boardId: 'lap' }).totalEntries).toBe(MAX_FILTER_VALUES + 1);
    // A value that empties frees its place for the next one seen.
    h.advance(3);
    // (a better time on this lowest-first board: the entry takes the new submit's metadata)
    submit(h, { playerId: 'c5', score: 1, scoreboardId: 'lap', metadata: { country: 'C1' } });
    submit(h, { playerId: 'late', score: 5, scoreboardId: 'lap', metadata: { country: 'C999' } });
    expect(readBoard(h, { gameId: G, boardId: 'lap', filter: 'country:C5' }).totalEntries).toBe(0);
    expect(readBoard(h, { gameId: G, boardId: 'lap', filter: 'country:C999' }).totalEntries).toBe(1);
    expect(readBoard(h, { gameId: G, boardId: 'lap', filter: 'country:C1' }).totalEntries).toBe(2);
});

test('a value read from the metadata text is the value of the parsed metadata, whatever the text', () => {
    const tricky: Array<Record<string, unknown>> = [
        { country: 'DE' },
        { mode: 'x', country: 'FR' },
        { country: 7 },
        { country: -12, x: 1 },
        { country: 1.5 },
        { country: 1e21 },
        { country: 2 ** 53 },
        { country: true },
        { country: null },
        { country: '' },
        { country: 'x'.repeat(33) },
        { country: 'y'.repeat(32) },
        { country: 'a"b' },
        { country: 'back\\slash' },
        { country: 'é🏎' },
        { note: ',"country":"XX"', country: 'DE' },
        { note: ',"country":"XX"' },
        { nested: { country: 'XX' } },
        { nested: { country: 'XX' }, country: 'DE' },
        { list: [{ country: 'XX' }], country: 'DE' },
        { list: ['{', ',"country":"XX"'] },
        { countryside: 'XX' },
        { xcountry: 'XX' },
        { 'country-code': 'XX', country: 'DE' },
        { country: ['DE'] },
        { country: { code: 'DE' } },
        { '{': 1, country: 'DE' },
    ];
    for (const key of ['country', 'country-code'])
        for (const metadata of tricky)
            expect({ key, metadata, value: valueIn(JSON.stringify(metadata), keyIndex(key)) }).toEqual({
                key,
                metadata,
                value: filterValueOf(metadata, key),
            });
});
