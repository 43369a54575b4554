// A batch of submits written compact (the game most of them are of, and each game's key, given
// once) reads back, on the canister's side, as exactly the batch: for any mix of games, keys,
// sessions and server keys, and smaller whenever anything repeats.
import type { SubmitRequest } from '../../contract/canister';
import { compactSubmits, expandSubmits } from '../../contract/compact-submits';

/** What the canister reads: the JSON of the compact form, expanded. */
const roundTrip = (submits: SubmitRequest[]): { read: unknown; bytes: number } => {
    const text = JSON.stringify(compactSubmits(submits));
    const req = JSON.parse(text) as { shared?: unknown; submits: unknown[] };
    expect(expandSubmits(req)).toBeUndefined();
    return { read: req.submits, bytes: text.length };
};
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const byKey = (gameId: string, playerId: string, more: Partial<SubmitRequest> = {}): SubmitRequest =>
    ({
        apiKey: `key_${gameId}_0123456789abcdef0123456789abcdef`,
        gameId,
        playerId,
        score: 10,
        streak: 1,
        ...more,
    }) as SubmitRequest;

test('a batch of one game reads back exactly, in about half the bytes', () => {
    const submits = Array.from({ length: 100 }, (_, i) =>
        byKey('g-three', `dev_1700000000_${i.toString(16).padStart(8, '0')}`, { score: 1_500_000 + i }),
    );
    const { read, bytes } = roundTrip(submits);
    expect(read).toEqual(asJson(submits));
    const plain = JSON.stringify({ submits }).length;
    expect(bytes).toBeLessThan(plain * 0.55);
});

test('a batch of many games loses each repeated key', () => {
    const submits = Array.from({ length: 100 }, (_, i) => byKey(`game-${i % 25}`, `dev_1700000000_${i}`));
    const { read, bytes } = roundTrip(submits);
    expect(read).toEqual(asJson(submits));
    expect(bytes).toBeLessThan(JSON.stringify({ submits }).length * 0.75);
});

test('mixed games, sessions, server keys, optional fields and odd ids read back exactly', () => {
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 300; round++) {
        const submits: SubmitRequest[] = Array.from({ length: 1 + next(12) }, (_, i) => {
            const gameId = ['a', 'b', '__proto__', 'constructor'][next(4)]!;
            const kind = next(5);
            const base = { gameId, score: next(1000), streak: next(9) };
            const extra = next(2) === 0 ? {} : { nickname: 'Ana_1', scoreboardId: 'weekly', tiebreak: 3 };
            if (kind === 0) return { ...base, sessionHash: `s${i}`, ...extra } as SubmitRequest;
            if (kind === 1) return { ...base, serverKeyHash: 'h', playerId: `p${i}` } as SubmitRequest;
            // Another game's key, or a second key of the game (one rotated while in flight).
            const apiKey = kind === 2 ? 'key_other' : kind === 3 ? `key_${gameId}_old` : `key_${gameId}`;
            return { ...base, apiKey, playerId: `p${i}`, ...extra } as SubmitRequest;
        });
        expect(roundTrip(submits).read).toEqual(asJson(submits));
    }
});

test('nothing is shared when nothing repeats, or when a submit has no credential or no game to keep', () => {
    expect(compactSubmits([byKey('a', 'p1'), byKey('b', 'p2')]).shared).toBeUndefined();
    const bare = { gameId: 'a', playerId: 'p3', score: 1, streak: 0 } as unknown as SubmitRequest;
    const compact = compactSubmits([byKey('a', 'p1'), byKey('a', 'p2'), bare]);
    expect(compact).toEqual({ submits: [byKey('a', 'p1'), byKey('a', 'p2'), bare] });
    const gameless = { apiKey: 'key_a', playerId: 'p4', score: 1, streak: 0 } as unknown as SubmitRequest;
    expect(compactSubmits([byKey('a', 'p1'), byKey('a', 'p2'), gameless]).shared).toBeUndefined();
});

test("a submit keeps its own credential: a game's key goes only where there is none", () => {
    const req = {
        shared: { gameId: 'a', keys: { a: 'key_a', b: 'key_b' } },
        submits: [
            { playerId: 'p1' },
            { sessionHash: 's' },
            { gameId: 'b', playerId: 'p2' },
            { apiKey: 'key_c' },
            { gameId: 'c', playerId: 'p3' },
            { gameId: 'constructor', playerId: 'p4' },
            { serverKeyHash: 'h' },
            5,
        ],
    };
    expect(expandSubmits(req)).toBeUndefined();
    expect(req.submits).toEqual([
        { playerId: 'p1', gameId: 'a', apiKey: 'key_a' },
        { sessionHash: 's', gameId: 'a' },
        { gameId: 'b', playerId: 'p2', apiKey: 'key_b' },
        { apiKey: 'key_c', gameId: 'a' },
        { gameId: 'c', playerId: 'p3' },
        { gameId: 'constructor', playerId: 'p4' },
        { serverKeyHash: 'h', gameId: 'a' },
        5,
    ]);
});

test('a malformed shared part is an error, and changes nothing', () => {
    for (const shared of ['key_a', null, [], { gameId: 1 }, { keys: 'key_a' }, { keys: [] }, { keys: { a: 1 } }]) {
        const req = { shared, submits: [{ playerId: 'p1' }] };
        expect(expandSubmits(req)).toMatch(/^Invalid shared: /);
        expect(req.submits).toEqual([{ playerId: 'p1' }]);
    }
    expect(expandSubmits({ submits: [{ playerId: 'p1' }] })).toBeUndefined();
});
