// Direct reads are tamper-evident: the canister's real wasm on the replica answers the public
// board paths with IC-Certificate headers that @dfinity/response-verification (the HTTP Gateway
// Protocol's response verification, as the IC's gateways run it) accepts against the replica's
// root key, and rejects as soon as one byte of the body or of a certified header changes. Only
// what is read is rendered (a path's first read is an update); writes only mark boards dirty, and
// a render timer certifies a read game's changes at most once per window of canister time. Reads
// upgraded to update calls are bounded per game and per minute; past a bound the query answers.
// The raw domain is answered live.
import * as http from 'node:http';

import { Principal } from '@dfinity/principal';

import { DIRECT_READ_WINDOW_SECONDS } from '../../contract/http';
import { UPGRADES_PER_GAME_PER_MINUTE, UPGRADES_PER_MINUTE } from '../../canister/service/direct-reads/upgrades';
import { startLeaderboard, type TestCanister } from '../support/canister';
import { httpReply, httpRequestArg, httpUpdateArg } from '../support/http-gateway';
import { canisterAnswer, directUrls, verifyAnswer, type CanisterAnswer } from '../support/verify-response';

const GAME = 'certified-game';
let c: TestCanister;
let apiKey: string;

type Direct = CanisterAnswer;

/** A GET of the canister's own HTTP path. */
async function direct(path: string): Promise<Direct> {
    const urls = directUrls(c.replica, c.canisterId, path);
    return canisterAnswer(urls.seen, await fetch(urls.fetch));
}

/** A GET on the raw domain, as `<id>.raw.localhost` (the replica takes the canister from the Host, as dfx's does). */
async function rawDirect(path: string): Promise<Direct> {
    const { port } = new URL(c.replica.url);
    return new Promise((resolve, reject) => {
        const req = http.get(
            { host: '127.0.0.1', port, path, headers: { host: `${c.canisterId.toText()}.raw.localhost:${port}` } },
            (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (chunk: Buffer) => chunks.push(chunk));
                res.on('end', () => {
                    const headers = Object.entries(res.headers).map(([n, v]): [string, string] => [n, String(v)]);
                    resolve({
                        url: path,
                        status: res.statusCode!,
                        headers,
                        body: new Uint8Array(Buffer.concat(chunks)),
                    });
                });
            },
        );
        req.on('error', reject);
    });
}

/** Whether the canister's query would ask for the upgrade (the path is not rendered), without following it. */
function wouldUpgrade(path: string): boolean {
    const arg = httpRequestArg(path, [['host', `${c.canisterId.toText()}.localhost`]]);
    const reply = c.replica.query(c.canisterId, 'http_request', arg, Principal.anonymous(), true);
    if (!('reply' in reply)) throw new Error(reply.reject.message);
    return httpReply(reply.reply).upgrade;
}

const verify = (r: Direct): ReturnType<typeof verifyAnswer> => verifyAnswer(c.replica, c.canisterId, r);

const json = (r: Direct): any => JSON.parse(new TextDecoder().decode(r.body));
const header = (r: Direct, name: string): string | undefined => r.headers.find(([n]) => n === name)?.[1];

/** Lets the render timer run: canister time moves by its window and due timers run at once. */
async function render(): Promise<void> {
    await c.advance(DIRECT_READ_WINDOW_SECONDS * 1000);
}

async function submit(playerId: string, score: number, extra: Record<string, unknown> = {}): Promise<void> {
    const [result] = await c.ok('submit_scores', {
        submits: [{ apiKey, gameId: GAME, playerId, score, streak: 1, ...extra }],
    });
    expect(result).toMatchObject({ ok: {} });
}

/** Another game of `developerId`, and a submit to it (each accepted). */
async function otherGame(
    gameId: string,
    developerId: string,
): Promise<(playerId: string, score: number) => Promise<void>> {
    const { apiKey: key } = await c.ok('admin_register_game', { developerId, gameId, name: gameId });
    return async (playerId, score) => {
        const [result] = await c.ok('submit_scores', {
            submits: [{ apiKey: key, gameId, playerId, score, streak: 1 }],
        });
        expect(result).toMatchObject({ ok: {} });
    };
}

