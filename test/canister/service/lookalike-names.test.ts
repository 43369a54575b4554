// Nicknames that differ only in look-alike characters (I/l/1, O/0) are one name, as names that
// differ only in case are: a look-alike of a held name falls back to Player_<n> on a first
// submit (N1) and gets a suffix on PUT nickname (N2); the Player_<n> defaults handed out cannot
// be claimed through a look-alike either; and names kept under the lower-cased keys of older
// releases keep their uniqueness in their game while they are moved to the new keys, in bounded
// steps.
import { nameKey } from '../../../canister/domain/nicknames';
import { gameNameKey, rekeySome } from '../../../canister/state/names';
import { profile, setNickname } from '../../../canister/service/players';
import { changeStats } from '../../../canister/state/stats';
import { harnessWith, key, type Harness } from './harness';
import { submitBatch } from './submit';

const G = 'names-game';

const setup = (): Harness => harnessWith(G);
function first(h: Harness, playerId: string, nickname: string): string {
    h.advance(3);
    const [r] = submitBatch(h, {
        submits: [{ apiKey: key(h, G), gameId: G, playerId, score: 1, streak: 0, nickname }],
    });
    expect(r).toMatchObject({ ok: {} });
    return profile(h, { gameId: G, playerId }).nickname;
}
const rename = (h: Harness, playerId: string, nickname: string) =>
    setNickname(h, { apiKey: key(h, G), gameId: G, playerId, nickname }).nickname;

test('the skeleton: case, I/i/l/L/1 and O/o/0 are one character each; nothing else is folded', () => {
    expect(nameKey('DragonSlayer')).toBe(nameKey('DragonSIayer'));
    expect(nameKey('DragonSlayer')).toBe(nameKey('Drag0nSlayer'));
    expect(nameKey('DragonSlayer')).toBe(nameKey('DRAG0NS1AYER'));
    expect(nameKey('DragonSlayer')).toBe(nameKey('dragonsiayer'));
    expect(nameKey('Sam5')).not.toBe(nameKey('SamS'));
    expect(nameKey('Zed2')).not.toBe(nameKey('ZedZ'));
    expect(nameKey('Arm')).not.toBe(nameKey('Arrn'));
    expect(nameKey('Dragon_Slayer')).not.toBe(nameKey('DragonSlayer'));
});

test('a look-alike of a held name falls back to Player_<n> on a first submit (N1)', () => {
    const h = setup();
    expect(first(h, 'p1', 'DragonSlayer')).toBe('DragonSlayer');
    expect(first(h, 'p2', 'DragonSIayer')).toMatch(/^Player_\d+$/);
    expect(first(h, 'p3', 'Drag0nSlayer')).toMatch(/^Player_\d+$/);
    expect(first(h, 'p4', 'dragonsiayer')).toMatch(/^Player_\d+$/);
});

test('a look-alike of a held name gets a suffix on PUT nickname (N2); its holder may switch between its look-alikes', () => {
    const h = setup();
    first(h, 'p1', 'DragonSlayer');
    first(h, 'p2', 'Someone');
    expect(rename(h, 'p2', 'Drag0nSIayer')).toBe('Drag0nSIayer_1');
    expect(rename(h, 'p1', 'DragonSIayer')).toBe('DragonSIayer');
    expect(first(h, 'p3', 'DragonSlayer')).toMatch(/^Player_\d+$/); // still p1's, in another spelling
});

