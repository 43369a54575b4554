// An operator's backup and restore, end to end as one runs them: a sharded `npm start` is filled
// (a developer's game with a custom board and its archive, a webhook, a server key, a ban,
// anonymous and signed-in players with achievements and metadata), backed up with `npm run admin
// -- backup`; its data directory goes; a fresh `npm start` with one shard takes the backup with `restore`
// (refused first for the demo game it holds, then with --replace): every read is the same, the
// keys still work, the signed-in player and the developer are still signed in.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync, cpSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { runAdmin } from '../../gateway/admin';
import { npmStart, type NpmStart } from '../support/npm-start';
import { tempDir } from '../support/replica';
import { eventually } from '../support/webhooks';
import { recorder } from '../soak/record';
import { submit } from '../soak/forms';
import { registerGame, signInDeveloper, signInPlayer, type Developer } from '../soak/sign-in';

const ROOT = path.join(__dirname, '..', '..');
const SECRET = 'service-backup-test-secret-0123456789-abcdef';
const GAME = 'saved-game';

/** `npm run admin -- <args>` against the stack on `dataDir`: its exit code, stdout's JSON line and stderr. */
async function admin(dataDir: string, ...args: string[]): Promise<{ code: number; result: any; stderr: string }> {
    try {
        const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', ...args], {
            cwd: ROOT,
            env: { ...process.env, DATA_DIR: dataDir },
            maxBuffer: 64 * 1024 * 1024,
        });
        return { code: 0, result: JSON.parse(stdout.trim().split('\n').pop()!), stderr };
    } catch (e) {
        const failed = e as { code: number; stderr: string };
        return { code: failed.code, result: undefined, stderr: failed.stderr };
    }
}

/** The same command run in this process (what `npm run admin` runs, without starting Node again). */
async function adminHere(dataDir: string, ...args: string[]): Promise<{ code: number; result: any; stderr: string }> {
    const saved = process.env.DATA_DIR;
    process.env.DATA_DIR = dataDir;
    const lines: string[] = [];
    try {
        await runAdmin(args, (line) => lines.push(line));
        return { code: 0, result: JSON.parse(lines[lines.length - 1]), stderr: '' };
    } catch (e) {
        return { code: 1, result: undefined, stderr: e instanceof Error ? e.message : String(e) };
    } finally {
        if (saved === undefined) delete process.env.DATA_DIR;
        else process.env.DATA_DIR = saved;
    }
}

async function json(url: string, init: RequestInit = {}): Promise<unknown> {
    const res = await fetch(url, init);
    return { status: res.status, body: await res.json() };
}

interface Keys {
    apiKey: string;
    serverKey: string;
    demoKey: string;
    session: string;
}

/** Every read a player, a game's server and a developer make, as JSON (compared before and after). */
async function reads(s: NpmStart, k: Keys, dev: Developer): Promise<Record<string, unknown>> {
    const api = { 'X-API-Key': k.apiKey };
    const out: Record<string, unknown> = {};
    const get = async (name: string, url: string, headers: Record<string, string> = api): Promise<void> => {
        out[name] = await json(`${s.url}${url}`, { headers });
    };
    for (const limit of [1, 10, 100]) await get(`leaderboard ${limit}`, `/leaderboard?limit=${limit}`);
    await get('boards', `/games/${GAME}/scoreboards`);
    for (const board of ['all-time', 'weekly', 'daily', 'season'])
        for (const limit of [1, 25, 100])
            await get(`${board} ${limit}`, `/games/${GAME}/scoreboards/${board}?limit=${limit}`);
    await get('archives', `/games/${GAME}/scoreboards/season/archives`);
    await get('latest archive', `/games/${GAME}/scoreboards/season/archives/latest?limit=100`);
    await get('archive stats', `/games/${GAME}/archives/stats`);
    for (const player of ['p0', 'p7', 'p19', 'q3']) {
        await get(`profile ${player}`, `/players/${player}/profile?gameId=${GAME}`);
        await get(`rank ${player}`, `/players/${player}/rank?gameId=${GAME}`);
        await get(`around ${player}`, `/games/${GAME}/scoreboards/season/around?playerId=${player}`);
    }
    out.friends = await json(`${s.url}/games/${GAME}/scoreboards/all-time/players`, {
        method: 'POST',
        headers: { ...api, 'Content-Type': 'application/json' },
        body: JSON.stringify({ playerIds: ['p1', 'p3', 'p5', 'nobody'] }),
    });
    await get('session profile', '/auth/profile', { 'X-Session-Token': k.session, 'X-Game-ID': GAME });
    await get('events', '/events?after=0&limit=100', { Authorization: `Bearer ${k.serverKey}` });
    await get('demo board', '/leaderboard?limit=10', { 'X-API-Key': k.demoKey });
    await get('webhooks', `/dashboard/api/games/${GAME}/webhooks`, dev.headers);
    out.webhooks = withoutRetries(out.webhooks as { body: { data: Array<Record<string, unknown>> } });
    const me = (await json(`${s.url}/dashboard/api/me`, { headers: dev.headers })) as { body: any };
    out.me = { ...me, body: { ...me.body, data: { ...me.body.data, games: me.body.data.games.map(strip) } } };
    return out;
}