beforeAll(async () => {
    // A fixed noon start: the tests move the clock ~15 minutes before the rollover test picks its
    // midnight, so a start near the wall clock's midnight crossed one early (the run failed then).
    c = await startLeaderboard({ startTime: BigInt(Date.parse('2026-03-04T12:00:00Z')) * 1_000_000n });
    ({ apiKey } = await c.ok('admin_register_game', { developerId: 'dev-1', gameId: GAME, name: 'Certified' }));
    for (let i = 0; i < 12; i++) await submit(`dev_1700000000_${i.toString(16).padStart(8, '0')}`, 100 + i * 10);
});
afterAll(() => c.replica.stop());

test('every pre-rendered board path verifies, with the same JSON as the canister method', async () => {
    const board = await c.ok('read_board', { gameId: GAME, boardId: 'all-time', limit: 100 });
    for (const url of [
        `/games/${GAME}/scoreboards/all-time`,
        `/games/${GAME}/scoreboards/all-time?limit=10`,
        `/games/${GAME}/scoreboards/all-time?limit=100`,
        `/games/${GAME}/scoreboards/daily?limit=25`,
        `/games/${GAME}/scoreboards`,
        `/games/${GAME}/scoreboards/weekly/archives`,
        `/games/${GAME}/scoreboards/weekly/archives/latest`,
        `/games/${GAME}/archives/stats`,
    ]) {
        const first = await direct(url); // its first read: an update renders it (certified by consensus)
        expect(header(first, 'ic-certificate')).toBeUndefined();
        const r = await direct(url);
        expect(r.body).toEqual(first.body);
        expect(header(r, 'ic-certificate')).toMatch(/^certificate=:.*:, tree=:.*:, version=2, expr_path=:.*:$/);
        const verified = verify(r);
        expect({ url, status: verified?.statusCode }).toEqual({ url, status: r.status });
        expect(verified!.body).toEqual(r.body);
    }
    const top = await direct(`/games/${GAME}/scoreboards/all-time`);
    expect(json(top)).toEqual({ ok: true, data: board });
    expect(json(await direct(`/games/${GAME}/scoreboards/all-time?limit=10`)).data.entries).toHaveLength(10);
    expect(json(await direct(`/games/${GAME}/archives/stats`))).toEqual({
        ok: true,
        data: await c.ok('archive_stats', { gameId: GAME }),
    });
    // A certified 404: the board exists, its latest archive does not yet.
    expect((await direct(`/games/${GAME}/scoreboards/weekly/archives/latest`)).status).toBe(404);
});

test('one flipped byte of the body, or a changed certified header, fails verification', async () => {
    const r = await direct(`/games/${GAME}/scoreboards/all-time?limit=10`);
    verify(r);
    const body = r.body.slice();
    body[body.length - 5] ^= 1;
    expect(() => verify({ ...r, body })).toThrow();
    for (const name of ['cache-control', 'content-type', 'access-control-allow-origin', 'ic-certificateexpression']) {
        const headers = r.headers.map(([n, v]): [string, string] => [n, n === name ? `${v}x` : v]);
        expect({
            name,
            verified: (() => {
                try {
                    verify({ ...r, headers });
                    return true;
                } catch {
                    return false;
                }
            })(),
        }).toEqual({ name, verified: false });
    }
    // Another path's certified answer does not verify for this one either.
    const other = await direct(`/games/${GAME}/scoreboards/daily?limit=10`);
    expect(() => verify({ ...other, url: r.url })).toThrow();
});

test('unknown paths, bad ids, missing boards and around-me are uncertified on purpose, and say so verifiably', async () => {
    for (const [url, status] of [
        ['/somewhere/else', 404],
        [`/games/${GAME}/scoreboards/nope`, 404],
        ['/games/no-such-game/scoreboards', 404],
        [`/games/bad.id/scoreboards`, 400],
        [`/games/${GAME}/scoreboards/all-time/around?playerId=dev_1700000000_00000003&before=1&after=1`, 200],
    ] as const) {
        const r = await direct(url);
        expect({ url, status: r.status }).toEqual({ url, status });
        expect({ url, skipped: verify(r) }).toEqual({ url, skipped: undefined });
        expect(header(r, 'ic-certificateexpression')).toBe(
            'default_certification(ValidationArgs{no_certification:Empty{}})',
        );
    }
    const around = json(
        await direct(`/games/${GAME}/scoreboards/all-time/around?playerId=dev_1700000000_00000003&before=1&after=1`),
    );
    expect(around).toEqual({
        ok: true,
        data: await c.ok('around', {
            gameId: GAME,
            boardId: 'all-time',
            playerId: 'dev_1700000000_00000003',
            before: 1,
            after: 1,
        }),
    });
    // A skip answer cannot pass for a certified path.
    const skipped = await direct('/somewhere/else');
    expect(() => verify({ ...skipped, url: `/games/${GAME}/scoreboards/all-time` })).toThrow();
});

