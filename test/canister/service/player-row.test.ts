// The submit path on a record's stored arrays (state/player-row.ts): what it writes is exactly
// what the codec writes for the same record, through renames, metadata, tiebreaks, expiring
// paces, deleted boards and records of the older object form; and a rebase keeps every time.
import { createBoard, deleteBoard } from '../../../canister/service/games';
import { decodePlayer, encodePlayer, parseRow, playerOfRow, rowOfPlayer } from '../../../canister/state/player-codec';
import { lastSubmitOf, rebase, type PlayerRow } from '../../../canister/state/player-row';
import { PLAY_DEDUPE_US, RATE_WINDOW_US } from '../../../canister/domain/throttle';
import { playerKey } from '../../../canister/state/store';
import { harness, key, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'my-game';

/** The stored text of a player's record. */
function stored(h: Harness, playerId: string): string {
    const row = h.store.players.row(playerKey(G, playerId));
    expect(row).toBeDefined();
    return JSON.stringify(row);
}

/** The stored text is the codec's own form of the record it holds. */
function expectCanonical(h: Harness, playerId: string): void {
    const text = stored(h, playerId);
    expect(encodePlayer(decodePlayer(text))).toBe(text);
}

function send(h: Harness, submit: Record<string, unknown>): void {
    const [r] = submitBatch(h, { submits: [{ apiKey: key(h, G), gameId: G, streak: 0, ...submit }] });
    expect(r).toEqual({ ok: expect.anything() });
}

test('every submit writes the record in the form the codec writes', () => {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'race', type: 'monthly', tiebreak: 'asc' });
    createBoard(h, { gameId: G, scoreboardId: 'laps', type: 'targeted', operator: 'sum' });
    createBoard(h, { gameId: G, scoreboardId: 'gone', type: 'targeted' });
    send(h, { playerId: 'a', score: 10 });
    expectCanonical(h, 'a');
    h.advance(3);
    // A rename after a welcome: the welcome keeps the name it was given.
    send(h, { playerId: 'a', score: 12, nickname: 'Ace', metadata: { car: 'red' }, tiebreak: 300 });
    expectCanonical(h, 'a');
    expect(decodePlayer(stored(h, 'a')).nickname).toBe('Ace');
    h.advance(3);
    send(h, { playerId: 'a', score: 5, scoreboardId: 'laps', metadata: { lap: 1 } });
    send(h, { playerId: 'a', score: 7, scoreboardId: 'gone' });
    expectCanonical(h, 'a');
    h.advance(3);
    // No new best, a better tiebreak, the old paces expired.
    send(h, { playerId: 'a', score: 12, tiebreak: 100, nickname: 'Ace' });
    expectCanonical(h, 'a');
    deleteBoard(h, { gameId: G, scoreboardId: 'gone' });
    h.advance(60);
    send(h, { playerId: 'a', score: 20, streak: 4, metadata: { car: 'blue' } });
    expectCanonical(h, 'a');
    const a = decodePlayer(stored(h, 'a'));
    expect(Object.keys(a.boards).sort()).toEqual(['daily', 'laps', 'race', 'weekly']);
    expect(Object.keys(a.pace)).toEqual(['*']);
    expect(a).toMatchObject({ best: { score: 20, streak: 4 }, bestMetadata: '{"car":"blue"}', playCount: 6 });
    expect(a.boards.race).toMatchObject({ score: 20, metadata: '{"car":"blue"}' });
    expect(a.boards.laps).toMatchObject({ score: 5, metadata: '{"lap":1}' });
});

test('a record of the older object form is read and written in the compact form', () => {
    const h = harness();
    withGame(h);
    send(h, { playerId: 'old', score: 10 });
    const k = playerKey(G, 'old');
    const record = decodePlayer(stored(h, 'old'));
    h.store.players.delete(k);
    // What releases before the compact form wrote: the record's object as JSON.
    h.store.players.setRow(k, JSON.parse(JSON.stringify(record)) as PlayerRow);
    expect(parseRow(JSON.stringify(record))).toEqual(rowOfPlayer(record));
    h.advance(3);
    send(h, { playerId: 'old', score: 11 });
    expectCanonical(h, 'old');
    expect(decodePlayer(stored(h, 'old'))).toMatchObject({ slot: record.slot, best: { score: 11 }, playCount: 2 });
});

test('a rebase moves lastPlayed and keeps every time', () => {
    const h = harness();
    withGame(h);
    send(h, { playerId: 'p', score: 10, nickname: 'Pat' });
    const text = stored(h, 'p');
    const row = parseRow(text);
    const before = playerOfRow(row);
    rebase(row, before.lastPlayed + 123_456_789);
    expect(playerOfRow(row)).toEqual({ ...before, lastPlayed: before.lastPlayed + 123_456_789 });
    rebase(row, before.lastPlayed);
    expect(JSON.stringify(row)).toBe(text);
});

test('a pace past the de-duplication window is left out: it decides nothing any more', () => {
    // pace() and countsAsPlay() answer for such a pace as for none only while this holds.
    expect(PLAY_DEDUPE_US).toBeGreaterThanOrEqual(RATE_WINDOW_US);
    const h = harness();
    withGame(h);
    send(h, { playerId: 'p', score: 10 });
    const row = parseRow(stored(h, 'p'));
    const at = playerOfRow(row).lastPlayed;
    expect(lastSubmitOf(row, '*', at + PLAY_DEDUPE_US - 1)).toMatchObject({ at, score: 10, streak: 0 });
    expect(lastSubmitOf(row, '*', at + PLAY_DEDUPE_US)).toBeUndefined();
    expect(lastSubmitOf(row, 'other', at)).toBeUndefined();
});
