// Players' reports and the moderation queue on the service's rules: who may report and what
// counts (one per reporter and entry, one per client address, banned reporters ignored, caps per
// reporter and per game), the queue's order, and the developer's actions clearing items and logging.
import { readEvents } from '../../../canister/service/events';
import { ban, moderationLog } from '../../../canister/service/moderation';
import { actOnReport, reportDetail, reportEntry, reportQueue } from '../../../canister/service/reports';
import { readBoard } from '../../../canister/service/reads';
import { REPORT_LIMITS } from '../../../contract/reports';
import { purgeSome } from '../../../canister/service/developers';
import { failure, harness, harnessWith, key, moveGame, present, withReader, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'report-game';
const OTHER = 'report-other';
const game = (h: Harness, gameId = G) => h.games.get(gameId)!;

/** A player with an entry on the game's boards (a chosen nickname unless `nickname` is undefined). */
function play(h: Harness, playerId: string, score: number, nickname: string | null = playerId, gameId = G) {
    h.advance(3);
    const [reply] = submitBatch(h, {
        submits: [{ gameId, apiKey: key(h, gameId), playerId, score, streak: 1, nickname: nickname ?? undefined }],
    });
    expect(reply).toMatchObject({ ok: {} });
}

const report = (h: Harness, by: string, nickname: string, extra: Record<string, unknown> = {}) =>
    reportEntry(h, {
        gameId: G,
        apiKey: key(h, G),
        playerId: by,
        scoreboardId: 'all-time',
        nickname,
        reason: 'cheating',
        ...extra,
    });
const queue = (h: Harness) => present(reportQueue(h, game(h), {})).items;
const RECEIVED = { message: 'Report received. Thank you.' };

function setup(reporters = 3): Harness {
    const h = harnessWith(G, OTHER);
    play(h, 'cheater', 9_999_999, 'Cheater');
    play(h, 'honest', 100, 'Honest');
    for (let i = 0; i < reporters; i++) play(h, `r${i}`, 10 + i, `Rep${i}`);
    return h;
}

test('a report counts once per reporter and entry: repeats change nothing but the reason and text', () => {
    const h = setup();
    withReader(h, G);
    expect(report(h, 'r0', 'Cheater', { text: 'aimbot <b>' })).toEqual(RECEIVED);
    expect(report(h, 'r0', 'Cheater', { reason: 'exploit', text: 'wall clip' })).toEqual(RECEIVED);
    expect(report(h, 'r0', 'Cheater')).toEqual(RECEIVED);
    expect(queue(h)).toEqual([
        expect.objectContaining({
            playerId: 'cheater',
            scoreboardId: 'all-time',
            nickname: 'Cheater',
            reporters: 1,
            reasons: { cheating: 1 },
        }),
    ]);
    const events = readEvents(h, G, 0).events.filter((e) => e.kind === 'entry_reported');
    expect(events).toEqual([
        expect.objectContaining({
            kind: 'entry_reported',
            playerId: 'cheater',
            reportedBy: 'r0',
            nickname: 'Cheater',
            reason: 'cheating',
            reporters: 1,
        }),
    ]);
});

test('50 reports from one client address, each with a new player id, are one reporter', () => {
    const h = setup(50);
    for (let i = 0; i < 50; i++) expect(report(h, `r${i}`, 'Cheater', { client: '203.0.113.7' })).toEqual(RECEIVED);
    expect(queue(h)[0]).toMatchObject({ playerId: 'cheater', reporters: 1 });
    report(h, 'honest', 'Cheater', { client: '198.51.100.1' });
    expect(queue(h)[0]).toMatchObject({ reporters: 2 });
});

test("a banned reporter's reports are answered alike and kept nowhere", () => {
    const h = setup();
    withReader(h, G);
    ban(h, game(h), { playerId: 'r0' });
    const before = readEvents(h, G, 0).latest;
    expect(report(h, 'r0', 'Cheater')).toEqual(RECEIVED);
    expect(queue(h)).toEqual([]);
    expect(readEvents(h, G, 0).latest).toBe(before);
});

test('a reporter reports at most 20 new entries a UTC day (repeats are free); the next day again', () => {
    const h = harnessWith(G, OTHER);
    play(h, 'snitch', 1, 'Snitch');
    for (let i = 0; i < 21; i++) play(h, `p${i}`, 100 + i, `Pl${i}`);
    for (let i = 0; i < REPORT_LIMITS.perReporterPerDay; i++) expect(report(h, 'snitch', `Pl${i}`)).toEqual(RECEIVED);
    expect(report(h, 'snitch', 'Pl0', { reason: 'other' })).toEqual(RECEIVED);
    const refused = failure(() => report(h, 'snitch', 'Pl20'));
    expect(refused).toEqual({ status: 429, message: 'A player may report at most 20 entries a day' });
    expect(queue(h)).toHaveLength(20);
    h.advance(86_400);
    expect(report(h, 'snitch', 'Pl20')).toEqual(RECEIVED);
    expect(queue(h)).toHaveLength(21);
});

test('the queue lists entries by distinct reporters, then the latest report first, a page at a time', () => {
    const h = setup(4);
    play(h, 'sus', 5000, 'Sus');
    play(h, 'odd', 4000, 'Odd');
    report(h, 'r0', 'Odd');
    h.advance(1);
    report(h, 'r0', 'Sus');
    for (const r of ['r1', 'r2', 'r3']) report(h, r, 'Cheater');
    h.advance(1);
    report(h, 'r1', 'Sus', { reason: 'impossible_score' });
    expect(queue(h).map((i) => [i.nickname, i.reporters])).toEqual([
        ['Cheater', 3],
        ['Sus', 2],
        ['Odd', 1],
    ]);
    expect(present(reportQueue(h, game(h), { offset: 1, limit: 1 }))).toMatchObject({
        total: 3,
        offset: 1,
        items: [{ nickname: 'Sus', reasons: { cheating: 1, impossible_score: 1 } }],
    });
});

test('an entry with a default name is found by the rank the reporter saw', () => {
    const h = setup();
    play(h, 'anon', 777, null);
    const entry = present(readBoard(h, { gameId: G, boardId: 'all-time', limit: 10 })).entries.find(
        (e) => e.score === 777,
    )!;
    expect(entry.nickname).toMatch(/^Player_\d+$/);
    expect(failure(() => report(h, 'r0', entry.nickname))).toEqual({
        status: 404,
        message: `No entry named '${entry.nickname}' on this board`,
    });
    expect(report(h, 'r0', entry.nickname, { rank: entry.rank + 3 })).toEqual(RECEIVED);
    expect(queue(h)[0]).toMatchObject({ playerId: 'anon', nickname: entry.nickname });
});

test('bad reports are refused with what is wrong, and change nothing', () => {
    const h = setup();
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
        [{ scoreboardId: 'nope' }, 404, /nope/],
        [{ nickname: 'Nobody' }, 404, "No entry named 'Nobody' on this board"],
        [{ nickname: '<script>' }, 400, /Nickname/],
        [{ reason: 'spite' }, 400, /Invalid reason: must be one of cheating/],
        [{ text: 'x'.repeat(201) }, 400, 'Invalid text: must be text of at most 200 characters'],
        [{ rank: 0 }, 400, /Invalid rank/],
        [{ playerId: 'stranger' }, 404, /Player not found/],
        [{ nickname: 'Rep0' }, 400, 'A player cannot report their own entry'],
        [{ apiKey: key(h, OTHER) }, 401, 'Invalid API key'],
    ];
    for (const [extra, status, message] of cases) {
        const f = failure(() => report(h, 'r0', 'Cheater', extra));
        expect(f.status).toBe(status);
        expect(f.message).toMatch(message);
    }
    // Another game's player with its own key names only that game's entries.
    play(h, 'b1', 5, 'Bee', OTHER);
    const otherGame = failure(() =>
        reportEntry(h, {
            gameId: OTHER,
            apiKey: key(h, OTHER),
            playerId: 'b1',
            scoreboardId: 'all-time',
            nickname: 'Cheater',
            reason: 'cheating',
        }),
    );
    expect(otherGame).toEqual({ status: 404, message: "No entry named 'Cheater' on this board" });
    expect(queue(h)).toEqual([]);
});

