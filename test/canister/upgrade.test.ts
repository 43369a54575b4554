// Upgrades keep every record and every index: with the pre-upgrade snapshot, and also when
// pre_upgrade is skipped (the heap tables are rebuilt from the stable records).
import { createHash } from 'node:crypto';

import { startLeaderboard, leaderboardWasm, initArg, type TestCanister } from '../support/canister';
import type { GameView } from '../../contract/canister';
import type { Board } from '../../contract/schemas';
import { advance } from '../support/replica';

let c: TestCanister;
let apiKey: string;

async function view(c: TestCanister) {
    return {
        scores: await c.ok('leaderboard', { gameId: 'up-game', limit: 1000 }),
        streaks: await c.ok('leaderboard', { gameId: 'up-game', sort: 'streak', limit: 1000 }),
        weekly: await c.ok('read_board', { gameId: 'up-game', boardId: 'weekly', limit: 1000 }),
        level: await c.ok('read_board', { gameId: 'up-game', boardId: 'level-1', limit: 1000 }),
        boards: await c.ok('list_boards', { gameId: 'up-game' }),
        profile: await c.ok('profile', { gameId: 'up-game', playerId: 'p7' }),
        rank: await c.ok('player_rank', { gameId: 'up-game', playerId: 'p7' }),
        game: await c.ok('game_info', { gameId: 'up-game' }),
        caps: (await c.ok('admin_list_games', {})).map((g: GameView) => [g.gameId, g.caps]),
        stats: await c.ok('game_stats', { gameId: 'up-game' }),
        // A game of lowest-first standard boards with a sum board and a latest board: orders and totals hold.
        kinds: {
            times: await c.ok('leaderboard', { gameId: 'up-kinds', limit: 1000 }),
            daily: await c.ok('read_board', { gameId: 'up-kinds', boardId: 'daily', limit: 1000 }),
            coins: await c.ok('read_board', { gameId: 'up-kinds', boardId: 'coins', limit: 1000 }),
            laps: await c.ok('read_board', { gameId: 'up-kinds', boardId: 'laps', limit: 1000 }),
        },
    };
}

beforeAll(async () => {
    c = await startLeaderboard();
    ({ apiKey } = await c.ok('admin_register_game', { developerId: 'dev-1', gameId: 'up-game', name: 'Upgrades' }));
    // First (the clock moves between its rounds): the last up-game submits stay within 2 s of the upgrade.
    const kinds = await c.ok('admin_register_game', { developerId: 'dev-1', gameId: 'up-kinds', name: 'Kinds' });
    await c.ok('admin_update_game', { gameId: 'up-kinds', standardBoards: { sortOrder: 'asc' } });
    await c.ok('admin_create_board', { gameId: 'up-kinds', scoreboardId: 'coins', type: 'targeted', operator: 'sum' });
    await c.ok('admin_create_board', {
        gameId: 'up-kinds',
        scoreboardId: 'laps',
        type: 'monthly',
        sortOrder: 'asc',
        operator: 'latest',
    });
    for (const round of [0, 1]) {
        const each = Array.from({ length: 40 }, (_, i) => [
            {
                apiKey: kinds.apiKey,
                gameId: 'up-kinds',
                playerId: `k${i}`,
                score: 1000 + ((i * 37 + round * 11) % 100),
            },
            { apiKey: kinds.apiKey, gameId: 'up-kinds', playerId: `k${i}`, score: i + round, scoreboardId: 'coins' },
        ]).flat();
        await c.ok('submit_scores', { submits: each.map((s) => ({ ...s, streak: round })) });
        await c.advance(6000);
    }
    await c.ok('admin_create_board', {
        gameId: 'up-game',
        scoreboardId: 'level-1',
        type: 'targeted',
        sortBy: 'streak',
    });
    await c.ok('admin_set_caps', { gameId: 'up-game', maxScore: 100_000 });
    await c.ok('admin_set_caps', { gameId: 'up-kinds', minScore: 1 }); // after its submits (one scores 0)
    const submits = [];
    for (let i = 0; i < 150; i++) {
        submits.push({
            apiKey,
            gameId: 'up-game',
            playerId: `p${i}`,
            score: (i * 7919) % 1000,
            streak: i % 13,
            nickname: i % 5 === 0 ? `Pilot_${i}` : undefined,
        });
        submits.push({
            apiKey,
            gameId: 'up-game',
            playerId: `p${i}`,
            score: i,
            streak: (i * 31) % 19,
            scoreboardId: 'level-1',
        });
    }
    for (let i = 0; i < submits.length; i += 100) await c.ok('submit_scores', { submits: submits.slice(i, i + 100) });
    await c.ok('unlock_achievements', { apiKey, gameId: 'up-game', playerId: 'p7', achievementIds: ['a', 'b'] });
});
afterAll(() => c.replica.stop());

