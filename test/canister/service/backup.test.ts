// A game's backup for its developer and its import: the imported game reads as the source did
// (boards, archives, profiles, ranks) under a new key and the named developer; the file holds
// nothing of accounts, sessions or keys; only the game's developer pages it; a bad or crafted
// file changes nothing, writes into no other game and breaks no limit.
import { BACKUP_PAGE_BYTES, type BackupItem, type BackupPage } from '../../../contract/backup';
import { signIn } from '../../../canister/service/accounts';
import { backupPage, importChunk, importEnd } from '../../../canister/service/backup';
import { developerSignIn, registerOwnGame } from '../../../canister/service/developers';
import { flushCallWrites } from '../../../canister/service/flush';
import { createBoard, registerGame, resolveKey } from '../../../canister/service/games';
import { ban } from '../../../canister/service/moderation';
import { moveAbort } from '../../../canister/service/move';
import { profile, unlockAchievements } from '../../../canister/service/players';
import * as reads from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { rotateServerKey } from '../../../canister/service/server-keys';
import { addWebhook } from '../../../canister/service/webhooks';
import { chunksOf } from '../../../gateway/backups/game-file';
import { failure, harness, hashOf, key, person, present, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'backup-game';

function call<T>(h: Harness, fn: () => T): T {
    const out = fn();
    flushCallWrites(h);
    return out;
}

/** A played game: 3 boards of its own, metadata, achievements, bans, a signed-in player, an archive. */
function played(): { h: Harness; dev: { sessionHash: string; gameId: string }; session: string } {
    const h = harness('2026-03-04T12:00:00Z');
    const ada = (): string => hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    call(h, () => registerOwnGame(h, { sessionHash: ada(), gameId: G, name: 'Backup' }));
    call(h, () =>
        createBoard(h, {
            gameId: G,
            scoreboardId: 'laps',
            type: 'targeted',
            sortOrder: 'asc',
            format: { kind: 'milliseconds' },
        }),
    );
    call(h, () => createBoard(h, { gameId: G, scoreboardId: 'sprint', type: 'custom', days: 7, tiebreak: 'asc' }));
    call(h, () => createBoard(h, { gameId: G, scoreboardId: 'coins', type: 'targeted', operator: 'sum' }));
    call(h, () => rotateServerKey(h, { gameId: G }));
    call(h, () => addWebhook(h, h.games.get(G)!, { url: 'https://hooks.example/secret-path', kinds: ['new_leader'] }));
    for (let i = 0; i < 40; i++) {
        const as = { gameId: G, apiKey: key(h, G), playerId: `p${i}` };
        const nickname = i % 3 === 0 ? `Name${i}` : undefined;
        const submits = [
            { ...as, score: 100 + i * 7, streak: i % 5, nickname, tiebreak: i % 4 === 0 ? undefined : i * 3 },
            { ...as, score: 60_000 - i * 13, streak: 0, scoreboardId: 'laps', metadata: { lap: i } },
            { ...as, score: i, streak: 0, scoreboardId: 'coins' },
        ];
        call(h, () => submitBatch(h, { submits }));
    }
    call(h, () =>
        unlockAchievements(h, { apiKey: key(h, G), gameId: G, playerId: 'p1', achievementIds: ['first', 'second'] }),
    );
    call(h, () => ban(h, h.games.get(G)!, { gameId: G, playerId: 'p2', reason: 'cheat' }));
    call(h, () => ban(h, h.games.get(G)!, { gameId: G, playerId: 'nobody-yet', reason: 'pre-emptive' }));
    const approval = call(h, () => signIn(h, G, person('alice', 'google', 'alice@mail.example'), 'Alice'));
    h.advance(3);
    call(h, () =>
        submitBatch(h, { submits: [{ gameId: G, sessionHash: hashOf(approval.sessionId), score: 999, streak: 3 }] }),
    );
    h.advance(8 * 86_400);
    call(h, () => rolloverAll(h));
    call(h, () =>
        submitBatch(h, { submits: [{ gameId: G, apiKey: key(h, G), playerId: 'p5', score: 5_000, streak: 1 }] }),
    );
    // The developer signs in again (a dashboard session lasts a week).
    return { h, dev: { sessionHash: call(h, ada), gameId: G }, session: approval.sessionId };
}

/** The whole file's records, page by page as the gateway reads them. */
function backupOf(h: Harness, dev: { sessionHash: string; gameId: string }): { records: string[]; pages: number } {
    const items: BackupItem[] = [];
    let cursor: number | null = 0;
    let pages = 0;
    while (cursor !== null) {
        const page: BackupPage = present(backupPage(h, { ...dev, cursor }));
        items.push(...page.items);
        cursor = page.next;
        pages++;
    }
    return { records: items.map((item) => JSON.stringify(item)), pages };
}

function importInto(
    h: Harness,
    records: string[],
    developerId = 'operator',
): { gameId: string; apiKey: string; players: number } {
    const chunks = chunksOf(records);
    chunks.forEach((data, index) => call(h, () => importChunk(h, { gameId: G, index, data })));
    return call(h, () => importEnd(h, { gameId: G, chunks: chunks.length, developerId }));
}

/** What players and games read of the game. */
function everyRead(h: Harness): unknown {
    const g = { gameId: G };
    const boards = ['all-time', 'weekly', 'daily', 'laps', 'sprint', 'coins'];
    return present({
        leaderboard: reads.leaderboard(h, g),
        streaks: reads.leaderboard(h, { ...g, sort: 'streak' }),
        list: reads.listBoards(h, g),
        boards: boards.flatMap((boardId) => [
            reads.readBoard(h, { ...g, boardId, limit: 100 }),
            reads.readBoard(h, { ...g, boardId, limit: 10, offset: 20 }),
        ]),
        archives: reads.listArchives(h, { ...g, boardId: 'sprint' }),
        archive: reads.readArchive(h, { ...g, boardId: 'sprint' }),
        weekly: reads.readArchive(h, { ...g, boardId: 'weekly' }),
        archiveStats: reads.archiveStats(h, g),
        ranks: ['p7', 'p2', 'p39'].map((playerId) => reads.playerRank(h, { ...g, playerId, percentile: true })),
        around: reads.around(h, { ...g, boardId: 'laps', playerId: 'p9' }),
        stats: reads.gameStats(h, g),
        profiles: ['p1', 'p2', 'p3', 'p5', 'p39'].map((playerId) => profile(h, { ...g, playerId })),
    });
}

test('an imported backup reads as the source did, under a new key and the named developer', () => {
    const { h, dev } = played();
    const before = everyRead(h);
    // The tiebreak board's entries and its archive carry their tiebreaks (the file must keep them).
    expect(JSON.stringify(before)).toMatch(/"tiebreak":117/);
    const { records, pages } = backupOf(h, dev);
    expect(pages).toBeGreaterThan(1);
    const dst = harness('2026-03-12T12:00:01Z');
    dst.time = h.time;
    const imported = importInto(dst, records, 'bob');
    expect(imported).toMatchObject({ gameId: G, players: 41 });
    expect(imported.apiKey).not.toBe(key(h, G));
    expect(everyRead(dst)).toEqual(before);
    expect(resolveKey(dst, imported.apiKey)).toEqual({ gameId: G, isActive: true });
    expect(failure(() => resolveKey(dst, key(h, G))).status).toBe(401);
    const record = dst.games.get(G)!.record;
    expect(record.developerId).toBe('bob');
    expect('serverKey' in record || 'webhooks' in record).toBe(false);
    expect(dst.store.developers.get('bob')?.gameIds).toEqual([G]);
    // The banned stay banned, the names stay taken, the game goes on.
    dst.advance(3);
    const [banned, renamed, fresh] = call(dst, () =>
        submitBatch(dst, {
            submits: [
                { gameId: G, apiKey: imported.apiKey, playerId: 'p2', score: 1, streak: 0 },
                { gameId: G, apiKey: imported.apiKey, playerId: 'p4', score: 1, streak: 0, nickname: 'Name3' },
                { gameId: G, apiKey: imported.apiKey, playerId: 'new-one', score: 10_000, streak: 0 },
            ],
        }),
    );
    expect(banned).toMatchObject({ err: { status: 403 } });
    expect(renamed).toMatchObject({ ok: {} });
    expect(profile(dst, { gameId: G, playerId: 'p4' }).nickname).not.toBe('Name3');
    expect(fresh).toMatchObject({ ok: {} });
    expect(reads.leaderboard(dst, { gameId: G }).leaderboard[0]).toMatchObject({ score: 10_000 });
});

test('the file holds no emails, identities, sessions, keys or webhooks, and only the developer reads it', () => {
    const { h, dev, session } = played();
    const text = backupOf(h, dev).records.join('\n');
    const record = h.games.get(G)!.record;
    expect(text).toContain('["player","@'); // the signed-in player, by the id the dashboard shows
    for (const secret of [
        'alice@mail.example',
        'https://idp.example',
        '"alice"',
        hashOf(session),
        session,
        record.apiKey,
        record.serverKey!.hash,
        'hooks.example',
        'ada@example.com',
        '"pace"',
        'identity',
    ])
        expect(text).not.toContain(secret);
    const other = hashOf(developerSignIn(h, { identity: person('eve', 'local') }).sessionToken);
    expect(failure(() => backupPage(h, { sessionHash: other, gameId: G }))).toEqual({
        status: 404,
        message: 'Game not found among your games',
    });
    expect(failure(() => backupPage(h, { sessionHash: 'f'.repeat(64), gameId: G })).status).toBe(401);
    expect(failure(() => backupPage(h, { ...dev, cursor: -1 })).status).toBe(400);
});

/** `records` with record `i` replaced (its JSON value). */
const edit = (records: string[], i: number, change: (item: [string, string, any]) => unknown): string[] =>
    records.map((r, j) => (j === i ? JSON.stringify(change(JSON.parse(r))) : r));

test('a bad or crafted file is refused with a clear error and changes nothing', () => {
    const { h, dev } = played();
    const { records } = backupOf(h, dev);
    const at = (kind: string, from = 0): number => records.findIndex((r, i) => i >= from && r.startsWith(`["${kind}"`));
    const player = at('player');
    const cases: Array<[string[], RegExp]> = [
        [records.slice(1), /record 0 must be the game record/],
        [edit(records, 0, ([k, , v]) => [k, 'other-game', { ...v, gameId: 'other-game' }]), /is not a record of game/],
        [edit(records, player, ([, k, v]) => ['session', k, v]), /unknown kind 'session'/],
        [
            edit(records, at('achievements'), ([k, key, v]) => [k, key.replace(G, 'victim-game'), v]),
            /is not of game 'backup-game'/,
        ],
        [edit(records, at('bans'), ([k, key, v]) => [k, key.replace(G, 'victim-game'), v]), /is not a ban in game/],
        [
            edit(records, player, ([k, key, v]) => [
                k,
                key,
                { ...v, boards: { laps: { ...v.boards.laps, score: -5 } } },
            ]),
            /Invalid score/,
        ],
        [edit(records, player, ([k, key, v]) => [k, key, { ...v, nickname: 'x'.repeat(40) }]), /nickname/i],
        [
            edit(records, player, ([k, key, v]) => [k, key, { ...v, best: { ...v.best, tiebreak: -1 } }]),
            /Invalid tiebreak/,
        ],
        [
            edit(records, 0, ([k, key, v]) => [
                k,
                key,
                {
                    ...v,
                    boards: v.boards.map((b: any) => (b.scoreboardId === 'weekly' ? { ...b, tiebreak: 'asc' } : b)),
                },
            ]),
            /tiebreak: is only for boards of their own/,
        ],
        [edit(records, player, ([k, key, v]) => [k, key, { ...v, slot: 1e9 }]), /Invalid slot/],
        [
            edit(records, at('player', player + 1), ([k, , v]) => [k, JSON.parse(records[player])[1], v]),
            /a second time/,
        ],
        [
            edit(records, at('achievements'), ([k, key]) => [k, key, Array.from({ length: 1001 }, (_, i) => `a${i}`)]),
            /at most 1000/,
        ],
        [
            edit(records, at('archives'), ([k, key, v]) => [k, key, { ...v, entries: Array(1001).fill(v.entries[0]) }]),
            /at most 1000/,
        ],
        [
            edit(records, at('archives'), ([k, key, v]) => [k, key, { ...v, gameId: 'victim-game', periodStart: 1 }]),
            /not an archive the game record lists/,
        ],
        [
            edit(records, 0, ([k, key, v]) => [k, key, { ...v, boards: Array(200).fill(v.boards[3]) }]),
            /at most 100 boards/,
        ],
        [
            edit(records, player, ([k, key, v]) => [k, key, { ...v, boards: { 'no-such-board': v.boards.laps } }]),
            /not a timed or targeted board/,
        ],
        [
            edit(records, player, ([k, key, v]) => [
                k,
                key,
                { ...v, boards: { laps: { ...v.boards.laps, metadata: 'x'.repeat(300) } } },
            ]),
            /metadata/,
        ],
    ];
    const dst = harness();
    dst.time = h.time;
    const other = registerGame(dst, { developerId: 'dev-2', gameId: 'victim-game', name: 'Victim' });
    flushCallWrites(dst);
    const untouched = JSON.stringify(present([...dst.store.players.first(1000)]));
    for (const [file, message] of cases) {
        const chunks = chunksOf(file);
        let error: ReturnType<typeof failure> | undefined;
        for (let index = 0; index < chunks.length && error === undefined; index++) {
            try {
                call(dst, () => importChunk(dst, { gameId: G, index, data: chunks[index] }));
            } catch {
                error = failure(() => importChunk(dst, { gameId: G, index, data: chunks[index] }));
            }
        }
        expect(error).toMatchObject({ status: 400, message: expect.stringMatching(message) });
        // What the CLI does on any failure: the half import is dropped.
        try {
            call(dst, () => moveAbort(dst, { gameId: G }));
        } catch {
            // nothing was taken
        }
        expect(dst.games.has(G)).toBe(false);
        expect(resolveKey(dst, other.apiKey)).toEqual({ gameId: 'victim-game', isActive: true });
        expect(JSON.stringify(present([...dst.store.players.first(1000)]))).toBe(untouched);
    }
    // Counters claiming more players than came count those that came.
    const claims = harness();
    claims.time = h.time;
    importInto(
        claims,
        edit(records, 1, ([k, key, v]) => [k, key, { ...v, players: 5_000_000 }]),
    );
    expect(reads.gameStats(claims, { gameId: G }).totalPlayers).toBe(41);
    expect(
        failure(() =>
            importChunk(harness(), {
                gameId: G,
                index: 0,
                data: chunksOf(edit(records, 1, ([k, key, v]) => [k, key, { ...v, players: 1e9 }]))[0],
            }),
        ).message,
    ).toMatch(/Invalid players/);
    // A taken id is refused by name; the right file goes in under another developer.
    const taken = harness();
    registerGame(taken, { developerId: 'dev-2', gameId: G, name: 'Mine' });
    expect(failure(() => importChunk(taken, { gameId: G, index: 0, data: chunksOf(records)[0] }))).toEqual({
        status: 409,
        message: `Game ID '${G}' is already taken.`,
    });
});

test('a page ends near BACKUP_PAGE_BYTES however large its players are, and the file still goes in', () => {
    const h = harness('2026-03-04T12:00:00Z');
    const sessionHash = hashOf(developerSignIn(h, { identity: person('ada', 'local') }).sessionToken);
    call(h, () => registerOwnGame(h, { sessionHash, gameId: G, name: 'Heavy' }));
    const boards = Array.from({ length: 90 }, (_, i) => `b${i}`);
    for (const scoreboardId of boards) call(h, () => createBoard(h, { gameId: G, scoreboardId, type: 'targeted' }));
    const metadata = { note: 'x'.repeat(200) };
    for (let i = 0; i < 40; i++)
        call(h, () =>
            submitBatch(h, {
                submits: boards.map((scoreboardId) => ({
                    gameId: G,
                    apiKey: key(h, G),
                    playerId: `p${i}`,
                    score: i,
                    streak: 0,
                    scoreboardId,
                    metadata,
                })),
            }),
        );
    const pages: number[] = [];
    let cursor: number | null = 0;
    const records: string[] = [];
    while (cursor !== null) {
        const page: BackupPage = present(backupPage(h, { sessionHash, gameId: G, cursor }));
        pages.push(JSON.stringify(page).length);
        records.push(...page.items.map((item) => JSON.stringify(item)));
        cursor = page.next;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(Math.max(...pages)).toBeLessThan(BACKUP_PAGE_BYTES + 100_000);
    const dst = harness();
    dst.time = h.time;
    expect(importInto(dst, records)).toMatchObject({ players: 40 });
    expect(present(reads.readBoard(dst, { gameId: G, boardId: 'b89', limit: 100 }))).toEqual(
        present(reads.readBoard(h, { gameId: G, boardId: 'b89', limit: 100 })),
    );
});
