// A game's event log: numbered from 1 in order, read from any seq, bounded (the oldest dropped
// first, and a reader that fell behind is told what it missed), and never mixing games.
import { EVENTS_KEEP } from '../../../contract/event-log';
import type { NewEvent } from '../../../contract/events';
import { latestSeq, readEvents, recordEvent } from '../../../canister/service/events';
import { flushCallWrites } from '../../../canister/service/flush';
import { harness, withGame, withReader, S, type Harness } from './harness';

const banned = (playerId: string): NewEvent => ({ kind: 'player_banned', playerId, reason: 'test' });

function record(h: Harness, gameId: string, n: number): void {
    const game = h.games.get(gameId)!;
    for (let i = 0; i < n; i++) recordEvent(h, game, banned(`p${i}`));
    flushCallWrites(h);
}

test('events are numbered from 1 and read in order from any seq', () => {
    const h = harness();
    const g = 'my-game';
    withGame(h, g);
    withReader(h, g);
    expect(readEvents(h, g, 0)).toEqual({ events: [], next: 0, latest: 0 });
    record(h, g, 5);
    h.advance(S);
    const page = readEvents(h, g, 0, 3);
    expect(page.events.map((e) => [e.seq, e.id, e.kind])).toEqual([
        [1, `evt_${g}_1`, 'player_banned'],
        [2, `evt_${g}_2`, 'player_banned'],
        [3, `evt_${g}_3`, 'player_banned'],
    ]);
    expect(page).toMatchObject({ next: 3, latest: 5 });
    expect(readEvents(h, g, page.next).events.map((e) => e.seq)).toEqual([4, 5]);
    expect(readEvents(h, g, 5)).toEqual({ events: [], next: 5, latest: 5 });
});

test('the log keeps the newest EVENTS_KEEP events and says what a late reader missed', () => {
    const h = harness();
    const g = 'my-game';
    withGame(h, g);
    withReader(h, g);
    record(h, g, EVENTS_KEEP + 7);
    const page = readEvents(h, g, 2, 2);
    expect(page.missed).toEqual({ from: 3, to: 7 });
    expect(page.events.map((e) => e.seq)).toEqual([8, 9]);
    expect(latestSeq(h, g)).toBe(EVENTS_KEEP + 7);
});

test("one game's events never show in another's log", () => {
    const h = harness();
    const [a, b] = ['game-a', 'game-b'];
    withGame(h, a);
    withGame(h, b);
    withReader(h, a);
    withReader(h, b);
    record(h, a, 3);
    expect(readEvents(h, b, 0).events).toEqual([]);
    record(h, b, 1);
    expect(readEvents(h, b, 0).events.map((e) => e.gameId)).toEqual(['game-b']);
});

test('a game without a reader (no server key, no webhook) records nothing', () => {
    const h = harness();
    withGame(h, 'quiet-game');
    record(h, 'quiet-game', 3);
    expect(readEvents(h, 'quiet-game', 0)).toEqual({ events: [], next: 0, latest: 0 });
    expect(h.store.events.size()).toBe(0);
});

test('without a server key, only the kinds a webhook subscribes to are recorded', () => {
    const h = harness();
    withGame(h, 'hooked-game');
    const game = h.games.get('hooked-game')!;
    game.record.webhooks = [{ webhookId: 'whk_0000000000000001', kinds: ['player_wiped'], paused: true }];
    recordEvent(h, game, banned('a'));
    recordEvent(h, game, { kind: 'player_wiped', playerId: 'a' });
    flushCallWrites(h);
    expect(readEvents(h, 'hooked-game', 0).events.map((e) => e.kind)).toEqual(['player_wiped']);
});
