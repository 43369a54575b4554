// `npm start` as a new user runs it: a child process on free ports with a fresh data
// directory prints the demo key; a submit and a leaderboard read work with it; Ctrl-C stops
// it cleanly; starting again finds the data. The data directory is the owner's alone. The
// README's configuration variables reach the gateway it starts (TRUST_PROXY, GATEWAY_SECRET).
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

import * as jose from 'jose';

import { sealKey } from '../../gateway/sign-in/sealed-cookie';
import { loosen, openModes, tempDir } from '../support/replica';
import { npmStart, type NpmStart } from '../support/npm-start';
import { scrape, value } from '../support/metrics';

/** Ctrl-C, and a clean stop. */
async function stop(s: NpmStart): Promise<void> {
    await s.stop();
    expect(s.output()).toMatch(/Stopping/);
    expect(s.output()).not.toMatch(/failed|Error/);
}

test('npm start: fresh data directory, demo game, submit, read, Ctrl-C, restart with the data kept', async () => {
    const dataDir = tempDir('npm-start');
    const first = await npmStart(dataDir);
    expect(first.output()).toMatch(/Demo game ID:\s+demo-game/);
    expect(first.output()).toMatch(/curl -X POST/);
    const headers = { 'X-API-Key': first.apiKey, 'Content-Type': 'application/json' };
    const submit = await fetch(`${first.url}/scores`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ playerId: 'dev_1700000000_a1b2c3d4', gameId: 'demo-game', score: 4321, streak: 5 }),
    });
    expect(await submit.json()).toEqual({ ok: true, data: { message: expect.any(String) } });
    const board = await (await fetch(`${first.url}/leaderboard?limit=10`, { headers })).json();
    expect(board.data.leaderboard[0]).toMatchObject({ rank: 1, score: 4321, streak: 5 });
    // Player sign-in works out of the box: the link page lists the built-in provider, whose
    // discovery document is served where the banner says.
    const idp = /local accounts at (\S+)\)/.exec(first.output())?.[1];
    expect(idp).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const discovery = await (await fetch(`${idp}/.well-known/openid-configuration`)).json();
    expect(discovery.issuer).toBe(idp);
    const started = await (
        await fetch(`${first.url}/auth/device/code`, {
            method: 'POST',
            headers: { 'X-Game-ID': 'demo-game', 'Content-Type': 'application/json' },
            body: '{}',
        })
    ).json();
    const page = await (await fetch(started.data.verification_url_complete)).text();
    expect(page).toContain('Sign in to Demo Game (demo-game)');
    expect(page).toContain(started.data.user_code);
    // The demo game's reaction game and its lowest-first board, on the client's browser bundle.
    expect(first.output()).toMatch(/Demo game:\s+\S+\/demo/);
    const demo = await fetch(`${first.url}/demo`);
    expect(demo.headers.get('content-security-policy')).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
    expect(await demo.text()).toContain('data-board-id="reaction"');
    expect((await fetch(`${first.url}/client/leaderboard-client.js`)).status).toBe(200);
    const reaction = await (await fetch(`${first.url}/games/demo-game/scoreboards/reaction`, { headers })).json();
    expect(reaction).toMatchObject({ ok: true, data: { scoreboardId: 'reaction', entries: [] } });
    // Its floor: a 0 ms "reaction" (anyone holds the page's key) never takes rank 1; the page knows it.
    const zero = await fetch(`${first.url}/scores`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ playerId: 'dev_1700000000_0badf00d', scoreboardId: 'reaction', score: 0, streak: 1 }),
    });
    expect(zero.status).toBe(400);
    expect(await zero.json()).toEqual({ ok: false, error: 'Score rejected by game validation rules' });
    expect(await (await fetch(`${first.url}/demo`)).text()).toContain('data-min-score="100"');
    // The operator's view with nothing configured: /metrics with the token the banner prints, and
    // `npm run admin -- status`, one JSON line per canister.
    const token = /Authorization: Bearer (\S+)'/.exec(first.output())?.[1];
    expect(token).toMatch(/^[\w-]{32,}$/);
    expect((await fetch(`${first.url}/metrics`)).status).toBe(401);
    const metrics = await scrape(`${first.url}/metrics`, token);
    expect(value(metrics, 'leaderboard_http_requests_total', { method: 'POST', route: '/scores', status: '200' })).toBe(
        1,
    );
    expect(value(metrics, 'leaderboard_canister_up', { canister: first.directory, role: 'directory' })).toBe(1);
    const status = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', 'status'], {
        cwd: path.join(__dirname, '..', '..'),
        env: { ...process.env, DATA_DIR: dataDir },
    });
    const lines = status.stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.map((line) => JSON.parse(line))).toEqual([
        expect.objectContaining({ id: first.directory, role: 'directory', frozen: false, reachable: true }),
        expect.objectContaining({
            id: first.shards[0],
            role: 'shard',
            frozen: false,
            games: 1,
            cycles: expect.any(Number),
        }),
    ]);
    await stop(first);
    // Keys, emails and API keys: every file 0600, every directory 0700; looser ones (an older
    // version's) are tightened by the next start.
    expect(openModes(dataDir)).toEqual([]);
    loosen(dataDir);

    const second = await npmStart(dataDir);
    expect(openModes(dataDir)).toEqual([]);
    try {
        expect(second.apiKey).toBe(first.apiKey);
        expect(second.output()).toContain(`Authorization: Bearer ${token}'`);
        const again = await (
            await fetch(`${second.url}/leaderboard?limit=10`, { headers: { 'X-API-Key': second.apiKey } })
        ).json();
        expect(again.data).toEqual({
            leaderboard: [expect.objectContaining({ rank: 1, score: 4321, streak: 5 })],
            total: 1,
        });
        const boards = await (
            await fetch(`${second.url}/games/demo-game/scoreboards`, { headers: { 'X-API-Key': second.apiKey } })
        ).json();
        expect(boards.data.scoreboards.filter((b: any) => b.scoreboardId === 'reaction')).toHaveLength(1);
    } finally {
        await stop(second);
    }
}, 600_000);

