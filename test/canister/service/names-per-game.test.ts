// Nicknames are unique within a game (rule N3): the same name lives in two games, a
// look-alike in one game is still refused (N1, N2), each game hands out its own Player_<n>
// defaults, an account carries its name into a new game (suffixed when taken there, N2; N4's
// seed names an account that has none there yet), names are freed per game (renames, merges,
// account and game deletion), and names kept service-wide by older releases keep their owners
// while they move to per-game keys in bounded steps.
import type { Approval } from '../../../contract/canister';
import { nameKey } from '../../../canister/domain/nicknames';
import { sessionProfile, signIn } from '../../../canister/service/accounts';
import { deleteOwnGame, developerSignIn, purgeSome, registerOwnGame } from '../../../canister/service/developers';
import { deleteAccount, migrateAccount } from '../../../canister/service/merge';
import { profile, setNickname } from '../../../canister/service/players';
import { gameNameKey, nameHolder, namesToRekey, rekeySome } from '../../../canister/state/names';
import { flushStats, updateStats } from '../../../canister/state/stats';
import { harnessWith, harness, hashOf, key, person, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

const A = 'game-a';
const B = 'game-b';

const setup = (): Harness => harnessWith(A, B);
/** A submit (the first one creates the player); the player's name afterwards. */
function submit(h: Harness, gameId: string, playerId: string, nickname?: string): string {
    h.advance(3);
    const [r] = submitBatch(h, {
        submits: [{ apiKey: key(h, gameId), gameId, playerId, score: 1, streak: 0, nickname }],
    });
    expect(r).toMatchObject({ ok: {} });
    return profile(h, { gameId, playerId }).nickname;
}
const rename = (h: Harness, gameId: string, playerId: string, nickname: string) =>
    setNickname(h, { apiKey: key(h, gameId), gameId, playerId, nickname }).nickname;
const nameOf = (h: Harness, gameId: string, approval: Approval) =>
    sessionProfile(h, { gameId, sessionHash: hashOf(approval.sessionId) }).nickname;
function playerIdOf(h: Harness, approval: Approval): string {
    const session = h.store.playerSessions.get(hashOf(approval.sessionId))!;
    return `@${session.accountId}`;
}

test('the same name in two games; a look-alike in one game is still refused (N1 and N2)', () => {
    const h = setup();
    expect(submit(h, A, 'a1', 'DragonSlayer')).toBe('DragonSlayer');
    expect(submit(h, B, 'b1', 'DragonSlayer')).toBe('DragonSlayer');
    expect(submit(h, B, 'b2', 'Drag0nSIayer')).toMatch(/^Player_\d+$/); // N1: taken in B
    expect(rename(h, B, 'b2', 'DRAGONSLAYER')).toBe('DRAGONSLAYER_1'); // N2
    // A later submit with a name taken in its game is ignored; free in its game, it renames.
    submit(h, A, 'a2', 'Someone');
    expect(submit(h, A, 'a2', 'dragonslayer')).toBe('Someone');
    expect(submit(h, B, 'b3')).toMatch(/^Player_\d+$/);
    expect(submit(h, B, 'b3', 'Someone')).toBe('Someone');
    // Keys live under the game's prefix.
    expect(h.store.nicknames.get(`${A}/${nameKey('DragonSlayer')}`)).toBe(`${A}/a1`);
    expect(h.store.nicknames.get(gameNameKey(B, 'dragonslayer'))).toBe(`${B}/b1`);
});

test("one game's API key cannot take names away from another game's players", () => {
    const h = setup();
    // Game A's players (anyone with its public key) take many names first, defaults included.
    for (let i = 0; i < 20; i++) submit(h, A, `a${i}`, i < 10 ? `Name_${i}` : undefined);
    expect(submit(h, A, 'a-last')).toBe('Player_11');
    // Game B's players get the same names, and their own defaults from 1.
    expect(submit(h, B, 'b0')).toBe('Player_1');
    for (let i = 0; i < 10; i++) expect(submit(h, B, `b${i + 1}`, `name_${i}`)).toBe(`name_${i}`);
    expect(rename(h, B, 'b0', 'Player_5')).toBe('Player_5'); // handed out in A only
    expect(rename(h, A, 'a0', 'Player_5')).toBe('Player_5_1'); // handed out in A: taken for good there
    expect(submit(h, B, 'b-next')).toBe('Player_2');
});

test('freed per game: a rename, an account removal and a deleted game free the name only in their game', () => {
    const h = setup();
    submit(h, A, 'a1', 'Wanderer');
    submit(h, B, 'b1', 'Wanderer');
    rename(h, A, 'a1', 'Settled');
    expect(submit(h, A, 'a2', 'Wanderer')).toBe('Wanderer');
    expect(submit(h, B, 'b2', 'wanderer')).toMatch(/^Player_/); // B's is still b1's
    // An account in both games: removing it frees its name in each.
    const alice = person('alice-9');
    const inA = signIn(h, A, alice, 'Alicia');
    const inB = signIn(h, B, alice, undefined);
    expect([inA.nickname, inB.nickname]).toEqual(['Alicia', 'Alicia']);
    deleteAccount(h, { sessionHash: hashOf(inA.sessionId), gameId: A });
    expect(submit(h, A, 'a3', 'ALICIA')).toBe('ALICIA');
    expect(submit(h, B, 'b3', 'alicia')).toBe('alicia');
});

test('a deleted game frees its names once purged; the same names in another game stay held', () => {
    const h = harness();
    withGame(h, B);
    const session = hashOf(developerSignIn(h, { identity: person('ada') }).sessionToken);
    registerOwnGame(h, { sessionHash: session, gameId: A, name: 'Doomed' });
    submit(h, A, 'a1', 'Keeper');
    submit(h, B, 'b1', 'Keeper');
    deleteOwnGame(h, { sessionHash: session, gameId: A, confirm: A });
    while (purgeSome(h, 100));
    expect(h.store.nicknames.get(gameNameKey(A, 'Keeper'))).toBeUndefined();
    expect(nameHolder(h, B, 'keeper')).toBe(`${B}/b1`);
    expect(submit(h, B, 'b2', 'Keeper')).toMatch(/^Player_/);
});

test('an account carries its name into a new game, suffixed when taken there (N2); a seed names it where it has none (N4)', () => {
    const h = setup();
    const bob = person('bob-9');
    const first = signIn(h, A, bob, 'Bobby');
    expect(first.nickname).toBe('Bobby');
    // In B the name is taken (a look-alike): the account gets the first free suffix.
    submit(h, B, 'b1', 'B0bby');
    expect(signIn(h, B, bob, undefined).nickname).toBe('Bobby_1');
    // Existing players keep their name whatever the seed (N4).
    expect(signIn(h, A, bob, 'Other').nickname).toBe('Bobby');
    expect(signIn(h, B, bob, 'Other').nickname).toBe('Bobby_1');
    // A third game: the seed of this sign-in names the account there (it has no name there yet).
    withGame(h, 'game-c');
    expect(signIn(h, 'game-c', bob, 'Roberto').nickname).toBe('Roberto');
    // An account without a name of its own: a default in a game without a seed.
    const carol = person('carol-9');
    const c = signIn(h, A, carol, undefined);
    expect(c.nickname).toMatch(/^Player_\d+$/);
    expect(nameOf(h, A, c)).toBe(c.nickname);
    // A seed taken in the game: suffixed too.
    const dave = signIn(h, B, person('dave-9'), 'bobby');
    expect(dave.nickname).toBe('bobby_2');
});

test('a merge hands the anonymous name to the account only within the game', () => {
    const h = setup();
    submit(h, A, 'dev_anon', 'Speedy');
    submit(h, B, 'b1', 'Speedy');
    const s = signIn(h, A, person('erin-9'), undefined);
    migrateAccount(h, { sessionHash: hashOf(s.sessionId), gameId: A, deviceId: 'dev_anon' });
    expect(nameOf(h, A, s)).toBe('Speedy');
    expect(nameHolder(h, A, 'speedy')).toBe(`${A}/${playerIdOf(h, s)}`);
    expect(nameHolder(h, B, 'speedy')).toBe(`${B}/b1`);
});

test('names kept service-wide by older releases stay held in their game only, and move to per-game keys', () => {
    const h = setup();
    // As a release before skeleton keys kept them (lower-cased), and as schema 4 did (skeletons).
    const players: Array<[string, string, string]> = [
        [A, 'old1', 'Carrier'],
        [B, 'old2', 'Pilot_0'],
        [A, 'old3', 'Alice'],
        [B, 'old4', 'AIice'],
    ];
    for (const [gameId, playerId, name] of players) {
        submit(h, gameId, playerId, name);
        h.store.nicknames.delete(gameNameKey(gameId, name));
    }
    h.store.legacyNicknames.set('carrier', `${A}/old1`);
    h.store.legacyNicknames.set('aiice', `${B}/old4`);
    h.store.skeletonNicknames.set(nameKey('Pilot_0'), `${B}/old2`);
    h.store.skeletonNicknames.set(nameKey('Alice'), `${A}/old3`);
    expect(namesToRekey(h)).toBe(true);
    // Before the move: held in their game (any case, look-alikes of the skeleton), free in the other.
    expect(submit(h, A, 'n1', 'CARRIER')).toMatch(/^Player_/);
    expect(submit(h, B, 'n2', 'CARRIER')).toBe('CARRIER');
    expect(submit(h, B, 'n3', 'PIlot_O')).toMatch(/^Player_/);
    expect(submit(h, A, 'n4', 'Pilot_0')).toBe('Pilot_0');
    expect(submit(h, A, 'n5', 'ALICE')).toMatch(/^Player_/);
    expect(submit(h, B, 'n6', 'aiice')).toMatch(/^Player_/);
    expect(rename(h, A, 'old1', 'carrier')).toBe('carrier'); // its own name
    // Moved one at a time: both maps drain, each name under its game's key.
    let rounds = 0;
    while (!rekeySome(h, 1)) rounds++;
    expect(rounds).toBeGreaterThan(0);
    expect(namesToRekey(h)).toBe(false);
    expect(h.store.nicknames.get(gameNameKey(A, 'carrier'))).toBe(`${A}/old1`);
    expect(h.store.nicknames.get(gameNameKey(B, 'Pilot_0'))).toBe(`${B}/old2`);
    expect(h.store.nicknames.get(gameNameKey(A, 'Alice'))).toBe(`${A}/old3`);
    expect(h.store.nicknames.get(gameNameKey(B, 'Alice'))).toBe(`${B}/old4`);
    expect(rename(h, A, 'n1', 'Carrier')).toBe('Carrier_1');
    expect(rename(h, B, 'n6', 'A1ice')).toBe('A1ice_1');
    expect(rename(h, B, 'n3', 'Pilot_0')).toBe('Pilot_0_1');
});

test('defaults: a game from before goes on from the service-wide counter, then counts its own', () => {
    const h = setup();
    // An older release's counter: every default it handed out is below it.
    updateStats(h, '*', (s) => ({ ...s, nextDefaultName: 40 }));
    flushStats(h);
    h.stats.clear();
    expect(submit(h, A, 'a1')).toBe('Player_40');
    expect(submit(h, A, 'a2')).toBe('Player_41');
    expect(submit(h, B, 'b1')).toBe('Player_40');
    expect(rename(h, B, 'b1', 'Player_39')).toBe('Player_39_1'); // may have been handed out before
});

test("squatted suffixes cost a sign-in a bounded search: past 100 taken, the account's player gets a default", () => {
    const h = setup();
    signIn(h, A, person('frank-9'), 'Frankie');
    submit(h, B, 'b-0', 'Frankie');
    for (let n = 1; n <= 100; n++) submit(h, B, `b-${n}`, `Frankie_${n}`);
    expect(signIn(h, B, person('frank-9'), undefined).nickname).toMatch(/^Player_\d+$/);
    // PUT nickname (N2) still finds a free suffix: past the first 100, a random one.
    submit(h, B, 'b-x');
    expect(Number(/^Frankie_(\d+)$/.exec(rename(h, B, 'b-x', 'Frankie'))?.[1])).toBeGreaterThan(100);
});
