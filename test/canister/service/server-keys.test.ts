// Server keys: made, rotated and revoked, the old one dead at once, bound to their
// game; server writes for anonymous and account players; the server-only and skip-checks game
// settings; the feed read with the server key.
import { SERVER_KEY } from '../../../contract/rules';
import { MESSAGES } from '../../../contract/messages';
import { resolveSession, signIn } from '../../../canister/service/accounts';
import { recordEvent } from '../../../canister/service/events';
import { gameView, setCaps, setTimeValidation, updateGame } from '../../../canister/service/games';
import { ban } from '../../../canister/service/moderation';
import { endSession, startSession } from '../../../canister/service/play-sessions';
import { profile, setNickname, unlockAchievements } from '../../../canister/service/players';
import { leaderboard } from '../../../canister/service/reads';
import { readFeed } from '../../../canister/service/event-feed';
import { resolveServerKey, revokeServerKey, rotateServerKey } from '../../../canister/service/server-keys';
import { harnessWith, failure, hashOf, key, person, present, type Harness } from './harness';
import { submitBatch } from './submit';

const A = 'server-a';
const B = 'server-b';

const setup = (): Harness => harnessWith(A, B);
const game = (h: Harness, gameId = A) => h.games.get(gameId)!;
const newKey = (h: Harness, gameId = A) => rotateServerKey(h, { gameId }).serverKey;
const submit = (h: Harness, credential: Record<string, unknown>, score: number, extra: object = {}, gameId = A) => {
    h.advance(3);
    return submitBatch(h, { submits: [{ gameId, ...credential, score, streak: 1, ...extra }] })[0];
};
const server = (serverKey: string, playerId: string) => ({ serverKeyHash: hashOf(serverKey), playerId });
const scores = (h: Harness, gameId = A) => present(leaderboard(h, { gameId })).leaderboard.map((e) => e.score);
const INVALID = { status: 401, message: MESSAGES.invalidServerKey };

test('a server key is made from 32 random bytes, kept only as its hash, and shown in the view by its date only', () => {
    const h = setup();
    expect(present(gameView(game(h).record))).not.toHaveProperty('serverKeyCreatedAt');
    const serverKey = newKey(h);
    expect(serverKey).toMatch(SERVER_KEY);
    expect(serverKey.startsWith(`skey_${A}_`)).toBe(true);
    expect(game(h).record.serverKey).toEqual({ hash: hashOf(serverKey), createdAt: h.time });
    expect(JSON.stringify(game(h).record)).not.toContain(serverKey);
    const view = present(gameView(game(h).record));
    expect(view.serverKeyCreatedAt).toBe(h.time * 1000);
    expect(view).not.toHaveProperty('serverOnly');
    expect(resolveServerKey(h, { gameId: A, serverKeyHash: hashOf(serverKey) })).toEqual({ gameId: A, isActive: true });
});

test('rotation kills the old key at once; revocation kills the key; the view forgets the date', () => {
    const h = setup();
    const first = newKey(h);
    const second = newKey(h);
    expect(second).not.toBe(first);
    expect(failure(() => resolveServerKey(h, { gameId: A, serverKeyHash: hashOf(first) }))).toEqual(INVALID);
    expect(submit(h, server(first, 'p1'), 5)).toEqual({ err: INVALID });
    expect(submit(h, server(second, 'p1'), 5)).toMatchObject({ ok: {} });
    expect(revokeServerKey(h, game(h))).toEqual({ message: 'Server key revoked.' });
    expect(failure(() => resolveServerKey(h, { gameId: A, serverKeyHash: hashOf(second) }))).toEqual(INVALID);
    expect(submit(h, server(second, 'p1'), 6)).toEqual({ err: INVALID });
    expect(present(gameView(game(h).record))).not.toHaveProperty('serverKeyCreatedAt');
    expect(revokeServerKey(h, game(h)).message).toMatch(/no server key/);
});

test("a key of game A is refused on game B, also as a valid hash of A's with gameId B", () => {
    const h = setup();
    const keyA = newKey(h, A);
    newKey(h, B);
    expect(failure(() => resolveServerKey(h, { gameId: B, serverKeyHash: hashOf(keyA) }))).toEqual(INVALID);
    expect(submit(h, server(keyA, 'p1'), 5, {}, B)).toEqual({ err: INVALID });
    expect(failure(() => readFeed(h, { gameId: B, serverKeyHash: hashOf(keyA) }))).toEqual(INVALID);
    // A game without a key, absent or nonsense hashes.
    const h2 = setup();
    for (const serverKeyHash of [undefined, '', 42, 'x'.repeat(64), hashOf('skey_server-a_x')])
        expect(failure(() => resolveServerKey(h2, { gameId: A, serverKeyHash }))).toEqual(INVALID);
    // The API key is no server key (and its hash neither).
    expect(failure(() => resolveServerKey(h2, { gameId: A, serverKeyHash: hashOf(key(h2, A)) }))).toEqual(INVALID);
});

