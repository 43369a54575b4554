// Player records in stable memory: the compact form gives back exactly what was written, reads
// the object form of earlier releases, and is a fraction of its size.
import { decodePlayer, encodePlayer } from '../../../canister/state/player-codec';
import { dict, type EntryRecord, type PlayerRecord } from '../../../canister/state/records';
import { submitMessage, type LastSubmit } from '../../../canister/domain/throttle';

const T = 1_772_625_600_000_000; // µs

function typical(): PlayerRecord {
    const entry = (period: number): EntryRecord => ({
        score: 1_234_567,
        scoreAt: T,
        streak: 3,
        streakAt: T,
        period,
        submittedAt: T,
    });
    return {
        slot: 41,
        nickname: 'Player_42',
        defaultName: true,
        authType: 'external',
        created: T,
        best: { score: 1_234_567, scoreAt: T, streak: 3, streakAt: T },
        bestAt: T,
        playCount: 1,
        lastPlayed: T,
        boards: dict({ weekly: entry(T - 216e9), daily: entry(T - 432e8) }),
        pace: dict<LastSubmit>({
            '*': {
                at: T,
                score: 1_234_567,
                streak: 3,
                message: submitMessage({ created: true, improved: true, nickname: 'Player_42' }),
            },
        }),
        activeDay: 20_516,
    };
}

test('a typical record round-trips and takes under a third of its JSON size', () => {
    const p = typical();
    const text = encodePlayer(p);
    expect(decodePlayer(text)).toEqual(p);
    expect(text.length).toBeLessThan(JSON.stringify(p).length / 3);
    expect(text.length).toBeLessThan(220);
});

test('every field round-trips: rare ones, other messages, serials, times far apart', () => {
    const p: PlayerRecord = {
        ...typical(),
        nickname: 'Zoë "the" \\ quick',
        defaultName: false,
        authType: 'oidc',
        created: T - 9e12,
        bestAt: T - 5,
        playCount: 77,
        boards: dict({
            'my-board': {
                score: -3.5,
                scoreAt: T - 1,
                streak: 0,
                streakAt: 0,
                period: 0,
                submittedAt: T - 2,
                serial: 4,
            },
        }),
        pace: dict<LastSubmit>({
            '*': { at: T, score: 1, streak: 2, nickname: 'Zoë', message: 'Score submitted.' },
            'my-board': { at: T - 1, score: 1, streak: 2, message: 'Score submitted: new personal best!' },
            other: { at: T - 3, score: 1, streak: 2, message: 'Score submitted. Welcome, someone else!' },
        }),
        banned: { at: T, reason: 'cheating' },
        retired: { into: 'acct_1', intoSlot: 3 },
    };
    expect(decodePlayer(encodePlayer(p))).toEqual(p);
    const bare: PlayerRecord = {
        slot: 0,
        nickname: 'a',
        defaultName: false,
        authType: 'external',
        created: T,
        playCount: 0,
        lastPlayed: T,
        boards: dict(),
        pace: dict(),
        retired: {},
    };
    expect(decodePlayer(encodePlayer(bare))).toEqual(bare);
});

test('records written by earlier releases (JSON objects) are read as they were', () => {
    const p = typical();
    expect(decodePlayer(JSON.stringify(p))).toEqual(p);
});

test('board ids from user input stay plain keys', () => {
    const p = typical();
    const weekly = p.boards.weekly;
    p.boards = dict({ ['__proto__']: weekly, constructor: p.boards.daily });
    const back = decodePlayer(encodePlayer(p));
    expect(Object.getPrototypeOf(back.boards)).toBeNull();
    expect(Object.getPrototypeOf(back.pace)).toBeNull();
    expect(Object.keys(back.boards)).toEqual(['__proto__', 'constructor']);
    expect(back.boards['__proto__']).toEqual(weekly);
});
