// An operator's backup of a game (move_out_begin with `backup`): writes pause only while it is
// staged, the staged copy is that point in time and imports whole elsewhere; the directory's
// records page out and back, what a target has already stays; a backup's tool that died never
// leaves a game paused for long.
import { backupRecords, restoreRecords } from '../../../canister/service/directory-records';
import { deleteAnyGame } from '../../../canister/service/developers';
import { flushCallWrites } from '../../../canister/service/flush';
import {
    dropStaleBackups,
    moveAbort,
    moveInChunk,
    moveInEnd,
    moveOutBegin,
    moveOutChunk,
    moveOutEnd,
} from '../../../canister/service/move';
import * as reads from '../../../canister/service/reads';
import { MESSAGES } from '../../../contract/messages';
import { failure, harness, key, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'backed-up';

function call<T>(h: Harness, fn: () => T): T {
    const out = fn();
    flushCallWrites(h);
    return out;
}

function submit(h: Harness, playerId: string, score: number): unknown {
    h.advance(2);
    return call(h, () =>
        submitBatch(h, { submits: [{ gameId: G, apiKey: key(h, G), playerId, score, streak: 1 }] }),
    )[0];
}

function played(): Harness {
    const h = harness();
    withGame(h, G);
    for (let i = 0; i < 30; i++) expect(submit(h, `p${i}`, 100 + i)).toMatchObject({ ok: {} });
    return h;
}

test('writes pause while a backup is staged only; the staged copy is that moment and imports whole', () => {
    const h = played();
    const first = call(h, () => moveOutBegin(h, { gameId: G, backup: true }));
    expect(first.ready).toBe(false);
    expect(submit(h, 'late', 1)).toEqual({ err: { status: 503, message: MESSAGES.gameMoving, retryAfter: 5 } });
    const staged = call(h, () => moveOutBegin(h, { gameId: G, backup: true }));
    expect(staged).toMatchObject({ ready: true, players: 30 });
    // Staged: writes go on, the copy stays as it was.
    expect(submit(h, 'after', 999)).toMatchObject({ ok: {} });
    const chunks = Array.from({ length: staged.chunks }, (_, index) => moveOutChunk(h, { gameId: G, index }).data);
    expect(chunks.join('')).not.toContain('"after"');
    // Never a move: the game stays here, and a move waits until the backup is dropped.
    expect(failure(() => moveOutEnd(h, { gameId: G, to: 'rrkah-fqaaa-aaaaa-aaaaq-cai' })).status).toBe(409);
    expect(failure(() => moveOutBegin(h, { gameId: G })).message).toMatch(/A backup of 'backed-up' is being taken/);
    expect(call(h, () => moveAbort(h, { gameId: G })).message).toBe(
        "The backup of 'backed-up' staged here was dropped.",
    );
    expect(h.store.moveChunks.size()).toBe(0);
    // Imported elsewhere, it reads as the source did when staged.
    const other = harness();
    chunks.forEach((data, index) => call(other, () => moveInChunk(other, { gameId: G, index, data })));
    call(other, () => moveInEnd(other, { gameId: G, chunks: chunks.length, checksum: staged.checksum }));
    const top = reads.leaderboard(other, { gameId: G, limit: 100 });
    expect(top.total).toBe(30);
    expect(top.leaderboard[0]).toMatchObject({ score: 129 });
    expect(reads.leaderboard(h, { gameId: G, limit: 1 }).leaderboard[0]).toMatchObject({ score: 999 });
});

test('a second backup starts afresh; a staging whose tool died stops pausing writes after 10 minutes', () => {
    const h = played();
    call(h, () => moveOutBegin(h, { gameId: G, backup: true }));
    const one = call(h, () => moveOutBegin(h, { gameId: G, backup: true }));
    expect(submit(h, 'between', 500)).toMatchObject({ ok: {} });
    const again = call(h, () => moveOutBegin(h, { gameId: G, backup: true }));
    expect(again.ready).toBe(false); // a new staging: the game's writes pause again
    expect(one.ready).toBe(true);
    h.advance(9 * 60);
    call(h, () => dropStaleBackups(h));
    expect(submit(h, 'still-paused', 1)).toMatchObject({ err: { status: 503 } });
    h.advance(2 * 60);
    call(h, () => dropStaleBackups(h));
    expect(submit(h, 'free', 1)).toMatchObject({ ok: {} });
    expect(h.store.meta.get('moveOut')).toBeUndefined();
    expect(h.store.moveChunks.size()).toBe(0);
    // A staged one nobody dropped goes after a day.
    call(h, () => moveOutBegin(h, { gameId: G, backup: true }));
    call(h, () => moveOutBegin(h, { gameId: G, backup: true }));
    expect(h.store.moveChunks.size()).toBeGreaterThan(0);
    h.advance(25 * 3600);
    call(h, () => dropStaleBackups(h));
    expect(h.store.moveChunks.size()).toBe(0);
});

test("directory records page out and back: checked first, the target's own kept, developers learn their games", () => {
    const h = harness();
    for (let i = 0; i < 5; i++)
        h.store.developers.set(`dev-${i}`, {
            developerId: `dev-${i}`,
            allowance: 3,
            gameIds: [`g${i}`],
            email: `d${i}@x`,
        });
    const first = backupRecords(h, { table: 'developers', start: 0 });
    expect(first.records).toHaveLength(5);
    expect(first.next).toBeNull();
    expect(backupRecords(h, { table: 'developers', start: 3 }).records.map(([k]) => k)).toEqual(['dev-3', 'dev-4']);
    expect(failure(() => backupRecords(h, { table: 'games' as never })).status).toBe(400);

    const target = harness();
    target.store.developers.set('dev-1', { developerId: 'dev-1', allowance: 10, gameIds: ['mine'] });
    target.store.developerKeys.set('https://idp\nsub-1', 'dev-1');
    // One bad record: nothing is written.
    const bad = [...first.records, ['dev-9', { developerId: 'other', allowance: 1, gameIds: [] }]] as Array<
        [string, unknown]
    >;
    expect(failure(() => restoreRecords(target, { table: 'developers', records: bad })).message).toMatch(/item 5/);
    expect(target.store.developers.size()).toBe(1);
    expect(restoreRecords(target, { table: 'developers', records: first.records })).toEqual({
        written: 4,
        kept: 1,
        existing: ['dev-1'],
    });
    expect(target.store.developers.get('dev-1')).toEqual({
        developerId: 'dev-1',
        allowance: 10,
        gameIds: ['mine', 'g1'],
    });
    expect(target.store.developers.get('dev-2')).toMatchObject({ email: 'd2@x', gameIds: ['g2'] });
    // An identity the target signs in already stays its own.
    const keys: Array<[string, unknown]> = [
        ['https://idp\nsub-1', 'dev-3'],
        ['https://idp\nsub-2', 'dev-2'],
    ];
    expect(restoreRecords(target, { table: 'developerKeys', records: keys })).toMatchObject({ written: 1, kept: 1 });
    expect(target.store.developerKeys.get('https://idp\nsub-1')).toBe('dev-1');
    expect(failure(() => restoreRecords(target, { table: 'players' as never, records: [] })).status).toBe(400);
});

test('an operator deletes a game only by repeating its id', () => {
    const h = played();
    expect(failure(() => deleteAnyGame(h, { gameId: G, confirm: 'nope' })).status).toBe(400);
    expect(failure(() => deleteAnyGame(h, { gameId: 'none', confirm: 'none' })).status).toBe(404);
    expect(deleteAnyGame(h, { gameId: G, confirm: G }).message).toMatch(/deleted/);
    expect(h.games.has(G)).toBe(false);
});
