// The admin CLI against the running embedded service (same data directory) and, with the
// production variables, against a canister the gateway does not host; the gateway's
// production mode (IC_HOST, CANISTER_ID, GATEWAY_IDENTITY_PEM) serves the same API. The CLI
// acts as an operator (OPERATOR_IDENTITY_PEM in production): the gateway's identity is not one.
// import-game loads a game's backup file into the running service.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { runAdmin } from '../../gateway/admin';
import type { BackupPage } from '../../contract/backup';
import { backupPage } from '../../canister/service/backup';
import { developerSignIn, registerOwnGame } from '../../canister/service/developers';
import { flushCallWrites } from '../../canister/service/flush';
import { leaderboard } from '../../canister/service/reads';
import { backupWriter } from '../../gateway/backups/game-file';
import { harness, hashOf, key, person, present } from '../canister/service/harness';
import { submitBatch } from '../canister/service/submit';
import { readConfig } from '../../gateway/ops/config';
import { startGateway } from '../../gateway/main';
import { startLocal, type LocalService } from '../../local/start';
import { admin } from '../support/gateway';
import { tempDir } from '../support/replica';

let service: LocalService;
let dataDir: string;
const saved = { ...process.env };

beforeAll(async () => {
    dataDir = tempDir('admin');
    service = await startLocal(readConfig({ PORT: '0', REPLICA_PORT: '0', IDP_PORT: '0', DATA_DIR: dataDir }));
    process.env.DATA_DIR = dataDir;
});
afterAll(async () => {
    process.env = saved;
    await service.stop();
});

test('create-game prints the game and a working API key; settings and boards apply', async () => {
    const created = await admin('create-game', 'cli-game', '--name', 'CLI Game');
    expect(created).toEqual({ gameId: 'cli-game', apiKey: expect.stringMatching(/^key_cli-game_\d+$/) });
    expect(await admin('create-board', 'cli-game', 'level-1', '--type', 'targeted', '--sort', 'streak')).toMatchObject({
        scoreboardId: 'level-1',
        targeted: true,
        sortBy: 'streak',
    });
    expect(await admin('set-caps', 'cli-game', '--max-score', '500')).toEqual({ maxScore: 500 });
    expect(await admin('set-time-validation', 'cli-game', 'on', '--min-seconds', '0')).toMatchObject({ enabled: true });
    expect(await admin('set-time-validation', 'cli-game', 'off')).toMatchObject({ enabled: false });
    const games = await admin('list-games');
    expect(games.map((g: { gameId: string }) => g.gameId)).toEqual(expect.arrayContaining(['demo-game', 'cli-game']));
    const headers = { 'X-API-Key': created.apiKey, 'Content-Type': 'application/json' };
    const over = await fetch(`${service.gateway.url}/scores`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ playerId: 'p1', gameId: 'cli-game', score: 501, streak: 0 }),
    });
    expect(await over.json()).toEqual({ ok: false, error: 'Score rejected by game validation rules' });
    const log = await admin('suspicion-log', 'cli-game');
    expect(log[0]).toMatchObject({ playerId: 'p1', score: 501, reason: expect.stringMatching(/cap of 500/) });
});