test('dismiss, remove and ban each clear the item, act, and are logged', () => {
    const h = setup();
    play(h, 'sus', 5000, 'Sus');
    report(h, 'r0', 'Cheater', { text: 'speedhack' });
    report(h, 'r1', 'Cheater');
    report(h, 'r0', 'Sus');
    report(h, 'r0', 'Honest');
    const detail = present(reportDetail(h, game(h), { playerId: 'cheater', scoreboardId: 'all-time' }));
    expect(detail).toMatchObject({
        item: { reporters: 2 },
        entry: { scoreboardId: 'all-time', rank: 1, score: 9_999_999 },
        banned: false,
        reports: [
            { playerId: 'r1', reason: 'cheating' },
            { playerId: 'r0', reason: 'cheating', text: 'speedhack' },
        ],
    });
    expect(detail.entries.map((e) => e.scoreboardId).sort()).toEqual(['all-time', 'daily', 'weekly']);

    expect(actOnReport(h, game(h), { playerId: 'honest', scoreboardId: 'all-time', action: 'dismiss' })).toEqual({
        message: "Dismissed the reports of Honest's entry.",
    });
    actOnReport(h, game(h), { playerId: 'sus', scoreboardId: 'all-time', action: 'remove' });
    actOnReport(h, game(h), { playerId: 'cheater', scoreboardId: 'all-time', action: 'ban' });
    expect(queue(h)).toEqual([]);
    expect(present(moderationLog(h, game(h), {})).map((e) => [e.action, e.playerId])).toEqual([
        ['ban', 'cheater'],
        ['remove-entry', 'sus'],
        ['dismiss-report', 'honest'],
    ]);
    const board = present(readBoard(h, { gameId: G, boardId: 'all-time', limit: 10 }));
    expect(board.entries.map((e) => e.nickname)).not.toContain('Sus');
    h.advance(3);
    const banned = submitBatch(h, {
        submits: [{ gameId: G, apiKey: key(h, G), playerId: 'cheater', score: 1, streak: 1 }],
    });
    expect(banned[0]).toMatchObject({ err: { status: 403 } });
    expect(
        failure(() => actOnReport(h, game(h), { playerId: 'cheater', scoreboardId: 'all-time', action: 'dismiss' })),
    ).toMatchObject({ status: 404 });
    report(h, 'r1', 'Honest');
    expect(
        failure(() => actOnReport(h, game(h), { playerId: 'honest', scoreboardId: 'all-time', action: 'nuke' })),
    ).toEqual({ status: 400, message: 'Invalid action: must be one of dismiss, remove, ban' });
    expect(queue(h)).toHaveLength(1);
});

