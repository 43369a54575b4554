// What the canister records in a game's event log: bans and wipes, new leaders and the players a
// submit passed inside a board's top N (by the board's order, operator and sortBy), closed
// periods, logged rejections, and every accepted submit only when the game asks for it.
import type { GameEvent } from '../../../contract/events';
import { readEvents } from '../../../canister/service/events';
import { ban, removeBoardEntry, unban, wipePlayer } from '../../../canister/service/moderation';
import { submitBatch } from '../../../canister/service/scores';
import { harness, key, withGame, type Harness } from './harness';

const G = 'ev-game';

function setup(): Harness {
    const h = harness();
    withGame(h, G);
    return h;
}
const game = (h: Harness) => h.games.get(G)!;
/** The events after `after`, without id, seq, gameId and at. */
function events(h: Harness, after = 0): Array<Record<string, unknown>> {
    return readEvents(h, G, after, 100).events.map((e: GameEvent) => {
        const { id, seq, gameId, at, ...rest } = e;
        void [id, seq, gameId, at];
        return rest;
    });
}
function submit(h: Harness, playerId: string, score: number, extra: Record<string, unknown> = {}) {
    h.advance(3);
    const [r] = submitBatch(h, {
        submits: [{ apiKey: key(h, G), gameId: G, playerId, score, streak: 0, ...extra }],
    });
    if (!('ok' in r)) throw new Error(r.err.message);
    return r.ok;
}

describe('bans and wipes', () => {
    test('player_banned on every ban (with its reason), none on unban', () => {
        const h = setup();
        submit(h, 'cheater', 5);
        const after = readEvents(h, G, 0).latest;
        ban(h, game(h), { playerId: 'cheater', reason: 'aimbot' });
        ban(h, game(h), { playerId: 'never-seen' });
        unban(h, game(h), { playerId: 'cheater' });
        expect(events(h, after)).toEqual([
            { kind: 'player_banned', playerId: 'cheater', reason: 'aimbot' },
            { kind: 'player_banned', playerId: 'never-seen', reason: '' },
        ]);
    });

    test('a refused ban records nothing', () => {
        const h = setup();
        ban(h, game(h), { playerId: 'p' });
        expect(() => ban(h, game(h), { playerId: 'p' })).toThrow();
        expect(() => ban(h, game(h), { playerId: 'q', reason: 7 })).toThrow();
        expect(events(h).filter((e) => e.kind === 'player_banned')).toHaveLength(1);
    });

    test('player_wiped on a wipe (no board) and on one removed entry (its board)', () => {
        const h = setup();
        submit(h, 'p1', 5);
        const after = readEvents(h, G, 0).latest;
        removeBoardEntry(h, game(h), { playerId: 'p1', scoreboardId: 'daily' });
        wipePlayer(h, game(h), { playerId: 'p1' });
        expect(() => wipePlayer(h, game(h), { playerId: 'nobody' })).toThrow();
        expect(events(h, after)).toEqual([
            { kind: 'player_wiped', playerId: 'p1', scoreboardId: 'daily' },
            { kind: 'player_wiped', playerId: 'p1' },
        ]);
    });
});