test('a limit or page not rendered ahead is rendered by an update call once, then served certified', async () => {
    const url = `/games/${GAME}/scoreboards/all-time?limit=3&offset=2`;
    const first = await direct(url); // the query asks for the upgrade; the update renders and certifies it
    expect(first.status).toBe(200);
    expect(json(first).data.entries.map((e: { rank: number }) => e.rank)).toEqual([3, 4, 5]);
    const again = await direct(url);
    expect(verify(again)!.body).toEqual(first.body);
});

test('the top 1,000 is rendered on demand (hashing it ahead would cost ~1.7 B instructions per change)', async () => {
    const url = `/games/${GAME}/scoreboards/weekly?limit=1000`;
    const first = await direct(url);
    expect(header(first, 'ic-certificate')).toBeUndefined(); // the update's own answer, certified by consensus
    const again = await direct(url);
    expect(verify(again)!.body).toEqual(first.body);
    expect(json(again).data.entries).toHaveLength(12);
});

test('a change shows in direct reads at once after a quiet window; the next ones wait for the window', async () => {
    const url = `/games/${GAME}/scoreboards/daily?limit=10`;
    await render(); // a window with no change
    await direct(url);
    await submit('dev_1700000000_ffffffff', 10_000); // the timer renders it in the next round
    const first = await direct(url);
    verify(first);
    expect(json(first).data.entries[0]).toMatchObject({ rank: 1, score: 10_000 });
    expect(json(first).data.totalEntries).toBe(13);
    await submit('dev_1700000000_fffffffe', 20_000);
    expect((await direct(url)).body).toEqual(first.body); // still the certified snapshot of this window
    await render();
    const after = await direct(url);
    verify(after);
    expect(json(after).data.entries[0]).toMatchObject({ rank: 1, score: 20_000 });
    expect(json(after).data.totalEntries).toBe(14);
});

test('a game nobody reads directly costs no rendering; its first direct read renders it, a change after 10 quiet minutes drops it', async () => {
    const other = 'unwatched-game';
    const submitTo = await otherGame(other, 'dev-1');
    await submitTo('dev_1700000000_0000aaaa', 5);
    const timerRuns = (): Array<{ instructions: bigint }> =>
        c.replica.executions().filter((e) => /timer/.test(e.method));
    const before = timerRuns().length;
    await render();
    // Renders of nobody's game: none above a timer's own cost (a render hashes ~0.1 B at least).
    expect(
        timerRuns()
            .slice(before)
            .every((e) => e.instructions < 50_000_000n),
    ).toBe(true);
    const url = `/games/${other}/scoreboards/all-time`;
    const first = await direct(url);
    expect(header(first, 'ic-certificate')).toBeUndefined(); // the update that rendered it
    expect(json(first).data.entries).toHaveLength(1);
    verify(await direct(url));
    // Watched: a change is rendered.
    await submitTo('dev_1700000000_0000bbbb', 50);
    await render();
    const second = await direct(url);
    verify(second);
    expect(json(second).data.entries).toHaveLength(2);
    // Ten quiet minutes, then a change: dropped, and the next read renders it again.
    await c.advance(10 * 60_000);
    await submitTo('dev_1700000000_0000cccc', 500);
    await render();
    const third = await direct(url);
    expect(header(third, 'ic-certificate')).toBeUndefined();
    expect(json(third).data.entries[0]).toMatchObject({ rank: 1, score: 500 });
    const fourth = await direct(url);
    expect(verify(fourth)!.body).toEqual(fourth.body);
    expect(json(fourth).data.totalEntries).toBe(3);
});

test('a targeted board named `fanout` is rendered after its own submit (no board ID is a marker)', async () => {
    await c.ok('admin_create_board', { gameId: GAME, scoreboardId: 'fanout', type: 'targeted' });
    await render();
    const url = `/games/${GAME}/scoreboards/fanout?limit=10`;
    expect(json(await direct(url)).data.entries).toHaveLength(0);
    await submit('dev_1700000000_0000fa00', 777, { scoreboardId: 'fanout' });
    await render();
    const after = await direct(url);
    expect(verify(after)!.body).toEqual(after.body);
    expect(json(after).data.entries).toEqual([expect.objectContaining({ rank: 1, score: 777 })]);
});