test('a full queue (1,000 entries) drops its oldest single-reported entry for a new one; with none, 429', () => {
    const h = harnessWith(G, OTHER);
    const n = REPORT_LIMITS.openPerGame;
    for (let i = 0; i <= n; i++) play(h, `p${i}`, 1000 + i, `Pl${i}`);
    const per = REPORT_LIMITS.perReporterPerDay;
    for (let r = 0; r * per < n; r++) {
        play(h, `rep${r}`, 1, `Rep${r}`);
        for (let i = r * per; i < Math.min(n, (r + 1) * per); i++) {
            h.advance(1);
            report(h, `rep${r}`, `Pl${i}`);
        }
    }
    expect(present(reportQueue(h, game(h), {})).total).toBe(n);
    play(h, 'late', 1, 'Late');
    report(h, 'late', 'Pl1'); // a second reporter: Pl1 stays whatever comes
    expect(report(h, 'late', `Pl${n}`)).toEqual(RECEIVED);
    const page = present(reportQueue(h, game(h), { limit: 200 }));
    expect(page.total).toBe(n);
    expect(page.items[0]).toMatchObject({ nickname: 'Pl1', reporters: 2 });
    expect(page.items[1]).toMatchObject({ nickname: `Pl${n}`, reporters: 1 });
    expect(failure(() => reportDetail(h, game(h), { playerId: 'p0', scoreboardId: 'all-time' }))).toMatchObject({
        status: 404,
    });
    // Every item with two reporters: nothing makes room.
    const full = harnessWith(G, OTHER);
    for (let i = 0; i <= n; i++) play(full, `p${i}`, 1000 + i, `Pl${i}`);
    for (let r = 0; r * per < 2 * n; r++) {
        play(full, `rep${r}`, 1, `Rep${r}`);
        for (let k = 0; k < per; k++) report(full, `rep${r}`, `Pl${(r * per + k) % n}`);
    }
    expect(present(reportQueue(full, full.games.get(G)!, {})).items.at(-1)).toMatchObject({ reporters: 2 });
    play(full, 'fresh', 1, 'Fresh');
    expect(failure(() => report(full, 'fresh', `Pl${n}`))).toEqual({
        status: 429,
        message: "This game's report queue is full: reports of further entries wait for its moderators",
    });
});

test("a moved game's queue and reporters' days come along; the source keeps none of it", () => {
    const h = setup();
    play(h, 'snitch', 1, 'Snitch');
    for (let i = 0; i < 19; i++) play(h, `x${i}`, 100 + i, `Ex${i}`);
    for (let i = 0; i < 19; i++) report(h, 'snitch', `Ex${i}`);
    report(h, 'r0', 'Cheater', { text: 'wallhack' });
    report(h, 'r1', 'Cheater');
    const before = present(reportQueue(h, game(h), {}));
    const dst = harness();
    dst.time = h.time;
    moveGame(h, dst, G, 'rrkah-fqaaa-aaaaa-aaaaq-cai');
    expect(present(reportQueue(dst, dst.games.get(G)!, {}))).toEqual(before);
    expect(
        present(reportDetail(dst, dst.games.get(G)!, { playerId: 'cheater', scoreboardId: 'all-time' })).reports,
    ).toEqual([
        expect.objectContaining({ playerId: 'r1' }),
        expect.objectContaining({ playerId: 'r0', text: 'wallhack' }),
    ]);
    // The snitch's 20th entry of the day there, and no 21st.
    expect(
        reportEntry(dst, {
            gameId: G,
            apiKey: key(dst, G),
            playerId: 'snitch',
            scoreboardId: 'all-time',
            nickname: 'Honest',
            reason: 'other',
        }),
    ).toEqual(RECEIVED);
    expect(
        failure(() =>
            reportEntry(dst, {
                gameId: G,
                apiKey: key(dst, G),
                playerId: 'snitch',
                scoreboardId: 'all-time',
                nickname: 'Rep2',
                reason: 'other',
            }),
        ),
    ).toMatchObject({ status: 429 });
    while (purgeSome(h, 1000));
    expect(h.store.reports.size()).toBe(0);
    expect(h.store.reportQueues.size()).toBe(0);
});
