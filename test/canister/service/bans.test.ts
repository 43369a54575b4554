// Bans that follow the person as far as the service knows them: a banned player writes nothing
// to the game (submits, achievements, nickname, play sessions, merges), a merge of or into a
// banned player is refused, and an account's ban holds when the same identity deletes the
// account and signs in again; lifting the ban lifts it for the identity too.
import { resolveSession, signIn } from '../../../canister/service/accounts';
import { deleteAccount, migrateAccount } from '../../../canister/service/merge';
import { ban, unban } from '../../../canister/service/moderation';
import { profile, setNickname, unlockAchievements } from '../../../canister/service/players';
import { leaderboard } from '../../../canister/service/reads';
import { startSession } from '../../../canister/service/play-sessions';
import { harnessWith, failure, key, present, type Harness, hashOf, person } from './harness';
import { submitBatch } from './submit';

const G = 'ban-game';
const OTHER = 'ban-other';
const mallory = person('mallory', 'google', 'm@example.com');
const BANNED = 'This player is banned from this game.';

const setup = (): Harness => harnessWith(G, OTHER);
const game = (h: Harness, gameId = G) => h.games.get(gameId)!;
const submit = (h: Harness, credential: Record<string, unknown>, score: number, gameId = G) => {
    h.advance(3);
    return submitBatch(h, { submits: [{ gameId, ...credential, score, streak: 1 }] })[0];
};
const anon = (h: Harness, playerId: string, gameId = G) => ({ apiKey: key(h, gameId), playerId });
const scores = (h: Harness, gameId = G) => present(leaderboard(h, { gameId })).leaderboard.map((e) => e.score);
function session(h: Harness, gameId = G): { sessionHash: string; playerId: string } {
    const sessionHash = hashOf(signIn(h, gameId, mallory, undefined).sessionId);
    return { sessionHash, playerId: resolveSession(h, { sessionHash, gameId }).playerId };
}

test('a banned anonymous player writes nothing to the game (403), but its profile still reads', () => {
    const h = setup();
    expect(submit(h, anon(h, 'cheater'), 10)).toMatchObject({ ok: {} });
    ban(h, game(h), { playerId: 'cheater', reason: 'aimbot' });
    const refused = { status: 403, message: BANNED };
    expect(submit(h, anon(h, 'cheater'), 20)).toEqual({ err: refused });
    expect(failure(() => setNickname(h, { gameId: G, ...anon(h, 'cheater'), nickname: 'Innocent' }))).toEqual(refused);
    expect(failure(() => unlockAchievements(h, { gameId: G, ...anon(h, 'cheater'), achievementIds: ['x'] }))).toEqual(
        refused,
    );
    expect(failure(() => startSession(h, { gameId: G, ...anon(h, 'cheater') }))).toEqual(refused);
    expect(profile(h, { gameId: G, playerId: 'cheater' })).toMatchObject({ gameProfile: { score: 10 } });
    // Banned before its first write: achievements are refused too.
    ban(h, game(h), { playerId: 'never-seen' });
    expect(
        failure(() => unlockAchievements(h, { gameId: G, ...anon(h, 'never-seen'), achievementIds: ['x'] })),
    ).toEqual(refused);
});

test('(a) a banned anonymous player cannot be merged into an account', () => {
    const h = setup();
    submit(h, anon(h, 'cheater'), 5_000_000);
    ban(h, game(h), { playerId: 'cheater' });
    const { sessionHash, playerId } = session(h);
    const refused = failure(() => migrateAccount(h, { gameId: G, sessionHash, deviceId: 'cheater' }));
    // A session request: 401/403 would sign the player out (the official SDKs do), so 400.
    expect(refused).toEqual({ status: 400, message: expect.stringMatching(/'cheater' is banned from this game/) });
    expect(present(leaderboard(h, { gameId: G })).leaderboard.map((e) => e.nickname)).not.toContain(playerId);
    expect(submit(h, { sessionHash }, 7)).toMatchObject({ ok: {} });
    expect(scores(h)).toEqual([5_000_000, 7]); // the banned entry stays the banned id's (the developer wipes it)
});

test('(b) a banned account cannot merge in a throwaway anonymous id, nor write as itself', () => {
    const h = setup();
    const { sessionHash, playerId } = session(h);
    ban(h, game(h), { playerId });
    expect(submit(h, anon(h, 'throwaway'), 5_000_000)).toMatchObject({ ok: {} }); // an unknown id, as anyone
    const refused = { status: 400, message: BANNED };
    expect(failure(() => migrateAccount(h, { gameId: G, sessionHash, deviceId: 'throwaway' }))).toEqual(refused);
    expect(submit(h, { sessionHash }, 1)).toEqual({ err: refused });
    expect(failure(() => setNickname(h, { gameId: G, sessionHash, nickname: 'Renamed' }))).toEqual(refused);
    expect(failure(() => unlockAchievements(h, { gameId: G, sessionHash, achievementIds: ['x'] }))).toEqual(refused);
    expect(failure(() => startSession(h, { gameId: G, sessionHash }))).toEqual(refused);
    expect(scores(h)).toEqual([5_000_000]);
});

test('(c) an account ban holds when the identity deletes the account and signs in again; unban lifts it', () => {
    const h = setup();
    const first = session(h);
    submit(h, { sessionHash: first.sessionHash }, 100);
    ban(h, game(h), { playerId: first.playerId, reason: 'cheating' });
    deleteAccount(h, { gameId: G, sessionHash: first.sessionHash });
    const second = session(h);
    expect(second.playerId).not.toBe(first.playerId);
    expect(submit(h, { sessionHash: second.sessionHash }, 200)).toEqual({ err: { status: 400, message: BANNED } });
    expect(
        failure(() => unlockAchievements(h, { gameId: G, sessionHash: second.sessionHash, achievementIds: ['x'] })),
    ).toEqual({ status: 400, message: BANNED });
    expect(failure(() => ban(h, game(h), { playerId: second.playerId })).status).toBe(409); // already banned
    // Another game does not share the ban.
    const elsewhere = session(h, OTHER);
    expect(submit(h, { sessionHash: elsewhere.sessionHash }, 300, OTHER)).toMatchObject({ ok: {} });
    // Lifting the ban of the new id lifts it for the identity.
    unban(h, game(h), { playerId: second.playerId });
    expect(submit(h, { sessionHash: second.sessionHash }, 400)).toMatchObject({ ok: {} });
    expect(scores(h)).toEqual([400]);
});

test('(c) lifting the ban of the deleted account lifts it for the identity; a ban before the first play follows it too', () => {
    const h = setup();
    const first = session(h);
    ban(h, game(h), { playerId: first.playerId });
    deleteAccount(h, { gameId: G, sessionHash: first.sessionHash });
    unban(h, game(h), { playerId: first.playerId });
    const second = session(h);
    expect(submit(h, { sessionHash: second.sessionHash }, 10)).toMatchObject({ ok: {} });

    // Banned in OTHER while the account has no player there yet, then deleted and made again.
    ban(h, game(h, OTHER), { playerId: second.playerId });
    deleteAccount(h, { gameId: G, sessionHash: second.sessionHash });
    const third = session(h, OTHER);
    expect(submit(h, { sessionHash: third.sessionHash }, 20, OTHER)).toEqual({ err: { status: 400, message: BANNED } });
});
