// A game of 1,500 players (BACKUP_PLAYERS to change it: docs/backups.md's figures are of 5,000) backed up through the dashboard and
// imported with the admin CLI into another service: every page of the download and every chunk
// of the import stays far inside a message's instruction limit (metered by the replica), and
// the file's size and call counts are printed for docs/backups.md.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { BACKUP_PAGE_PLAYERS } from '../../contract/backup';
import { LIMITS } from '../../replica/subnet';
import { admin, adminEnv, dashboardHeaders, startService } from '../support/gateway';
import { tempDir } from '../support/replica';

type Service = Awaited<ReturnType<typeof startService>>;

const G = 'big-game';
const N = Number(process.env.BACKUP_PLAYERS ?? 1_500);
const sha = (token: string): string => createHash('sha256').update(token).digest('hex');

let a: Service;
let b: Service;
let headers: Record<string, string>;
const saved = { ...process.env };

beforeAll(async () => {
    [a, b] = await Promise.all([startService(), startService()]);
    const { sessionToken } = await a.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'ada', email: 'ada@test', provider: 'test' },
    });
    const sessionHash = sha(sessionToken);
    headers = dashboardHeaders(a.signIn.secret, sessionToken);
    const { apiKey } = await a.canister.ok('dev_register_game', { sessionHash, gameId: G, name: 'Big' });
    await a.canister.ok('dev_create_board', { sessionHash, gameId: G, scoreboardId: 'laps', type: 'targeted' });
    for (let from = 0; from < N; from += 100) {
        const submits = Array.from({ length: Math.min(100, N - from) }, (_, k) => {
            const i = from + k;
            const player = { apiKey, gameId: G, playerId: `player_${i}`, streak: i % 13 };
            return [
                { ...player, score: (i * 7919) % 100_003, nickname: i % 10 === 0 ? `Big${i}` : undefined },
                { ...player, score: i, scoreboardId: 'laps', metadata: { car: `c${i % 7}`, lap: i } },
            ];
        }).flat();
        const replies = await a.canister.ok('submit_scores', { submits });
        expect(replies.every((r) => 'ok' in r)).toBe(true);
    }
    Object.assign(process.env, adminEnv(b));
}, 600_000);
afterAll(async () => {
    process.env = saved;
    await Promise.all([a?.stop(), b?.stop()]);
});

const most = (
    runs: Array<{ method: string; instructions: bigint }>,
    method: string,
): { calls: number; max: bigint } => {
    const mine = runs.filter((e) => e.method.endsWith(` ${method}`));
    return { calls: mine.length, max: mine.reduce((m, e) => (e.instructions > m ? e.instructions : m), 0n) };
};

test(`${N} players go out page by page and in chunk by chunk, each call far inside its limit`, async () => {
    const from = a.replica.executions().length;
    const res = await a.request('GET', `/dashboard/api/games/${G}/backup`, { headers });
    expect(res.status).toBe(200);
    const pages = most(a.replica.executions().slice(from), 'dev_backup_game');
    // The game, its counters and archives (none here) open the first page.
    expect(pages.calls).toBe(Math.ceil(N / BACKUP_PAGE_PLAYERS));
    expect(pages.max).toBeLessThan(LIMITS.query / 4n);
    const file = path.join(tempDir('backup-size'), 'big.jsonl');
    fs.writeFileSync(file, res.text);

    const before = b.replica.executions().length;
    const imported = await admin('import-game', file);
    expect(imported).toMatchObject({ gameId: G, players: N });
    const chunks = most(b.replica.executions().slice(before), 'admin_import_chunk');
    expect(chunks.max).toBeLessThan(LIMITS.update / 4n);
    const end = most(b.replica.executions().slice(before), 'admin_import_end');
    console.log(
        `backup of ${N} players: ${Buffer.byteLength(res.text)} bytes; ${pages.calls} dev_backup_game pages, at most ` +
            `${pages.max} instructions; ${chunks.calls} admin_import_chunk calls, at most ${chunks.max}; ` +
            `admin_import_end ${end.max}`,
    );
    const top = async (s: Service, key: string) =>
        (
            await s.request('GET', `/games/${G}/scoreboards/laps?limit=100&offset=${N - 100}`, {
                headers: { 'X-API-Key': key },
            })
        ).body;
    const { apiKey } = (await a.canister.ok('admin_list_games', {})).find((g) => g.gameId === G)!;
    expect(await top(b, imported.apiKey)).toEqual(await top(a, apiKey));
}, 600_000);

test(`the operator's backup of the whole single canister restores into another single canister`, async () => {
    const { apiKey } = (await a.canister.ok('admin_list_games', {})).find((g) => g.gameId === G)!;
    Object.assign(process.env, adminEnv(a));
    const dir = path.join(tempDir('backup-size-operator'), 'all');
    const made = await admin('backup', dir);
    expect(made.games).toEqual([expect.objectContaining({ gameId: G, players: N })]);
    Object.assign(process.env, adminEnv(b));
    // b holds the game imported above under another key: replaced (its records purged on b's timers).
    const ticking = setInterval(() => void b.replica.advanceTime(30_000).catch(() => undefined), 200);
    try {
        const restored = await admin('restore', dir, '--replace');
        expect(restored.games).toEqual([{ gameId: G, canisterId: b.canisterId.toText(), players: N }]);
    } finally {
        clearInterval(ticking);
    }
    const page = async (s: Service) =>
        (
            await s.request('GET', `/games/${G}/scoreboards/laps?limit=100&offset=${N - 100}`, {
                headers: { 'X-API-Key': apiKey },
            })
        ).body;
    for (let tries = 0; tries < 50; tries++) {
        if ((await b.request('GET', '/leaderboard?limit=1', { headers: { 'X-API-Key': apiKey } })).status === 200)
            break;
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await page(b)).toEqual(await page(a));
    // Ada, who signed in on a, is b's developer of the game now, signed in as she was.
    expect((await b.request('GET', '/dashboard/api/me', { headers })).body).toMatchObject({
        ok: true,
        data: { games: [expect.objectContaining({ gameId: G, apiKey })] },
    });
}, 600_000);