/** How the replica names the executions of the two HTTP methods. */
const HTTP_QUERY = 'canister_query http_request';
const HTTP_UPDATE = 'canister_update http_request_update';

/** A direct read, and the canister's executions it caused (the query, and the update when it was upgraded). */
async function directRun(path: string): Promise<{ r: Direct; query: bigint; update?: bigint }> {
    const last = c.replica.executions().at(-1);
    const r = await direct(path);
    const all = c.replica.executions();
    const since = all.slice(all.lastIndexOf(last!) + 1);
    const run = (method: string): bigint | undefined => since.find((e) => e.method === method)?.instructions;
    return { r, query: run(HTTP_QUERY)!, update: run(HTTP_UPDATE) };
}

/** http_request_update called straight (as a query that raced the counts would have it called). */
async function directUpdate(url: string): Promise<{ status: number; body: any; instructions: bigint }> {
    const reply = await c.replica.update(c.canisterId, 'http_request_update', httpUpdateArg(url));
    if (!('reply' in reply)) throw new Error(`rejected: ${JSON.stringify(reply.reject)}`);
    const answer = httpReply(reply.reply);
    const instructions = [...c.replica.executions()].reverse().find((e) => e.method === HTTP_UPDATE)!.instructions;
    return { status: answer.status, body: JSON.parse(Buffer.from(answer.body).toString()), instructions };
}

test('reads upgraded to update calls are bounded per game and in all per minute; past a bound the query answers', async () => {
    const games = ['bounded-b', 'bounded-c', 'bounded-d'];
    for (const gameId of games) {
        const { apiKey: key } = await c.ok('admin_register_game', { developerId: 'dev-2', gameId, name: gameId });
        const [result] = await c.ok('submit_scores', {
            submits: [{ apiKey: key, gameId, playerId: 'dev_1700000000_0000d000', score: 3, streak: 1 }],
        });
        expect(result).toMatchObject({ ok: {} });
    }
    // The start of a fresh minute (the window the counts keep).
    const nowMs = Number(c.replica.time() / 1_000_000n);
    await c.advance(60_000 - (nowMs % 60_000) + 1_000);
    const page = (gameId: string, offset: number): string =>
        `/games/${gameId}/scoreboards/all-time?limit=1000&offset=${offset}`;

    // Up to the bound, each distinct page of the game is upgraded and rendered.
    let upgraded!: Awaited<ReturnType<typeof directRun>>;
    for (let offset = 1; offset <= UPGRADES_PER_GAME_PER_MINUTE; offset++) {
        upgraded = await directRun(page(GAME, offset));
        expect({ offset, upgraded: upgraded.update !== undefined }).toEqual({ offset, upgraded: true });
    }
    expect(json(upgraded.r)).toEqual({
        ok: true,
        data: await c.ok('read_board', { gameId: GAME, boardId: 'all-time', limit: 1000, offset: 20 }),
    });
    // Past it, the query answers: the board path's certified busy answer, valid for any query of it.
    const refused = await directRun(page(GAME, 100));
    expect(refused.update).toBeUndefined();
    expect(refused.r.status).toBe(429);
    expect(header(refused.r, 'retry-after')).toBe('60');
    expect(json(refused.r)).toEqual({ ok: false, error: expect.stringContaining('retry in a minute') });
    const verified = verify(refused.r)!;
    expect({ status: verified.statusCode, body: verified.body }).toEqual({ status: 429, body: refused.r.body });
    // It does not pass for another path, and a rendered answer of the same path still is served.
    expect(() => verify({ ...refused.r, url: `/games/${GAME}/scoreboards/daily?limit=1000&offset=100` })).toThrow();
    expect(verify(await direct(page(GAME, 5)))!.body).toEqual((await direct(page(GAME, 5))).body);

    // Another game's uncommon read still upgrades (its first renders the game).
    const b = await directRun(page(games[0], 1));
    expect(b.update).toBeDefined();
    expect(json(b.r).data.totalEntries).toBe(1);
    // A query racing the counts gets its update anyway: past the bound it answers live, renders nothing.
    const raced = await directUpdate(page(GAME, 101));
    expect(raced.status).toBe(200);
    expect(raced.body).toEqual({
        ok: true,
        data: await c.ok('read_board', { gameId: GAME, boardId: 'all-time', limit: 1000, offset: 101 }),
    });
    expect((await directRun(page(GAME, 101))).r.status).toBe(429); // not kept

    // The total bound: two more games up to their bound, and then a game not rendered yet is answered
    // live by the query, deliberately uncertified (no answer of its path is certified, so that verifies).
    for (let offset = 2; offset <= UPGRADES_PER_GAME_PER_MINUTE; offset++) await direct(page(games[0], offset));
    for (let offset = 1; offset <= UPGRADES_PER_MINUTE - 2 * UPGRADES_PER_GAME_PER_MINUTE - 1; offset++)
        expect((await directRun(page(games[1], offset))).update).toBeDefined();
    const d = await directRun(page(games[2], 1));
    expect(d.update).toBeUndefined();
    expect(d.r.status).toBe(200);
    expect(verify(d.r)).toBeUndefined(); // verified as deliberately uncertified
    expect(json(d.r)).toEqual({
        ok: true,
        data: await c.ok('read_board', { gameId: games[2], boardId: 'all-time', limit: 1000, offset: 1 }),
    });

    // A new minute allows upgrades again.
    await c.advance(60_000);
    const again = await directRun(page(GAME, 100));
    expect(again.update).toBeDefined();
    expect(again.r.status).toBe(200);
    expect(verify(await direct(page(GAME, 100)))!.body).toEqual(again.r.body);

    // What a refused upgrade costs against an upgrade (metered instructions).
    process.stdout.write(
        `upgraded read: query ${upgraded.query} + update ${upgraded.update}; refused: query ${refused.query}; ` +
            `raced update past the bound ${raced.instructions}; live answer of a game not rendered ${d.query}\n`,
    );
    expect(refused.query).toBeLessThan(upgraded.update!);
});

