// A game exported from one service's dashboard and imported into another with the admin CLI
// reads there as it did here (every board by pages, archives after a rollover, profiles,
// ranks), under a new API key; the download is its developer's alone and holds no account,
// session or key; a file changed on its way is refused and changes nothing. An operator's backup
// of the game (with its keys) goes back whole; a restore cut short resumes or aborts.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Ed25519KeyIdentity } from '@dfinity/identity';
import type { Principal } from '@dfinity/principal';

import type { Method } from '../../contract/canister';
import type { CanisterClient } from '../../gateway/ic/canister';
import { readConfig, resolveCanister } from '../../gateway/ops/config';
import { loadIdentity } from '../../gateway/ic/identity';
import { restoreService } from '../../gateway/backups/restore';
import { DEFAULT_STACK, admin, adminEnv, dashboardHeaders, startService, type TestResponse } from '../support/gateway';
import { callAs, tempDir } from '../support/replica';

type Service = Awaited<ReturnType<typeof startService>>;

const G = 'carried-game';
const DAY_MS = 86_400_000;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

let a: Service;
let b: Service;
let apiKey: string;
let ada: Record<string, string>;
let signedIn: { token: string; playerId: string };
const saved = { ...process.env };

/** A developer's dashboard credentials (signing in again gives a fresh session). */
async function developer(
    s: Service,
    subject: string,
): Promise<{ headers: Record<string, string>; sessionHash: string }> {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject, email: `${subject}@dev.example`, provider: 'test' },
    });
    return { headers: dashboardHeaders(s.signIn.secret, sessionToken), sessionHash: sha(sessionToken) };
}

beforeAll(async () => {
    [a, b] = await Promise.all([startService(DEFAULT_STACK), startService(DEFAULT_STACK)]);
    const dev = await developer(a, 'ada');
    apiKey = (await a.canister.ok('dev_register_game', { sessionHash: dev.sessionHash, gameId: G, name: 'Carried' }))
        .apiKey;
    const board = (scoreboardId: string, options: Record<string, unknown>) =>
        a.request('POST', `/dashboard/api/games/${G}/boards`, {
            headers: dev.headers,
            body: { scoreboardId, ...options },
        });
    expect((await board('laps', { type: 'targeted', sortOrder: 'asc', format: { kind: 'milliseconds' } })).status).toBe(
        200,
    );
    expect((await board('month', { type: 'monthly' })).status).toBe(200);
    expect((await board('sprint', { type: 'custom', days: 7 })).status).toBe(200);
    const key = { 'X-API-Key': apiKey };
    const submit = async (body: Record<string, unknown>, headers: Record<string, string> = key) => {
        const res = await a.request('POST', '/scores', { headers, body: { gameId: G, ...body } });
        expect(res.body).toMatchObject({ ok: true });
    };
    for (let i = 0; i < 24; i++) {
        const playerId = `dev_1700000000_${String(i).padStart(8, '0')}`;
        await submit({ playerId, score: 100 + ((i * 37) % 500), streak: i % 6 });
        await submit({
            playerId,
            score: 60_000 - i * 91,
            streak: 0,
            scoreboardId: 'laps',
            metadata: { car: `c${i % 3}` },
        });
        if (i % 4 === 0)
            expect(
                (
                    await a.request('PUT', `/players/${playerId}/nickname`, {
                        headers: key,
                        body: { nickname: `Racer${i}` },
                    })
                ).status,
            ).toBe(200);
    }
    const first = 'dev_1700000000_00000001';
    expect(
        (
            await a.request('POST', '/achievements', {
                headers: key,
                body: { playerId: first, achievementIds: ['lap', 'podium'] },
            })
        ).status,
    ).toBe(200);
    expect(
        (
            await a.request('PUT', `/dashboard/api/games/${G}/bans/dev_1700000000_00000002`, {
                headers: dev.headers,
                body: { reason: 'cheat' },
            })
        ).status,
    ).toBe(200);
    const alice = await a.signInPlayer(G, 'alice', 'Alice');
    await submit({ score: 777, streak: 2 }, { 'X-Session-Token': alice.token, 'X-Game-ID': G });
    const { playerId } = await a.canister.ok('resolve_session', { gameId: G, sessionHash: sha(alice.token) });
    signedIn = { token: alice.token, playerId };
    // Periods close on the replica's clock: the weekly, daily and sprint boards archive.
    await a.replica.advanceTime(8 * DAY_MS);
    await submit({ playerId: 'dev_1700000000_00000005', score: 9_000, streak: 1 });
    ada = (await developer(a, 'ada')).headers;
    // The second service's clock where the first's is: both read the same periods.
    await b.replica.setTime(a.replica.time());
    Object.assign(process.env, adminEnv(b));
}, 600_000);
afterAll(async () => {
    process.env = saved;
    await Promise.all([a?.stop(), b?.stop()]);
});