test('an upgrade keeps every record and index (snapshot path)', async () => {
    const before = await view(c);
    const scores = (board: { entries: Array<{ score: number }> }) => board.entries.map((e) => e.score);
    const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] <= x);
    expect(ascending(scores(before.kinds.daily)) && ascending(scores(before.kinds.laps))).toBe(true);
    expect(scores(before.kinds.coins).slice(0, 2)).toEqual([79, 77]);
    expect(before.caps).toEqual(
        expect.arrayContaining([
            ['up-game', { maxScore: 100_000 }],
            ['up-kinds', { minScore: 1 }],
        ]),
    );
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
    });
    expect(c.replica.executions().some((e) => e.method === 'canister_pre_upgrade' && e.error === undefined)).toBe(true);
    expect(await view(c)).toEqual(before);
    // The key still works and submits carry on. The upgrade kept p7's last submission too: on
    // the replica's clock (it moves only when the test moves it) the 2 s rate limit still holds
    // right after the upgrade, however long the upgrade took, and past it the submit counts.
    const submit = { apiKey, gameId: 'up-game', playerId: 'p7', score: 99_999, streak: 0 };
    const [limited] = await c.ok('submit_scores', { submits: [submit] });
    expect(limited).toMatchObject({ err: { status: 400, message: 'Please wait 2 seconds between submissions.' } });
    await advance(c.replica, 2_000, [c.agent]);
    const [result] = await c.ok('submit_scores', { submits: [submit] });
    expect(result).toMatchObject({ ok: {} });
    expect((await c.ok('player_rank', { gameId: 'up-game', playerId: 'p7' })).rank).toBe(1);
});

test('an upgrade that skips pre_upgrade rebuilds the tables from the records', async () => {
    // Counts of submits that created no player wait for the 30 s tick (state/stats.ts): an
    // upgrade that skips pre_upgrade loses what the tick has not written yet, so it runs first.
    await advance(c.replica, 31_000, [c.agent]);
    const before = await view(c);
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
        skipPreUpgrade: true,
    });
    expect(await view(c)).toEqual(before);
});

test('a player created by sign-in keeps its slot and its name through an upgrade', async () => {
    const identity = { issuer: 'https://idp.example', subject: 'up-signed', email: 'up@example.com', provider: 'oidc' };
    const approval = await c.ok('sign_in', { gameId: 'up-game', identity });
    const session = createHash('sha256').update(approval.sessionId).digest('hex');
    const before = await c.ok('game_stats', { gameId: 'up-game' });
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
        skipPreUpgrade: true,
    });
    // What the sign-in counted was written with it: the next new player gets a slot and a
    // default name of its own, and both keep theirs on the board.
    expect(await c.ok('game_stats', { gameId: 'up-game' })).toEqual(before);
    const replies = await c.ok('submit_scores', {
        submits: [
            { gameId: 'up-game', sessionHash: session, score: 99_997, streak: 0 },
            { apiKey, gameId: 'up-game', playerId: 'after-upgrade', score: 99_996, streak: 0 },
        ],
    });
    expect(replies).toMatchObject([{ ok: {} }, { ok: {} }]);
    const fresh = (await c.ok('profile', { gameId: 'up-game', playerId: 'after-upgrade' })).nickname;
    expect(fresh).not.toBe(approval.nickname);
    const top = (await c.ok('leaderboard', { gameId: 'up-game', limit: 3 })).leaderboard.map(
        (e: { nickname: string; score: number }) => [e.nickname, e.score],
    );
    expect(top.slice(1)).toEqual([
        [approval.nickname, 99_997],
        [fresh, 99_996],
    ]);
});

