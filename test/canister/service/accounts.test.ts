// Sign-in on the service: accounts by (issuer, subject), sessions kept as hashes (30 days,
// renewed on use at most daily, dead after logout or account removal), device codes (RFC 8628
// states, caps, wrong-code limits), writes as the signed-in player, and the merge of an
// anonymous player into an account (boards, achievements, plays, archives).
import { createHash } from 'node:crypto';

import type { Approval } from '../../../contract/canister';
import { sha256Hex, tokenHash } from '../../../canister/domain/sha256';
import {
    formatUserCode,
    normalizeUserCode,
    newUserCode,
    USER_CODE_ALPHABET,
} from '../../../canister/domain/device-codes';
import { logout, resolveSession, sessionProfile, signIn } from '../../../canister/service/accounts';
import {
    approveDeviceCode,
    lookupDeviceCode,
    redeemDeviceCode,
    startDeviceCode,
    sweepDeviceCodes,
} from '../../../canister/service/device-codes';
import { createBoard } from '../../../canister/service/games';
import { deleteAccount, migrateAccount } from '../../../canister/service/merge';
import { unlockAchievements } from '../../../canister/service/players';
import {
    leaderboard,
    listArchives,
    readArchive,
    readBoard,
    boardRank,
    gameInfo,
} from '../../../canister/service/reads';
import { rolloverAll } from '../../../canister/service/rollover';
import { loadGames } from '../../../canister/state/startup';
import {
    expectSameAfterUpgrades,
    failure,
    harness,
    key,
    present,
    withGame,
    type Harness,
    hashOf,
    person,
} from './harness';
import { submitBatch } from './submit';

const G = 'my-game';
const alice = person('alice-1', 'google', 'alice@example.com');
const bob = person('bob-1', 'local', 'bob@example.com');

function submit(h: Harness, s: Record<string, unknown>) {
    const [result] = submitBatch(h, { submits: [{ gameId: G, ...s }] });
    return result;
}
const anonymous = (h: Harness, playerId: string, score: number, streak = 0, extra: Record<string, unknown> = {}) =>
    submit(h, { apiKey: key(h, G), playerId, score, streak, ...extra });
const signedIn = (h: Harness, approval: Approval, score: number, streak = 0, extra: Record<string, unknown> = {}) =>
    submit(h, { sessionHash: hashOf(approval.sessionId), playerId: 'ignored_id', score, streak, ...extra });

test('the canister hashes tokens exactly like Node', () => {
    for (const text of ['', 'a', 'x'.repeat(55), 'x'.repeat(56), 'y'.repeat(64), 'z'.repeat(200), 'AbC-_09']) {
        expect(tokenHash(text)).toBe(hashOf(text));
    }
    expect(sha256Hex(new Uint8Array([0, 255, 128]))).toBe(
        createHash('sha256')
            .update(Buffer.from([0, 255, 128]))
            .digest('hex'),
    );
});

