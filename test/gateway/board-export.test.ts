// A board's CSV export through the dashboard's JSON API: a board of 5,000 entries streams out
// over several canister pages and parses back to the board as its reads show it; archives
// export their stored entries; the cells players choose cannot become spreadsheet formulas;
// RFC 4180 quoting; another developer, or no session, gets an error and no data.
import { createHash } from 'node:crypto';

import { parse } from 'csv-parse/sync';

import { EXPORT_PAGE_MAX, type DeveloperEntry, type ExportEntry } from '../../contract/canister';
import { LIMITS } from '../../replica/subnet';
import { columnsOf, csvText, defuse, rowOf } from '../../gateway/routes/board-export';
import { startService } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let cookie: string;
let apiKey: string;
const G = 'csv-game';
const N = 5_000;

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');

async function signIn(subject: string): Promise<{ token: string; sessionHash: string }> {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject, email: `${subject}@test`, provider: 'test' },
    });
    return { token: sessionToken, sessionHash: sha(sessionToken) };
}

beforeAll(async () => {
    s = await startService();
    const ada = await signIn('ada');
    cookie = `lb_dev=${ada.token}`;
    apiKey = (await s.canister.ok('dev_register_game', { sessionHash: ada.sessionHash, gameId: G, name: 'CSV' }))
        .apiKey;
    await s.canister.ok('dev_create_board', {
        sessionHash: ada.sessionHash,
        gameId: G,
        scoreboardId: 'laps',
        type: 'targeted',
        period: 'custom',
        days: 0,
        sortOrder: 'asc',
        format: { kind: 'milliseconds' },
    });
    for (let from = 0; from < N; from += 200) {
        const submits = Array.from({ length: Math.min(200, N - from) }, (_, k) => ({
            apiKey,
            gameId: G,
            // Player ids a game chooses: some start with "-", which a spreadsheet would read as a formula.
            playerId: (from + k) % 1000 === 7 ? `-${from + k}-1` : `player_${from + k}`,
            score: ((from + k) * 7919) % 100_003,
            streak: (from + k) % 13,
        }));
        const replies = await s.canister.ok('submit_scores', { submits });
        expect(replies.every((r) => 'ok' in r)).toBe(true);
    }
}, 600_000);
afterAll(() => s.stop());

const download = (path: string, c = cookie) =>
    fetch(`${s.gateway.url}/dashboard/api/games/${G}/boards/${path}`, { headers: { Cookie: c } });