test('new players of submits right before an upgrade that skips pre_upgrade keep their slots and names, never handed out again', async () => {
    // No tick between: the game's count of players and next default name are in the heap and in
    // the slot chunks the calls wrote (state/slots.ts), not yet in its stored counters.
    const submit = (playerId: string, score: number) => ({ apiKey, gameId: 'up-game', playerId, score, streak: 0 });
    await c.ok('submit_scores', { submits: Array.from({ length: 19 }, (_, i) => submit(`np-${i}`, 10 + i)) });
    await c.ok('submit_scores', { submits: [submit('np-19', 29)] });
    const names = async (): Promise<string[]> =>
        (await c.ok('leaderboard', { gameId: 'up-game', limit: 1000 })).leaderboard.map(
            (e: { nickname: string }) => e.nickname,
        );
    const before = { players: (await c.ok('game_stats', { gameId: 'up-game' })).totalPlayers, names: await names() };
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
        skipPreUpgrade: true,
    });
    expect((await c.ok('game_stats', { gameId: 'up-game' })).totalPlayers).toBe(before.players);
    expect(await names()).toEqual(before.names);
    // New players after it: slots and default names of their own.
    await c.ok('submit_scores', { submits: Array.from({ length: 5 }, (_, i) => submit(`np-after-${i}`, 30 + i)) });
    const after = await names();
    expect((await c.ok('game_stats', { gameId: 'up-game' })).totalPlayers).toBe(before.players + 5);
    expect(after).toHaveLength(before.names.length + 5);
    expect(new Set(after).size).toBe(after.length);
});

test('entry metadata survives both kinds of upgrade, on every board that shows it', async () => {
    const submits = [];
    for (let i = 0; i < 10; i++) {
        const metadata = i % 2 === 0 ? { car: `car-${i}`, tags: ['ü', '🏎'], note: '<b>"x"</b>' } : undefined;
        submits.push({ apiKey, gameId: 'up-game', playerId: `meta-${i}`, score: 50_000 + i, streak: 0, metadata });
        submits.push({
            apiKey,
            gameId: 'up-game',
            playerId: `meta-${i}`,
            score: 1,
            streak: 40 + i,
            scoreboardId: 'level-1',
            metadata: { level: i },
        });
    }
    expect(await c.ok('submit_scores', { submits })).toEqual(submits.map(() => ({ ok: expect.anything() })));
    const boards = async (): Promise<Board[]> =>
        Promise.all(
            ['all-time', 'weekly', 'daily', 'level-1'].map((boardId) =>
                c.ok('read_board', { gameId: 'up-game', boardId, limit: 30 }),
            ),
        );
    const before = await boards();
    // Metadata on the even players only: the odd ones' entries have none.
    const weekly = before[1].entries.filter((e) => e.score >= 50_000 && e.score < 60_000);
    expect(weekly.map((e) => [e.score, e.metadata?.car])).toEqual(
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((i) => [50_000 + i, i % 2 === 0 ? `car-${i}` : undefined]),
    );
    expect(weekly[0]).not.toHaveProperty('metadata');
    expect(weekly[1]).toMatchObject({ metadata: { tags: ['ü', '🏎'], note: '<b>"x"</b>' } });
    expect(before[3].entries[0]).toMatchObject({ streak: 49, metadata: { level: 9 } });
    for (const skipPreUpgrade of [false, true]) {
        await c.replica.installCode(c.canisterId, leaderboardWasm(), {
            mode: 'upgrade',
            arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
            skipPreUpgrade,
        });
        expect(await boards()).toEqual(before);
    }
});