/** Device codes started for the demo game as a proxy on loopback names the client `address`. */
async function deviceCodes(url: string, address: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
        const res = await fetch(`${url}/auth/device/code`, {
            method: 'POST',
            headers: { 'X-Game-ID': 'demo-game', 'X-Forwarded-For': address, 'Content-Type': 'application/json' },
            body: '{}',
        });
        statuses.push(res.status);
    }
    return statuses;
}

/** The dashboard's sign-in flow cookie, opened with `secret`'s key (throws when sealed with another). */
async function flowCookie(url: string, secret: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${url}/dashboard/sign-in`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'provider=local',
        redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const sealed = /lb_dev_flow=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const key = sealKey(new Uint8Array(Buffer.from(secret)), 'dashboard flow');
    return (await jose.jwtDecrypt(sealed, key)).payload;
}

test('npm start with SHARDS=2: a directory and two shards, kept across a restart; the demo game plays on one', async () => {
    const dataDir = tempDir('npm-start-shards');
    // Behind a proxy on this machine, with the secret every gateway of a deployment shares.
    const secret = 'npm-start-test-secret-0123456789-abcdefgh';
    const logs = { CANISTER_LOGS: '1' };
    const first = await npmStart(dataDir, { SHARDS: '2', TRUST_PROXY: 'loopback', GATEWAY_SECRET: secret, ...logs });
    const shards = first.shards;
    expect(first.output()).toMatch(/\[shards\] uploading the shard wasm/);
    const headers = { 'X-API-Key': first.apiKey, 'Content-Type': 'application/json' };
    try {
        const directory = first.directory;
        expect(shards).toHaveLength(2);
        expect(shards).not.toContain(directory);
        const submit = await fetch(`${first.url}/scores`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ playerId: 'dev_1700000000_a1b2c3d4', gameId: 'demo-game', score: 177, streak: 1 }),
        });
        expect(submit.status).toBe(200);
        const stats = await (await fetch(`${first.url}/stats`)).json();
        expect(stats.data.total).toBe(1);
        // TRUST_PROXY: the forwarded address is the client the device-code cap counts (10 each).
        expect(await deviceCodes(first.url, '203.0.113.7', 11)).toEqual([...new Array(10).fill(200), 503]);
        expect(await deviceCodes(first.url, '203.0.113.8', 1)).toEqual([200]);
        // GATEWAY_SECRET seals the sign-in flow's cookie.
        expect(await flowCookie(first.url, secret)).toMatchObject({ provider: 'local' });
    } finally {
        await stop(first);
    }
    const second = await npmStart(dataDir, { SHARDS: '2', ...logs });
    try {
        expect(second.shards).toEqual(shards);
        // The shards run the wasm they were given: nothing uploaded again, nothing upgraded.
        expect(second.output()).not.toMatch(/\[shards\]/);
        expect(second.apiKey).toBe(first.apiKey);
        const board = await (await fetch(`${second.url}/leaderboard?limit=10`, { headers })).json();
        expect(board.data.leaderboard[0]).toMatchObject({ rank: 1, score: 177 });
    } finally {
        await stop(second);
    }
}, 600_000);
