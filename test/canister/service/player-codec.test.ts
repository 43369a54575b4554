// Player records in stable memory: the compact form gives back exactly what was written, reads
// the object form of earlier releases, and is a fraction of its size.
import { IDL } from '@dfinity/candid';

import { markJson } from '../../../canister/candid-text';
import { decodePlayer, encodePlayer, slotOfPlayer, storedSlot } from '../../../canister/state/player-codec';
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

test('the stored form is exactly what earlier releases wrote (records written today read back after a rollback)', () => {
    expect(encodePlayer(typical())).toBe(
        '[1,41,"Player_42",1,"external",1772625600000000,0,1,[1234567,0,3,0],0,[["weekly",1234567,0,3,0,216000000000,0],' +
            '["daily",1234567,0,3,0,43200000000,0]],[["*",0,1234567,3,2]],20516,0,0]',
    );
    const bare = '[1,0,"a",0,"external",1772625600000000,0,0,0,null,[],[],null,0,{}]';
    expect(encodePlayer(decodePlayer(bare))).toBe(bare);
    const rare =
        '[1,41,"Zoë \\"the\\" \\\\ quick",0,"oidc",1772625600000000,9000000000000,77,[1234567,0,3,0],5,' +
        '[["my-board",-3.5,1,0,1772625600000000,1772625600000000,2,4],' +
        '["meta",5,1,0,1772625600000000,1772625600000000,2,null,"{\\"a\\":\\"\\\\\\"q\\"}"]],' +
        '[["*",0,1,2,0,"Zoë"],["my-board",1,1,2,1],["other",3,1,2,"Score submitted. Welcome, someone else!"]],' +
        '20516,{"at":1772625600000000,"reason":"cheating"},{"into":"acct_1","intoSlot":3},"{\\"x\\":1}"]';
    expect(encodePlayer(decodePlayer(rare))).toBe(rare);
    expect(decodePlayer(rare).boards.meta!.metadata).toBe('{"a":"\\"q"}');
    expect(decodePlayer(rare).pace['*']!.nickname).toBe('Zoë');
});

test('odd records round-trip: unicode names, quoted metadata, no boards, the largest a player can have', () => {
    const unicode: PlayerRecord = {
        ...typical(),
        nickname: 'Zoë 🎮 \u200b\u2028\u0000 "x"',
        defaultName: false,
        pace: dict<LastSubmit>({
            '*': {
                at: T,
                score: 1,
                streak: 2,
                nickname: '日本語',
                message: submitMessage({ created: true, improved: false, nickname: 'Zoë 🎮 \u200b\u2028\u0000 "x"' }),
            },
        }),
        bestMetadata: '{"q":"\\"\'\\\\","u":"ü"}',
    };
    expect(decodePlayer(encodePlayer(unicode))).toEqual(unicode);
    const empty: PlayerRecord = {
        ...typical(),
        best: undefined,
        bestAt: undefined,
        boards: dict(),
        pace: dict(),
        activeDay: undefined,
    };
    delete empty.best;
    delete empty.bestAt;
    delete empty.activeDay;
    expect(decodePlayer(encodePlayer(empty))).toEqual(empty);
    // Every board of a game (100 targeted ones besides the fan-out boards), each with the
    // largest metadata and a serial, and a pace entry per board.
    const metadata = JSON.stringify({ k: 'x'.repeat(240) });
    const largest: PlayerRecord = { ...typical(), bestMetadata: metadata, boards: dict(), pace: dict() };
    for (let i = 0; i < 102; i++) {
        const id = `${'b'.repeat(60)}-${i}`;
        largest.boards[id] = {
            score: Number.MAX_SAFE_INTEGER - i,
            scoreAt: T - i,
            streak: i,
            streakAt: 0,
            period: 0,
            submittedAt: T,
            serial: i,
            metadata,
        };
        largest.pace[id] = { at: T - i, score: i, streak: i, message: 'Score submitted: new personal best!' };
    }
    expect(decodePlayer(encodePlayer(largest))).toEqual(largest);
});

test("a record's slot is read without the rest, from every form a record is stored in", () => {
    for (const slot of [0, 41, 9_007_199_254_740_991]) {
        const record = { ...typical(), slot };
        const compact = encodePlayer(record);
        expect(slotOfPlayer(compact)).toBe(slot);
        // Behind the stored text's mark (a leading space: canister/candid-text.ts).
        expect(slotOfPlayer(` ${compact}`)).toBe(slot);
        // The object form of earlier releases.
        expect(slotOfPlayer(JSON.stringify(record))).toBe(slot);
        expect(slotOfPlayer(` ${JSON.stringify(record)}`)).toBe(slot);
    }
});

test("a stored record's slot is read from its bytes, and any other form is left to the text read", () => {
    const text = (s: string): Uint8Array => new Uint8Array(IDL.encode([IDL.Text], [s]));
    for (const slot of [0, 7, 41, 123_456, 9_007_199_254_740_991]) {
        const record = { ...typical(), slot };
        // As the store writes it: marked ASCII Candid text (canister/candid-text.ts).
        expect(storedSlot(markJson(encodePlayer(record), text))).toBe(slot);
        // Unmarked (earlier releases) and the object form: the text read's.
        expect(storedSlot(text(encodePlayer(record)))).toBeUndefined();
        expect(storedSlot(markJson(JSON.stringify(record), text))).toBeUndefined();
    }
    for (const odd of [
        ' [1,',
        ' [1,,2]',
        ' [1,-1,2]',
        ' [1,1.5,2]',
        ' [1,1e3,2]',
        ' [1,12',
        ' [2,1,2]',
        ' [1,9007199254740992,2]',
        ' [1,12345678901234567,2]',
    ])
        expect(storedSlot(text(odd))).toBeUndefined();
    const good = text(' [1,12,3]');
    expect(storedSlot(good)).toBe(12);
    expect(storedSlot(good.subarray(0, good.length - 3))).toBeUndefined(); // cut inside the slot's digits
    expect(storedSlot(new Uint8Array())).toBeUndefined();
});

test('tiebreaks (boards with the option) round-trip; records without one keep the bytes above', () => {
    const p = typical();
    p.best = { ...p.best!, tiebreak: 0 };
    p.boards.weekly = { ...p.boards.weekly!, tiebreak: 61_250 };
    p.boards.daily = { ...p.boards.daily!, serial: 3, metadata: '{"car":"red"}', tiebreak: Number.MAX_SAFE_INTEGER };
    const text = encodePlayer(p);
    expect(decodePlayer(text)).toEqual(p);
    // Trailing fields only: a reader that knows none of them sees the record as before.
    expect(text).toContain('[1234567,0,3,0,0]');
    expect(text).toContain('["weekly",1234567,0,3,0,216000000000,0,null,null,61250]');
    expect(text).toContain(
        `["daily",1234567,0,3,0,43200000000,0,3,"{\\"car\\":\\"red\\"}",${Number.MAX_SAFE_INTEGER}]`,
    );
    const without = typical();
    expect(encodePlayer(decodePlayer(encodePlayer(without)))).toBe(encodePlayer(without));
    expect(decodePlayer(encodePlayer(without)).boards.weekly).not.toHaveProperty('tiebreak');
});