test('a server writes for an anonymous player (made on its first write) and for an account player of the game', () => {
    const h = setup();
    const serverKey = newKey(h);
    expect(submit(h, server(serverKey, 'anon-1'), 40, { nickname: 'Anon_One' })).toMatchObject({ ok: {} });
    expect(profile(h, { gameId: A, playerId: 'anon-1' }).nickname).toBe('Anon_One');
    // An account signed in to the game: the server writes as its `@` id.
    const sessionHash = hashOf(signIn(h, A, person('alice'), 'Alice_A').sessionId);
    const accountId = resolveSession(h, { sessionHash, gameId: A }).playerId;
    expect(accountId).toMatch(/^@[0-9a-f]{32}$/);
    expect(submit(h, server(serverKey, accountId), 50)).toMatchObject({ ok: {} });
    expect(scores(h)).toEqual([50, 40]);
    const board = present(leaderboard(h, { gameId: A })).leaderboard;
    expect(board[0]).toMatchObject({ nickname: 'Alice_A', authType: 'google' });
    expect(board[1]).toMatchObject({ authType: 'external' });
    const hash = hashOf(serverKey);
    expect(
        unlockAchievements(h, { gameId: A, serverKeyHash: hash, playerId: accountId, achievementIds: ['first'] }),
    ).toMatchObject({ unlocked: 1 });
    expect(setNickname(h, { gameId: A, serverKeyHash: hash, playerId: 'anon-1', nickname: 'Renamed' }).nickname).toBe(
        'Renamed',
    );
    const started = startSession(h, { gameId: A, serverKeyHash: hash, playerId: 'anon-1' });
    expect(endSession(h, { gameId: A, serverKeyHash: hash, playSessionToken: started.ok })).toEqual({
        message: 'Play session ended.',
    });
    // An account id that does not play this game (or does not exist) is 404, and nothing is made.
    expect(submit(h, server(serverKey, accountId), 60, {}, A)).toMatchObject({ ok: {} });
    const keyB = newKey(h, B);
    expect(submit(h, server(keyB, accountId), 70, {}, B)).toEqual({
        err: { status: 404, message: MESSAGES.playerNotFound },
    });
    expect(submit(h, server(keyB, '@' + '0'.repeat(32)), 70, {}, B)).toEqual({
        err: { status: 404, message: MESSAGES.playerNotFound },
    });
    expect(scores(h, B)).toEqual([]);
    // Bad player ids are 400 as with the API key.
    expect(submit(h, server(serverKey, 'no spaces'), 1)).toMatchObject({ err: { status: 400 } });
    expect(submit(h, { serverKeyHash: hash }, 1)).toMatchObject({ err: { status: 400 } });
});

test('a banned player is refused to the server too (403), an account player included', () => {
    const h = setup();
    const serverKey = newKey(h);
    const sessionHash = hashOf(signIn(h, A, person('bob'), 'Bob_B').sessionId);
    const accountId = resolveSession(h, { sessionHash, gameId: A }).playerId;
    expect(submit(h, server(serverKey, 'cheater'), 5)).toMatchObject({ ok: {} });
    ban(h, game(h), { playerId: 'cheater' });
    ban(h, game(h), { playerId: accountId });
    expect(submit(h, server(serverKey, 'cheater'), 6)).toMatchObject({ err: { status: 403 } });
    expect(submit(h, server(serverKey, accountId), 6)).toMatchObject({ err: { status: 403 } });
});

test('serverOnly: the API key is 403, a session 400, the server key works; achievements the same', () => {
    const h = setup();
    const serverKey = newKey(h);
    const sessionHash = hashOf(signIn(h, A, person('carol'), 'Carol_C').sessionId);
    expect(present(updateGame(h, { gameId: A, serverOnly: true }))).toMatchObject({ serverOnly: true });
    expect(present(gameView(game(h).record))).toMatchObject({ serverOnly: true });
    expect(present(gameView(game(h).record))).not.toHaveProperty('serverSkipsChecks');
    const apiKey = { apiKey: key(h, A), playerId: 'p1' };
    expect(submit(h, apiKey, 5)).toEqual({ err: { status: 403, message: MESSAGES.serverOnly } });
    expect(submit(h, { sessionHash }, 5)).toEqual({ err: { status: 400, message: MESSAGES.serverOnly } });
    expect(submit(h, server(serverKey, 'p1'), 5)).toMatchObject({ ok: {} });
    expect(failure(() => unlockAchievements(h, { gameId: A, ...apiKey, achievementIds: ['a'] }))).toEqual({
        status: 403,
        message: MESSAGES.serverOnly,
    });
    expect(failure(() => unlockAchievements(h, { gameId: A, sessionHash, achievementIds: ['a'] }))).toEqual({
        status: 400,
        message: MESSAGES.serverOnly,
    });
    expect(unlockAchievements(h, { gameId: A, ...server(serverKey, 'p1'), achievementIds: ['a'] }).unlocked).toBe(1);
    expect(scores(h)).toEqual([5]);
    // Other games are untouched; off again, clients write again.
    expect(submit(h, { apiKey: key(h, B), playerId: 'p1' }, 5, {}, B)).toMatchObject({ ok: {} });
    updateGame(h, { gameId: A, serverOnly: false });
    expect(present(gameView(game(h).record))).toMatchObject({ serverOnly: false });
    expect(submit(h, apiKey, 7)).toMatchObject({ ok: {} });
});

