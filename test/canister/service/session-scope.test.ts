// A player session belongs to the game it was signed in for: on any other game every session
// method answers 401 (the client signs in again there), and removing the account removes what
// it wrote in every game, also what older releases let it write outside its recorded games.
import { logout, renewSession, resolveSession, sessionProfile, signIn } from '../../../canister/service/accounts';
import { deleteOwnGame, developerSignIn, purgeSome, registerOwnGame } from '../../../canister/service/developers';
import { deleteAccount, migrateAccount } from '../../../canister/service/merge';
import { setNickname, unlockAchievements } from '../../../canister/service/players';
import { leaderboard } from '../../../canister/service/reads';
import { endSession, startSession } from '../../../canister/service/play-sessions';
import { harnessWith, failure, key, present, type Harness, hashOf, person } from './harness';
import { submitBatch } from './submit';

const A = 'game-a';
const B = 'game-b';
const alice = person('alice', 'google', 'a@example.com');
const DEAD = { status: 401, message: 'Invalid or expired session' };

const twoGames = (): Harness => harnessWith(A, B);

const submit = (h: Harness, gameId: string, credential: Record<string, unknown>, score: number) =>
    submitBatch(h, { submits: [{ gameId, ...credential, score, streak: 1 }] })[0];
const scores = (h: Harness, gameId: string) => present(leaderboard(h, { gameId })).leaderboard.map((e) => e.score);

test('a session of game A is 401 on game B for every session method, and writes nothing there', () => {
    const h = twoGames();
    const sessionHash = hashOf(signIn(h, A, alice, 'Alice').sessionId);
    const onB = { sessionHash, gameId: B };
    expect(failure(() => resolveSession(h, onB))).toEqual(DEAD);
    expect(failure(() => sessionProfile(h, onB))).toEqual(DEAD);
    expect(failure(() => renewSession(h, onB))).toEqual(DEAD);
    expect(submit(h, B, { sessionHash }, 999_999)).toEqual({ err: DEAD });
    expect(failure(() => unlockAchievements(h, { ...onB, achievementIds: ['stolen'] }))).toEqual(DEAD);
    expect(failure(() => setNickname(h, { ...onB, nickname: 'Renamed' }))).toEqual(DEAD);
    expect(failure(() => startSession(h, onB))).toEqual(DEAD);
    expect(failure(() => endSession(h, { ...onB, playSessionToken: 'ps_x' }))).toEqual(DEAD);
    expect(failure(() => migrateAccount(h, { ...onB, deviceId: 'dev_1' }))).toEqual(DEAD);
    expect(failure(() => logout(h, onB))).toEqual(DEAD);
    expect(failure(() => deleteAccount(h, onB))).toEqual(DEAD);
    // Nothing happened on B, and the session still works on A.
    expect(scores(h, B)).toEqual([]);
    expect(sessionProfile(h, { sessionHash, gameId: A })).toMatchObject({ nickname: 'Alice' });
    expect(submit(h, A, { sessionHash }, 10)).toMatchObject({ ok: {} });
    // A session request without a game is as dead as one with another game.
    expect(failure(() => logout(h, { sessionHash }))).toEqual(DEAD);
    expect(logout(h, { sessionHash, gameId: A })).toEqual({ message: 'Signed out.' });
});

test('removing the account removes its entries and achievements in every game it signed in to', () => {
    const h = twoGames();
    const onA = hashOf(signIn(h, A, alice, 'Alice').sessionId);
    const onB = hashOf(signIn(h, B, alice, undefined).sessionId);
    submit(h, A, { sessionHash: onA }, 100);
    submit(h, B, { sessionHash: onB }, 200);
    unlockAchievements(h, { sessionHash: onB, gameId: B, achievementIds: ['b-badge'] });
    submit(h, B, { apiKey: key(h, B), playerId: 'dev_other' }, 50);
    expect(deleteAccount(h, { sessionHash: onA, gameId: A })).toEqual({ message: expect.any(String) });
    expect(scores(h, A)).toEqual([]);
    expect(scores(h, B)).toEqual([50]);
    expect(failure(() => resolveSession(h, { sessionHash: onB, gameId: B }))).toEqual(DEAD);
});

test('removing an account written by an older release also finds its players in games it never recorded', () => {
    const h = twoGames();
    const approval = signIn(h, A, alice, 'Alice');
    const onA = hashOf(approval.sessionId);
    const onB = hashOf(signIn(h, B, alice, undefined).sessionId);
    submit(h, B, { sessionHash: onB }, 300);
    unlockAchievements(h, { sessionHash: onB, gameId: B, achievementIds: ['b-badge'] });
    // What a release before sessions were bound to their game left: B written, but not in `games`.
    const accountId = resolveSession(h, { sessionHash: onA, gameId: A }).playerId.slice(1);
    const { gamesTracked: _tracked, ...legacy } = h.store.accounts.get(accountId)!;
    h.store.accounts.set(accountId, { ...legacy, games: [A] });
    deleteAccount(h, { sessionHash: onA, gameId: A });
    expect(scores(h, B)).toEqual([]);
    expect(h.store.achievements.get(`${B}/@${accountId}`)).toBeUndefined();
});

test('a session of a deleted game is dead in a new game registered under the same id', () => {
    const h = twoGames();
    const dev = { issuer: 'https://idp.example', subject: 'dev', email: 'd@example.com', provider: 'local' };
    const devSession = hashOf(developerSignIn(h, { identity: dev }).sessionToken);
    registerOwnGame(h, { sessionHash: devSession, gameId: 'reused-id', name: 'First' });
    const sessionHash = hashOf(signIn(h, 'reused-id', alice, 'Alice').sessionId);
    deleteOwnGame(h, { sessionHash: devSession, gameId: 'reused-id', confirm: 'reused-id' });
    while (purgeSome(h, 1000));
    h.advance(1);
    registerOwnGame(h, { sessionHash: devSession, gameId: 'reused-id', name: 'Someone else' });
    expect(failure(() => resolveSession(h, { sessionHash, gameId: 'reused-id' }))).toEqual(DEAD);
    expect(submit(h, 'reused-id', { sessionHash }, 5)).toEqual({ err: DEAD });
});
