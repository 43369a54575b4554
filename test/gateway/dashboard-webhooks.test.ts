// The dashboard API's webhook endpoints: a developer's own game only (another's is 404, no
// session 401, a write without the CSRF token 403), the secret answered once, URLs checked
// against the address policy where they are saved, and pause/resume/delete.
import { createHash } from 'node:crypto';

import { startService, dashboardHeaders } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let ada: Record<string, string>;
let bob: Record<string, string>;

async function developer(subject: string, gameId: string): Promise<Record<string, string>> {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject, email: `${subject}@test`, provider: 'test' },
    });
    await s.canister.ok('dev_register_game', {
        sessionHash: createHash('sha256').update(sessionToken).digest('hex'),
        gameId,
        name: gameId,
    });
    return dashboardHeaders(s.signIn.secret, sessionToken);
}

beforeAll(async () => {
    s = await startService();
    ada = await developer('ada', 'ada-game');
    bob = await developer('bob', 'bob-game');
});
afterAll(() => s.stop());

const api = (method: string, path: string, body?: unknown, h: Record<string, string> = ada) =>
    s.request(method, `/dashboard/api/games${path}`, { headers: h, body });

test('add answers the secret once; list, update, pause, resume and delete', async () => {
    const added = await api('POST', '/ada-game/webhooks', {
        url: 'https://hooks.example.com/in',
        kinds: ['new_leader', 'period_closed'],
    });
    expect(added.status).toBe(200);
    const { webhook, secret } = added.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toMatchObject({
        webhookId: expect.stringMatching(/^whk_[0-9a-f]{16}$/),
        url: 'https://hooks.example.com/in',
        kinds: ['new_leader', 'period_closed'],
        state: 'active',
        pending: 0,
        attempts: [],
    });
    const listed = await api('GET', '/ada-game/webhooks');
    expect(listed.body).toEqual({ ok: true, data: [webhook] });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const id = webhook.webhookId;
    const paused = await api('PUT', `/ada-game/webhooks/${id}`, { paused: true });
    expect(paused.body.data).toMatchObject({ state: 'paused', pausedReason: 'by the developer' });
    const changed = await api('PUT', `/ada-game/webhooks/${id}`, {
        paused: false,
        url: 'https://other.example.com/x',
        kinds: ['overtaken'],
    });
    expect(changed.body.data).toMatchObject({
        state: 'active',
        url: 'https://other.example.com/x',
        kinds: ['overtaken'],
    });
    expect(JSON.stringify(changed.body)).not.toContain(secret);

    expect((await api('DELETE', `/ada-game/webhooks/${id}`)).body).toEqual({
        ok: true,
        data: { message: expect.stringContaining('deleted') },
    });
    expect((await api('GET', '/ada-game/webhooks')).body).toEqual({ ok: true, data: [] });
    expect((await api('DELETE', `/ada-game/webhooks/${id}`)).status).toBe(404);
});

test("another developer's game and endpoints are 404; no session 401; no CSRF token 403", async () => {
    const { webhook } = (
        await api('POST', '/ada-game/webhooks', { url: 'https://a.example.com/', kinds: ['overtaken'] })
    ).body.data;
    const id = webhook.webhookId;
    for (const [method, path, body] of [
        ['GET', '/ada-game/webhooks', undefined],
        ['POST', '/ada-game/webhooks', { url: 'https://b.example.com/', kinds: ['overtaken'] }],
        ['PUT', `/ada-game/webhooks/${id}`, { paused: true }],
        ['DELETE', `/ada-game/webhooks/${id}`, undefined],
    ] as const)
        expect((await api(method, path, body, bob)).status).toBe(404);
    // Bob's own game does not know Ada's endpoint either.
    expect((await api('PUT', `/bob-game/webhooks/${id}`, { paused: true }, bob)).status).toBe(404);
    expect((await api('GET', '/ada-game/webhooks', undefined, {})).status).toBe(401);
    expect(
        (await api('POST', '/ada-game/webhooks', { url: 'https://c.example.com/', kinds: ['overtaken'] }, {})).status,
    ).toBe(401);
    expect((await api('DELETE', `/ada-game/webhooks/${id}`, undefined, { Cookie: ada.Cookie })).status).toBe(403);
    expect((await api('GET', '/ada-game/webhooks')).body.data.map((w: { webhookId: string }) => w.webhookId)).toEqual([
        id,
    ]);
    await api('DELETE', `/ada-game/webhooks/${id}`);
});

test.each([
    [{ url: 'http://hooks.example.com/', kinds: ['overtaken'] }, 'Invalid url: must be https://'],
    [
        { url: 'https://127.0.0.1/', kinds: ['overtaken'] },
        expect.stringMatching(/^Invalid url: address 127\.0\.0\.1 is loopback/),
    ],
    // Other spellings of loopback: URL parsers read them as 127.0.0.1.
    [
        { url: 'https://2130706433/', kinds: ['overtaken'] },
        expect.stringMatching(/^Invalid url: address 127\.0\.0\.1 is loopback/),
    ],
    [
        { url: 'https://0x7f.1/', kinds: ['overtaken'] },
        expect.stringMatching(/^Invalid url: address 127\.0\.0\.1 is loopback/),
    ],
    [
        { url: 'https://169.254.169.254/latest', kinds: ['overtaken'] },
        expect.stringMatching(/^Invalid url: address 169\.254\.169\.254 is linkLocal/),
    ],
    [
        { url: 'https://[::ffff:10.0.0.1]/', kinds: ['overtaken'] },
        expect.stringMatching(/^Invalid url: address .* is private/),
    ],
    [
        { url: 'https://user:pw@hooks.example.com/', kinds: ['overtaken'] },
        expect.stringMatching(/^Invalid url: must be an https/),
    ],
    [{ url: 42, kinds: ['overtaken'] }, expect.stringMatching(/^Invalid url/)],
    [
        { url: 'https://hooks.example.com/', kinds: [] },
        expect.stringMatching(/^Invalid kinds: must be a non-empty list/),
    ],
    [{ url: 'https://hooks.example.com/', kinds: ['all'] }, expect.stringMatching(/^Invalid kinds/)],
    [{ url: 'https://hooks.example.com/' }, expect.stringMatching(/^Invalid kinds/)],
])('add %j is 400 and saves nothing', async (body, error) => {
    const res = await api('POST', '/ada-game/webhooks', body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { ok: false, error } });
    expect((await api('GET', '/ada-game/webhooks')).body.data).toEqual([]);
});

test('update checks its fields and the path id', async () => {
    const { webhook } = (
        await api('POST', '/ada-game/webhooks', { url: 'https://a.example.com/', kinds: ['overtaken'] })
    ).body.data;
    const id = webhook.webhookId;
    expect((await api('PUT', `/ada-game/webhooks/${id}`, { paused: 'yes' })).body.error).toBe(
        'Invalid paused: must be true or false',
    );
    expect((await api('PUT', `/ada-game/webhooks/${id}`, { url: 'https://10.1.2.3/' })).status).toBe(400);
    expect((await api('PUT', '/ada-game/webhooks/not-an-id', { paused: true })).status).toBe(400);
    expect((await api('GET', '/ada-game/webhooks')).body.data).toEqual([webhook]);
    await api('DELETE', `/ada-game/webhooks/${id}`);
});
