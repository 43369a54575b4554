// The default stack (a directory and a shard) on the real clock, as `npm start` runs it: timers
// become due while writes arrive, which a test's manual clock never shows. A direct read of a
// board (its render timer then pending) never stops that game's writes, nor another game's
// submits batched into the same call; and a submit whose canister traps fails alone, never the
// other submits of its call.
import { IDL } from '@dfinity/candid';

import { SUBMIT_BATCHING } from '../../gateway/ic/submits';
import { startService, type TestService } from '../support/gateway';

let s: TestService;
const READ = 'read-game';
const OTHER = 'other-game';
let readKey: string;
let otherKey: string;
/** What the gateway logged of its failed canister calls. */
const logged: string[] = [];

beforeAll(async () => {
    s = await startService({
        shards: 1,
        canisterUrl: true,
        replica: { testMode: false },
        // Calls of exactly two submits (a lone submit waits a second for company): which submits
        // share a call never depends on how fast this machine is.
        batch: { ...SUBMIT_BATCHING, maxBatch: 2, maxWaitMs: 1000 },
        canisterLog: (line) => logged.push(line),
    });
    readKey = await s.game(READ);
    otherKey = await s.game(OTHER);
}, 600_000);
afterAll(() => s?.stop());

const submit = (key: string, gameId: string, playerId: string, score: number) =>
    s.request('POST', '/scores', { headers: { 'X-API-Key': key }, body: { gameId, playerId, score, streak: 1 } });

/** The documented direct read at the directory's URL, its 302 followed to the game's shard. */
async function directRead(gameId: string): Promise<number> {
    const res = await fetch(
        `${s.replica.url}/games/${gameId}/scoreboards/all-time?canisterId=${s.canisterId.toText()}`,
    );
    await res.arrayBuffer();
    return res.status;
}

test("a direct read never stops the game's writes, nor other games' submits in the same calls", async () => {
    expect((await submit(readKey, READ, 'first', 10)).status).toBe(200);
    // Rendered by an update: the game's board paths are watched, so every write marks them dirty
    // and a render timer is pending from the first write on.
    expect(await directRead(READ)).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
        // One new player of each game at once: the gateway batches them into one call.
        const [a, b] = await Promise.all([
            submit(readKey, READ, `reader-${i}`, 100 + i),
            submit(otherKey, OTHER, `other-${i}`, 100 + i),
        ]);
        statuses.push(a.status, b.status);
        if (i === 3) expect(await directRead(READ)).toBe(200);
    }
    expect(statuses).toEqual(new Array(16).fill(200));
    // Every acknowledged write is there, through the gateway and straight from the canister.
    const board = await s.request('GET', `/games/${READ}/scoreboards/all-time?limit=100`, {
        headers: { 'X-API-Key': readKey },
    });
    expect(board.body.data.totalEntries).toBe(9);
});

test('a submit whose canister traps fails alone: the other submits of its call are answered', async () => {
    const poisoned = 'poisoned';
    // The replica makes any call carrying this player's submit trap, as a canister bug would.
    const trappedCalls: number[] = [];
    s.replica.subnet.trapWhen = (_receiver, method, arg) => {
        // (This release's gateways send submit_scores as submit_scores_compact.)
        if (method !== 'submit_scores_compact') return undefined;
        const { submits } = JSON.parse(IDL.decode([IDL.Text], arg)[0] as string) as { submits: unknown[] };
        if (!JSON.stringify(submits).includes(poisoned)) return undefined;
        trappedCalls.push(submits.length);
        return 'injected: a bug on this submit';
    };
    logged.length = 0;
    try {
        const replies = await Promise.all([
            submit(readKey, READ, 'before', 1),
            submit(readKey, READ, poisoned, 2),
            submit(otherKey, OTHER, 'after', 3),
            submit(otherKey, OTHER, 'later', 4),
        ]);
        expect(replies.map((r) => r.status)).toEqual([200, 503, 200, 200]);
        // It trapped in a call with another submit first, then alone.
        expect(trappedCalls).toEqual([2, 1]);
        expect(replies[1].headers.get('retry-after')).not.toBeNull();
        // What the operator sees: the reject's code and text, and the canister that gave it.
        const lines = logged.filter((l) => l.includes('submit_scores'));
        expect(lines).toHaveLength(2);
        for (const line of lines) {
            expect(line).toContain(`to ${s.shards[0]} failed: rejected (code 5, IC0503)`);
            expect(line).toContain('injected: a bug on this submit');
        }
    } finally {
        s.replica.subnet.trapWhen = undefined;
    }
    // Nothing of the poisoned submit was kept; the others were.
    const profile = (id: string, key: string) =>
        s.request('GET', `/players/${id}/profile`, { headers: { 'X-API-Key': key } });
    expect((await profile(poisoned, readKey)).status).toBe(404);
    expect((await profile('before', readKey)).status).toBe(200);
    expect((await profile('later', otherKey)).status).toBe(200);
});

test('a UTC midnight while a board is read and written: the period tick rolls the day over', async () => {
    const DAY = 86_400_000_000_000n;
    const headers = { 'X-API-Key': readKey };
    // Writes to a targeted board leave the daily board to the tick (a submit to it would roll it itself).
    await s.canister.ok('admin_create_board', { gameId: READ, scoreboardId: 'level-1', type: 'targeted' });
    const write = (i: number) =>
        s.request('POST', '/scores', {
            headers,
            body: { gameId: READ, playerId: `night-${i}`, score: 50 + i, streak: 1, scoreboardId: 'level-1' },
        });
    // Today's daily board has an entry, and is read (watched) straight from the canister.
    expect((await submit(readKey, READ, 'night-0', 50)).status).toBe(200);
    const daily = await fetch(`${s.replica.url}/games/${READ}/scoreboards/daily?canisterId=${s.canisterId.toText()}`);
    expect(daily.status).toBe(200);
    await daily.arrayBuffer();
    expect((await write(1)).status).toBe(200);
    // Just past the next UTC midnight (the clock only jumps forward; agents follow): the tick and
    // the render timer the write left pending are due in the same round.
    await s.replica.setTime((s.replica.time() / DAY + 1n) * DAY + 1_000_000_000n);
    // Writes go on (each marks the game's watched paths: a render timer is pending) until the tick
    // has archived the day: the outcome, polled, never a duration.
    let archived = 0;
    for (let i = 2; archived === 0 && i <= 120; i++) {
        expect((await write(i)).status).toBe(200);
        const stats = await s.request('GET', `/games/${READ}/archives/stats`, { headers });
        expect(stats.status).toBe(200);
        archived = stats.body.data.byScoreboard.find(
            (b: { scoreboardId: string }) => b.scoreboardId === 'daily',
        ).archiveCount;
        if (archived === 0) await new Promise((r) => setTimeout(r, 500));
    }
    expect(archived).toBe(1);
    const latest = await s.request('GET', `/games/${READ}/scoreboards/daily/archives/latest`, { headers });
    expect(latest.body.data.entries.map((e: { score: number }) => e.score)).toContain(50);
}, 600_000);
