// The event log in the real canister: what submits, bans, wipes and a period's end record, read
// with the server key, kept through upgrades (with the snapshot and without it), numbered on, and
// gone with its game.
import { createHash } from 'node:crypto';

import type { EventPage, GameEvent } from '../../contract/events';
import { startLeaderboard, leaderboardWasm, initArg, type TestCanister } from '../support/canister';

const G = 'ev-replica';
const hash = (token: string): string => createHash('sha256').update(token).digest('hex');
let c: TestCanister;
let sessionHash: string;
let serverKeyHash: string;
let apiKey: string;

const read = (after = 0): Promise<EventPage> => c.ok('read_events', { gameId: G, serverKeyHash, after, limit: 100 });
/** Each event as `kind board who`, for a compact comparison. */
const brief = (e: GameEvent): string => {
    switch (e.kind) {
        case 'new_leader':
            return `new_leader ${e.scoreboardId} ${e.leader.playerId}${e.previous ? ` from ${e.previous.playerId}` : ''}`;
        case 'overtaken':
            return `overtaken ${e.scoreboardId} ${e.by.playerId}@${e.by.rank} > ${e.player.playerId}@${e.player.rank}`;
        case 'period_closed':
            return `period_closed ${e.scoreboardId} ${e.top.map((t) => t.playerId).join(',')}`;
        case 'division_closed':
            return `division_closed ${e.scoreboardId} ${e.division}`;
        case 'player_banned':
        case 'player_wiped':
            return `${e.kind} ${e.playerId}`;
        default:
            return `${e.kind} ${e.playerId}`;
    }
};
async function submit(playerId: string, score: number, scoreboardId?: string): Promise<void> {
    const [r] = await c.ok('submit_scores', {
        submits: [{ apiKey, gameId: G, playerId, score, streak: 0, scoreboardId }],
    });
    expect(r).toMatchObject({ ok: {} });
}
async function upgrade(skipPreUpgrade = false): Promise<void> {
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
        skipPreUpgrade,
    });
}

beforeAll(async () => {
    c = await startLeaderboard();
    const identity = { issuer: 'https://idp.example', subject: 'ev-dev', email: 'dev@example.com', provider: 'local' };
    sessionHash = hash((await c.ok('dev_sign_in', { identity })).sessionToken);
    ({ apiKey } = await c.ok('dev_register_game', { sessionHash, gameId: G, name: 'Events' }));
    serverKeyHash = hash((await c.ok('dev_rotate_server_key', { sessionHash, gameId: G })).serverKey);
    await c.ok('dev_create_board', { sessionHash, gameId: G, scoreboardId: 'race', type: 'targeted', eventTop: 2 });
});
afterAll(() => c.replica.stop());

test('submits, a ban, a wipe and a period closing are recorded in order', async () => {
    await submit('ann', 10, 'race');
    await submit('bob', 20, 'race');
    await submit('cy', 5, 'race');
    await c.advance(3_000);
    await submit('cy', 30, 'race');
    await c.ok('dev_ban', { sessionHash, gameId: G, playerId: 'bob', reason: 'test' });
    await c.ok('dev_wipe_player', { sessionHash, gameId: G, playerId: 'ann' });
    const page = await read();
    expect(page.events.map((e) => e.seq)).toEqual(page.events.map((_, i) => i + 1));
    expect(page.events.map(brief)).toEqual([
        'new_leader race ann',
        'new_leader race bob from ann',
        'overtaken race bob@1 > ann@2',
        'new_leader race cy from bob',
        'overtaken race cy@1 > bob@2',
        'overtaken race cy@1 > ann@3',
        'player_banned bob',
        'player_wiped ann',
    ]);
    // A fan-out submit, then the next UTC day: the daily board's period closes (the timer).
    await submit('dee', 7);
    const before = (await read()).latest;
    await c.advance(86_400_000);
    const closed = (await read(before)).events.filter((e) => e.kind === 'period_closed');
    expect(closed.map(brief)).toContain('period_closed daily dee');
});

test('the log survives upgrades, with and without the snapshot, and numbers on', async () => {
    const before = await read();
    expect(before.latest).toBeGreaterThan(8);
    await upgrade();
    expect(await read()).toEqual(before);
    await upgrade(true);
    expect(await read()).toEqual(before);
    await c.advance(3_000);
    await submit('eve', 100, 'race');
    const after = await read(before.latest);
    expect(after.events.map((e) => [e.seq, brief(e)])).toEqual([
        [before.latest + 1, 'new_leader race eve from cy'],
        [before.latest + 2, 'overtaken race eve@1 > cy@2'],
        [before.latest + 3, 'overtaken race eve@1 > bob@3'], // banned: its entry stays until wiped
    ]);
});

test("a deleted game's records go at once, on timers of their own: its id is free again, and none of its log", async () => {
    await c.ok('dev_delete_game', { sessionHash, gameId: G, confirm: G });
    // The clock stands still (no 30 s tick): the purge ran on its own timers.
    ({ apiKey } = await c.ok('dev_register_game', { sessionHash, gameId: G, name: 'Events again' }));
    serverKeyHash = hash((await c.ok('dev_rotate_server_key', { sessionHash, gameId: G })).serverKey);
    expect(await read()).toMatchObject({ events: [], latest: 0 });
});
