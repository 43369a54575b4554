// A board's export pages for its developer: the current period and its archives page by rank
// offset with player ids (the same entries the board reads show), pages never above
// EXPORT_PAGE_MAX, and nobody but the game's developer reads them.
import { EXPORT_PAGE_MAX, type ExportEntry, type ExportPage } from '../../../contract/canister';
import { developerSignIn, registerOwnGame } from '../../../canister/service/developers';
import { exportPage } from '../../../canister/service/exports';
import { createBoard, updateBoard } from '../../../canister/service/games';
import { listArchives, readArchive, readBoard } from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { failure, harness, hashOf, key, person, present, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'export-game';

function setUp(players: number): { h: Harness; dev: { sessionHash: string; gameId: string } } {
    const h = harness('2026-03-04T12:00:00Z');
    const sessionHash = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash, gameId: G, name: 'Export' });
    createBoard(h, { gameId: G, scoreboardId: 'laps', type: 'targeted', format: { kind: 'milliseconds' } });
    for (let from = 0; from < players; from += 200) {
        const submits = [];
        for (let i = from; i < Math.min(players, from + 200); i++)
            submits.push({
                apiKey: key(h, G),
                gameId: G,
                playerId: `p${i}`,
                score: (i * 7919) % 10_007,
                streak: i % 9,
            });
        for (const r of submitBatch(h, { submits })) expect(r).toMatchObject({ ok: {} });
    }
    return { h, dev: { sessionHash, gameId: G } };
}

/** Every page from offset 0 on, as the gateway reads them. */
function everyPage(h: Harness, request: Record<string, unknown>): { pages: number; entries: ExportEntry[] } {
    const entries: ExportEntry[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
        const page: ExportPage = present(exportPage(h, { ...request, offset } as never));
        expect(page.offset).toBe(offset);
        expect(page.entries.length).toBeLessThanOrEqual(EXPORT_PAGE_MAX);
        entries.push(...page.entries);
        offset = page.nextOffset;
        pages++;
    }
    return { pages, entries };
}

test('the current period pages by rank offset, every entry once with its player id, as the board reads show it', () => {
    const { h, dev } = setUp(2_345);
    const { pages, entries } = everyPage(h, { ...dev, boardId: 'all-time' });
    expect(pages).toBe(3);
    expect(entries.map((e) => e.rank)).toEqual(Array.from({ length: 2_345 }, (_, i) => i + 1));
    expect(new Set(entries.map((e) => e.playerId)).size).toBe(2_345);
    // The same entries, field for field, as the public board read (which has no player ids).
    const board = present(readBoard(h, { gameId: G, boardId: 'all-time', limit: 1000, offset: 1000 }));
    expect(entries.slice(1000, 2000).map(({ playerId: _p, ...e }) => e)).toEqual(board.entries);
    // Scores and player ids belong together: p<i> submitted (i * 7919) % 10007.
    for (const e of entries) expect(e.score).toBe((Number(e.playerId.slice(1)) * 7919) % 10_007);
    const first = present(exportPage(h, { ...dev, boardId: 'all-time', limit: 10 }));
    expect(first).toMatchObject({
        scoreboardId: 'all-time',
        periodStart: 0,
        sortBy: 'score',
        format: { kind: 'number' },
        totalEntries: 2_345,
        nextOffset: 10,
    });
    expect(first.entries).toHaveLength(10);
    // Asking for more than a page gets a page; a page past the end is empty and the last.
    expect(exportPage(h, { ...dev, boardId: 'all-time', limit: 1_000_000 }).entries).toHaveLength(EXPORT_PAGE_MAX);
    expect(exportPage(h, { ...dev, boardId: 'all-time', offset: 5_000 })).toMatchObject({
        entries: [],
        nextOffset: null,
    });
});

test("a board's format and period come with every page; an empty board is one empty page", () => {
    const { h, dev } = setUp(3);
    expect(exportPage(h, { ...dev, boardId: 'laps' })).toMatchObject({
        format: { kind: 'milliseconds' },
        totalEntries: 0,
        entries: [],
        nextOffset: null,
    });
    updateBoard(h, { gameId: G, scoreboardId: 'daily', format: { kind: 'decimal', places: 2 } });
    const daily = present(exportPage(h, { ...dev, boardId: 'daily' }));
    expect(daily.format).toEqual({ kind: 'decimal', places: 2 });
    expect(daily.periodStart).toBe(Date.parse('2026-03-04T00:00:00Z') * 1e6);
});

test("an archive pages its stored entries with player ids; only the board's own archives", () => {
    const { h, dev } = setUp(1_500);
    h.advance(86_400);
    rolloverAll(h);
    const [archive] = present(listArchives(h, { gameId: G, boardId: 'daily' })).archives;
    const { pages, entries } = everyPage(h, { ...dev, boardId: 'daily', archiveId: archive!.archiveId });
    // An archive keeps the period's top 1,000 entries.
    expect(pages).toBe(1);
    expect(entries).toHaveLength(1_000);
    const stored = present(readArchive(h, { gameId: G, archiveId: archive!.archiveId, limit: 1000 }));
    expect(entries.map(({ playerId: _p, ...e }) => e)).toEqual(stored.entries);
    for (const e of entries) expect(e.score).toBe((Number(e.playerId.slice(1)) * 7919) % 10_007);
    const paged = everyPage(h, { ...dev, boardId: 'daily', archiveId: archive!.archiveId, limit: 300 });
    expect(paged.pages).toBe(4);
    expect(paged.entries).toEqual(entries);
    expect(present(exportPage(h, { ...dev, boardId: 'daily', archiveId: archive!.archiveId, limit: 1 }))).toMatchObject(
        { archiveId: archive!.archiveId, totalEntries: 1_000, periodStart: archive!.periodStart, nextOffset: 1 },
    );
    // Another board's archive through this board, a made-up id, or a malformed one: 404.
    for (const archiveId of [archive!.archiveId.replace(':daily:', ':weekly:'), `${G}:daily:1000`, 'nope', 42])
        expect(failure(() => exportPage(h, { ...dev, boardId: 'weekly', archiveId } as never))).toMatchObject({
            status: 404,
        });
});

test("another developer's session, or none, reads nothing; unknown boards are 404, bad ids 400", () => {
    const { h, dev } = setUp(5);
    const eve = hashOf(developerSignIn(h, { identity: person('eve', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash: eve, gameId: 'eves-game', name: 'Eve' });
    expect(failure(() => exportPage(h, { sessionHash: eve, gameId: G, boardId: 'all-time' }))).toEqual({
        status: 404,
        message: 'Game not found among your games',
    });
    expect(failure(() => exportPage(h, { sessionHash: 'f'.repeat(64), gameId: G, boardId: 'all-time' })).status).toBe(
        401,
    );
    expect(failure(() => exportPage(h, { ...dev, boardId: 'nope' })).status).toBe(404);
    expect(failure(() => exportPage(h, { ...dev, boardId: '../x' })).status).toBe(400);
});