const download = (s: Service, headers: Record<string, string>, gameId = G): Promise<TestResponse> =>
    s.request('GET', `/dashboard/api/games/${gameId}/backup`, { headers });

/** What players and games read of the game through a service's gateway. */
async function everyRead(s: Service, key: string): Promise<unknown> {
    const get = async (p: string): Promise<unknown> => {
        const res = await s.request('GET', p, { headers: { 'X-API-Key': key } });
        expect(res.status).toBe(200);
        return res.body;
    };
    const out: Record<string, unknown> = {
        leaderboard: await get('/leaderboard?sort=score&limit=100'),
        streaks: await get('/leaderboard?sort=streak&limit=100'),
        boards: await get(`/games/${G}/scoreboards`),
        archiveStats: await get(`/games/${G}/archives/stats`),
    };
    for (const id of ['all-time', 'weekly', 'daily', 'laps', 'month', 'sprint']) {
        const archives = await get(`/games/${G}/scoreboards/${id}/archives`);
        const ids = [...JSON.stringify(archives).matchAll(/"archiveId":"([^"]+)"/g)].map((m) => m[1]);
        out[id] = {
            top: await get(`/games/${G}/scoreboards/${id}?limit=100`),
            page: await get(`/games/${G}/scoreboards/${id}?limit=5&offset=5`),
            archives,
            each: await Promise.all(ids.map((archiveId) => get(`/games/${G}/scoreboards/${id}/archives/${archiveId}`))),
        };
    }
    const players = ['00000000', '00000001', '00000002', '00000004', '00000005'].map((n) => `dev_1700000000_${n}`);
    out.players = await Promise.all(
        players.map(async (id) => [await get(`/players/${id}/profile`), await get(`/players/${id}/rank?sort=score`)]),
    );
    return out;
}

