// Slots kept a chunk to a stored value: a call writes each chunk it changed once, the chunks and
// the one-entry-per-slot form of earlier releases read alike, and a rebuild finds every player.
import { leaderboard } from '../../../canister/service/reads';
import { SLOTS_PER_CHUNK, slotPlayer, slotPlayers } from '../../../canister/state/slots';
import { loadGames } from '../../../canister/state/startup';
import { flushStats } from '../../../canister/state/stats';
import { harness, key, withGame } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';

function submitNew(h: ReturnType<typeof harness>, from: number, count: number): void {
    const submits = Array.from({ length: count }, (_, i) => ({
        apiKey: key(h, G),
        gameId: G,
        playerId: `p${from + i}`,
        score: from + i,
        streak: 0,
    }));
    submitBatch(h, { submits });
}

test('a batch of 100 new players writes each chunk of slots it touched once', () => {
    const h = harness();
    withGame(h, G);
    const writes: string[] = [];
    const set = h.store.slotChunks.set.bind(h.store.slotChunks);
    h.store.slotChunks.set = (k, v) => {
        writes.push(k);
        set(k, v);
    };
    submitNew(h, 0, 100);
    expect(writes).toEqual(Array.from({ length: Math.ceil(100 / SLOTS_PER_CHUNK) }, (_, i) => `${G}/${i}`));
    expect(h.slotChunks.size).toBe(0);
    // Its slots, then the game's next default-name number when it was written (Player_1 to _100 handed out).
    expect(h.store.slotChunks.get(`${G}/0`)).toHaveLength(SLOTS_PER_CHUNK + 1);
    expect(h.store.slotChunks.get(`${G}/6`)![SLOTS_PER_CHUNK]).toBe(101);
    expect(slotPlayers(h, G, 60, 8)).toEqual(['p60', 'p61', 'p62', 'p63', 'p64', 'p65', 'p66', 'p67']);
    expect(slotPlayer(h, G, 100)).toBeUndefined();
});

test('slots an earlier release wrote one entry each are still read, next to chunks, and rebuilt from', () => {
    const h = harness();
    withGame(h, G);
    submitNew(h, 0, 100);
    // Rewrite the store as the earlier release left it: one `<game>/<slot>` entry per player, and
    // the counters written with every call.
    flushStats(h);
    for (let chunk = 0; chunk * SLOTS_PER_CHUNK < 100; chunk++) {
        const ids = h.store.slotChunks.get(`${G}/${chunk}`)!;
        ids.slice(0, SLOTS_PER_CHUNK).forEach((id, i) =>
            h.store.slots.set(`${G}/${chunk * SLOTS_PER_CHUNK + i}`, id as string),
        );
        h.store.slotChunks.delete(`${G}/${chunk}`);
    }
    h.slotTails.clear(); // (the heap of the earlier release: its last chunk was not kept)
    // New players go to chunks, the one holding slot 100 partly old entries and partly new.
    submitNew(h, 100, 10);
    const at = 100 % SLOTS_PER_CHUNK;
    expect(at).toBeGreaterThan(1);
    const mixed = h.store.slotChunks.get(`${G}/${Math.floor(100 / SLOTS_PER_CHUNK)}`)!;
    expect(mixed.slice(at - 2, at + 2)).toEqual([null, null, 'p100', 'p101']);
    expect(slotPlayers(h, G, 98, 4)).toEqual(['p98', 'p99', 'p100', 'p101']);
    const before = leaderboard(h, { gameId: G, limit: 1000 });
    h.games.clear();
    expect(loadGames(h)).toBe('records');
    expect(leaderboard(h, { gameId: G, limit: 1000 })).toEqual(before);
    expect(before.total).toBe(110);
});

test('players made since the last tick keep their slots and default names through an upgrade that skips pre_upgrade', () => {
    const h = harness();
    withGame(h, G);
    submitNew(h, 0, 20);
    flushStats(h); // the tick
    submitNew(h, 20, 10); // counted in the heap; their slots and the next default name in chunks
    expect(h.store.stats.get(G)!.players).toBe(20);
    // The heap is lost (no pre_upgrade): the counters come back from the chunks.
    h.slotTails.clear();
    h.games.clear();
    expect(loadGames(h)).toBe('records');
    expect(h.store.stats.get(G)).toMatchObject({ players: 30, nextDefaultName: 31 });
    expect(leaderboard(h, { gameId: G, limit: 1000 }).total).toBe(30);
    submitNew(h, 30, 2);
    expect(slotPlayers(h, G, 0, 33)).toEqual([...Array.from({ length: 32 }, (_, i) => `p${i}`), null]);
    const names = leaderboard(h, { gameId: G, limit: 1000 }).leaderboard.map((e) => e.nickname);
    expect(new Set(names).size).toBe(32);
    expect(names).toContain('Player_32');
});
