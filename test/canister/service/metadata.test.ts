// Entry metadata (issue 24 §4): each bad shape refused with nothing stored, the rule of which
// submit's metadata an entry keeps, every read that shows it, merges, upgrades and what it costs.
import { METADATA_MAX_BYTES, type Metadata } from '../../../contract/board-options';
import { keepsMetadata, mergedMetadata } from '../../../canister/domain/metadata';
import { signIn } from '../../../canister/service/accounts';
import { developerSignIn, readOwnBoard, registerOwnGame } from '../../../canister/service/developers';
import { createBoard } from '../../../canister/service/games';
import { migrateAccount } from '../../../canister/service/merge';
import { removeBoardEntry } from '../../../canister/service/moderation';
import { profile } from '../../../canister/service/players';
import { around, leaderboard, readArchive, readBoard } from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { decodePlayer, encodePlayer } from '../../../canister/state/player-codec';
import { writeSnapshot } from '../../../canister/state/snapshot';
import { loadGames } from '../../../canister/state/startup';
import { playerKey } from '../../../canister/state/store';
import { expectSameFromRecords, harness, hashOf, key, person, present, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const STANDARD = ['all-time', 'weekly', 'daily'];

function submit(h: Harness, s: Record<string, unknown>) {
    const [result] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, ...s }] });
    return result;
}

/** The board's entries as a client reads them: [nickname, score, metadata]. */
function shown(h: Harness, boardId: string) {
    return present(readBoard(h, { gameId: G, boardId })).entries.map((e) => [e.nickname, e.score, e.metadata]);
}

/** Everything a submit could have written, to compare before and after a refused one. */
function everything(h: Harness) {
    return {
        boards: STANDARD.map((b) => present(readBoard(h, { gameId: G, boardId: b }))),
        players: h.store.players.first(100),
        stats: h.store.stats.first(100),
    };
}

const BAD: Array<[string, unknown]> = [
    ['a list', [{ car: 'red' }]],
    ['a string', '{"car":"red"}'],
    ['null', null],
    ['a number', 7],
    ['true', true],
    ['three levels', { setup: { tyres: { front: 'soft' } } }],
    ['a list in a list', { laps: [[1, 2]] }],
    ['257 bytes', { t: 'x'.repeat(METADATA_MAX_BYTES - 8 + 1) }],
    ['multi-byte UTF-8 past the limit (129 two-byte characters)', { t: 'é'.repeat(125) }],
    ['emoji past the limit (4 bytes each)', { t: '🏎'.repeat(63) }],
    ['a __proto__ key', JSON.parse('{"__proto__": {"isAdmin": true}}')],
    ['a nested __proto__ key', JSON.parse('{"car": {"__proto__": 1}}')],
    ['a control character', { t: 'a\u0001b' }],
    ['a control character in a key', { 'a\nb': 1 }],
    ['100,000 keys', Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))],
    ['1,000 levels', JSON.parse(`${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`)],
];

/** A signed-in player's submit (by the session's hash, as gateways send it). */
function accountSubmit(h: ReturnType<typeof harness>, sessionId: string, score: number, metadata: object): void {
    submitBatch(h, { submits: [{ sessionHash: hashOf(sessionId), gameId: G, score, streak: 0, metadata }] });
}