test('bad settings are 400 and change nothing', () => {
    const h = setup();
    for (const [field, value] of [
        ['serverOnly', 'yes'],
        ['serverSkipsChecks', 1],
        ['serverOnly', null],
    ] as const)
        expect(failure(() => updateGame(h, { gameId: A, name: 'Changed', [field]: value }))).toEqual({
            status: 400,
            message: `Invalid ${field}: must be true or false`,
        });
    expect(failure(() => updateGame(h, { gameId: A, serverOnly: true, serverSkipsChecks: 'no' })).status).toBe(400);
    expect(game(h).record.serverOnly).toBeUndefined();
});

test('caps and time validation apply to server submits unless serverSkipsChecks', () => {
    const h = setup();
    const serverKey = newKey(h);
    setCaps(h, { gameId: A, maxScore: 100 });
    setTimeValidation(h, { gameId: A, enabled: true, minPlaySeconds: 5 });
    const s = server(serverKey, 'p1');
    expect(submit(h, s, 500)).toEqual({ err: { status: 400, message: MESSAGES.sessionRequired } });
    let token = startSession(h, { gameId: A, ...s }).ok;
    h.advance(10);
    expect(submit(h, s, 500, { playSessionToken: token })).toEqual({
        err: { status: 400, message: MESSAGES.scoreRules },
    });
    token = startSession(h, { gameId: A, ...s }).ok;
    h.advance(10);
    expect(submit(h, s, 50, { playSessionToken: token })).toMatchObject({ ok: {} });
    updateGame(h, { gameId: A, serverSkipsChecks: true });
    expect(submit(h, s, 500)).toMatchObject({ ok: {} });
    expect(scores(h)).toEqual([500]);
    // Clients still face every check.
    expect(submit(h, { apiKey: key(h, A), playerId: 'p2' }, 5)).toEqual({
        err: { status: 400, message: MESSAGES.sessionRequired },
    });
    // Another player's token is not spent by a server submit that skips the checks.
    const other = startSession(h, { gameId: A, apiKey: key(h, A), playerId: 'p2' }).ok;
    expect(submit(h, server(serverKey, 'p3'), 9, { playSessionToken: other })).toMatchObject({ ok: {} });
    h.advance(10);
    expect(submit(h, { apiKey: key(h, A), playerId: 'p2' }, 9, { playSessionToken: other })).toMatchObject({ ok: {} });
});

test('the 2 s rate limit and retries hold for server submits', () => {
    const h = setup();
    const s = server(newKey(h), 'p1');
    const once = () => submitBatch(h, { submits: [{ gameId: A, ...s, score: 10, streak: 1 }] })[0];
    expect(once()).toMatchObject({ ok: {} });
    expect(once()).toMatchObject({ ok: {} }); // the same submit again: a retry, answered the same
    expect(submitBatch(h, { submits: [{ gameId: A, ...s, score: 11, streak: 1 }] })[0]).toEqual({
        err: { status: 400, message: MESSAGES.rateLimited },
    });
});

test('a deactivated game refuses its server key (403) and resolves as inactive', () => {
    const h = setup();
    const serverKey = newKey(h);
    updateGame(h, { gameId: A, isActive: false });
    expect(submit(h, server(serverKey, 'p1'), 5)).toEqual({ err: { status: 403, message: MESSAGES.gameDeactivated } });
    expect(resolveServerKey(h, { gameId: A, serverKeyHash: hashOf(serverKey) })).toEqual({
        gameId: A,
        isActive: false,
    });
});

test('the feed: pages with after/limit, bad values 400, the server key only', () => {
    const h = setup();
    const serverKeyHash = hashOf(newKey(h));
    for (let i = 0; i < 5; i++) recordEvent(h, game(h), { kind: 'player_banned', playerId: `p${i}`, reason: '' });
    const page = present(readFeed(h, { gameId: A, serverKeyHash, after: 1, limit: 2 }));
    expect(page.events.map((e) => e.seq)).toEqual([2, 3]);
    expect(page).toMatchObject({ next: 3, latest: 5 });
    expect(present(readFeed(h, { gameId: A, serverKeyHash, after: 5 }))).toMatchObject({ events: [], next: 5 });
    expect(present(readFeed(h, { gameId: A, serverKeyHash })).events).toHaveLength(5);
    for (const after of [-1, 1.5, '3', null])
        expect(failure(() => readFeed(h, { gameId: A, serverKeyHash, after })).message).toMatch(/^Invalid after: /);
    for (const limit of [0, 101, 2.5, 'x'])
        expect(failure(() => readFeed(h, { gameId: A, serverKeyHash, limit })).message).toMatch(/^Invalid limit: /);
    expect(failure(() => readFeed(h, { gameId: A, serverKeyHash: hashOf(key(h, A)) }))).toEqual(INVALID);
});
