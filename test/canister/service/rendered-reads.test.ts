// The board reads the canister renders as text (read_board, the global leaderboard, around-me,
// their direct reads, a player's rank and their rank on a board) give byte for byte the reply the objects they replace gave: every field, rank, time and
// metadata, ties shared or not, lower-first boards, pages, clamped limits, old board ids, empty and
// ended periods, identity-provider auth types, names from earlier releases that need escaping,
// and the same errors.
import { signIn } from '../../../canister/service/accounts';
import { candidLiteral, stringify, type Quoting } from '../../../canister/domain/json';
import { PACKED_MAX, packRank, unpackRank } from '../../../contract/packed-ranks';
import type { BoardRank, PlayerRank } from '../../../contract/schemas';
import { createBoard, updateBoard } from '../../../canister/service/games';
import {
    around,
    aroundJson,
    boardRank,
    boardRankJson,
    leaderboard,
    leaderboardJson,
    playerRank,
    playerRankJson,
    readBoard,
    readBoardJson,
} from '../../../canister/service/reads';
import { setPlayer } from '../../../canister/state/tables';
import { failure, harness, hashOf, key, person, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const DAY = 86_400;

/** A reply as the canister writes it. */
const written = (value: unknown): string => stringify({ ok: value });

/** A rank reply through the packed reads' wire (its float64s) and back, as the gateway reads it. */
function unpacked(reply: PlayerRank | BoardRank, board: boolean): unknown {
    const numbers = new Float64Array(PACKED_MAX);
    return unpackRank(new Uint8Array(numbers.buffer, 0, 8 * packRank(reply, numbers, 0)), board);
}

/** The Candid text bytes of a request's key `<gameId>/<playerId>`, as a packed read cuts them. */
function keyBytes(req: { gameId?: unknown; playerId?: unknown }): Uint8Array {
    const text = new TextEncoder().encode(`${String(req.gameId)}/${String(req.playerId)}`);
    return new Uint8Array([0x44, 0x49, 0x44, 0x4c, 0x00, 0x01, 0x71, text.length, ...text]);
}

/**
 * A reply rendered as text, as the canister writes it; its rendering for the method's reply
 * (quoted for a Candid text literal) checked to be that text's literal.
 */
function rendered(render: (quoting: Quoting) => unknown): string {
    const text = written(render('json'));
    expect(candidLiteral({ ok: render('candid') })).toBe(JSON.stringify(text));
    return text;
}

function submit(h: Harness, s: Record<string, unknown>): void {
    const [r] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, ...s }] });
    if (!('ok' in r)) throw new Error(r.err.message);
}

/** Twelve players with equal scores, metadata (quotes, accents, emoji, nesting), a lower-first and a shared board. */
function game(): Harness {
    const h = harness('2026-03-04T12:00:00Z');
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'lap', type: 'targeted', sortOrder: 'asc' });
    createBoard(h, { gameId: G, scoreboardId: 'shared', type: 'targeted' });
    updateBoard(h, { gameId: G, scoreboardId: 'shared', ties: 'shared' });
    const metadata = [
        undefined,
        { car: 'mclaren "72"', lap: 2 },
        { name: 'Zoë 🏎', t: [1, 2.5, -3], ok: true, none: null },
        { back: 'a\\b/c', empty: '' },
    ];
    for (let i = 0; i < 12; i++) {
        const playerId = `dev_1700000000_${i.toString(16).padStart(8, '0')}`;
        const score = [500, 300, 300, 100][i % 4] + (i > 8 ? 1_000_000_000_000 : 0);
        submit(h, { playerId, score, streak: i % 5, metadata: metadata[i % 4] });
        submit(h, { playerId, score: score + 7, streak: 1, scoreboardId: 'lap', metadata: metadata[(i + 1) % 4] });
        submit(h, { playerId, score, streak: 0, scoreboardId: 'shared' });
        h.advance(3);
    }
    const session = signIn(h, G, person('alice', 'my-idp'), undefined);
    submitBatch(h, { submits: [{ sessionHash: hashOf(session.sessionId), gameId: G, score: 300, streak: 9 }] });
    return h;
}