describe('bad metadata is a 400 with a clear message and stores nothing', () => {
    test.each(BAD)('%s', (_what, metadata) => {
        const h = harness();
        withGame(h);
        expect(submit(h, { playerId: 'p1', score: 10, streak: 1, metadata: { car: 'red' } })).toMatchObject({ ok: {} });
        h.advance(3);
        const before = everything(h);
        const reply = submit(h, { playerId: 'p1', score: 500, streak: 9, metadata });
        expect(reply).toEqual({ err: { status: 400, message: expect.stringMatching(/^Invalid metadata: .+/) } });
        expect(everything(h)).toEqual(before);
        // A new player is not created either.
        expect(submit(h, { playerId: 'p2', score: 500, streak: 9, metadata })).toMatchObject({ err: { status: 400 } });
        expect(h.store.players.get(playerKey(G, 'p2'))).toBeUndefined();
        expect(Object.getPrototypeOf(Object.prototype)).toBeNull();
        expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    test('the size counts UTF-8 bytes of the JSON: exactly 256 passes, one more does not', () => {
        const h = harness();
        withGame(h);
        const at = (t: string): Metadata => ({ t }); // {"t":"..."} is 8 bytes around t
        expect(JSON.stringify(at('x'.repeat(248)))).toHaveLength(256);
        expect(submit(h, { playerId: 'a', score: 1, streak: 0, metadata: at('x'.repeat(248)) })).toMatchObject({
            ok: {},
        });
        expect(submit(h, { playerId: 'b', score: 1, streak: 0, metadata: at('é'.repeat(124)) })).toMatchObject({
            ok: {},
        });
        expect(submit(h, { playerId: 'c', score: 1, streak: 0, metadata: at(`${'é'.repeat(124)}x`) })).toEqual({
            err: { status: 400, message: 'Invalid metadata: must be at most 256 bytes as JSON' },
        });
        expect(shown(h, 'daily').map(([, , m]) => m)).toEqual([at('x'.repeat(248)), at('é'.repeat(124))]);
    });

    test('in a batch only the submit with bad metadata fails', () => {
        const h = harness();
        withGame(h);
        const replies = submitBatch(h, {
            submits: [
                { apiKey: key(h, G), gameId: G, playerId: 'good', score: 5, streak: 0, metadata: { car: 'blue' } },
                { apiKey: key(h, G), gameId: G, playerId: 'bad', score: 9, streak: 0, metadata: ['x'] },
                { apiKey: key(h, G), gameId: G, playerId: 'plain', score: 3, streak: 0 },
            ],
        });
        expect(replies).toEqual([
            { ok: expect.anything() },
            { err: { status: 400, message: 'Invalid metadata: must be a JSON object' } },
            { ok: expect.anything() },
        ]);
        expect(shown(h, 'all-time')).toEqual([
            [expect.any(String), 5, { car: 'blue' }],
            [expect.any(String), 3, undefined],
        ]);
    });
});

describe('which submit an entry keeps the metadata of', () => {
    test('the rule: best only on a new best; latest and sum every accepted submit', () => {
        expect(keepsMetadata('best', true)).toBe(true);
        expect(keepsMetadata('best', false)).toBe(false);
        for (const operator of ['latest', 'sum'] as const) {
            expect(keepsMetadata(operator, true)).toBe(true);
            expect(keepsMetadata(operator, false)).toBe(true);
        }
    });

    test('best: a lower score keeps it, a new best replaces it, a new best streak alone keeps it, a new best without metadata clears it', () => {
        const h = harness();
        withGame(h);
        const on = () => STANDARD.map((b) => shown(h, b)[0]?.[2]);
        submit(h, { playerId: 'p1', score: 100, streak: 1, metadata: { car: 'a' } });
        expect(on()).toEqual([{ car: 'a' }, { car: 'a' }, { car: 'a' }]);
        h.advance(3);
        submit(h, { playerId: 'p1', score: 50, streak: 0, metadata: { car: 'b' } });
        expect(on()).toEqual([{ car: 'a' }, { car: 'a' }, { car: 'a' }]);
        h.advance(3);
        submit(h, { playerId: 'p1', score: 90, streak: 8, metadata: { car: 'streak only' } });
        expect(on()).toEqual([{ car: 'a' }, { car: 'a' }, { car: 'a' }]);
        expect(shown(h, 'all-time')[0]![1]).toBe(100);
        h.advance(3);
        submit(h, { playerId: 'p1', score: 200, streak: 0, metadata: { car: 'c', laps: [1, 2] } });
        expect(on()).toEqual(Array(3).fill({ car: 'c', laps: [1, 2] }));
        h.advance(3);
        submit(h, { playerId: 'p1', score: 150, streak: 0 }); // no best, no metadata: kept
        expect(on()).toEqual(Array(3).fill({ car: 'c', laps: [1, 2] }));
        h.advance(3);
        submit(h, { playerId: 'p1', score: 300, streak: 0 }); // a new best without: cleared
        expect(on()).toEqual([undefined, undefined, undefined]);
        expect(present(readBoard(h, { gameId: G, boardId: 'weekly' })).entries[0]).not.toHaveProperty('metadata');
    });

    test('a board ranked by streak keeps the metadata of its best streak', () => {
        const h = harness();
        withGame(h);
        createBoard(h, { gameId: G, scoreboardId: 'combo', type: 'targeted', sortBy: 'streak' });
        submit(h, { playerId: 'p1', score: 1, streak: 5, metadata: { run: 1 }, scoreboardId: 'combo' });
        h.advance(3);
        submit(h, { playerId: 'p1', score: 99, streak: 2, metadata: { run: 2 }, scoreboardId: 'combo' });
        expect(shown(h, 'combo')).toEqual([[expect.any(String), 99, { run: 1 }]]);
        h.advance(3);
        submit(h, { playerId: 'p1', score: 0, streak: 6, metadata: { run: 3 }, scoreboardId: 'combo' });
        expect(shown(h, 'combo')).toEqual([[expect.any(String), 99, { run: 3 }]]);
    });

    test('a retry inside the window (same score and streak) stores nothing new, whatever its metadata', () => {
        const h = harness();
        withGame(h);
        submit(h, { playerId: 'p1', score: 10, streak: 1, metadata: { try: 1 } });
        expect(submit(h, { playerId: 'p1', score: 10, streak: 1, metadata: { try: 2 } })).toMatchObject({ ok: {} });
        expect(shown(h, 'daily')[0]![2]).toEqual({ try: 1 });
    });
});

describe('every read shows it', () => {
    function race(h: Harness, register = () => void withGame(h)) {
        register();
        submit(h, { playerId: 'p1', score: 300, streak: 0, metadata: { car: 'red', ghost: 'r-1' } });
        submit(h, { playerId: 'p2', score: 200, streak: 0 });
        submit(h, { playerId: 'p3', score: 100, streak: 0, metadata: { car: '<script>alert(1)</script>' } });
    }

    test('board pages, around-me, the developer page; not the plain /leaderboard rows', () => {
        const h = harness();
        let sessionHash = '';
        race(h, () => void (sessionHash = ownGame(h)));
        for (const board of STANDARD)
            expect(shown(h, board)).toEqual([
                ['Player_1', 300, { car: 'red', ghost: 'r-1' }],
                ['Player_2', 200, undefined],
                ['Player_3', 100, { car: '<script>alert(1)</script>' }],
            ]);
        const window = present(around(h, { gameId: G, boardId: 'weekly', playerId: 'p2', before: 1, after: 1 }));
        expect(window.entries.map((e) => e.metadata)).toEqual([
            { car: 'red', ghost: 'r-1' },
            undefined,
            { car: '<script>alert(1)</script>' },
        ]);
        const dev = readOwnBoard(h, { sessionHash, gameId: G, boardId: 'daily' });
        expect(present(dev).entries.map((e) => [e.playerId, e.metadata])).toEqual([
            ['p1', { car: 'red', ghost: 'r-1' }],
            ['p2', undefined],
            ['p3', { car: '<script>alert(1)</script>' }],
        ]);
        expect(present(leaderboard(h, { gameId: G })).leaderboard[0]).not.toHaveProperty('metadata');
    });

    test('archives keep it; the new period starts without', () => {
        const h = harness();
        race(h);
        h.advance(86_400);
        rolloverAll(h);
        const archive = present(readArchive(h, { gameId: G, boardId: 'daily' } as never));
        expect(archive.entries.map((e) => [e.score, e.metadata])).toEqual([
            [300, { car: 'red', ghost: 'r-1' }],
            [200, undefined],
            [100, { car: '<script>alert(1)</script>' }],
        ]);
        submit(h, { playerId: 'p2', score: 5, streak: 0 });
        expect(shown(h, 'daily')).toEqual([['Player_2', 5, undefined]]);
        // all-time never rolls over: it keeps the best's metadata
        expect(shown(h, 'all-time')[0]).toEqual(['Player_1', 300, { car: 'red', ghost: 'r-1' }]);
    });

    test('removing an entry removes its metadata; the player starts again without', () => {
        const h = harness();
        race(h);
        const game = h.games.get(G)!;
        removeBoardEntry(h, game, { gameId: G, scoreboardId: 'all-time', playerId: 'p1' } as never);
        expect(shown(h, 'all-time').map(([n]) => n)).toEqual(['Player_2', 'Player_3']);
        h.advance(3);
        submit(h, { playerId: 'p1', score: 1, streak: 0 });
        expect(shown(h, 'all-time')[2]).toEqual(['Player_1', 1, undefined]);
        expect(h.store.players.get(playerKey(G, 'p1'))!.bestMetadata).toBeUndefined();
    });
});

/** A developer signed in to the dashboard who registers the game: their session (hash). */
function ownGame(h: Harness): string {
    const sessionHash = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash, gameId: G, name: 'My Game' });
    return sessionHash;
}

