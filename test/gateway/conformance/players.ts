// The players conformance cases submit as, the boards they rank (RANKED, RENAMED) and the rankings to expect.
import type { Step } from './harness';
import { DAY_START } from './harness';
import { ok, TEXT, entry, NS } from './answers';
import { LEVEL_1, submit, OLD_PLUGIN, SPACED, captureName, wait, send, put } from './requests';

// Player ids in every shape real clients send.
export const ALICE = 'dev_1700000000_a1b2c3d4'; // dev_<unix_seconds>_<8 hex>
export const BOB = 'dev_1700000001_b0b0b0b0';
export const CAROL = 'player-one'; // hand-made
export const DAVE = 'dev_1700000000123456_deadbeef'; // 13+ digits in the time part
export const EVE = 'dev_1700000000123_cafebabe'; // milliseconds
export const NEWBIE = 'dev_1700000002_0badf00d'; // only ever sends rejected submits: never gets a profile
export const GHOST = 'dev_1700000003_00000000'; // never sends anything
export const LONG_PLAYER = 'q'.repeat(100); // the longest player id

// Nicknames the cases choose: every one ends in the case's tag.
export const ALICE_NAME = 'Alice${T}';
export const DAVE_NAME = 'Dave${T}';
export const GREAT_NAME = 'DaveTheGreat${T}';

/**
 * Five ranked players on the main game, plus the targeted board level-1. Ties go to whoever
 * reached the value first: Bob reached 250 before Dave, Alice last (although Alice's profile is the
 * oldest); Dave reached streak 9 before Alice. Captures the default names $BOB_NAME, $CAROL_NAME
 * (Carol asked for a taken name) and $EVE_NAME.
 */
export const RANKED: readonly Step[] = [
    LEVEL_1,
    submit({ playerId: ALICE, score: 100, streak: 3, nickname: ALICE_NAME }),
    submit({ playerId: BOB, score: 250, streak: 1 }),
    submit({ playerId: CAROL, score: 10, streak: 0, nickname: 'ALICE${T}' }),
    submit({ playerId: DAVE, score: 250, streak: 9, nickname: DAVE_NAME }, OLD_PLUGIN),
    submit({ playerId: DAVE, score: 300, streak: 2, scoreboardId: 'level-1' }),
    submit({ playerId: EVE, score: 50, streak: 20 }),
    SPACED,
    submit({ playerId: BOB, score: 100, streak: 7 }),
    submit({ playerId: ALICE, score: 250, streak: 9 }),
    submit({ playerId: EVE, score: 400, streak: 1, scoreboardId: 'level-1' }),
    captureName(BOB, 'BOB_NAME'),
    captureName(CAROL, 'CAROL_NAME'),
    captureName(EVE, 'EVE_NAME'),
];
/** RANKED plus a sixth player with only a targeted entry (the longest player id). */
export const RANKED_SIX: readonly Step[] = [
    ...RANKED,
    submit({ playerId: LONG_PLAYER, score: 0, streak: 0, scoreboardId: 'level-1' }),
];
/** RANKED, then renamed: Bob to alice_1 and Carol to Alice_2 (N2), Dave to DaveTheGreat by a submit (N1). */
export const RENAMED: readonly Step[] = [
    ...RANKED,
    wait(3),
    submit({ playerId: DAVE, score: 250, streak: 9, nickname: GREAT_NAME }),
    send(put(`/players/${BOB}/nickname`, { nickname: 'alice${T}' }), ok({ nickname: 'alice${T}_1', message: TEXT })),
    send(put(`/players/${CAROL}/nickname`, { nickname: ALICE_NAME }), ok({ nickname: 'Alice${T}_2', message: TEXT })),
];

// The ranking of RANKED.
export const LB_BY_SCORE = [
    entry(1, '$BOB_NAME', 250, 7),
    entry(2, DAVE_NAME, 250, 9),
    entry(3, ALICE_NAME, 250, 9),
    entry(4, '$EVE_NAME', 50, 20),
    entry(5, '$CAROL_NAME', 10, 0),
];
/** The ranking of RENAMED: the same, by the new names. */
const NEW_NAMES = new Map([
    ['$BOB_NAME', 'alice${T}_1'],
    [DAVE_NAME, GREAT_NAME],
    ['$CAROL_NAME', 'Alice${T}_2'],
]);
export const RENAMED_BY_SCORE = LB_BY_SCORE.map((e) => ({ ...e, nickname: NEW_NAMES.get(e.nickname) ?? e.nickname }));
export const ARCHIVED_ENTRIES = RENAMED_BY_SCORE.map((e) => ({ ...e, submittedAt: NS }));
export const DAILY_ARCHIVE_ID = `$GAME:daily:${DAY_START}`;
