// A shard tells its directory of games' views that changed by anything but the directory's own
// forwarded calls: an operator's change or a rollover marks the game, one timer sends what is
// marked, a directory that does not answer is asked again later (5 s, doubling, at most 10
// minutes), and an upgrade sends every game once. The directory keeps the newest view of a game
// the caller holds, and what it sends fits in a message.
import type { GameView, Method } from '../../../contract/canister';
import { PUSH_BYTES, pushViews, viewsChanged, type Remote } from '../../../canister/service/directory';
import { createBoard, gameView, setCaps, updateGame } from '../../../canister/service/games';
import { rolloverAll } from '../../../canister/service/rollover';
import { installPusher, RETRY_FIRST_SECONDS, RETRY_MOST_SECONDS } from '../../../canister/service/view-push';
import { Fail } from '../../../canister/domain/fail';
import { harness, withGame, type Harness } from './harness';

interface Fake {
    timers: Array<{ seconds: number; run: () => Promise<void> }>;
    pushed: string[][];
    failing: boolean;
    /** Runs the timer set first, as the canister would. */
    fire(): Promise<number>;
}

function shardWith(...games: string[]): { h: Harness; fake: Fake } {
    const h = harness();
    for (const g of games) withGame(h, g);
    h.isShard = true;
    const fake: Fake = {
        timers: [],
        pushed: [],
        failing: false,
        async fire() {
            const timer = fake.timers.shift();
            if (timer === undefined) throw new Error('no timer set');
            await timer.run();
            return timer.seconds;
        },
    };
    installPusher(
        h,
        {
            later: (seconds, run) => void fake.timers.push({ seconds, run }),
            async push(_ctx, ids) {
                if (fake.failing) throw new Fail(503, 'Canister dir did not answer game_views_changed');
                fake.pushed.push(ids);
                return [];
            },
        },
        false,
    );
    return { h, fake };
}

test("an operator's changes are sent once by one timer; a developer's forwarded ones and a directory's own are not", async () => {
    const { h, fake } = shardWith('game-1', 'game-2');
    createBoard(h, { gameId: 'game-1', scoreboardId: 'lap', type: 'targeted' });
    setCaps(h, { gameId: 'game-2', maxScore: 10 });
    setCaps(h, { gameId: 'game-2', maxScore: 11 });
    expect(fake.timers.map((t) => t.seconds)).toEqual([0]);
    await fake.fire();
    expect(fake.pushed).toEqual([['game-1', 'game-2']]);
    // The directory reads the views again after its own forwarded call.
    h.actingDeveloper = 'dev-1';
    updateGame(h, { gameId: 'game-1', name: 'Renamed' });
    h.actingDeveloper = undefined;
    h.isShard = false; // a directory (or the single canister) has nobody to tell
    updateGame(h, { gameId: 'game-1', name: 'Renamed again' });
    expect(fake.timers).toEqual([]);
});

test('a rollover marks the games it rolled over', async () => {
    const { h, fake } = shardWith('game-1', 'game-2');
    h.advance(86_400);
    expect(rolloverAll(h)).toBeGreaterThan(0);
    await fake.fire();
    expect(fake.pushed).toEqual([['game-1', 'game-2']]);
});

test('a directory that does not answer is asked again, 5 s then doubling up to 10 minutes; changes meanwhile go too', async () => {
    const { h, fake } = shardWith('game-1', 'game-2');
    fake.failing = true;
    setCaps(h, { gameId: 'game-1', maxScore: 1 });
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) waits.push(await fake.fire());
    expect(waits).toEqual([0, 5, 10, 20, 40, 80, 160, 320, 600, 600]);
    expect(RETRY_FIRST_SECONDS).toBe(5);
    expect(RETRY_MOST_SECONDS).toBe(600);
    setCaps(h, { gameId: 'game-2', maxScore: 1 });
    expect(fake.timers).toHaveLength(1); // still the one retry
    fake.failing = false;
    await fake.fire();
    expect(fake.pushed).toEqual([['game-1', 'game-2']]);
    setCaps(h, { gameId: 'game-1', maxScore: 2 });
    expect(await fake.fire()).toBe(0); // answered: the next change goes at once
});

test('after an upgrade a shard sends every game once', async () => {
    const { h, fake } = shardWith('game-1', 'game-2', 'game-3');
    installPusher(
        h,
        {
            later: (s, run) => void fake.timers.push({ seconds: s, run }),
            push: async (_c, ids) => (fake.pushed.push(ids), []),
        },
        true,
    );
    await fake.fire();
    expect(fake.pushed).toEqual([['game-1', 'game-2', 'game-3']]);
});

test('a push carries at most PUSH_BYTES of views: the rest is left for the next', async () => {
    const h = harness();
    h.isShard = true;
    h.store.meta.set('role', 'shard'); // its directory placed the games (and checked allowances)
    h.store.meta.set('directory', 'dir-id');
    const games = Array.from({ length: 40 }, (_, i) => `big-${i}`);
    for (const g of games) {
        withGame(h, g);
        for (let b = 0; b < 97; b++) createBoard(h, { gameId: g, scoreboardId: `board-${b}`, type: 'targeted' });
    }
    const sent: Array<{ method: Method; request: { at: number; views: GameView[] } }> = [];
    const remote = {
        call: async (_id: string, method: Method, request: unknown) => {
            sent.push({ method, request: request as { at: number; views: GameView[] } });
            return { ok: { kept: 0 } };
        },
    } as unknown as Remote;
    const left = await pushViews(h, remote, games);
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('game_views_changed');
    const count = sent[0].request.views.length;
    expect(count).toBeGreaterThan(1);
    expect(left).toEqual(games.slice(count));
    expect(JSON.stringify(sent[0].request).length).toBeLessThan(PUSH_BYTES * 1.1);
});

test('the directory keeps a newer view of a game the caller holds, never an older one', () => {
    const h = harness();
    withGame(h, 'game-1');
    const view = (name: string): GameView => ({ ...gameView(h.games.get('game-1')!.record), name });
    h.store.locations.set('game-1', 'shard-a');
    const at = h.time;
    expect(viewsChanged(h, 'shard-a', { at, views: [view('New')] })).toEqual({ kept: 1 });
    expect(viewsChanged(h, 'shard-a', { at: at - 1, views: [view('Older')] })).toEqual({ kept: 0 });
    expect(viewsChanged(h, 'shard-b', { at, views: [view('Elsewhere')] })).toEqual({ kept: 0 });
    expect(viewsChanged(h, 'shard-a', { at, views: [{ gameId: 'game-1' }, 'x', null] as never })).toEqual({ kept: 0 });
    expect(h.store.remoteGames.get('game-1')?.name).toBe('New');
});
