// Ties broken by a second value through the whole service (gateway and replica): a board with
// the `tiebreak` option ranks equal scores by the submits' tiebreak (the gateway's reads and the
// canister's own HTTP reads alike), shows it in entries, keeps it by the board's operator; a board
// without the option answers exactly as before; bad values are 400s that change nothing, from
// the gateway and from the canister called directly.
import { createHash } from 'node:crypto';

import { dashboardHeaders, startService } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let apiKey: string;
const G = 'tiebreak-http';

beforeAll(async () => {
    s = await startService();
    apiKey = await s.game(G, async (canister) => {
        await canister.ok('admin_create_board', {
            gameId: G,
            scoreboardId: 'level-1',
            type: 'targeted',
            tiebreak: 'asc',
        });
        await canister.ok('admin_create_board', {
            gameId: G,
            scoreboardId: 'shared',
            type: 'targeted',
            tiebreak: 'desc',
            ties: 'shared',
        });
        await canister.ok('admin_create_board', { gameId: G, scoreboardId: 'plain', type: 'targeted' });
    });
});
afterAll(() => s.stop());

/** Moves the replica's clock past the rate and play windows (the gateway's agent follows). */
async function later(): Promise<void> {
    await s.replica.advanceTime(6000);
    await s.canister.agent.syncTime();
}

const post = (body: Record<string, unknown>) =>
    s.request('POST', '/scores', { headers: { 'X-API-Key': apiKey }, body: { gameId: G, streak: 0, ...body } });

async function submit(playerId: string, scoreboardId: string, score: number, tiebreak?: number): Promise<string> {
    const res = await post({ playerId, scoreboardId, score, ...(tiebreak === undefined ? {} : { tiebreak }) });
    expect({ status: res.status, ok: res.body?.ok }).toEqual({ status: 200, ok: true });
    return res.body.data.message;
}

type Entry = { rank: number; nickname: string; score: number; tiebreak?: number };
async function board(id: string): Promise<any> {
    const res = await s.request('GET', `/games/${G}/scoreboards/${id}`, { headers: { 'X-API-Key': apiKey } });
    expect(res.status).toBe(200);
    return res.body.data;
}
const rows = (data: { entries: Entry[] }) => data.entries.map((e) => [e.rank, e.nickname, e.score, e.tiebreak]);

test('equal scores rank by the tiebreak (asc: the faster first), an entry without one last', async () => {
    await submit('p_slow', 'level-1', 1000, 95_000);
    await submit('p_none', 'level-1', 1000);
    await submit('p_fast', 'level-1', 1000, 61_250);
    await submit('p_top', 'level-1', 1200, 99_999);
    await s.request('PUT', '/players/p_slow/nickname', {
        headers: { 'X-API-Key': apiKey },
        body: { nickname: 'Slow' },
    });
    const data = await board('level-1');
    const names = data.entries.map((e: Entry) => e.nickname);
    expect(data.entries.map((e: Entry) => [e.rank, e.score, e.tiebreak])).toEqual([
        [1, 1200, 99_999],
        [2, 1000, 61_250],
        [3, 1000, 95_000],
        [4, 1000, undefined],
    ]);
    expect(names[2]).toBe('Slow');
    expect(data.entries[3]).not.toHaveProperty('tiebreak');
    // The canister's own HTTP read: the same answer, byte for byte in JSON.
    const direct = await s.direct(`/games/${G}/scoreboards/level-1`);
    expect(direct.body.data).toEqual(data);
    // Around-me and a player's rank follow the same order.
    const around = await s.request('GET', `/games/${G}/scoreboards/level-1/around?playerId=p_slow&before=1&after=1`, {
        headers: { 'X-API-Key': apiKey },
    });
    expect(around.body.data.rank).toBe(3);
    expect(around.body.data.entries.map((e: Entry) => e.tiebreak)).toEqual([61_250, 95_000, undefined]);

    // best: the same score with a better tiebreak is a new best and moves the entry up; a worse one is not.
    await later();
    expect(await submit('p_slow', 'level-1', 1000, 60_000)).toBe('Score submitted: new personal best!');
    expect(await submit('p_fast', 'level-1', 1000, 70_000)).toBe('Score submitted.');
    expect(rows(await board('level-1')).map((r) => r[3])).toEqual([99_999, 60_000, 61_250, undefined]);
});