const rowsOf = (text: string): Array<Record<string, string>> =>
    parse(text, { bom: true, columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>;

test('5,000 entries stream out over several pages as RFC 4180 CSV, entry for entry the board', async () => {
    const last = s.replica.executions().at(-1);
    const res = await download('all-time/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${G}_all-time_all-time.csv"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // Streamed as it goes: no length known in advance.
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    // The UTF-8 byte order mark first (fetch's text() would drop it).
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith('\ufeffrank,playerId,nickname,score,streak,metadata,submittedAt\r\n')).toBe(true);
    const rows = rowsOf(text);
    expect(rows).toHaveLength(N);
    // Five canister queries of 1,000 entries, each far inside the query limit.
    const runs = s.replica.executions();
    const pages = runs.slice(runs.lastIndexOf(last!) + 1).filter((e) => e.method.endsWith(' dev_export_board'));
    expect(pages).toHaveLength(N / EXPORT_PAGE_MAX);
    const most = pages.reduce((max, e) => (e.instructions > max ? e.instructions : max), 0n);
    console.log(`dev_export_board: ${EXPORT_PAGE_MAX} entries, at most ${most} instructions`);
    expect(most).toBeLessThan(LIMITS.query / 5n);
    // The board as the developer's own paged read shows it (1,000 a page).
    const board: DeveloperEntry[] = [];
    const { sessionHash } = { sessionHash: sha(cookie.slice('lb_dev='.length)) };
    for (let offset = 0; offset < N; offset += 1000)
        board.push(
            ...(
                await s.canister.ok('dev_read_board', {
                    sessionHash,
                    gameId: G,
                    boardId: 'all-time',
                    offset,
                    limit: 1000,
                })
            ).entries,
        );
    expect(
        rows.map((r) => [Number(r.rank), r.playerId.replace(/^'/, ''), r.nickname, Number(r.score), Number(r.streak)]),
    ).toEqual(board.map((e) => [e.rank, e.playerId, e.nickname, e.score, e.streak]));
    expect(rows.map((r) => r.submittedAt)).toEqual(
        board.map((e) => new Date(Math.floor(e.submittedAt / 1e6)).toISOString()),
    );
    expect(rows.every((r) => r.metadata === '')).toBe(true);
    // The ids that start with "-" went out defused; the others as they are.
    const dashed = rows.filter((r) => r.playerId.startsWith("'"));
    expect(dashed.map((r) => r.playerId).sort()).toEqual(
        Array.from({ length: 5 }, (_, i) => `'-${i * 1000 + 7}-1`).sort(),
    );
});

test('a client that goes away mid-download harms nothing; the next one is served whole', async () => {
    const controller = new AbortController();
    const res = await fetch(`${s.gateway.url}/dashboard/api/games/${G}/boards/all-time/export`, {
        headers: { Cookie: cookie },
        signal: controller.signal,
    });
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    const again = await download('all-time/export');
    expect(rowsOf(await again.text())).toHaveLength(N);
});

test('a formatted board gets a scoreFormatted column beside the integer, in the board order', async () => {
    await s.replica.advanceTime(3_000);
    const submits = [30_123, 61_500, 3_723_004].map((score, i) => ({
        apiKey,
        gameId: G,
        playerId: `racer_${i}`,
        score,
        streak: 0,
        scoreboardId: 'laps',
        ...(i === 0 ? { metadata: { car: 'red', laps: [1, 2] } } : {}),
    }));
    await s.canister.ok('submit_scores', { submits });
    const res = await download('laps/export');
    expect(res.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="${G}_laps_\\d{4}-\\d\\d-\\d\\d\\.csv"$`),
    );
    const rows = rowsOf(await res.text());
    expect(Object.keys(rows[0]!)).toEqual([
        'rank',
        'playerId',
        'nickname',
        'score',
        'scoreFormatted',
        'streak',
        'metadata',
        'submittedAt',
    ]);
    const board = (await s.request('GET', `/games/${G}/scoreboards/laps`, { headers: { 'X-API-Key': apiKey } })).body
        .data;
    expect(rows.map((r) => [r.rank, r.score, r.scoreFormatted])).toEqual(
        board.entries.map((e: { rank: number; score: number }) => [
            String(e.rank),
            String(e.score),
            { 30_123: '0:30.123', 61_500: '1:01.500', 3_723_004: '1:02:03.004' }[e.score],
        ]),
    );
    // The entry's metadata as JSON text; none: an empty cell.
    expect(rows.map((r) => [r.playerId, r.metadata])).toEqual(
        expect.arrayContaining([
            ['racer_0', JSON.stringify({ car: 'red', laps: [1, 2] })],
            ['racer_1', ''],
        ]),
    );
});

test("an archive exports its stored entries; another board's archive id is a 404", async () => {
    const session = sha(cookie.slice('lb_dev='.length));
    await s.canister.ok('dev_reset_board', { sessionHash: session, gameId: G, scoreboardId: 'laps' });
    const { archives } = await s.canister.ok('list_archives', { gameId: G, boardId: 'laps' });
    const archive = await s.canister.ok('read_archive', { gameId: G, archiveId: archives[0]!.archiveId });
    const res = await download(`laps/export?archiveId=${archives[0]!.archiveId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/_archive\.csv"$/);
    const rows = rowsOf(await res.text());
    expect(rows.map((r) => [Number(r.rank), r.playerId, r.nickname, Number(r.score)])).toEqual(
        archive.entries.map((e: { rank: number; nickname: string; score: number }) => [
            e.rank,
            `racer_${[30_123, 61_500, 3_723_004].indexOf(e.score)}`,
            e.nickname,
            e.score,
        ]),
    );
    // The current period is empty now: a header and nothing else.
    expect(rowsOf(await (await download('laps/export')).text())).toEqual([]);
    const other = await download(`all-time/export?archiveId=${archives[0]!.archiveId}`);
    expect({ status: other.status, body: await other.json() }).toEqual({
        status: 404,
        body: { ok: false, error: 'Archive not found' },
    });
});

test('another developer gets a 404 and no data; no session a 401; bad input a 400', async () => {
    const eve = await signIn('eve');
    for (const path of ['all-time/export', 'laps/export']) {
        const res = await download(path, `lb_dev=${eve.token}`);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect({ status: res.status, body: await res.json() }).toEqual({
            status: 404,
            body: { ok: false, error: 'Game not found among your games' },
        });
    }
    const none = await fetch(`${s.gateway.url}/dashboard/api/games/${G}/boards/all-time/export`);
    expect({ status: none.status, body: await none.json() }).toEqual({
        status: 401,
        body: { ok: false, error: 'Sign in to the dashboard first.' },
    });
    for (const [path, error] of [
        ['nope/export', "Scoreboard 'nope' not found for this game."],
        ['all-time/export?archiveId=x', expect.stringMatching(/^Invalid archiveId: must match/)],
        ['all-time/export?archiveId=a&archiveId=b', 'Invalid archiveId: give it once'],
    ] as const) {
        const res = await download(path);
        expect({ status: res.status, body: await res.json() }).toEqual({
            status: path.startsWith('nope') ? 404 : 400,
            body: { ok: false, error },
        });
    }
});

test('the export is in the API reference as a CSV answer', async () => {
    const doc = (await s.request('GET', '/openapi.json')).body;
    const op = doc.paths['/dashboard/api/games/{gameId}/boards/{boardId}/export'].get;
    expect(Object.keys(op.responses[200].content)).toEqual(['text/csv; charset=utf-8']);
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(['gameId', 'boardId', 'archiveId']);
});

test('cells players choose cannot become formulas; quotes, commas and line breaks are quoted (RFC 4180)', () => {
    for (const [text, out] of [
        ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
        ['+1', "'+1"],
        ['-2+3', "'-2+3"],
        ['@SUM(A1)', "'@SUM(A1)"],
        ['\tx', "'\tx"],
        ['\rx', "'\rx"],
        ['Ada_1', 'Ada_1'],
        ['a=b', 'a=b'],
    ])
        expect(defuse(text)).toBe(out);
    const entry: ExportEntry = {
        rank: 1,
        playerId: '@0123456789abcdef0123456789abcdef',
        nickname: '=cmd|x',
        score: 12_345,
        streak: 2,
        authType: 'anonymous',
        submittedAt: 1_772_582_400_123_000_000 as ExportEntry['submittedAt'],
        metadata: { car: 'red, "fast"', note: 'line\r\nbreak', f: '=1+1' },
    };
    const format = { kind: 'decimal', places: 2 } as const;
    const text = csvText([columnsOf(format), rowOf(entry, format)]);
    expect(text).toBe(
        'rank,playerId,nickname,score,scoreFormatted,streak,metadata,submittedAt\r\n' +
            `1,'@0123456789abcdef0123456789abcdef,'=cmd|x,12345,123.45,2,` +
            '"{""car"":""red, \\""fast\\"""",""note"":""line\\r\\nbreak"",""f"":""=1+1""}",2026-03-04T00:00:00.123Z\r\n',
    );
    const [row] = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(JSON.parse(row!.metadata!)).toEqual(entry.metadata);
});
