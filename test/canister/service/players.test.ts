// Nicknames through PUT .../nickname (N2 suffixes, unique within a game), defaults that never
// collide in their game, achievements.
import { profile, setNickname, unlockAchievements } from '../../../canister/service/players';
import { failure, harness, withGame, key } from './harness';
import { submitBatch } from './submit';

const submit = (h: ReturnType<typeof harness>, gameId: string, playerId: string, extra: Record<string, unknown> = {}) =>
    submitBatch(h, { submits: [{ apiKey: key(h, gameId), gameId, playerId, score: 1, streak: 0, ...extra }] });

test('a taken name gets the first free numeric suffix and the reply names it (N2), within its game', () => {
    const h = harness();
    withGame(h, 'game-a');
    withGame(h, 'game-b');
    submit(h, 'game-a', 'p1', { nickname: 'Star' });
    submit(h, 'game-b', 'p2');
    submit(h, 'game-b', 'p3');
    // Another game's Star takes nothing away here.
    expect(setNickname(h, { apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'p2', nickname: 'star' })).toEqual({
        nickname: 'star',
        message: 'Nickname set to star.',
    });
    expect(setNickname(h, { apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'p3', nickname: 'Star' })).toEqual({
        nickname: 'Star_1',
        message: expect.stringMatching(/taken/),
    });
    submit(h, 'game-b', 'p4');
    expect(
        setNickname(h, { apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'p4', nickname: 'Star' }).nickname,
    ).toBe('Star_2');
    expect(profile(h, { gameId: 'game-a', playerId: 'p1' }).nickname).toBe('Star');
    // Your own name is not taken by you.
    expect(
        setNickname(h, { apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'p4', nickname: 'STAR_2' }).nickname,
    ).toBe('STAR_2');
    expect(profile(h, { gameId: 'game-b', playerId: 'p4' }).nickname).toBe('STAR_2');
    expect(
        failure(() => setNickname(h, { apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'p3', nickname: 'no' })),
    ).toEqual({ status: 400, message: 'Nickname must be at least 3 characters' });
    expect(
        failure(() =>
            setNickname(h, { apiKey: key(h, 'game-b'), gameId: 'game-b', playerId: 'ghost', nickname: 'Ghost' }),
        ).status,
    ).toBe(404);
});

test('past its first 100 suffixes a rename takes a free random one, and 409 when those are taken too', () => {
    const h = harness();
    withGame(h, 'my-game');
    const rename = (playerId: string, nickname: string) =>
        setNickname(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId, nickname });
    // Anyone with the game's public key can hold Star and Star_1 ... Star_100.
    for (let n = 0; n <= 100; n++) submit(h, 'my-game', `holder${n}`, { nickname: n === 0 ? 'Star' : `Star_${n}` });
    submit(h, 'my-game', 'late');
    const applied = rename('late', 'Star').nickname;
    expect(applied).toMatch(/^Star_\d+$/);
    expect(Number(applied.slice(5))).toBeGreaterThan(100);
    expect(profile(h, { gameId: 'my-game', playerId: 'late' }).nickname).toBe(applied);
    // With every random suffix it draws taken as well, the rename is refused and changes nothing.
    h.env.random = (n) => new Uint8Array(n);
    submit(h, 'my-game', 'random-holder');
    expect(rename('random-holder', 'Star').nickname).toBe('Star_101'); // the one suffix it draws
    submit(h, 'my-game', 'other');
    const before = profile(h, { gameId: 'my-game', playerId: 'other' }).nickname;
    expect(failure(() => rename('other', 'Star'))).toEqual({
        status: 409,
        message: 'That nickname and the suffixes tried for it are taken in this game. Choose another nickname.',
    });
    expect(profile(h, { gameId: 'my-game', playerId: 'other' }).nickname).toBe(before);
});

test('Player_<n> defaults skip names someone already chose', () => {
    const h = harness();
    withGame(h);
    submit(h, 'my-game', 'p1', { nickname: 'Player_2' });
    submit(h, 'my-game', 'p2');
    submit(h, 'my-game', 'p3');
    expect([
        profile(h, { gameId: 'my-game', playerId: 'p2' }).nickname,
        profile(h, { gameId: 'my-game', playerId: 'p3' }).nickname,
    ]).toEqual(['Player_1', 'Player_3']);
});

test('a default name handed out is taken for good, also by other spellings and after its holder renames', () => {
    const h = harness();
    withGame(h);
    const rename = (playerId: string, nickname: string) =>
        setNickname(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId, nickname }).nickname;
    submit(h, 'my-game', 'p1');
    submit(h, 'my-game', 'p2');
    expect(profile(h, { gameId: 'my-game', playerId: 'p1' }).nickname).toBe('Player_1');
    expect(rename('p2', 'PLAYER_1')).toBe('PLAYER_1_1');
    expect(rename('p1', 'player_1')).toBe('player_1'); // its holder may change the case
    expect(rename('p1', 'Renamed')).toBe('Renamed');
    expect(rename('p2', 'Player_1')).toBe('Player_1_1'); // still taken: defaults never collide
    submit(h, 'my-game', 'p3', { nickname: 'Player_1' }); // N1: a taken name falls back to a default
    expect(profile(h, { gameId: 'my-game', playerId: 'p3' }).nickname).toBe('Player_3');
    // Names of that shape not handed out yet are free; "Player_01" was never a default.
    expect(rename('p2', 'Player_9')).toBe('Player_9');
    expect(rename('p1', 'Player_01')).toBe('Player_01');
});

test('a renamed player frees the old name', () => {
    const h = harness();
    withGame(h);
    submit(h, 'my-game', 'p1', { nickname: 'First' });
    setNickname(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p1', nickname: 'Second' });
    submit(h, 'my-game', 'p2', { nickname: 'First' });
    expect(profile(h, { gameId: 'my-game', playerId: 'p2' }).nickname).toBe('First');
});

test('achievements: single and batch unlocks are idempotent, ids validated, at most 100 per call', () => {
    const h = harness();
    withGame(h);
    expect(
        unlockAchievements(h, {
            apiKey: key(h, 'my-game'),
            gameId: 'my-game',
            playerId: 'p1',
            achievementIds: ['first_win'],
        }),
    ).toEqual({
        unlocked: 1,
        total: 1,
        results: [{ achievementId: 'first_win', success: true, message: 'Unlocked' }],
    });
    const again = unlockAchievements(h, {
        apiKey: key(h, 'my-game'),
        gameId: 'my-game',
        playerId: 'p1',
        achievementIds: ['first_win', 'speed:run'],
    });
    expect(again).toMatchObject({ unlocked: 1, total: 2 });
    expect(again.results[0]).toEqual({ achievementId: 'first_win', success: true, message: 'Already unlocked' });
    // A bad id, and a batch over 100: 400.
    for (const achievementIds of [['bad id'], Array.from({ length: 101 }, (_, i) => `a${i}`)])
        expect(
            failure(() =>
                unlockAchievements(h, { apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p1', achievementIds }),
            ).status,
        ).toBe(400);
    // Kept before the first submit, and shown on the profile once it exists.
    submit(h, 'my-game', 'p1');
    expect(profile(h, { gameId: 'my-game', playerId: 'p1' }).gameProfile.achievements).toEqual([
        'first_win',
        'speed:run',
    ]);
});
