// Entry metadata through the whole service: POST /scores with metadata, then every read shows
// it (gateway, the canister's own HTTP reads, the dashboard); a bad one is a 400 JSON error with
// the contract's message from the gateway and from the canister alike, and changes nothing.
// Player-controlled text: `<script>` in metadata stays inert on the page and in the JSON API.
import { createHash } from 'node:crypto';

import { startService, dashboardHeaders } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let apiKey: string;
let otherKey: string;
let cookie: Record<string, string>;
const G = 'meta-game';
const HOSTILE = { car: '<script>alert("pwned")</script>', lap: [1, 2], by: 'Zoë 🏎' };

beforeAll(async () => {
    s = await startService();
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'ada', email: 'ada@test', provider: 'test' },
    });
    ({ apiKey } = await s.canister.ok('dev_register_game', {
        sessionHash: createHash('sha256').update(sessionToken).digest('hex'),
        gameId: G,
        name: 'Metadata Game',
    }));
    otherKey = await s.game('other-game');
    cookie = dashboardHeaders(s.signIn.secret, sessionToken);
});
afterAll(() => s.stop());

const post = (body: Record<string, unknown>) =>
    s.request('POST', '/scores', { headers: { 'X-API-Key': apiKey }, body: { gameId: G, streak: 0, ...body } });
const board = async (id: string) =>
    (await s.request('GET', `/games/${G}/scoreboards/${id}`, { headers: { 'X-API-Key': apiKey } })).body.data;

test('POST /scores with metadata, then the board, around-me and the direct read show it', async () => {
    expect((await post({ playerId: 'racer_1', score: 900, metadata: { car: 'red', ghost: 'g-17' } })).status).toBe(200);
    expect((await post({ playerId: 'racer_2', score: 800 })).status).toBe(200);
    expect((await post({ playerId: 'racer_3', score: 700, metadata: HOSTILE })).status).toBe(200);
    for (const id of ['all-time', 'weekly', 'daily']) {
        const data = await board(id);
        expect(data.entries.map((e: { score: number; metadata?: unknown }) => [e.score, e.metadata])).toEqual([
            [900, { car: 'red', ghost: 'g-17' }],
            [800, undefined],
            [700, HOSTILE],
        ]);
        expect(data.entries[1]).not.toHaveProperty('metadata');
    }
    const around = await s.request('GET', `/games/${G}/scoreboards/weekly/around?playerId=racer_2&before=1&after=1`, {
        headers: { 'X-API-Key': apiKey },
    });
    expect(around.body.data.entries.map((e: { metadata?: unknown }) => e.metadata)).toEqual([
        { car: 'red', ghost: 'g-17' },
        undefined,
        HOSTILE,
    ]);
    const direct = await s.direct(`/games/${G}/scoreboards/daily`);
    expect(direct.status).toBe(200);
    expect(direct.body.data.entries[2].metadata).toEqual(HOSTILE);
    // In JSON the text is data: served as JSON, never as a page.
    expect(direct.headers.get('content-type')).toMatch(/^application\/json/);
});

test('bad metadata is a 400 JSON error with the same words from gateway and canister; nothing changes', async () => {
    const before = await board('weekly');
    const cases: Array<[unknown, string]> = [
        [['red'], 'Invalid metadata: must be a JSON object'],
        ['red', 'Invalid metadata: must be a JSON object'],
        [null, 'Invalid metadata: must be a JSON object'],
        [{ a: { b: { c: 1 } } }, 'Invalid metadata: must be nested at most 2 levels deep'],
        [{ t: 'x'.repeat(249) }, 'Invalid metadata: must be at most 256 bytes as JSON'],
        [{ t: 'ß'.repeat(125) }, 'Invalid metadata: must be at most 256 bytes as JSON'],
        [JSON.parse('{"__proto__": {"admin": true}}'), "Invalid metadata: must not have a key '__proto__'"],
        [{ t: '\u0001' }, 'Invalid metadata: must not contain control characters (U+0000 to U+001F)'],
    ];
    for (const c of cases) {
        const [metadata, message] = c;
        for (const playerId of ['racer_1', 'newcomer']) {
            const reply = await post({ playerId, score: 5000, metadata });
            expect({ metadata, status: reply.status, body: reply.body }).toEqual({
                metadata,
                status: 400,
                body: { ok: false, error: message },
            });
        }
        // The canister, called without the gateway, answers alike (inside a batch: that submit alone).
        const replies = await s.canister.ok('submit_scores', {
            submits: [
                { apiKey, gameId: G, playerId: 'newcomer', score: 5000, streak: 0, metadata },
                {
                    apiKey: otherKey,
                    gameId: 'other-game',
                    playerId: `innocent_${cases.indexOf(c)}`,
                    score: 1,
                    streak: 0,
                },
            ],
        } as never);
        expect(replies).toEqual([{ err: { status: 400, message } }, { ok: expect.anything() }]);
    }
    expect(await board('weekly')).toEqual(before);
    const newcomer = await s.request('GET', '/players/newcomer/profile', { headers: { 'X-API-Key': apiKey } });
    expect(newcomer.status).toBe(404);
});

test('the dashboard shows metadata in one column, escaped; its JSON API carries it as data', async () => {
    const page = await s.request('GET', `/dashboard/games/${G}/boards/weekly`, { headers: cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<th>Metadata</th>');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('&lt;script&gt;alert(\\&quot;pwned\\&quot;)&lt;/script&gt;');
    expect(page.text).toContain('{&quot;car&quot;:&quot;red&quot;,&quot;ghost&quot;:&quot;g-17&quot;}');
    const api = await s.request('GET', `/dashboard/api/games/${G}/boards/weekly/entries`, { headers: cookie });
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect(
        api.body.data.entries.map((e: { playerId: string; metadata?: unknown }) => [e.playerId, e.metadata]),
    ).toEqual([
        ['racer_1', { car: 'red', ghost: 'g-17' }],
        ['racer_2', undefined],
        ['racer_3', HOSTILE],
    ]);
});