test('user codes: 8 (or 16) letters of the unambiguous alphabet, shown XXXX-XXXX, typed any case with dashes', () => {
    const h = harness();
    const long = newUserCode(h.env.random, 16);
    expect(long).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{16}$`));
    expect(normalizeUserCode(` ${formatUserCode(long).toLowerCase()} `)).toBe(long);
    expect(normalizeUserCode(formatUserCode(long).slice(0, 14))).toBeUndefined();
    const code = newUserCode(h.env.random);
    expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
    expect(normalizeUserCode(formatUserCode(code).toLowerCase())).toBe(code);
    expect(normalizeUserCode(` ${code.slice(0, 4)} - ${code.slice(4)} `)).toBe(code);
    expect(normalizeUserCode('AAAA-AAAA')).toBeUndefined(); // vowels are not in the alphabet
    expect(normalizeUserCode('BCDF-GHJ')).toBeUndefined();
});

test('sign-in: one account per issuer and subject; the nickname seeds only a new account (N4)', () => {
    const h = harness();
    withGame(h);
    const first = signIn(h, G, alice, 'Alice');
    expect(first).toMatchObject({ nickname: 'Alice', email: 'alice@example.com', isNewUser: true, provider: 'google' });
    expect(first.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = signIn(h, G, alice, 'SomeoneElse');
    expect(again).toMatchObject({ nickname: 'Alice', isNewUser: false });
    expect(again.sessionId).not.toBe(first.sessionId);
    // Only hashes are kept.
    expect(h.store.playerSessions.get(first.sessionId)).toBeUndefined();
    expect(h.store.playerSessions.get(hashOf(first.sessionId))).toBeDefined();
    expect(failure(() => signIn(h, G, bob, 'x')).message).toBe('Nickname must be at least 3 characters');
});

test('sessions: 30 days from the last use, renewed at most once a day; logout and removal kill them', () => {
    const h = harness();
    withGame(h);
    const s = signIn(h, G, alice, undefined);
    const sessionHash = hashOf(s.sessionId);
    expect(resolveSession(h, { sessionHash, gameId: G })).toMatchObject({
        playerId: expect.stringMatching(/^@[0-9a-f]{32}$/),
        renewDue: false,
    });
    h.advance(25 * 86_400);
    expect(resolveSession(h, { sessionHash, gameId: G }).renewDue).toBe(true);
    expect(signedIn(h, s, 10)).toMatchObject({ ok: {} }); // a use renews it
    h.advance(25 * 86_400);
    expect(resolveSession(h, { sessionHash, gameId: G }).renewDue).toBe(true);
    h.advance(6 * 86_400);
    expect(failure(() => resolveSession(h, { sessionHash, gameId: G }))).toEqual({
        status: 401,
        message: 'Invalid or expired session',
    });
    const t = signIn(h, G, alice, undefined);
    expect(logout(h, { sessionHash: hashOf(t.sessionId), gameId: G })).toEqual({ message: 'Signed out.' });
    expect(signedIn(h, t, 20)).toEqual({ err: { status: 401, message: 'Invalid or expired session' } });
    expect(failure(() => resolveSession(h, { sessionHash: 'not-a-hash', gameId: G })).status).toBe(401);
});

test('a signed-in submit writes the account player: body playerId ignored, authType the provider', () => {
    const h = harness();
    withGame(h);
    const s = signIn(h, G, alice, 'Alice');
    expect(signedIn(h, s, 500, 3)).toMatchObject({ ok: {} });
    expect(present(leaderboard(h, { gameId: G })).leaderboard).toEqual([
        { rank: 1, nickname: 'Alice', score: 500, streak: 3, authType: 'google' },
    ]);
    expect(sessionProfile(h, { sessionHash: hashOf(s.sessionId), gameId: G })).toMatchObject({
        nickname: 'Alice',
        email: 'alice@example.com',
        gameProfile: { score: 500 },
    });
    const rank = boardRank(h, {
        gameId: G,
        boardId: 'weekly',
        playerId: resolveSession(h, { sessionHash: hashOf(s.sessionId), gameId: G }).playerId,
    });
    expect(rank).toMatchObject({ found: true, rank: 1, score: 500 });
    expect(gameInfo(h, { gameId: G }).totalPlayers).toBe(1);
});

test('device codes: 428 while pending, approved on the link page, 200 exactly once, then 404; 410 after 300 s', () => {
    const h = harness();
    withGame(h);
    const started = startDeviceCode(h, { gameId: G, nickname: 'Player_Wins' });
    expect(started).toMatchObject({
        expiresIn: 300,
        interval: 5,
        deviceCode: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const deviceCodeHash = hashOf(started.deviceCode);
    expect(failure(() => redeemDeviceCode(h, { deviceCodeHash }))).toEqual({
        status: 428,
        message: 'authorization_pending',
    });
    const typed = formatUserCode(started.userCode).toLowerCase();
    expect(lookupDeviceCode(h, { userCode: typed, client: 'c1' })).toMatchObject({
        gameId: G,
        gameName: 'My Game',
        userCode: started.userCode,
    });
    expect(approveDeviceCode(h, { userCode: typed, client: 'c1', identity: bob })).toEqual({
        gameId: G,
        gameName: 'My Game',
    });
    const approval = redeemDeviceCode(h, { deviceCodeHash });
    expect(approval).toMatchObject({
        nickname: 'Player_Wins',
        email: 'bob@example.com',
        isNewUser: true,
        provider: 'local',
    });
    expect(failure(() => redeemDeviceCode(h, { deviceCodeHash })).status).toBe(404);
    expect(failure(() => lookupDeviceCode(h, { userCode: typed, client: 'c1' })).status).toBe(404);
    const late = startDeviceCode(h, { gameId: G });
    h.advance(300);
    expect(failure(() => redeemDeviceCode(h, { deviceCodeHash: hashOf(late.deviceCode) }))).toEqual({
        status: 410,
        message: 'expired_token',
    });
    expect(failure(() => approveDeviceCode(h, { userCode: late.userCode, client: 'c1', identity: bob })).status).toBe(
        404,
    );
    h.advance(1);
    expect(sweepDeviceCodes(h)).toBe(2);
    expect(h.store.userCodes.size()).toBe(0);
    // Expired codes keep answering 410 for a while, then they are forgotten (404).
    expect(failure(() => redeemDeviceCode(h, { deviceCodeHash: hashOf(late.deviceCode) })).status).toBe(410);
    h.advance(3600);
    expect(sweepDeviceCodes(h)).toBe(2);
    expect(failure(() => redeemDeviceCode(h, { deviceCodeHash: hashOf(late.deviceCode) })).status).toBe(404);
    expect(h.store.deviceCodes.size()).toBe(0);
});

test('device codes: pending codes are capped; wrong codes are limited per client', () => {
    const h = harness();
    withGame(h);
    for (let i = 0; i < 500; i++) startDeviceCode(h, { gameId: G });
    expect(failure(() => startDeviceCode(h, { gameId: G }))).toEqual({
        status: 503,
        message: 'Too many pending device authorizations. Try again shortly.',
    });
    withGame(h, 'other-game');
    expect(startDeviceCode(h, { gameId: 'other-game' }).userCode).toBeDefined();
    for (let i = 0; i < 10; i++)
        expect(failure(() => lookupDeviceCode(h, { userCode: 'BCDF-GHJK', client: 'guesser' })).status).toBe(404);
    expect(failure(() => lookupDeviceCode(h, { userCode: 'BCDF-GHJK', client: 'guesser' })).status).toBe(429);
    expect(failure(() => lookupDeviceCode(h, { userCode: 'BCDF-GHJK', client: 'someone-else' })).status).toBe(404);
    h.advance(61);
    expect(failure(() => lookupDeviceCode(h, { userCode: 'BCDF-GHJK', client: 'guesser' })).status).toBe(404);
});

test('device codes: guessing from many clients never locks out a valid code; new codes grow longer instead', () => {
    const h = harness();
    withGame(h);
    const before = startDeviceCode(h, { gameId: G, client: 'player-1' });
    expect(before.userCode).toHaveLength(8);
    // 61 clients guess 10 wrong codes each: 610 in a minute, past the service-wide rate.
    for (let c = 0; c < 61; c++)
        for (let i = 0; i < 10; i++)
            expect(failure(() => lookupDeviceCode(h, { userCode: 'BCDF-GHJK', client: `guesser-${c}` })).status).toBe(
                404,
            );
    // A fresh client's valid code works, lookup and approval; a code started before the guessing too.
    const fresh = startDeviceCode(h, { gameId: G, client: 'player-2' });
    expect(fresh.userCode).toHaveLength(16); // while codes are being guessed: 20^16 codes
    const typed = formatUserCode(fresh.userCode);
    expect(typed).toMatch(/^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/);
    expect(lookupDeviceCode(h, { userCode: typed.toLowerCase(), client: 'player-2' })).toMatchObject({ gameId: G });
    expect(approveDeviceCode(h, { userCode: typed, client: 'player-2', identity: bob })).toMatchObject({ gameId: G });
    expect(lookupDeviceCode(h, { userCode: before.userCode, client: 'player-1' })).toMatchObject({ gameId: G });
    // The guessing clients are refused, even with a valid code, until their minute is over.
    expect(failure(() => lookupDeviceCode(h, { userCode: before.userCode, client: 'guesser-0' })).status).toBe(429);
    expect(
        failure(() => approveDeviceCode(h, { userCode: before.userCode, client: 'guesser-60', identity: alice }))
            .status,
    ).toBe(429);
    expect(approveDeviceCode(h, { userCode: before.userCode, client: 'player-1', identity: alice })).toMatchObject({
        gameId: G,
    });
    h.advance(61);
    expect(failure(() => lookupDeviceCode(h, { userCode: 'BCDF-GHJK', client: 'guesser-0' })).status).toBe(404);
    // Codes stay long for an hour after the last minute of fast guessing, then short again.
    expect(startDeviceCode(h, { gameId: G, client: 'player-3' }).userCode).toHaveLength(16);
    h.advance(3600);
    expect(startDeviceCode(h, { gameId: G, client: 'player-3' }).userCode).toHaveLength(8);
});

test('device codes: one client cannot take the codes of a game from other players', () => {
    const h = harness();
    withGame(h);
    withGame(h, 'other-game');
    for (let i = 0; i < 10; i++) startDeviceCode(h, { gameId: i % 2 === 0 ? G : 'other-game', client: 'flooder' });
    for (const gameId of [G, 'other-game'])
        expect(failure(() => startDeviceCode(h, { gameId, client: 'flooder' }))).toEqual({
            status: 503,
            message: 'Too many pending device authorizations. Try again shortly.',
        });
    expect(startDeviceCode(h, { gameId: G, client: 'player' }).userCode).toHaveLength(8);
    h.advance(300); // the flooder's codes have expired: it may start codes again
    expect(startDeviceCode(h, { gameId: G, client: 'flooder' }).userCode).toHaveLength(8);
});

test('merge: bests per field, boards and achievements united, plays summed, the anonymous id retired', () => {
    const h = harness();
    withGame(h);
    createBoard(h, { gameId: G, scoreboardId: 'level-1', type: 'targeted' });
    anonymous(h, 'dev_anon', 900, 2, { nickname: 'Speedy' });
    h.advance(3);
    anonymous(h, 'dev_anon', 50, 1, { scoreboardId: 'level-1' });
    unlockAchievements(h, { apiKey: key(h, G), gameId: G, playerId: 'dev_anon', achievementIds: ['a', 'b'] });
    anonymous(h, 'dev_other', 100, 1);
    const s = signIn(h, G, alice, undefined);
    signedIn(h, s, 300, 7);
    unlockAchievements(h, { sessionHash: hashOf(s.sessionId), gameId: G, achievementIds: ['b', 'c'] });
    const merged = migrateAccount(h, { sessionHash: hashOf(s.sessionId), gameId: G, deviceId: 'dev_anon' });
    expect(merged).toMatchObject({ migratedGames: 1, migratedScoreboards: 4 });
    const profile = sessionProfile(h, { sessionHash: hashOf(s.sessionId), gameId: G });
    expect(profile).toMatchObject({ nickname: 'Speedy', gameProfile: { score: 900, streak: 7, playCount: 3 } });
    expect([...profile.gameProfile.achievements].sort()).toEqual(['a', 'b', 'c']);
    expect(
        present(leaderboard(h, { gameId: G })).leaderboard.map((e) => [e.nickname, e.score, e.streak, e.authType]),
    ).toEqual([
        ['Speedy', 900, 7, 'google'],
        [expect.stringMatching(/^Player_/), 100, 1, 'external'],
    ]);
    expect(readBoard(h, { gameId: G, boardId: 'level-1' }).entries.map((e) => [e.nickname, e.score])).toEqual([
        ['Speedy', 50],
    ]);
    expect(gameInfo(h, { gameId: G }).totalPlayers).toBe(2);
    // The anonymous id is retired: its submits are refused with a clear error.
    h.advance(3);
    expect(anonymous(h, 'dev_anon', 1000)).toEqual({
        err: { status: 400, message: expect.stringMatching(/merged into a signed-in account/) },
    });
    // Once per sign-in, and only soon after it.
    expect(
        failure(() => migrateAccount(h, { sessionHash: hashOf(s.sessionId), gameId: G, deviceId: 'dev_other' }))
            .message,
    ).toMatch(/already merged/);
    const later = signIn(h, G, alice, undefined);
    h.advance(16 * 60);
    expect(
        failure(() => migrateAccount(h, { sessionHash: hashOf(later.sessionId), gameId: G, deviceId: 'dev_other' }))
            .message,
    ).toMatch(/within 15 minutes/);
    // An account's own player id is not an anonymous id.
    const bobs = signIn(h, G, bob, undefined);
    const alicePlayer = resolveSession(h, { sessionHash: hashOf(s.sessionId), gameId: G }).playerId;
    expect(
        failure(() => migrateAccount(h, { sessionHash: hashOf(bobs.sessionId), gameId: G, deviceId: alicePlayer }))
            .status,
    ).toBe(400);
    // The merge survives an upgrade, by snapshot and by rebuild.
    expectSameAfterUpgrades(h, () => present(leaderboard(h, { gameId: G })));
});

test('merge into archives: a finished period shows the account once, with per-field maxima', () => {
    const h = harness('2026-03-04T23:00:00Z');
    withGame(h);
    anonymous(h, 'dev_anon', 900, 1);
    anonymous(h, 'dev_x', 500, 1);
    const s = signIn(h, G, alice, 'Alice');
    signedIn(h, s, 700, 9);
    h.advance(3600); // the next UTC day: yesterday is archived
    rolloverAll(h);
    const s2 = signIn(h, G, alice, undefined);
    migrateAccount(h, { sessionHash: hashOf(s2.sessionId), gameId: G, deviceId: 'dev_anon' });
    const archive = present(readArchive(h, { gameId: G, boardId: 'daily' }));
    expect(archive.entries.map((e) => [e.rank, e.nickname, e.score, e.streak, e.authType])).toEqual([
        [1, 'Alice', 900, 9, 'google'],
        [2, expect.stringMatching(/^Player_/), 500, 1, 'external'],
    ]);
    expect(archive.totalEntries).toBe(2);
    expect(present(listArchives(h, { gameId: G, boardId: 'daily' })).archives[0]).toMatchObject({
        entryCount: 2,
        topPlayer: 'Alice',
        topScore: 900,
    });
});

test('removing the account takes its entries off every board and kills its sessions', () => {
    const h = harness();
    withGame(h);
    const s = signIn(h, G, alice, 'Alice');
    signedIn(h, s, 300, 7);
    anonymous(h, 'dev_x', 100, 1);
    expect(deleteAccount(h, { sessionHash: hashOf(s.sessionId), gameId: G })).toEqual({ message: expect.any(String) });
    expect(present(leaderboard(h, { gameId: G })).leaderboard.map((e) => e.score)).toEqual([100]);
    expect(failure(() => resolveSession(h, { sessionHash: hashOf(s.sessionId), gameId: G })).status).toBe(401);
    // The name is free again, and the same identity signs in as a new account.
    expect(signIn(h, G, alice, 'Alice')).toMatchObject({
        isNewUser: true,
        nickname: 'Alice',
        gameProfile: { score: 0 },
    });
    expect(loadGames(h)).toBe('records');
    expect(present(leaderboard(h, { gameId: G })).leaderboard.map((e) => e.score)).toEqual([100]);
});
