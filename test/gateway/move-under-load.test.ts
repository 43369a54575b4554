// A game of 6,000 players in `npm test`, two staging calls (MOVE_PLAYERS=100000 for a large
// game: ~20 minutes on 2 cores, too long for the suite's budget) moved to another canister while players
// submit through a real gateway: every acknowledged write (200) is on the target afterwards,
// every refused one got 503 with Retry-After (or `moved` once the game is gone), none is lost;
// and what each move message costs (metered instructions), printed.
import { Ed25519KeyIdentity } from '@dfinity/identity';

import { MESSAGES } from '../../contract/messages';
import { MOVE_RETRY_AFTER_SECONDS } from '../../contract/shards';
import { connectCanister } from '../../gateway/ic/canister';
import { ensureIdentity } from '../../gateway/ic/identity';
import { moveGame } from '../../gateway/ops/move-game';
import { initArgFor } from '../../local/install';
import { leaderboardWasm } from '../support/canister';
import { startService, type TestService } from '../support/gateway';

const G = 'big-game';
const PLAYERS = Number(process.env.MOVE_PLAYERS ?? 6_000);
const WORKERS = 6;

let service: TestService;

beforeAll(async () => {
    service = await startService();
}, 600_000);
afterAll(() => service.stop());

test(`a game of ${PLAYERS.toLocaleString('en-US')} players moves under write load with no acknowledged write lost`, async () => {
    const apiKey = await service.game(G);
    const seedStart = Date.now();
    for (let from = 0; from < PLAYERS; from += 200) {
        const submits = [];
        for (let i = from; i < Math.min(PLAYERS, from + 200); i++)
            submits.push({
                gameId: G,
                apiKey,
                playerId: `seed-${i}`,
                score: (i * 2654435761) % 1_000_003,
                streak: i % 50,
            });
        const replies = await service.canister.ok('submit_scores', { submits });
        if (replies.some((r) => 'err' in r)) throw new Error('seeding failed');
    }
    const seedSeconds = (Date.now() - seedStart) / 1000;

    // The target: another canister on the replica, the same gateway, its own operator.
    const operator = Ed25519KeyIdentity.generate();
    const gatewayIdentity = ensureIdentity(service.gatewayIdentityFile);
    const targetId = service.replica.createCanister();
    await service.replica.installCode(targetId, leaderboardWasm(), {
        arg: initArgFor({ gateways: [gatewayIdentity.getPrincipal()], operators: [operator.getPrincipal()] }),
    });
    const target = await connectCanister({
        host: service.replica.url,
        canisterId: targetId,
        identity: operator,
        fetchRootKey: true,
        log: () => undefined,
    });

    // Players submit through the gateway all along: each write a new player (no pacing in the way).
    const acked: Array<{ playerId: string; score: number }> = [];
    const refused = { moving: 0, moved: 0 };
    const unexpected: string[] = [];
    let stop = false;
    let moveDone = false;
    let afterDone = 0;
    const worker = async (w: number): Promise<void> => {
        for (let n = 0; !stop; n++) {
            const playerId = `load-${w}-${n}`;
            const score = 1 + n;
            const res = await service.request('POST', '/scores', {
                headers: { 'X-API-Key': apiKey },
                body: { gameId: G, playerId, score, streak: 0 },
            });
            if (res.status === 200) acked.push({ playerId, score });
            else if (res.status === 503 && res.body?.error === MESSAGES.gameMoving) {
                if (res.headers.get('retry-after') !== String(MOVE_RETRY_AFTER_SECONDS))
                    unexpected.push(`503 without Retry-After: ${res.text}`);
                refused.moving++;
            } else if (res.status === 503 && res.body?.error === MESSAGES.gameMoved) refused.moved++;
            else unexpected.push(`${res.status} ${res.text}`);
            if (moveDone && ++afterDone >= WORKERS * 3) stop = true;
        }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    // Let some writes in before the move starts.
    while (acked.length < WORKERS * 3) await new Promise((r) => setTimeout(r, 20));
    const mark = service.replica.executions().length;
    const lines: string[] = [];
    const report = await moveGame(G, service.canister, target, (l) => lines.push(l));
    moveDone = true;
    await load;
    const runs = service.replica.executions().slice(mark);

    expect(unexpected).toEqual([]);
    expect(refused.moving).toBeGreaterThan(0);
    // Every acknowledged write is on the target.
    const missing: string[] = [];
    for (const { playerId, score } of acked) {
        const reply = await target.call('profile', { gameId: G, playerId });
        if (!('ok' in reply) || reply.ok.gameProfile.score !== score) missing.push(playerId);
    }
    expect(missing).toEqual([]);
    const stats = await target.ok('game_stats', { gameId: G });
    expect(stats.totalPlayers).toBe(PLAYERS + acked.length);
    expect(await target.ok('read_board', { gameId: G, boardId: 'all-time', limit: 3 })).toMatchObject({
        totalEntries: PLAYERS + acked.length,
    });
    // The source answers moved.
    expect(await service.canister.call('leaderboard', { gameId: G })).toEqual({
        err: { status: 503, message: MESSAGES.gameMoved, moved: true },
    });

    const per = (method: string): bigint[] =>
        runs.filter((r) => r.method.endsWith(` ${method}`)).map((r) => r.instructions);
    const summary = (method: string): string => {
        const xs = per(method);
        const max = xs.reduce((m, x) => (x > m ? x : m), 0n);
        const sum = xs.reduce((s, x) => s + x, 0n);
        return `${method}: ${xs.length} calls, max ${(Number(max) / 1e9).toFixed(2)} B, total ${(Number(sum) / 1e9).toFixed(1)} B instructions`;
    };
    console.log(
        [
            `move of ${PLAYERS} players (seeded in ${seedSeconds.toFixed(0)} s): ${report.chunks} chunks, ${report.bytes} bytes, ${report.seconds.toFixed(1)} s`,
            `writes during the move: ${acked.length} acknowledged, ${refused.moving} answered 503 gameMoving, ${refused.moved} moved`,
            ...['move_out_begin', 'move_out_chunk', 'move_in_chunk', 'move_in_end', 'move_out_end'].map(summary),
        ].join('\n'),
    );
    // Every message far inside the IC's limits (40 B an update, 5 B a query).
    for (const m of ['move_out_begin', 'move_in_chunk', 'move_in_end', 'move_out_end'])
        for (const x of per(m)) expect(Number(x)).toBeLessThan(20e9);
    for (const x of per('move_out_chunk')) expect(Number(x)).toBeLessThan(2.5e9);
}, 1_800_000);