describe('merging an anonymous player into an account: the metadata goes with the value that wins', () => {
    test('the rule', () => {
        const a = { score: 10, scoreAt: 1, streak: 0, streakAt: 1, metadata: 'A' };
        const b = { score: 20, scoreAt: 2, streak: 5, streakAt: 2, metadata: 'B' };
        expect(mergedMetadata({ score: 20, scoreAt: 2, streak: 5, streakAt: 2 }, 'score', a, b)).toBe('B');
        expect(mergedMetadata({ score: 10, scoreAt: 1, streak: 5, streakAt: 2 }, 'score', a, b)).toBe('A');
        expect(mergedMetadata({ score: 20, scoreAt: 2, streak: 0, streakAt: 1 }, 'streak', a, b)).toBe('A');
        expect(mergedMetadata({ score: 30, scoreAt: 3, streak: 5, streakAt: 3 }, 'score', a, b)).toBe('B');
        expect(mergedMetadata({ score: 10, scoreAt: 1, streak: 0, streakAt: 1 }, 'score', a, undefined)).toBe('A');
        expect(mergedMetadata(b, 'score', undefined, b)).toBe('B');
    });

    /** A device's 900 (metadata from the device) and Alice's account's 300 (from the account), not merged yet. */
    function deviceAndAccount() {
        const h = harness();
        withGame(h);
        submit(h, { playerId: 'dev_anon', score: 900, streak: 0, metadata: { from: 'device' } });
        const s = signIn(h, G, person('alice'), undefined);
        accountSubmit(h, s.sessionId, 300, { from: 'account' });
        return { h, s };
    }

    test('through the service: per board, the higher score brings its metadata', () => {
        const { h, s } = deviceAndAccount();
        const anonOnly = signIn(h, G, person('bob'), undefined);
        accountSubmit(h, anonOnly.sessionId, 5000, { b: 1 });
        h.advance(3);
        submit(h, { playerId: 'dev_low', score: 1, streak: 0, metadata: { from: 'low device' } });
        migrateAccount(h, { sessionHash: hashOf(s.sessionId), gameId: G, deviceId: 'dev_anon' });
        const bobs = signIn(h, G, person('bob'), undefined);
        migrateAccount(h, { sessionHash: hashOf(bobs.sessionId), gameId: G, deviceId: 'dev_low' });
        for (const board of STANDARD)
            expect(shown(h, board)).toEqual([
                [expect.any(String), 5000, { b: 1 }],
                [expect.any(String), 900, { from: 'device' }],
            ]);
        expect(profile(h, { gameId: G, playerId: 'dev_anon' } as never)).toBeDefined();
    });

    test('in archives too: the merged entry shows the metadata of the higher score', () => {
        const { h } = deviceAndAccount();
        h.advance(86_400);
        rolloverAll(h);
        const again = signIn(h, G, person('alice'), undefined);
        migrateAccount(h, { sessionHash: hashOf(again.sessionId), gameId: G, deviceId: 'dev_anon' });
        const archive = present(readArchive(h, { gameId: G, boardId: 'daily' } as never));
        expect(archive.entries.map((e) => [e.score, e.metadata])).toEqual([[900, { from: 'device' }]]);
    });
});