test('boards take their order, operator, ties and format; the standard boards follow the game', async () => {
    await admin('create-game', 'cli-times');
    expect(
        await admin(
            'create-board',
            'cli-times',
            'lap',
            '--type',
            'targeted',
            '--order',
            'asc',
            '--operator',
            'latest',
            '--ties',
            'shared',
            '--format',
            'milliseconds',
        ),
    ).toMatchObject({ sortOrder: 'asc', operator: 'latest', ties: 'shared', format: { kind: 'milliseconds' } });
    expect(
        await admin(
            'create-board',
            'cli-times',
            'coins',
            '--type',
            'monthly',
            '--operator',
            'sum',
            '--format',
            'decimal:2',
        ),
    ).toMatchObject({ operator: 'sum', format: { kind: 'decimal', places: 2 } });
    expect(await admin('create-board', 'cli-times', 'podium', '--type', 'monthly', '--event-top', '3')).toMatchObject({
        eventTop: 3,
    });
    await expect(admin('create-board', 'cli-times', 'z', '--type', 'monthly', '--event-top', '30')).rejects.toThrow(
        /Invalid eventTop: must be a whole number from 0 to 25/,
    );
    expect(
        await admin('create-board', 'cli-times', 'by-country', '--type', 'targeted', '--filters', 'country, mode'),
    ).toMatchObject({ filters: ['country', 'mode'] });
    await expect(admin('create-board', 'cli-times', 'z', '--type', 'monthly', '--filters', 'a:b')).rejects.toThrow(
        /Invalid filters: must be a list of at most 3/,
    );
    const prizes = [{ from: 1, to: 3, reward: 'gold', amount: 10 }];
    expect(
        await admin('create-board', 'cli-times', 'cup', '--type', 'monthly', '--prizes', JSON.stringify(prizes)),
    ).toMatchObject({ prizes });
    await expect(admin('create-board', 'cli-times', 'z', '--type', 'monthly', '--prizes', '[{')).rejects.toThrow(
        /--prizes must be a JSON list of rows/,
    );
    expect(await admin('set-prizes', 'cli-times', 'weekly', JSON.stringify(prizes))).toMatchObject({ prizes });
    expect(await admin('set-prizes', 'cli-times', 'weekly', 'none')).not.toHaveProperty('prizes');
    await expect(admin('set-prizes', 'cli-times', 'all-time', JSON.stringify(prizes))).rejects.toThrow(
        /Invalid prizes: are only for boards with periods/,
    );
    expect(await admin('set-standard-boards', 'cli-times', '--order', 'asc')).toEqual({
        sortOrder: 'asc',
        operator: 'best',
    });
    await expect(admin('set-standard-boards', 'cli-times', '--order', 'desc', '--operator', 'sum')).resolves.toEqual({
        sortOrder: 'desc',
        operator: 'sum',
    });
    await expect(admin('create-board', 'cli-times', 'x', '--type', 'monthly', '--order', 'up')).rejects.toThrow(
        /Invalid sortOrder: must be desc or asc/,
    );
    await expect(admin('create-board', 'cli-times', 'y', '--type', 'monthly', '--format', 'decimal:9')).rejects.toThrow(
        /Invalid format/,
    );
    await expect(admin('set-standard-boards', 'cli-times', '--operator', 'max')).rejects.toThrow(
        /Invalid operator: must be best, latest or sum/,
    );
});

test('set-caps --min-score keeps a 0 off a lowest-first board; a human time is accepted', async () => {
    const { apiKey } = await admin('create-game', 'cli-laps');
    await admin(
        'create-board',
        'cli-laps',
        'lap-1',
        '--type',
        'targeted',
        '--order',
        'asc',
        '--format',
        'milliseconds',
    );
    await expect(admin('set-caps', 'cli-laps', '--max-score', '1000', '--min-score', '1500')).rejects.toThrow(
        'Invalid minScore: must not be above maxScore (1000)',
    );
    expect(await admin('set-caps', 'cli-laps', '--min-score', '1500')).toEqual({ minScore: 1500 });
    const headers = { 'X-API-Key': apiKey, 'Content-Type': 'application/json' };
    const lap = async (playerId: string, score: number) => {
        const res = await fetch(`${service.gateway.url}/scores`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ playerId, gameId: 'cli-laps', score, streak: 0, scoreboardId: 'lap-1' }),
        });
        return res.json();
    };
    expect(await lap('cheat', 0)).toEqual({ ok: false, error: 'Score rejected by game validation rules' });
    expect(await lap('human', 83_456)).toMatchObject({ ok: true });
    const board = await fetch(`${service.gateway.url}/games/cli-laps/scoreboards/lap-1`, { headers });
    const { data } = await board.json();
    expect(data.totalEntries).toBe(1);
    expect(data.entries.map((e: { rank: number; score: number }) => [e.rank, e.score])).toEqual([[1, 83_456]]);
    const log = await admin('suspicion-log', 'cli-laps');
    expect(log).toEqual([
        expect.objectContaining({ playerId: 'cheat', score: 0, reason: 'score 0 is below the cap of 1500' }),
    ]);
    expect(await admin('set-caps', 'cli-laps', '--min-score', 'none')).toEqual({});
});

test('the operator is not held to the 3-games default; rotate-key stops the old key', async () => {
    for (const id of ['op-1', 'op-2', 'op-3', 'op-4']) await admin('create-game', id);
    const old = (await admin('list-games')).find((g: { gameId: string }) => g.gameId === 'op-4').apiKey;
    const { apiKey } = await admin('rotate-key', 'op-4');
    expect(apiKey).not.toBe(old);
    const res = await fetch(`${service.gateway.url}/game`, { headers: { 'X-API-Key': old } });
    expect(res.status).toBe(401);
});

