// A canister's room: the heap estimate grows with players, past the heap line every path that
// would create a player (or a game) is refused with 503 shardFull + retryAfter and changes
// nothing, existing players play on, raising the line lets new players in; the load ring.
import { MESSAGES } from '../../../contract/messages';
import { DEFAULT_HEAP_LIMIT_BYTES } from '../../../contract/shards';
import { signIn } from '../../../canister/service/accounts';
import { registerGame } from '../../../canister/service/games';
import { migrateAccount } from '../../../canister/service/merge';
import { startSession } from '../../../canister/service/play-sessions';
import { setNickname, unlockAchievements } from '../../../canister/service/players';
import {
    NEW_PLAYER_GUESS_BYTES,
    SHARD_FULL_RETRY_AFTER_SECONDS,
    assertRoomForNewPlayer,
    heapLimit,
    instructionsPerMinute,
    noteInstructions,
    recount,
    setHeapLimit,
    shardStatus,
} from '../../../canister/service/capacity';
import { flushCallWrites } from '../../../canister/service/flush';
import { Fail } from '../../../canister/domain/fail';
import { loadGames, rebuildSome } from '../../../canister/state/startup';
import { failure, harness, hashOf, key, person, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';

function submit(h: Harness, playerId: string, score = 10) {
    const [result] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak: 0 }] });
    return result;
}

/** Every stored record, as text: what "changes nothing" compares. */
function dump(h: Harness): string {
    flushCallWrites(h);
    const out: Record<string, unknown> = {};
    for (const [name, kv] of Object.entries(h.store) as Array<[string, { first(n: number): unknown; size(): number }]>)
        out[name] = kv.first(kv.size());
    return JSON.stringify(out);
}

/** The Fail a call throws, with its extra fields. */
function thrown(fn: () => unknown): Fail {
    try {
        fn();
    } catch (e) {
        if (e instanceof Fail) return e;
        throw e;
    }
    throw new Error('expected the call to fail');
}

/** Puts the line where the canister is now: the next new player does not fit. */
function fill(h: Harness): void {
    setHeapLimit(h, shardStatus(h, 'self', 'directory').heapBytes);
}

const FULL = { status: 503, message: MESSAGES.shardFull, retryAfter: SHARD_FULL_RETRY_AFTER_SECONDS };

test('the status: counts, a heap estimate that grows with players, the default line', () => {
    const h = harness();
    const empty = shardStatus(h, 'aaaaa-aa', 'directory');
    expect(empty).toMatchObject({ canisterId: 'aaaaa-aa', role: 'directory', games: 0, players: 0, full: false });
    expect(empty.heapLimitBytes).toBe(DEFAULT_HEAP_LIMIT_BYTES);
    withGame(h);
    const oneGame = shardStatus(h, 'aaaaa-aa', 'directory');
    expect(oneGame.games).toBe(1);
    expect(oneGame.heapBytes).toBeGreaterThan(empty.heapBytes);
    for (let i = 0; i < 3000; i++) expect(submit(h, `p${i}`)).toHaveProperty('ok');
    const filled = shardStatus(h, 'aaaaa-aa', 'directory');
    expect(filled.players).toBe(3000);
    // The tables of 3 boards: a few hundred bytes a player (the measured ~514 B include the runtime's share).
    const perPlayer = (filled.heapBytes - oneGame.heapBytes) / 3000;
    expect(perPlayer).toBeGreaterThan(100);
    expect(perPlayer).toBeLessThan(1024);
    expect(filled.stableBytes).toBeGreaterThan(oneGame.stableBytes + 3000 * 300);
});

test('between recounts each new player counts a guess; a minute later the tables are counted again', () => {
    const h = harness();
    withGame(h);
    const before = shardStatus(h, 'x', 'directory').heapBytes;
    submit(h, 'a');
    submit(h, 'b');
    // What the checks see (no recount yet): two guesses more.
    setHeapLimit(h, before + 2 * NEW_PLAYER_GUESS_BYTES);
    expect(thrown(() => assertRoomForNewPlayer(h)).toApiError()).toEqual(FULL);
    expect(shardStatus(h, 'x', 'directory')).toMatchObject({
        heapBytes: before + 2 * NEW_PLAYER_GUESS_BYTES,
        full: true,
    });
    setHeapLimit(h, before + 3 * NEW_PLAYER_GUESS_BYTES);
    expect(() => assertRoomForNewPlayer(h)).not.toThrow();
    // Two players fit in the tables' room to grow: counted again, they add nothing.
    h.advance(60);
    expect(shardStatus(h, 'x', 'directory').heapBytes).toBe(before);
});

test('after an upgrade without a snapshot, players not read back yet count at the guess', () => {
    const h = harness();
    withGame(h);
    for (let i = 0; i < 50; i++) submit(h, `p${i}`);
    flushCallWrites(h);
    h.advance(60); // counted, not guessed
    const loaded = shardStatus(h, 'x', 'directory').heapBytes;
    loadGames(h, 10);
    recount(h); // an upgrade starts the heap, and what capacity.ts keeps, over
    expect(h.rebuilding.get(G)).toBe(10);
    // 40 players at 1 KiB each, over tables a little smaller than 50 players'.
    expect(shardStatus(h, 'x', 'directory').heapBytes).toBeGreaterThan(loaded + 30 * NEW_PLAYER_GUESS_BYTES);
    rebuildSome(h, 100);
    expect(h.rebuilding.size).toBe(0);
    h.advance(60);
    expect(shardStatus(h, 'x', 'directory').heapBytes).toBe(loaded);
});

