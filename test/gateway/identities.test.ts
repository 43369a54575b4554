// One person across shards through a real gateway (issue 27 stage 2, the directory is the
// identity registry): signed in on game A (shard 1) and game B (shard 2) with the test identity
// provider's identity, the same playerId in both; each game merges an anonymous device player
// into the account; a rename in A leaves B's name; DELETE /auth/account from A's session takes
// the person off both games' boards, both sessions answer 401, and signing in again is a new id.
import { createHash } from 'node:crypto';

import { startService, type TestService } from '../support/gateway';

let s: TestService;
/** Game A on shard 1, game B on shard 2. */
const games: Array<{ gameId: string; apiKey: string; canister: string }> = [];

const submit = (apiKey: string, gameId: string, playerId: string, score: number) =>
    s.request('POST', '/scores', { headers: { 'X-API-Key': apiKey }, body: { gameId, playerId, score, streak: 1 } });
const board = async (g: (typeof games)[number]): Promise<Array<{ score: number; nickname: string }>> =>
    (await s.request('GET', '/leaderboard?limit=10', { headers: { 'X-API-Key': g.apiKey } })).body.data.leaderboard;
const playerIdOf = async (g: (typeof games)[number], token: string): Promise<string> =>
    (
        await s.at(g.canister).ok('resolve_session', {
            sessionHash: createHash('sha256').update(token).digest('hex'),
            gameId: g.gameId,
        })
    ).playerId;
const session = (token: string, gameId: string) => ({ 'X-Session-Token': token, 'X-Game-ID': gameId });

beforeAll(async () => {
    s = await startService({ shards: 2 });
    for (let i = 0; games.length < 2 && i < 6; i++) {
        const gameId = `ident-${i}`;
        const apiKey = await s.game(gameId);
        const canister = (await s.canisterOf(gameId)).toText();
        if (!games.some((g) => g.canister === canister)) games.push({ gameId, apiKey, canister });
    }
    games.sort((a, b) => s.shards.indexOf(a.canister) - s.shards.indexOf(b.canister));
}, 600_000);
afterAll(() => s?.stop());

test('one person on two shards: one id, merges and names per game, deletion everywhere', async () => {
    const [A, B] = games;
    expect([A.canister, B.canister]).toEqual(s.shards);
    // Anonymous progress on each game, on a device, before signing in.
    expect((await submit(A.apiKey, A.gameId, 'ada-phone', 700)).status).toBe(200);
    expect((await submit(B.apiKey, B.gameId, 'ada-tablet', 300)).status).toBe(200);
    expect((await submit(B.apiKey, B.gameId, 'bystander', 100)).status).toBe(200);

    const inA = await s.signInPlayer(A.gameId, 'ada', 'Ada');
    const inB = await s.signInPlayer(B.gameId, 'ada');
    expect(inA.approval.isNewUser).toBe(true);
    // Known to the registry: not a new user on the second shard, and its name seeds game B.
    expect(inB.approval.isNewUser).toBe(false);
    expect(inB.approval.nickname).toBe('Ada');

    // Each game merges its device player into the account: the progress is kept.
    for (const [g, token, deviceId] of [
        [A, inA.token, 'ada-phone'],
        [B, inB.token, 'ada-tablet'],
    ] as const) {
        const merged = await s.request('POST', '/migrate-account', {
            headers: session(token, g.gameId),
            body: { deviceId },
        });
        expect(merged.status).toBe(200);
    }
    // The player id behind each session, as each game's canister resolves it for the gateway.
    const idA = await playerIdOf(A, inA.token);
    const idB = await playerIdOf(B, inB.token);
    expect(idA).toMatch(/^@[0-9a-f]{32}$/);
    expect(idB).toBe(idA);
    expect((await board(A)).map((e) => [e.nickname, e.score])).toEqual([['Ada', 700]]);
    expect((await board(B)).map((e) => [e.nickname, e.score])).toEqual([
        ['Ada', 300],
        [expect.any(String), 100],
    ]);

    // Names are per game: renaming in A leaves B's name.
    const renamed = await s.request('PUT', '/profile/nickname', {
        headers: session(inA.token, A.gameId),
        body: { nickname: 'AdaInA' },
    });
    expect(renamed.status).toBe(200);
    const profile = (token: string, gameId: string) =>
        s.request('GET', '/auth/profile', { headers: session(token, gameId) });
    expect((await profile(inA.token, A.gameId)).body.data.nickname).toBe('AdaInA');
    expect((await profile(inB.token, B.gameId)).body.data.nickname).toBe('Ada');

    // Deleting the account from A's session: off both boards, both sessions dead.
    const deleted = await s.request('DELETE', '/auth/account', { headers: session(inA.token, A.gameId) });
    expect(deleted.status).toBe(200);
    expect(await board(A)).toEqual([]);
    expect((await board(B)).map((e) => e.score)).toEqual([100]);
    expect((await profile(inA.token, A.gameId)).status).toBe(401);
    expect((await profile(inB.token, B.gameId)).status).toBe(401);

    // Signing in again: a new account, on both shards the same new id, with no progress.
    const again = await s.signInPlayer(B.gameId, 'ada');
    expect(again.approval.isNewUser).toBe(true);
    expect(again.approval.gameProfile.score).toBe(0);
    const againA = await s.signInPlayer(A.gameId, 'ada');
    expect(againA.approval.isNewUser).toBe(false);
    expect(againA.approval.gameProfile.score).toBe(0);
    const submitted = await s.request('POST', '/scores', {
        headers: session(again.token, B.gameId),
        body: { score: 5, streak: 1 },
    });
    expect(submitted.status).toBe(200);
    expect((await board(B)).map((e) => e.score)).toEqual([100, 5]);
    const newId = await playerIdOf(B, again.token);
    expect(newId).toMatch(/^@[0-9a-f]{32}$/);
    expect(newId).not.toBe(idA);
    expect(await playerIdOf(A, againA.token)).toBe(newId);
}, 600_000);