test('rotate-server-key prints a working server key once; set-server-only refuses the public key', async () => {
    const { apiKey } = await admin('create-game', 'cli-server');
    const { serverKey } = await admin('rotate-server-key', 'cli-server');
    expect(serverKey).toMatch(/^skey_cli-server_[A-Za-z0-9_-]{43}$/);
    expect(await admin('set-server-only', 'cli-server', 'on')).toEqual({
        gameId: 'cli-server',
        serverOnly: true,
        serverSkipsChecks: false,
    });
    const post = (headers: Record<string, string>) =>
        fetch(`${service.gateway.url}/scores`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...headers },
            body: JSON.stringify({ playerId: 'dev_1700000000_c1c1c1c1', score: 5, streak: 1 }),
        });
    expect((await post({ 'X-API-Key': apiKey })).status).toBe(403);
    expect((await post({ Authorization: `Bearer ${serverKey}` })).status).toBe(200);
    expect(await admin('set-server-only', 'cli-server', 'off', '--skip-checks', 'on')).toMatchObject({
        serverOnly: false,
        serverSkipsChecks: true,
    });
    await expect(admin('set-server-only', 'cli-server', 'maybe')).rejects.toThrow(
        /Usage: npm run admin -- set-server-only/,
    );
});

test('developers asking for more game slots are listed and approved by the operator', async () => {
    expect(await admin('list-requests')).toEqual([]);
    await expect(admin('approve-request', 'dev_nobody')).rejects.toThrow(/No request from that developer/);
});

test('bad commands and bad input fail with a message, and change nothing', async () => {
    await expect(admin('create-board', 'cli-game', 'x', '--type', 'weird')).rejects.toThrow(
        /Invalid type: must be targeted, monthly or custom/,
    );
    await expect(admin('nope')).rejects.toThrow(/Unknown command/);
    await expect(admin('create-game', 'Bad Id')).rejects.toThrow(/Invalid gameId/);
});

test('import-game loads a backup file into the npm start service, under a new key', async () => {
    // A backup as the dashboard writes it, of a game played on another service (here: natively, at this time).
    const h = harness(new Date().toISOString());
    const sessionHash = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    registerOwnGame(h, { sessionHash, gameId: 'cli-backup', name: 'Carried' });
    flushCallWrites(h);
    const submits = [1, 2, 3].map((i) => ({
        gameId: 'cli-backup',
        apiKey: key(h, 'cli-backup'),
        playerId: `p${i}`,
        score: i * 10,
        streak: i,
    }));
    submitBatch(h, { submits });
    flushCallWrites(h);
    const file = backupWriter('cli-backup', new Date());
    let text = '';
    for (let cursor: number | null = 0; cursor !== null;) {
        const page: BackupPage = present(backupPage(h, { sessionHash, gameId: 'cli-backup', cursor }));
        text += page.items.map((item) => file.line(item)).join('');
        cursor = page.next;
    }
    const where = path.join(tempDir('cli-backup'), 'cli-backup.jsonl');
    fs.writeFileSync(where, text + file.end());
    const imported = await admin('import-game', where);
    expect(imported).toMatchObject({
        gameId: 'cli-backup',
        developerId: 'operator',
        players: 3,
        canisterId: service.shards[0],
    });
    const res = await fetch(`${service.gateway.url}/leaderboard?limit=10`, {
        headers: { 'X-API-Key': imported.apiKey },
    });
    expect(((await res.json()) as { data: unknown }).data).toEqual(
        present(leaderboard(h, { gameId: 'cli-backup', limit: 10 })),
    );
});