test('a game downloaded from the dashboard and imported with the admin CLI reads the same on the other service', async () => {
    const res = await download(a, ada);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jsonl/);
    expect(res.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="${G}_backup_\\d{4}-\\d\\d-\\d\\d\\.jsonl"$`),
    );
    const file = path.join(tempDir('backup-file'), 'carried.jsonl');
    fs.writeFileSync(file, res.text);
    const before = await everyRead(a, apiKey);

    const imported = await admin('import-game', file);
    expect(imported).toMatchObject({ gameId: G, developerId: 'operator', players: 25, canisterId: b.shards[0] });
    expect(imported.apiKey).toMatch(new RegExp(`^key_${G}_\\d+$`));
    expect(imported.apiKey).not.toBe(apiKey);
    expect(await everyRead(b, imported.apiKey)).toEqual(before);
    // The old key is nothing there; the game plays on with the new one.
    expect((await b.request('GET', '/leaderboard', { headers: { 'X-API-Key': apiKey } })).status).toBe(401);
    const next = await b.request('POST', '/scores', {
        headers: { 'X-API-Key': imported.apiKey },
        body: { gameId: G, playerId: 'dev_1700000000_99999999', score: 50_000, streak: 1 },
    });
    expect(next.body).toMatchObject({ ok: true });
    // Twice is refused by name, and changes nothing.
    await expect(admin('import-game', file)).rejects.toThrow(`Game ID '${G}' is already taken.`);
});

test('the file holds no emails, identities, sessions or keys, and only its developer downloads it', async () => {
    const res = await download(a, ada);
    // Open CORS without credentials: another site's page cannot read a developer's download.
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const text = res.text;
    expect(text).toContain(`"${signedIn.playerId}"`);
    for (const secret of [
        'ada@dev.example',
        'alice@example.com',
        'https://idp.test',
        '"alice"',
        signedIn.token,
        sha(signedIn.token),
        apiKey,
        'sessionHash',
    ])
        expect(text).not.toContain(secret);
    const eve = await developer(a, 'eve');
    expect((await download(a, eve.headers)).body).toEqual({ ok: false, error: 'Game not found among your games' });
    expect((await download(a, {})).status).toBe(401);
    expect((await download(a, ada, 'bad.id')).status).toBe(400);
});

test('a file changed on its way is refused before anything is imported', async () => {
    const text = (await download(a, ada)).text.replaceAll(G, 'other-game');
    const dir = tempDir('backup-bad');
    const write = (name: string, body: string): string => {
        fs.writeFileSync(path.join(dir, name), body);
        return path.join(dir, name);
    };
    await expect(admin('import-game', write('edited.jsonl', text))).rejects.toThrow(/corrupt/);
    const lines = text.split('\n');
    await expect(admin('import-game', write('cut.jsonl', lines.slice(0, 5).join('\n')))).rejects.toThrow(/cut short/);
    await expect(admin('import-game', write('v9.jsonl', text.replace('"version":1', '"version":9')))).rejects.toThrow(
        /version 9 is not supported/,
    );
    const games = (await admin('list-games')).map((g: { gameId: string }) => g.gameId);
    expect(games).not.toContain('other-game');
});

/** `lines` (header and records) as a file with a trailer that matches them: what an attacker can make. */
function signed(lines: string[]): string {
    const body = lines.map((line) => `${line}\n`).join('');
    return `${body}${JSON.stringify({ end: true, items: lines.length - 1, sha256: sha(body) })}\n`;
}

test('a crafted file with a matching trailer writes into no other game and leaves it as it was', async () => {
    const victim = await admin('create-game', 'victim-game', '--developer', 'mallory-target');
    const key = { 'X-API-Key': victim.apiKey };
    const player = 'dev_1700000000_00000003';
    expect(
        (
            await b.request('POST', '/scores', {
                headers: key,
                body: { gameId: 'victim-game', playerId: player, score: 5, streak: 0 },
            })
        ).status,
    ).toBe(200);
    const readVictim = async () => [
        (await b.request('GET', `/players/${player}/profile`, { headers: key })).body,
        (await b.request('GET', '/leaderboard?limit=100', { headers: key })).body,
    ];
    const before = await readVictim();
    const lines = (await download(a, ada)).text.trimEnd().split('\n').slice(0, -1);
    const dir = tempDir('backup-crafted');
    const write = (name: string, body: string): string => {
        fs.writeFileSync(path.join(dir, name), body);
        return path.join(dir, name);
    };
    // The whole game renamed to the victim's id: refused by name.
    const renamed = lines.map((line) => line.replaceAll(G, 'victim-game'));
    await expect(admin('import-game', write('renamed.jsonl', signed(renamed)))).rejects.toThrow(
        "Game ID 'victim-game' is already taken.",
    );
    // One record keyed into the victim's game, under a fresh id: refused, nothing of it stays.
    const fresh = lines.map((line) => line.replaceAll(G, 'fresh-game'));
    const at = fresh.findIndex((line) => line.startsWith('["achievements"'));
    fresh[at] = fresh[at].replace('"fresh-game/', '"victim-game/');
    await expect(admin('import-game', write('into.jsonl', signed(fresh)))).rejects.toThrow(
        /is not of game 'fresh-game'/,
    );
    // A score past the rules, and an unknown kind of record: refused.
    const big = lines.map((line) => line.replaceAll(G, 'fresh-game').replace(/"score":\d+/, '"score":1e300'));
    await expect(admin('import-game', write('big.jsonl', signed(big)))).rejects.toThrow(/Invalid score/);
    const session = [...fresh.slice(0, 3), '["session","x",{"gameId":"victim-game"}]'];
    await expect(admin('import-game', write('session.jsonl', signed(session)))).rejects.toThrow(
        /unknown kind 'session'/,
    );
    expect(await readVictim()).toEqual(before);
    const games = (await admin('list-games')).map((g: { gameId: string }) => g.gameId);
    expect(games).not.toContain('fresh-game');
    // The right file still goes in afterwards: the refusals left nothing behind.
    const clean = lines.map((line) => line.replaceAll(G, 'fresh-game'));
    expect(await admin('import-game', write('clean.jsonl', signed(clean)))).toMatchObject({
        gameId: 'fresh-game',
        players: 25,
    });
});

/** The operator's client of `s`'s directory whose shards drop the first `move_in_end` (the connection lost). */
async function cutAtActivation(s: Service): Promise<CanisterClient> {
    Object.assign(process.env, adminEnv(s));
    const real = await resolveCanister(readConfig(), 'operator');
    let cut = false;
    const faulty = (client: CanisterClient): CanisterClient =>
        Object.assign(Object.create(client) as CanisterClient, {
            relay: (method: Method, request: unknown) => {
                if (method === 'move_in_end' && !cut) {
                    cut = true;
                    return Promise.reject(new Error('connection lost'));
                }
                return client.relay(method, request as never);
            },
            forCanister: (id: Principal) => faulty(real.forCanister!(id)),
        });
    return faulty(real);
}

test("an operator's backup of one game: refused where it is held, --replace; a restore cut short resumes or aborts", async () => {
    Object.assign(process.env, adminEnv(a));
    const dir = path.join(tempDir('operator-backup'), 'one-game');
    const made = await admin('backup', dir, '--game', G);
    expect(made.games).toEqual([expect.objectContaining({ gameId: G, players: 25 })]);
    const before = await everyRead(a, apiKey);
    Object.assign(process.env, adminEnv(b));
    // b holds the game imported above: refused by name, nothing changes.
    await expect(admin('restore', dir, '--game', G)).rejects.toThrow(`The target already holds '${G}'`);
    expect((await admin('list-games')).map((g: { gameId: string }) => g.gameId)).toContain(G);
    // --replace: b's copy is deleted (its id free once purged: b's timers run meanwhile), the
    // import stops before activation...
    const log = (): void => undefined;
    const ticking = setInterval(() => void b.replica.advanceTime(30_000).catch(() => undefined), 200);
    try {
        await expect(restoreService(dir, await cutAtActivation(b), { game: G, replace: true, log })).rejects.toThrow(
            'connection lost',
        );
        expect(fs.readdirSync(dir).filter((f) => f.startsWith('restore-'))).toHaveLength(1);
        // ... --abort drops the half import (b's copy was deleted: the game is nowhere there) ...
        expect(await admin('restore', dir, '--abort')).toMatchObject({ aborted: [G] });
        expect((await b.request('GET', '/leaderboard', { headers: { 'X-API-Key': apiKey } })).status).toBe(401);
        // ... cut short again, a second run goes on from where it was.
        await expect(restoreService(dir, await cutAtActivation(b), { game: G, log })).rejects.toThrow(
            'connection lost',
        );
        const done = await admin('restore', dir, '--game', G);
        expect(done).toMatchObject({ games: [expect.objectContaining({ gameId: G })] });
    } finally {
        clearInterval(ticking);
    }
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('restore-'))).toEqual([]);
    // Whole, under its own key (once the gateway's 5 s memory of it as unknown passed): the
    // service it came from read the same.
    for (let tries = 0; tries < 50; tries++) {
        if ((await b.request('GET', '/leaderboard', { headers: { 'X-API-Key': apiKey } })).status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await everyRead(b, apiKey)).toEqual(before);
});

test('a crafted backup signs nobody in as a developer the target has: only the developers it creates get its sessions', async () => {
    Object.assign(process.env, adminEnv(b));
    const dir = path.join(tempDir('operator-crafted'), 'crafted');
    fs.mkdirSync(dir, { recursive: true });
    const now = Number(b.replica.time() / 1000n); // µs, on the replica's clock
    // Tokens as the canister hands them out (43 characters of base64url).
    const stolen = 'S'.repeat(43);
    const newcomer = 'N'.repeat(43);
    const session = (developerId: string) => ({ developerId, createdAt: now, renewedAt: now, expiresAt: now + 3600e6 });
    const lines = [
        ['developers', 'newcomer', { developerId: 'newcomer', allowance: 3, gameIds: [], email: 'new@dev.example' }],
        ['developers', 'operator', { developerId: 'operator', allowance: 99, gameIds: [] }],
        ['developerKeys', 'https://evil.example\nme', 'operator'],
        ['developerSessions', sha(stolen), session('operator')],
        ['developerSessions', sha(newcomer), session('newcomer')],
    ];
    const directory = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
    fs.writeFileSync(path.join(dir, 'directory.jsonl'), directory);
    const manifest = {
        format: 'leaderboard-service-backup',
        version: 1,
        createdAt: new Date().toISOString(),
        directory: 'aaaaa-aa',
        shards: [],
        games: [],
        files: [{ name: 'directory.jsonl', bytes: Buffer.byteLength(directory), sha256: sha(directory) }],
    };
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(await admin('restore', dir)).toMatchObject({ directoryRecords: { written: 2, kept: 1 } });
    const me = (token: string) =>
        b.request('GET', '/dashboard/api/me', { headers: dashboardHeaders(b.signIn.secret, token) });
    expect((await me(stolen)).status).toBe(401);
    expect((await me(newcomer)).body).toMatchObject({
        ok: true,
        data: { developer: { developerId: 'newcomer' } },
    });
});

test("an operator's backup methods answer operators only: strangers and the service's own gateway get 403", async () => {
    const stranger = Ed25519KeyIdentity.generate().getPrincipal();
    const gateway = loadIdentity(b.gatewayIdentityFile).getPrincipal();
    const calls: Array<[string, unknown]> = [
        ['admin_backup_records', { table: 'developers' }],
        ['admin_restore_records', { table: 'developers', records: [] }],
        ['admin_delete_game', { gameId: G, confirm: G }],
        ['move_out_begin', { gameId: G, backup: true }],
    ];
    for (const canister of [b.canisterId.toText(), ...b.shards])
        for (const caller of [stranger, gateway])
            for (const [method, request] of calls)
                expect({ method, reply: await callAs(b.replica, caller, canister, method, request) }).toEqual({
                    method,
                    reply: { err: expect.objectContaining({ status: 403 }) },
                });
    // Nothing happened: the game is still there.
    expect((await admin('list-games')).map((g: { gameId: string }) => g.gameId)).toContain(G);
});