const READS: Array<[string, Record<string, unknown>]> = [
    ['all-time', { boardId: 'all-time' }],
    ['weekly, a page of 5 from offset 3', { boardId: 'weekly', limit: 5, offset: 3 }],
    ['daily, limit 0 (clamped)', { boardId: 'daily', limit: 0 }],
    ['daily, limit 5,000 (clamped)', { boardId: 'daily', limit: 5000 }],
    ['a bad limit and offset', { boardId: 'daily', limit: 'x', offset: -4 }],
    ['an offset past the end', { boardId: 'weekly', offset: 500 }],
    ['lower first', { boardId: 'lap' }],
    ["ties 'shared', from offset 2", { boardId: 'shared', offset: 2, limit: 4 }],
    ['an old board id (R3)', { boardId: 'all-time-new' }],
];

describe('read_board rendered as text reads as its objects did', () => {
    test.each(READS)('%s', (_what, req) => {
        const h = game();
        expect(rendered((q) => readBoardJson(h, { gameId: G, ...req }, q))).toBe(
            written(readBoard(h, { gameId: G, ...req })),
        );
    });

    test('an empty board, and a period that has ended before its rollover was written', () => {
        const h = game();
        createBoard(h, { gameId: G, scoreboardId: 'none', type: 'targeted' });
        for (const boardId of ['none', 'daily']) {
            expect(rendered((q) => readBoardJson(h, { gameId: G, boardId }, q))).toBe(
                written(readBoard(h, { gameId: G, boardId })),
            );
            h.advance(2 * DAY);
        }
        expect(rendered((q) => readBoardJson(h, { gameId: G, boardId: 'daily' }, q))).toContain('"entries":[]');
    });

    test('a name written by an earlier release that JSON must escape', () => {
        const h = game();
        const players = h.games.get(G)!.players;
        setPlayer(players, 0, 'a"b\\c\u0007', 'external');
        const req = { gameId: G, boardId: 'all-time' };
        const text = rendered((q) => readBoardJson(h, req, q));
        expect(text).toBe(written(readBoard(h, req)));
        expect(text).toContain('"nickname":"a\\"b\\\\c\\u0007"');
        expect(JSON.parse(text).ok.entries.length).toBe(13);
    });

    test('the same errors', () => {
        const h = game();
        for (const req of [
            { gameId: 'nope', boardId: 'all-time' },
            { gameId: G, boardId: 'nope' },
            { gameId: G, boardId: 'bad id!' },
        ])
            expect(failure(() => readBoardJson(h, req))).toEqual(failure(() => readBoard(h, req)));
    });
});

describe('the global leaderboard rendered as text reads as its objects did', () => {
    test.each([
        ['by score', {}],
        ['by streak', { sort: 'streak' }],
        ['a top 3', { limit: 3 }],
        ["ties 'shared' on all-time", { shared: true }],
    ])('%s', (_what, options: Record<string, unknown>) => {
        const h = game();
        if (options.shared) updateBoard(h, { gameId: G, scoreboardId: 'all-time', ties: 'shared' });
        const req = { gameId: G, sort: options.sort, limit: options.limit };
        expect(rendered((q) => leaderboardJson(h, req, q))).toBe(written(leaderboard(h, req)));
    });

    test('the same errors', () => {
        const h = game();
        for (const req of [{ gameId: 'nope' }, { gameId: G, sort: 'time' }])
            expect(failure(() => leaderboardJson(h, req))).toEqual(failure(() => leaderboard(h, req)));
    });
});

describe('around-me rendered as text reads as its objects did', () => {
    const p = (i: number): string => `dev_1700000000_${i.toString(16).padStart(8, '0')}`;
    test.each([
        ['the default window', { boardId: 'all-time', playerId: p(5) }],
        ['at the top, with its percentile', { boardId: 'all-time', playerId: p(10), percentile: true }],
        ['a window of 0 and 2', { boardId: 'weekly', playerId: p(3), before: 0, after: 2 }],
        ['bad windows (the default)', { boardId: 'weekly', playerId: p(3), before: -1, after: 'x' }],
        ['lower first', { boardId: 'lap', playerId: p(7) }],
        ["ties 'shared', with its percentile", { boardId: 'shared', playerId: p(6), percentile: true }],
    ])('%s', (_what, req: Record<string, unknown>) => {
        const h = game();
        expect(rendered((q) => aroundJson(h, { gameId: G, ...req }, false, q))).toBe(
            written(around(h, { gameId: G, ...req })),
        );
    });

    test('the same errors', () => {
        const h = game();
        for (const req of [
            { gameId: G, boardId: 'all-time', playerId: 'nobody' },
            { gameId: G, boardId: 'nope', playerId: p(1) },
            { gameId: G, boardId: 'all-time', playerId: p(1), percentile: 'yes' },
            { gameId: G, boardId: 'lap', playerId: 'bad id!' },
        ])
            expect(failure(() => aroundJson(h, req))).toEqual(failure(() => around(h, req)));
    });
});