test('shared ties with a tiebreak: a rank is shared only when both are equal (desc: higher first)', async () => {
    await submit('s_a', 'shared', 50, 3);
    await submit('s_b', 'shared', 50, 7);
    await submit('s_c', 'shared', 50, 7);
    await submit('s_d', 'shared', 50);
    await submit('s_e', 'shared', 40, 9);
    const data = await board('shared');
    expect(data.entries.map((e: Entry) => [e.rank, e.score, e.tiebreak])).toEqual([
        [1, 50, 7],
        [1, 50, 7],
        [3, 50, 3],
        [4, 50, undefined],
        [5, 40, 9],
    ]);
    const rank = await s.request('GET', `/games/${G}/scoreboards/shared/around?playerId=s_c&before=0&after=0`, {
        headers: { 'X-API-Key': apiKey },
    });
    expect(rank.body.data.rank).toBe(1);
});

test('a board without the option ignores tiebreaks: the order and the entries are as before', async () => {
    await submit('q_1', 'plain', 10, 1);
    await submit('q_2', 'plain', 10, 0);
    await submit('q_3', 'plain', 10);
    const data = await board('plain');
    // First to reach the score ranks higher, as always; no entry shows a tiebreak.
    expect(data.entries.map((e: { score: number }) => e.score)).toEqual([10, 10, 10]);
    for (const e of data.entries)
        expect(Object.keys(e)).toEqual(['rank', 'nickname', 'score', 'streak', 'authType', 'submittedAt']);
    const around = await s.request('GET', `/games/${G}/scoreboards/plain/around?playerId=q_1&before=0&after=0`, {
        headers: { 'X-API-Key': apiKey },
    });
    expect(around.body.data.rank).toBe(1);
    // Fan-out submits with a tiebreak: the standard boards have no tiebreak and show none.
    await submit('q_1', undefined as never, 5, 3);
    const weekly = await board('weekly');
    expect(weekly.entries[0]).not.toHaveProperty('tiebreak');
});

test('bad tiebreaks are 400s with the same words from gateway and canister; nothing changes', async () => {
    const before = await board('level-1');
    const message = 'Invalid tiebreak: must be a non-negative integer no larger than 9007199254740991';
    const bad = [-1, 1.5, '12', null, 2 ** 53, true, [1], { t: 1 }];
    for (const [i, tiebreak] of bad.entries()) {
        const replies400 = await Promise.all(
            ['p_fast', 'brand_new'].map((playerId) =>
                post({ playerId, scoreboardId: 'level-1', score: 5000, tiebreak }),
            ),
        );
        for (const reply of replies400)
            expect([tiebreak, reply.status, reply.body]).toEqual([tiebreak, 400, { ok: false, error: message }]);
        const replies = await s.canister.ok('submit_scores', {
            submits: [
                { apiKey, gameId: G, playerId: 'brand_new', scoreboardId: 'level-1', score: 5000, streak: 0, tiebreak },
                { apiKey, gameId: G, playerId: `bystander_${i}`, scoreboardId: 'plain', score: 1, streak: 0 },
            ],
        } as never);
        expect(replies[0]).toEqual({ err: { status: 400, message } });
        expect(replies[1]).toHaveProperty('ok');
    }
    expect(await board('level-1')).toEqual(before);
    expect((await s.request('GET', '/players/brand_new/profile', { headers: { 'X-API-Key': apiKey } })).status).toBe(
        404,
    );
});