/**
 * Endpoints without their failed attempts at an address that does not resolve: the delivery loops
 * of both services retry on the real clock, as many times as the machine's pace allows.
 */
function withoutRetries(read: { body: { data: Array<Record<string, unknown>> } }): unknown {
    const still = ({
        failures: _f,
        failingSince: _s,
        nextAttemptAt: _n,
        attempts: _a,
        state,
        ...hook
    }: Record<string, unknown>) => ({
        ...hook,
        state: state === 'paused' ? state : 'delivering',
    });
    return { ...read, body: { ...read.body, data: read.body.data.map(still) } };
}

/** A game's view without what the directory notes of when it heard of it. */
const strip = ({ seenAt: _seen, ...game }: Record<string, unknown>): Record<string, unknown> => game;

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<any> {
    const res = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(answer)}`);
    return answer.data;
}

/** The developer's game with boards, an archive, a webhook, a server key, a ban and players of both kinds. */
async function fill(s: NpmStart): Promise<{ keys: Keys; dev: Developer }> {
    const rec = recorder();
    const dev = await signInDeveloper(rec, s.url, 'saver@example.com');
    const apiKey = await registerGame(rec, s.url, dev, GAME);
    const api = { 'X-API-Key': apiKey };
    const dash = `${s.url}/dashboard/api/games/${GAME}`;
    await post(`${dash}/boards`, dev.headers, { scoreboardId: 'season', name: 'Season', type: 'custom', days: 7 });
    await post(`${dash}/webhooks`, dev.headers, {
        url: 'https://hooks.example.com/leaderboard',
        kinds: ['score_submitted'],
    });
    const { serverKey } = await post(`${dash}/server-key`, dev.headers, {});
    const scores = (round: number): unknown[] =>
        Array.from({ length: 20 }, (_, i) => ({
            playerId: round === 0 ? `p${i}` : `q${i}`,
            score: 1000 + i * 37 + round * 5,
            streak: 1 + (i % 4),
            metadata: { level: `L${i % 3}`, round },
        }));
    // Each round's players submit at the same time, as players do (the gateway sends them in a
    // call or two rather than each after its wait for companions).
    const round = (entries: unknown[]): Promise<unknown[]> =>
        Promise.all(entries.map((entry) => post(`${s.url}/scores`, api, { gameId: GAME, ...(entry as object) })));
    await round([...scores(0), { playerId: 'cheater', score: 99999, streak: 1 }]);
    const ban = await fetch(`${dash}/bans/cheater`, {
        method: 'PUT',
        headers: { ...dev.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ reason: 'impossible score' }),
    });
    expect(ban.status).toBe(200);
    // The season's first period goes to the archives ("Reset board" on its page).
    const page = await dev.browser.go('board page', `${s.url}/dashboard/games/${GAME}/boards/season`);
    const reset = await submit(dev.browser, 'reset board', page, 'Reset board');
    expect(reset.status).toBe(200);
    await round(scores(1).slice(0, 12));
    for (const i of [0, 7])
        await post(`${s.url}/achievements`, api, {
            gameId: GAME,
            playerId: `p${i}`,
            achievementIds: ['first-win', 'combo'],
        });
    const player = await signInPlayer(rec, s.url, GAME, 'player-one@example.com', 'PlayerOne');
    await Promise.all([
        post(`${s.url}/scores`, player.headers, { score: 2024, streak: 3 }),
        post(`${s.url}/scores`, { 'X-API-Key': s.apiKey }, { playerId: 'demo-1', score: 4321, streak: 1 }),
    ]);
    return { keys: { apiKey, serverKey, demoKey: s.apiKey, session: player.token }, dev };
}

test('a sharded npm start backed up, its data gone, restored into a fresh one: every read the same', async () => {
    const first = tempDir('backup-first');
    const a = await npmStart(first, { SHARDS: '2', GATEWAY_SECRET: SECRET });
    let filled: { keys: Keys; dev: Developer };
    let before: Record<string, unknown>;
    const backup = path.join(tempDir('backup-files'), 'nightly');
    try {
        filled = await fill(a);
        before = await reads(a, filled.keys, filled.dev);
        // What is compared holds what was written (not the same refusals twice).
        expect(before).toMatchObject({
            'season 100': { status: 200, body: { data: { entries: expect.any(Array) } } },
            'latest archive': { status: 200 },
            'session profile': { status: 200 },
            events: { status: 200, body: { data: { events: expect.any(Array) } } },
            webhooks: { status: 200 },
            'profile p7': { status: 200 },
            friends: { status: 200 },
            'demo board': { status: 200, body: { data: { total: 1 } } },
        });
        const made = await admin(first, 'backup', backup);
        expect(made.code).toBe(0);
        expect(made.result.games.map((g: { gameId: string }) => g.gameId).sort()).toEqual(['demo-game', GAME]);
        expect(made.result.directoryRecords).toBeGreaterThan(4);
    } finally {
        await a.stop();
    }
    // Secrets and emails: every file the owner's alone.
    for (const name of ['manifest.json', 'directory.jsonl', `games/${GAME}.jsonl`])
        expect(statSync(path.join(backup, name)).mode & 0o777).toBe(0o600);
    const manifest = JSON.parse(readFileSync(path.join(backup, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'leaderboard-service-backup', version: 1, directory: a.directory });
    expect(readFileSync(path.join(backup, 'directory.jsonl'), 'utf8')).toContain('saver@example.com');
    rmSync(first, { recursive: true, force: true });

    const fresh = tempDir('backup-second');
    // Another layout: one shard where there were two.
    const b = await npmStart(fresh, { SHARDS: '1', GATEWAY_SECRET: SECRET });
    try {
        expect(b.shards).toHaveLength(1);
        // A damaged backup is refused before anything changes (the other refusals: backup-folder.test.ts).
        const damaged = path.join(tempDir('backup-damaged'), 'copy');
        cpSync(backup, damaged, { recursive: true });
        const file = path.join(damaged, 'games', `${GAME}.jsonl`);
        writeFileSync(file, readFileSync(file, 'utf8').replace('"p7"', '"p8"'));
        const corrupt = await adminHere(fresh, 'restore', damaged);
        expect(corrupt.code).not.toBe(0);
        expect(corrupt.stderr).toMatch(new RegExp(`games/${GAME}.jsonl is corrupt: its SHA-256 is [0-9a-f]{64}`));
        // --check says what a restore would do, and changes nothing.
        const check = await adminHere(fresh, 'restore', backup, '--check');
        expect(check.result).toMatchObject({ held: ['demo-game'] });
        expect(check.result.games).toHaveLength(2);
        // The fresh service's own demo game is refused by name; nothing is restored.
        const refused = await adminHere(fresh, 'restore', backup);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toMatch(/already holds 'demo-game'/);
        expect(readdirSync(backup).filter((f) => f.startsWith('restore-'))).toEqual([]);
        // (A read the comparison below makes would stay in the gateway's read cache for 30 s.)
        const own = await json(`${b.url}/leaderboard?limit=3`, { headers: { 'X-API-Key': b.apiKey } });
        expect(own).toMatchObject({ status: 200 });

        const restored = await adminHere(fresh, 'restore', backup, '--replace');
        expect(restored.stderr).toBe(restored.code === 0 ? restored.stderr : '');
        expect(restored.code).toBe(0);
        expect(restored.result.games).toHaveLength(2);
        const after = await reads(b, filled!.keys, filled!.dev);
        expect(after).toEqual(before!);
        // The fresh service's demo key went with its copy (once the gateway's 5 s memory of it
        // for reads has passed: the restore takes moments); the restored game plays on.
        await eventually(async () =>
            expect((await fetch(`${b.url}/leaderboard`, { headers: { 'X-API-Key': b.apiKey } })).status).toBe(401),
        );
        const next = await post(
            `${b.url}/scores`,
            { 'X-API-Key': filled!.keys.apiKey },
            {
                gameId: GAME,
                playerId: 'p3',
                score: 50000,
                streak: 1,
            },
        );
        expect(next).toBeDefined();
        // The feed goes on from where the backup left it.
        const latest = (before!.events as { body: { data: { latest: number } } }).body.data.latest;
        const events = (await json(`${b.url}/events?after=${latest}`, {
            headers: { Authorization: `Bearer ${filled!.keys.serverKey}` },
        })) as { body: { data: { events: Array<{ seq: number; gameId: string }> } } };
        expect(events.body.data.events[0]).toMatchObject({ seq: latest + 1, gameId: GAME });
        expect(readdirSync(backup).filter((f) => f.startsWith('restore-'))).toEqual([]);
    } finally {
        await b.stop();
    }
}, 600_000);