test('production mode: the CLI and a second gateway reach the canister by IC_HOST, CANISTER_ID and the PEM', async () => {
    const production = {
        IC_HOST: service.replicaUrl!,
        CANISTER_ID: service.canister.canisterId.toText(),
        GATEWAY_IDENTITY_PEM: path.join(dataDir, 'gateway-identity.pem'),
    };
    Object.assign(process.env, production, { DATA_DIR: tempDir('elsewhere') });
    await expect(admin('create-game', 'prod-game')).rejects.toThrow(/OPERATOR_IDENTITY_PEM/);
    // The gateway's own identity is no operator: it cannot create games.
    process.env.OPERATOR_IDENTITY_PEM = production.GATEWAY_IDENTITY_PEM;
    await expect(admin('create-game', 'prod-game')).rejects.toThrow(/only for operators and controllers/);
    process.env.OPERATOR_IDENTITY_PEM = path.join(dataDir, 'operator-identity.pem');
    const created = await admin('create-game', 'prod-game');
    expect(() => readConfig({ ...production, DEMO_GAME_ID: 'prod-game' })).toThrow(/DEMO_GAME_ID and DEMO_API_KEY/);
    const demo = { DEMO_GAME_ID: 'prod-game', DEMO_API_KEY: created.apiKey };
    const gateway = await startGateway(readConfig({ ...production, ...demo, PORT: '0', DATA_DIR: tempDir('gw') }));
    try {
        const res = await fetch(`${gateway.url}/game`, { headers: { 'X-API-Key': created.apiKey } });
        expect(await res.json()).toMatchObject({ ok: true, data: { gameId: 'prod-game' } });
        // DEMO_GAME_ID and DEMO_API_KEY turn /demo on, reading the canister on the IC by default.
        const page = await fetch(`${gateway.url}/demo`);
        const canisterUrl = `https://${production.CANISTER_ID}.icp0.io`;
        expect(page.headers.get('content-security-policy')).toContain(`connect-src 'self' ${canisterUrl};`);
        expect(await page.text()).toMatch(
            new RegExp(`data-game-id="prod-game".*data-canister-url="${canisterUrl}" data-network="ic"`),
        );
    } finally {
        await gateway.close();
        process.env.DATA_DIR = dataDir;
        for (const key of [...Object.keys(production), 'OPERATOR_IDENTITY_PEM']) delete process.env[key];
    }
});

test('status prints one JSON line per canister: the directory, then its shard, with cycles and room', async () => {
    const lines: string[] = [];
    await runAdmin(['status'], (line) => lines.push(line));
    const canisters = lines.map((line) => JSON.parse(line));
    expect(canisters.map((c) => [c.id, c.role])).toEqual([
        [service.canister.canisterId.toText(), 'directory'],
        [service.shards[0], 'shard'],
    ]);
    const number = expect.any(Number);
    for (const c of canisters) {
        // The directory read the shard's cycles as soon as it created it.
        const cycles = number;
        expect(c).toEqual({
            id: c.id,
            role: c.role,
            cycles,
            burnPerDay: cycles,
            runwayDays: c.runwayDays === null ? null : number,
            frozen: false,
            reachable: true,
            heapBytes: number,
            heapLimitBytes: number,
            stableBytes: number,
            games: number,
            players: number,
            instructionsPerMinute: number,
            lastTopUp: c.lastTopUp === null ? null : { at: number, cycles: number },
        });
    }
    expect(canisters[0].cycles).toBeGreaterThan(0);
    expect(canisters[1].cycles).toBeGreaterThan(2e12);
    // npm start's demo game lives on the shard.
    expect(canisters[1].games).toBeGreaterThanOrEqual(1);
});

test('set-heap-limit moves the line past which new players are refused', async () => {
    const { apiKey } = await admin('create-game', 'cli-room');
    const submit = (playerId: string) =>
        fetch(`${service.gateway.url}/scores`, {
            method: 'POST',
            headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
            body: JSON.stringify({ playerId, gameId: 'cli-room', score: 1, streak: 0 }),
        });
    expect(await admin('set-heap-limit', '0')).toEqual({ heapLimitBytes: 0 });
    const refused = await submit('p-new');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3600');
    await expect(admin('set-heap-limit', 'lots')).rejects.toThrow(/Invalid heapLimitBytes/);
    expect(await admin('set-heap-limit', String(3 * 1024 ** 3))).toEqual({ heapLimitBytes: 3 * 1024 ** 3 });
    expect((await submit('p-new')).status).toBe(200);
});

test('move-games: nothing to move where every game is on a shard; only shards of the directory are targets', async () => {
    // npm start's directory places every game on its shard: the directory holds none.
    await admin('create-game', 'cli-placed');
    expect(await admin('move-games')).toEqual({ moved: [], finished: [], aborted: [], remaining: [] });
    expect(await admin('move-games', service.shards[0])).toEqual({
        moved: [],
        finished: [],
        aborted: [],
        remaining: [],
    });
    const directory = service.canister.canisterId.toText();
    await expect(admin('move-games', directory)).rejects.toThrow(`${directory} is not a shard of this directory`);
    await expect(admin('move-games', 'aaaaa-aa')).rejects.toThrow(/is not a shard of this directory/);
    // The release-to-shards test (test/canister/release-upgrade-shards.test.ts) runs it on games to move.
});