test('the archive stats are certified, and a rollover of a watched game renders them again', async () => {
    const url = `/games/${GAME}/archives/stats`;
    // A minute before the next UTC midnight, a direct read watches the game; then midnight passes.
    const dayMs = 86_400_000;
    const nowMs = Number(c.replica.time() / 1_000_000n);
    await c.advance(dayMs - (nowMs % dayMs) - 60_000);
    await direct(`/games/${GAME}/scoreboards/all-time?limit=7&offset=1`);
    const before = json(await direct(url)).data;
    const daily = (data: any): { archiveCount: number; latestPeriodEnd: number } =>
        data.byScoreboard.find((b: { scoreboardId: string }) => b.scoreboardId === 'daily');
    await c.advance(2 * 60_000);
    await render(); // the rollover tick marked it dirty; the next render tick renders it
    const midnightNs = (Math.floor(nowMs / dayMs) + 1) * dayMs * 1_000_000;
    const after = await direct(url);
    expect(verify(after)!.body).toEqual(after.body); // the certified snapshot, rendered by the timer
    expect(json(after)).toEqual({ ok: true, data: await c.ok('archive_stats', { gameId: GAME }) });
    expect(daily(json(after).data)).toEqual({
        scoreboardId: 'daily',
        archiveCount: daily(before).archiveCount + 1,
        latestPeriodEnd: midnightNs,
    });
    expect(json(after).data.totalArchives).toBeGreaterThan(before.totalArchives);
});

test('the raw domain is answered live by the query: never upgraded, never rendered, free of certificates', async () => {
    const other = 'raw-game';
    const submitTo = await otherGame(other, 'dev-3');
    await submitTo('dev_1700000000_0000abcd', 42);
    const updates = (): number => c.replica.executions().filter((e) => e.method.endsWith('http_request_update')).length;
    const before = updates();
    const url = `/games/${other}/scoreboards/all-time?limit=10`;
    const raw = await rawDirect(url);
    expect(raw.status).toBe(200);
    expect(header(raw, 'ic-certificate')).toBeUndefined();
    expect(json(raw)).toEqual({
        ok: true,
        data: await c.ok('read_board', { gameId: other, boardId: 'all-time', limit: 10 }),
    });
    // A page on the certifying domain would be an update; on the raw domain it is the query's own answer.
    expect((await rawDirect(`/games/${other}/scoreboards/all-time?limit=1000&offset=0`)).status).toBe(200);
    expect(updates()).toBe(before);
    // The game is not watched: its path is still unrendered, a change costs no render.
    expect(wouldUpgrade(url)).toBe(true);
    await submitTo('dev_1700000000_0000abce', 43);
    await render();
    expect(wouldUpgrade(url)).toBe(true);
    expect(json(await rawDirect(url)).data.totalEntries).toBe(2); // live: no window
});