test('tiebreaks survive both kinds of upgrade: every entry keeps its rank and its tiebreak', async () => {
    for (const board of [
        { scoreboardId: 'race', type: 'targeted', tiebreak: 'asc' },
        { scoreboardId: 'race-shared', type: 'monthly', tiebreak: 'desc', ties: 'shared' },
    ])
        await c.ok('admin_create_board', { gameId: 'up-game', ...board });
    // One batch (one time for all): equal scores, equal and absent tiebreaks, so the slot decides some.
    const submits = [];
    for (let i = 0; i < 24; i++) {
        const tiebreak = i % 4 === 3 ? undefined : 60_000 + (i % 5) * 250;
        const base = { apiKey, gameId: 'up-game', playerId: `tb-${i}`, score: 700 + (i % 3), streak: 0, tiebreak };
        submits.push({ ...base, scoreboardId: 'race' }, base);
    }
    expect(await c.ok('submit_scores', { submits })).toEqual(submits.map(() => ({ ok: expect.anything() })));
    const boards = async (): Promise<Board[]> =>
        Promise.all(
            ['race', 'race-shared'].map((boardId) => c.ok('read_board', { gameId: 'up-game', boardId, limit: 100 })),
        );
    const before = await boards();
    const race = before[0].entries;
    expect(race.map((e) => [e.score, e.tiebreak])).toEqual(
        [...race]
            .sort((a, b) => b.score - a.score || (a.tiebreak ?? Infinity) - (b.tiebreak ?? Infinity))
            .map((e) => [e.score, e.tiebreak]),
    );
    expect(race.filter((e) => e.tiebreak === undefined)).toHaveLength(6);
    expect(new Set(before[1].entries.map((e) => e.rank)).size).toBeLessThan(before[1].entries.length);
    for (const skipPreUpgrade of [false, true]) {
        await c.replica.installCode(c.canisterId, leaderboardWasm(), {
            mode: 'upgrade',
            arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
            skipPreUpgrade,
        });
        expect(await boards()).toEqual(before);
    }
});

test('counts of submits made right before an upgrade, before any tick, survive it', async () => {
    const identity = { issuer: 'https://idp.example', subject: 'up-counts', email: 'c@example.com', provider: 'oidc' };
    const signedIn = await c.ok('dev_sign_in', { identity });
    const sessionHash = createHash('sha256').update(signedIn.sessionToken).digest('hex');
    const { apiKey: key } = await c.ok('admin_register_game', {
        developerId: signedIn.developer.developerId,
        gameId: 'up-counts',
        name: 'Counts',
    });
    const counts = async () => ({
        platform: await c.ok('platform_stats', {}),
        game: await c.ok('game_stats', { gameId: 'up-counts' }),
        existing: await c.ok('game_stats', { gameId: 'up-game' }),
        analytics: await c.ok('dev_analytics', { sessionHash, gameId: 'up-counts', days: 1 }),
    });
    const before = await counts();
    // No time passes from here to the upgrade (the replica's clock moves only when a test moves
    // it): the 30 s tick, which writes the platform's counts and today's activity, cannot run.
    const submits = ['c1', 'c2', 'c3'].map((playerId, i) => ({
        apiKey: key,
        gameId: 'up-counts',
        playerId,
        score: i,
        streak: 0,
    }));
    await c.ok('submit_scores', { submits });
    // Existing players' submits: their game's counts wait for the tick too (no player created).
    const again = ['p1', 'p2'].map((playerId) => ({ apiKey, gameId: 'up-game', playerId, score: 5, streak: 0 }));
    expect(await c.ok('submit_scores', { submits: again })).toMatchObject([{ ok: {} }, { ok: {} }]);
    const counted = await counts();
    expect(counted.platform.total).toBe(before.platform.total + 5);
    expect(counted.existing.submissions.total).toBe(before.existing.submissions.total + 2);
    expect(counted.game.submissions.total).toBe(3);
    expect(counted.analytics.days.at(-1)).toMatchObject({ submissions: 3, newPlayers: 3, activePlayers: 3 });
    expect(counted.analytics.boards).toEqual(
        expect.arrayContaining([
            { scoreboardId: 'all-time', submissions: 3 },
            { scoreboardId: 'weekly', submissions: 3 },
        ]),
    );
    await c.replica.installCode(c.canisterId, leaderboardWasm(), {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
    });
    expect(await counts()).toEqual(counted);
});