describe("a player's rank and their rank on a board rendered as text read as their objects did", () => {
    const p = (i: number): string => `dev_1700000000_${i.toString(16).padStart(8, '0')}`;
    test.each([
        ['by score', { playerId: p(5) }],
        ['by streak, with its percentile', { playerId: p(10), sort: 'streak', percentile: true }],
        ['a score past 2^40', { playerId: p(11) }],
        ["ties 'shared' on all-time", { playerId: p(6), shared: true }],
    ])('player_rank %s', (_what, options: Record<string, unknown>) => {
        const h = game();
        if (options.shared) updateBoard(h, { gameId: G, scoreboardId: 'all-time', ties: 'shared' });
        const req = { gameId: G, playerId: options.playerId, sort: options.sort, percentile: options.percentile };
        expect(written(playerRankJson(h, req))).toBe(written(playerRank(h, req)));
        expect(written(playerRankJson(h, req, true))).toBe(written(playerRank(h, req, true)));
        expect(written(unpacked(playerRank(h, req, true), false))).toBe(written(playerRankJson(h, req, true)));
        expect(written(unpacked(playerRank(h, req, true, keyBytes(req)), false))).toBe(
            written(playerRankJson(h, req, true)),
        );
    });

    test.each([
        ['found', { boardId: 'weekly', playerId: p(3) }],
        ['found, with its percentile', { boardId: 'all-time', playerId: p(10), percentile: true }],
        ['lower first', { boardId: 'lap', playerId: p(7) }],
        ["ties 'shared'", { boardId: 'shared', playerId: p(6), percentile: true }],
        ['not on the board', { boardId: 'lap', playerId: 'nobody' }],
        ['an old board id (R3)', { boardId: 'all-time-new', playerId: p(2) }],
    ])('board_rank %s', (_what, req: Record<string, unknown>) => {
        const h = game();
        expect(written(boardRankJson(h, { gameId: G, ...req }))).toBe(written(boardRank(h, { gameId: G, ...req })));
        expect(written(boardRankJson(h, { gameId: G, ...req }, true))).toBe(
            written(boardRank(h, { gameId: G, ...req }, true)),
        );
        const own = written(boardRankJson(h, { gameId: G, ...req }, true));
        expect(written(unpacked(boardRank(h, { gameId: G, ...req }, true), true))).toBe(own);
        const keyed = boardRank(h, { gameId: G, ...req }, true, keyBytes({ gameId: G, ...req }));
        expect(written(unpacked(keyed, true))).toBe(own);
    });

    test('an ended period, and the same errors', () => {
        const h = game();
        h.advance(2 * DAY);
        const ended = { gameId: G, boardId: 'daily', playerId: p(1) };
        expect(written(boardRankJson(h, ended))).toBe(written(boardRank(h, ended)));
        expect(written(boardRankJson(h, ended))).toContain('"found":false');
        for (const req of [
            { gameId: 'nope', playerId: p(1) },
            { gameId: G, playerId: 'nobody' },
            { gameId: G, playerId: 'bad id!' },
            { gameId: G, playerId: '@0123' },
            { gameId: G, playerId: p(1), sort: 'time' },
            { gameId: G, playerId: p(1), percentile: 'yes' },
        ])
            expect(failure(() => playerRankJson(h, req))).toEqual(failure(() => playerRank(h, req)));
        for (const req of [
            { gameId: G, boardId: 'nope', playerId: p(1) },
            { gameId: G, boardId: 'bad id!', playerId: p(1) },
            { gameId: G, boardId: 'weekly', playerId: 'bad id!' },
        ])
            expect(failure(() => boardRankJson(h, req))).toEqual(failure(() => boardRank(h, req)));
    });
});
