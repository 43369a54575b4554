// Review of implausible scores through the HTTP API (gateway and replica): a board with review
// 'flag' answers a submit, and shows its board, exactly as a board without it; the flagged entry
// waits in the dashboard's review queue with a score_flagged event in the feed; the verdicts;
// bad input and another developer's calls refused with nothing changed.
import { createHash } from 'node:crypto';

import { REVIEW } from '../../contract/board-options';
import { dashboardHeaders, startService } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let apiKey: string;
let serverKey: string;
let dashboard: Record<string, string>;
let intruder: Record<string, string>;
const G = 'review-http';

async function developer(subject: string): Promise<{ headers: Record<string, string>; sessionHash: string }> {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject, email: `${subject}@test`, provider: 'test' },
    });
    return {
        headers: dashboardHeaders(s.signIn.secret, sessionToken),
        sessionHash: createHash('sha256').update(sessionToken).digest('hex'),
    };
}

const api = (method: string, path: string, body?: unknown, headers = dashboard) =>
    s.request(method, `/dashboard/api/games/${G}${path}`, { headers, body });
const player = (n: number): string => `dev_1700000000_${n.toString(16).padStart(8, '0')}`;

async function submit(playerId: string, score: number, scoreboardId: string): Promise<unknown> {
    const res = await s.request('POST', '/scores', {
        headers: { 'X-API-Key': apiKey },
        body: { gameId: G, playerId, score, streak: 0, scoreboardId },
    });
    return res.body;
}
const board = async (id: string) =>
    (await s.request('GET', `/games/${G}/scoreboards/${id}?limit=5`, { headers: { 'X-API-Key': apiKey } })).body.data;
const feed = async (after: number) =>
    (await s.request('GET', `/events?after=${after}`, { headers: { Authorization: `Bearer ${serverKey}` } })).body.data;

beforeAll(async () => {
    s = await startService();
    const owner = await developer('reviewer');
    dashboard = owner.headers;
    intruder = (await developer('intruder')).headers;
    apiKey = (await s.canister.ok('dev_register_game', { sessionHash: owner.sessionHash, gameId: G, name: 'Review' }))
        .apiKey;
    serverKey = (await api('POST', '/server-key')).body.data.serverKey;
    const flagged = await api('POST', '/boards', {
        scoreboardId: 'flagged',
        name: 'Levels',
        type: 'targeted',
        review: { mode: 'flag' },
    });
    expect(flagged.body.data).toMatchObject({ scoreboardId: 'flagged', review: { mode: 'flag', factor: 2 } });
    const plain = await api('POST', '/boards', { scoreboardId: 'plain', name: 'Levels', type: 'targeted' });
    expect(plain.body.data).not.toHaveProperty('review');
    for (let i = 0; i < REVIEW.minEntries; i++)
        for (const id of ['flagged', 'plain']) await submit(player(i), 100 + i, id);
});
afterAll(() => s.stop());

test("a flagged submit's answer and its board read exactly as a board's without review; the entry waits for review", async () => {
    await s.replica.advanceTime(6000); // past the rate window of the setup's submits
    await s.canister.agent.syncTime();
    const after = (await feed(0)).latest;
    const onPlain = await submit(player(0), 5000, 'plain');
    const onFlagged = await submit(player(0), 5000, 'flagged');
    expect(onFlagged).toEqual(onPlain);
    expect(onFlagged).toEqual({ ok: true, data: { message: 'Score submitted: new personal best!' } });
    expect(await board('flagged')).toEqual({ ...(await board('plain')), scoreboardId: 'flagged' });
    expect((await board('flagged')).entries[0]).toMatchObject({ rank: 1, score: 5000 });
    const queue = await api('GET', '/review');
    expect(queue.status).toBe(200);
    expect(queue.body.data).toEqual([
        {
            scoreboardId: 'flagged',
            playerId: player(0),
            nickname: 'Player_1',
            kind: 'flagged',
            score: 5000,
            streak: 0,
            first: 119,
            at: expect.any(Number),
        },
    ]);
    const events = (await feed(after)).events.filter((e: { kind: string }) => e.kind === 'score_flagged');
    expect(events).toEqual([
        expect.objectContaining({ kind: 'score_flagged', scoreboardId: 'flagged', playerId: player(0), first: 119 }),
    ]);
});

test('bad verdicts, other boards and another developer are refused and change nothing', async () => {
    const before = (await api('GET', '/review')).body.data;
    const path = `/review/flagged/${player(0)}`;
    expect((await api('POST', path, { action: 'approve' })).body).toEqual({
        ok: false,
        error: 'Invalid action: a flagged score takes dismiss, remove, ban',
    });
    expect((await api('POST', path, { action: 'pardon' })).body).toEqual({
        ok: false,
        error: 'Invalid action: must be dismiss, remove, ban, approve, reject',
    });
    expect((await api('POST', path, {})).status).toBe(400);
    expect((await api('POST', `/review/plain/${player(0)}`, { action: 'remove' })).status).toBe(404);
    expect((await api('POST', `/review/nope/${player(0)}`, { action: 'remove' })).status).toBe(404);
    expect((await api('POST', '/review/flagged/bad%20id', { action: 'remove' })).status).toBe(400);
    expect((await api('POST', path, { action: 'remove' }, intruder)).status).toBe(404);
    expect((await api('GET', '/review', undefined, intruder)).status).toBe(404);
    expect((await api('GET', '/review?limit=0')).status).toBe(400);
    for (const review of [
        'flag',
        { mode: 'hold', factor: 0 },
        { mode: 'flag', factor: 1 },
        { mode: 'off', factor: 2 },
    ]) {
        const res = await api('PUT', '/boards/plain', { review });
        expect(res.body).toEqual({
            ok: false,
            error: "Invalid review: must be { mode: 'off' } or { mode: 'flag' | 'hold', factor?: 1.1-1000 }",
        });
    }
    expect((await api('GET', '/review')).body.data).toEqual(before);
    expect((await board('flagged')).entries[0]).toMatchObject({ score: 5000 });
});

test('remove takes the flagged entry off its board, logs it and records score_reviewed', async () => {
    const after = (await feed(0)).latest;
    const res = await api('POST', `/review/flagged/${player(0)}`, { action: 'remove' });
    expect(res.body).toEqual({ ok: true, data: { message: "Removed Player_1's flagged entry from Levels." } });
    expect((await api('GET', '/review')).body.data).toEqual([]);
    expect((await board('flagged')).entries[0]).toMatchObject({ rank: 1, score: 119 });
    expect((await board('flagged')).totalEntries).toBe(REVIEW.minEntries - 1);
    const log = (await api('GET', '/moderation-log?limit=1')).body.data;
    expect(log).toEqual([expect.objectContaining({ action: 'review-remove', scoreboardId: 'flagged' })]);
    expect(
        (await feed(after)).events
            .filter((e: { kind: string }) => e.kind === 'score_reviewed')
            .map((e: { verdict: string }) => e.verdict),
    ).toEqual(['removed']);
});