test('Player_<n> defaults handed out cannot be claimed through a look-alike', () => {
    const h = setup();
    first(h, 'p1', 'DragonSlayer');
    expect(first(h, 'p2', 'DragonSlayer')).toBe('Player_1');
    for (const [i, name] of ['PIayer_1', 'P1ayer_1', 'PLAYER_1', 'Player_l', 'PIayer_I'].entries()) {
        expect(first(h, `q${i}`, name)).toMatch(/^Player_\d+$/);
        // _1, _2, ...: the earlier ones' suffixed names look alike too.
        expect(rename(h, `q${i}`, name)).toBe(`${name}_${i + 1}`);
    }
    // Player_10 looks like PIayer_1O: claimed before the counter gets there, the default skips it.
    expect(first(h, 'claimer', 'PIayer_1O')).toBe('PIayer_1O');
    let given = '';
    for (let i = 0; given !== 'Player_9' && i < 20; i++) given = first(h, `r${i}`, 'DragonSlayer');
    expect(given).toBe('Player_9');
    expect(first(h, 'next', 'DragonSlayer')).toBe('Player_11');
});

test('a default-shaped name chosen on a rename is skipped too; a game of an older release asks the map for each', () => {
    const h = setup();
    expect(changeStats(h, G).chosenDefaultMax).toBe(0); // registered by this release
    first(h, 'p0', 'DragonSlayer');
    first(h, 'p1', 'Alice');
    expect(rename(h, 'p1', 'PLAYER_3')).toBe('PLAYER_3');
    expect(changeStats(h, G).chosenDefaultMax).toBe(3);
    expect(first(h, 'p2', 'DragonSlayer')).toBe('Player_1');
    expect(first(h, 'p3', 'DragonSlayer')).toBe('Player_2');
    expect(first(h, 'p4', 'DragonSlayer')).toBe('Player_4');
    // A game without the mark (older releases kept none): a name held above the counter is still skipped.
    delete changeStats(h, G).chosenDefaultMax;
    h.store.nicknames.set(gameNameKey(G, 'Player_5'), `${G}/old`);
    expect(first(h, 'p5', 'DragonSlayer')).toBe('Player_6');
    expect(rename(h, 'p0', 'Player_9')).toBe('Player_9');
    first(h, 'p9', 'DragonSlayer');
    expect(changeStats(h, G).chosenDefaultMax).toBeUndefined();
    expect(first(h, 'p6', 'DragonSlayer')).toBe('Player_7');
    expect(first(h, 'p7', 'DragonSlayer')).toBe('Player_8');
    expect(first(h, 'p8', 'DragonSlayer')).toBe('Player_10');
});

test('names under the lower-cased keys of older releases stay unique while they move to per-game keys', () => {
    const h = setup();
    first(h, 'p1', 'Carrier');
    // As an older release kept them: lower-cased keys in the legacy map.
    h.store.nicknames.delete(gameNameKey(G, 'Carrier'));
    h.store.legacyNicknames.set('carrier', `${G}/p1`);
    for (const name of ['dragonslayer', 'pilot_0', 'alice', 'aiice'])
        h.store.legacyNicknames.set(name, `${G}/old_${name}`);
    // Before they are moved: the same name in any case, and look-alikes of a name spelled with l and o, are taken.
    expect(first(h, 'n1', 'DragonSlayer')).toMatch(/^Player_/);
    expect(first(h, 'n2', 'Drag0nSIayer')).toMatch(/^Player_/);
    expect(first(h, 'n3', 'ALICE')).toMatch(/^Player_/);
    expect(first(h, 'n4', 'AIice')).toMatch(/^Player_/);
    expect(rename(h, 'p1', 'CARRIER')).toBe('CARRIER'); // its own
    // Moved two at a time; two legacy names of one skeleton (alice, aiice): the first keeps it, both keep their names.
    let rounds = 0;
    while (!rekeySome(h, 2)) rounds++;
    expect(rounds).toBeGreaterThan(0);
    expect(h.store.legacyNicknames.size()).toBe(0);
    for (const name of ['DragonSlayer', 'Pil0t_O', 'PIlot_0', 'A1ice', 'aLiCe', 'Carrier']) {
        expect(rename(h, 'n1', name)).toBe(`${name}_1`);
    }
    expect(h.store.nicknames.get(`${G}/${nameKey('alice')}`)).toBe(`${G}/old_aiice`); // 'aiice' sorts first
});