test('under a stream of submits a read path is rendered at most once per window, and shows each change within one', async () => {
    const other = 'busy-game';
    const submitOther = await otherGame(other, 'dev-3');
    const submitTo = (n: number): Promise<void> => submitOther(`dev_1700000000_${n.toString(16).padStart(8, '0')}`, n);
    await submitTo(1);
    const url = `/games/${other}/scoreboards/all-time?limit=10`;
    await direct(url); // read: rendered by an update, kept fresh while read
    const seen = new Set<number>();
    let last = 1;
    // Three windows of a submit every 3 s of canister time, reading after each.
    for (let second = 3; second <= 3 * DIRECT_READ_WINDOW_SECONDS; second += 3) {
        await submitTo(++last);
        await c.advance(3000);
        const r = await direct(url);
        expect(verify(r)!.body).toEqual(r.body);
        seen.add(json(r).data.totalEntries);
    }
    // At most one new certified answer per window (plus the first).
    expect(seen.size).toBeLessThanOrEqual(4);
    expect(seen.size).toBeGreaterThanOrEqual(3);
    await render();
    const settled = await direct(url);
    expect(json(settled).data.totalEntries).toBe(last);
    expect(json(settled).data.entries[0].score).toBe(last);
    // Only the path read was rendered: the same board at another limit, the board list and other boards were not.
    for (const path of [
        `/games/${other}/scoreboards/all-time`,
        `/games/${other}/scoreboards/all-time?limit=25`,
        `/games/${other}/scoreboards`,
        `/games/${other}/scoreboards/daily?limit=10`,
    ])
        expect({ path, upgrade: wouldUpgrade(path) }).toEqual({ path, upgrade: true });
});

test('a lowest-first board and a cumulative board are certified as today, in their order and with their totals', async () => {
    const gameId = 'kinds-game';
    const { apiKey: key } = await c.ok('admin_register_game', { developerId: 'dev-kinds', gameId, name: gameId });
    await c.ok('admin_create_board', { gameId, scoreboardId: 'laps', type: 'targeted', sortOrder: 'asc' });
    await c.ok('admin_create_board', { gameId, scoreboardId: 'coins', type: 'targeted', operator: 'sum' });
    const send = async (playerId: string, scoreboardId: string, score: number): Promise<void> => {
        const [result] = await c.ok('submit_scores', {
            submits: [{ apiKey: key, gameId, playerId, score, streak: 0, scoreboardId }],
        });
        expect(result).toMatchObject({ ok: {} });
    };
    /** The board's direct read (rendered by its first read), verified and the same as read_board; its scores. */
    const certified = async (boardId: string): Promise<number[]> => {
        const url = `/games/${gameId}/scoreboards/${boardId}?limit=10`;
        let r = await direct(url);
        if (header(r, 'ic-certificate') === undefined) r = await direct(url);
        expect(verify(r)!.body).toEqual(r.body);
        expect(json(r)).toEqual({ ok: true, data: await c.ok('read_board', { gameId, boardId, limit: 10 }) });
        return json(r).data.entries.map((e: { score: number }) => e.score);
    };
    await send('dev_1700000000_0000aa01', 'laps', 61_000);
    await send('dev_1700000000_0000aa02', 'laps', 59_000);
    await send('dev_1700000000_0000aa01', 'coins', 5);
    await send('dev_1700000000_0000aa02', 'coins', 7);
    expect(await certified('laps')).toEqual([59_000, 61_000]);
    expect(await certified('coins')).toEqual([7, 5]);
    // A faster lap moves its player up; more coins add up: shown certified after the render window.
    await c.advance(3000);
    await send('dev_1700000000_0000aa01', 'laps', 58_000);
    await send('dev_1700000000_0000aa01', 'coins', 6);
    await render();
    expect(await certified('laps')).toEqual([58_000, 59_000]);
    expect(await certified('coins')).toEqual([11, 7]);
});