test('the option: only on score boards, not on standard boards, changed only while empty', async () => {
    const refused = async (method: string, req: Record<string, unknown>, status: number, error: RegExp) => {
        const reply = await s.canister.call(method as never, { gameId: G, ...req } as never);
        expect(reply).toEqual({ err: { status, message: expect.stringMatching(error) } });
    };
    await s.canister.ok('admin_create_board', { gameId: G, scoreboardId: 'busy', type: 'targeted', tiebreak: 'asc' });
    await submit('b_1', 'busy', 1, 1);
    await refused(
        'admin_create_board',
        { scoreboardId: 'streaky', type: 'targeted', sortBy: 'streak', tiebreak: 'asc' },
        400,
        /tiebreak/,
    );
    await refused(
        'admin_create_board',
        { scoreboardId: 'odd', type: 'targeted', tiebreak: 'up' },
        400,
        /Invalid tiebreak: must be asc or desc/,
    );
    await refused('admin_update_board', { scoreboardId: 'weekly', tiebreak: 'asc' }, 400, /standardBoards/);
    await refused('admin_update_board', { scoreboardId: 'busy', tiebreak: 'desc' }, 409, /has entries/);
    await refused('admin_update_board', { scoreboardId: 'busy', tiebreak: null }, 409, /has entries/);
    const listed = await s.request('GET', `/games/${G}/scoreboards`, { headers: { 'X-API-Key': apiKey } });
    expect(JSON.stringify(listed.body)).not.toContain('"tiebreak"');
    // An empty board takes one, and gives it up (null), like its order.
    await s.canister.ok('admin_create_board', { gameId: G, scoreboardId: 'later', type: 'targeted' });
    expect(
        (await s.canister.ok('admin_update_board', { gameId: G, scoreboardId: 'later', tiebreak: 'desc' })).tiebreak,
    ).toBe('desc');
    await submit('l_1', 'later', 5, 1);
    await submit('l_2', 'later', 5, 2);
    expect((await board('later')).entries.map((e: Entry) => [e.rank, e.tiebreak])).toEqual([
        [1, 2],
        [2, 1],
    ]);
    await s.canister.ok('admin_create_board', {
        gameId: G,
        scoreboardId: 'later-2',
        type: 'targeted',
        tiebreak: 'asc',
    });
    const cleared = await s.canister.ok('admin_update_board', { gameId: G, scoreboardId: 'later-2', tiebreak: null });
    expect(cleared).not.toHaveProperty('tiebreak');
});

test("the dashboard's board pages offer the option and name it in the board's line", async () => {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'tb-dev', email: 'tb@test', provider: 'test' },
    });
    const D = 'tiebreak-dash';
    const { apiKey: dashKey } = await s.canister.ok('dev_register_game', {
        sessionHash: createHash('sha256').update(sessionToken).digest('hex'),
        gameId: D,
        name: 'Tiebreak Dash',
    });
    await s.canister.ok('admin_create_board', { gameId: D, scoreboardId: 'lap', type: 'targeted', tiebreak: 'asc' });
    const cookie = dashboardHeaders(s.signIn.secret, sessionToken);
    const list = await s.request('GET', `/dashboard/games/${D}/boards`, { headers: cookie });
    expect(list.status).toBe(200);
    expect(list.text).toContain('name="tiebreak"');
    const lap = await s.request('GET', `/dashboard/games/${D}/boards/lap`, { headers: cookie });
    expect(lap.text).toContain('tiebreak lower first');
    expect(lap.text).toMatch(/<option value="asc" selected/);
    const weekly = await s.request('GET', `/dashboard/games/${D}/boards/weekly`, { headers: cookie });
    expect(weekly.text).not.toContain('name="tiebreak"');
    // The CSV export has a tiebreak column on such a board only (empty for an entry without one).
    for (const [playerId, tiebreak] of [
        ['d_1', 42],
        ['d_2', undefined],
    ] as const) {
        const body = { gameId: D, playerId, score: 7, streak: 0, scoreboardId: 'lap', tiebreak };
        expect((await s.request('POST', '/scores', { headers: { 'X-API-Key': dashKey }, body })).status).toBe(200);
    }
    const csv = async (boardId: string) =>
        (await s.request('GET', `/dashboard/api/games/${D}/boards/${boardId}/export`, { headers: cookie })).text;
    const lines = (await csv('lap')).replace('\ufeff', '').trim().split('\r\n');
    expect(lines[0]).toBe('rank,playerId,nickname,score,tiebreak,streak,metadata,submittedAt');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 5))).toEqual([
        ['1', 'd_1', expect.any(String), '7', '42'],
        ['2', 'd_2', expect.any(String), '7', ''],
    ]);
    expect((await csv('weekly')).split('\r\n')[0]).not.toContain('tiebreak');
});