describe('metadata survives an upgrade and costs nothing for players without', () => {
    function filled() {
        const h = harness();
        withGame(h);
        createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
        for (let i = 0; i < 50; i++) {
            submit(h, {
                playerId: `p${i}`,
                score: i,
                streak: 0,
                metadata: i % 3 === 0 ? { i, s: 'ü🏎"\\' } : undefined,
            });
            submit(h, { playerId: `p${i}`, score: 100 - i, streak: 0, scoreboardId: 'level-1', metadata: { lvl: i } });
        }
        return h;
    }
    const view = (h: Harness) =>
        [...STANDARD, 'level-1'].map((b) => present(readBoard(h, { gameId: G, boardId: b, limit: 1000 })));

    test('from the snapshot', () => {
        const h = filled();
        const before = view(h);
        expect(before[0]!.entries.filter((e) => e.metadata !== undefined)).toHaveLength(17);
        writeSnapshot(h);
        h.games.clear();
        expect(loadGames(h)).toBe('snapshot');
        expect(view(h)).toEqual(before);
    });

    test('rebuilt from the records', () => {
        const h = filled();
        expectSameFromRecords(h, () => view(h));
    });

    test('stable: a record without metadata is as long as before; with, the text plus its escapes', () => {
        const h = filled();
        const plain = h.store.players.get(playerKey(G, 'p1'))!;
        const noted = h.store.players.get(playerKey(G, 'p3'))!;
        expect(plain.bestMetadata).toBeUndefined();
        expect(plain.boards.weekly!.metadata).toBeUndefined();
        expect(encodePlayer(plain)).not.toMatch(/null\]/); // no placeholder serial without metadata
        expect(decodePlayer(encodePlayer(noted))).toEqual(noted);
        expect(decodePlayer(encodePlayer(plain))).toEqual(plain);
        // Measured: what the metadata adds to a record, per entry.
        const without = encodePlayer({
            ...noted,
            bestMetadata: undefined,
            boards: Object.fromEntries(
                Object.entries(noted.boards).map(([k, e]) => [k, { ...e!, metadata: undefined }]),
            ),
        });
        const text = noted.bestMetadata!;
        const added = (encodePlayer(noted).length - without.length) / 4; // all-time, weekly, daily, level-1
        expect(added).toBeGreaterThan(text.length);
        expect(added).toBeLessThan(text.length + 16);
    });
});