test('past the line: a new player is refused (503, retryAfter), nothing changes; existing players go on', () => {
    const h = harness();
    withGame(h);
    expect(submit(h, 'old', 10)).toHaveProperty('ok');
    h.advance(3);
    fill(h);
    const before = dump(h);
    expect(submit(h, 'new', 10)).toEqual({ err: FULL });
    expect(dump(h)).toBe(before);
    // A batch: the refused submit fails alone.
    const results = submitBatch(h, {
        submits: [
            { apiKey: key(h, G), gameId: G, playerId: 'new', score: 5, streak: 0 },
            { apiKey: key(h, G), gameId: G, playerId: 'old', score: 20, streak: 1 },
        ],
    });
    expect(results[0]).toEqual({ err: FULL });
    expect(results[1]).toHaveProperty('ok');
    expect(shardStatus(h, 'x', 'directory')).toMatchObject({ players: 1, full: true });
    // The old player's other writes.
    expect(setNickname(h, { apiKey: key(h, G), gameId: G, playerId: 'old', nickname: 'Oldie' }).nickname).toBe('Oldie');
    expect(
        unlockAchievements(h, { apiKey: key(h, G), gameId: G, playerId: 'old', achievementIds: ['a1'] }).unlocked,
    ).toBe(1);
    expect(startSession(h, { apiKey: key(h, G), gameId: G, playerId: 'old' }).ok).toMatch(/^ps_/);
});

test('past the line: sessions, achievements, sign-in and merges of new players are refused and change nothing', () => {
    const h = harness();
    withGame(h);
    const alice = signIn(h, G, person('alice'), 'Alice');
    submit(h, 'device-1');
    fill(h);
    const before = dump(h);
    const write = { apiKey: key(h, G), gameId: G, playerId: 'stranger' };
    expect(thrown(() => startSession(h, write)).toApiError()).toEqual(FULL);
    expect(thrown(() => unlockAchievements(h, { ...write, achievementIds: ['a1'] })).toApiError()).toEqual(FULL);
    expect(thrown(() => signIn(h, G, person('bob'), 'Bobby')).toApiError()).toEqual(FULL);
    expect(failure(() => setNickname(h, { ...write, nickname: 'Stranger' })).status).toBe(404);
    expect(dump(h)).toBe(before);
    // A known account signs in again; its merge of an existing anonymous player goes through.
    const again = signIn(h, G, person('alice'), undefined);
    expect(again.nickname).toBe(alice.nickname);
    const merged = migrateAccount(h, { sessionHash: hashOf(again.sessionId), gameId: G, deviceId: 'device-1' });
    expect(merged.migratedGames).toBe(1);
});

test('a full canister registers no game; raising the line lets new players and games in', () => {
    const h = harness();
    withGame(h);
    fill(h);
    const e = thrown(() => registerGame(h, { developerId: 'dev-2', gameId: 'other-game', name: 'Other' }));
    expect(e.status).toBe(503);
    expect(e.extra.retryAfter).toBe(SHARD_FULL_RETRY_AFTER_SECONDS);
    expect(h.store.games.get('other-game')).toBeUndefined();
    expect(submit(h, 'new')).toEqual({ err: FULL });
    setHeapLimit(h, DEFAULT_HEAP_LIMIT_BYTES);
    expect(submit(h, 'new')).toHaveProperty('ok');
    expect(registerGame(h, { developerId: 'dev-2', gameId: 'other-game', name: 'Other' }).game.gameId).toBe(
        'other-game',
    );
});

test('the heap line: a non-negative integer', () => {
    const h = harness();
    expect(heapLimit(h)).toBe(DEFAULT_HEAP_LIMIT_BYTES);
    for (const bad of [-1, 1.5, '10', null, undefined, Number.MAX_VALUE])
        expect(failure(() => setHeapLimit(h, bad))).toEqual({
            status: 400,
            message: 'Invalid heapLimitBytes: must be a non-negative integer of bytes',
        });
    expect(heapLimit(h)).toBe(DEFAULT_HEAP_LIMIT_BYTES);
    expect(setHeapLimit(h, 0)).toEqual({ heapLimitBytes: 0 });
    expect(heapLimit(h)).toBe(0);
});

test('instructions per minute: the last five minutes, averaged', () => {
    const h = harness();
    expect(instructionsPerMinute(h)).toBe(0);
    noteInstructions(h, 1_000_000);
    noteInstructions(h, 4_000_000);
    expect(instructionsPerMinute(h)).toBe(1_000_000);
    h.advance(60);
    noteInstructions(h, 5_000_000);
    expect(instructionsPerMinute(h)).toBe(2_000_000);
    h.advance(4 * 60);
    // The first minute has left the window.
    expect(instructionsPerMinute(h)).toBe(1_000_000);
    h.advance(60);
    expect(instructionsPerMinute(h)).toBe(0);
});
