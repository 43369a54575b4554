// User codes found through the directory (codes part), natively: a directory with two shards
// joined by calls that run the shards' own functions. A shard's code is found and approved
// there; a wrong code counts once, on the directory, parallel guesses included; a shard that
// cannot be asked is a 503 that counts nothing; long codes reach the shards once a minute at
// most; a single canister answers at once, as before. Pending codes move with their game.
import type { Result } from '../../../contract/canister';
import { flushCallWrites } from '../../../canister/service/flush';
import { moveInChunk, moveInEnd, moveOutBegin, moveOutChunk, moveOutEnd } from '../../../canister/service/move';
import {
    approveAnywhere,
    approveDeviceCode,
    lookupAnywhere,
    findDeviceCode,
    redeemDeviceCode,
    setLongCodesUntil,
    startDeviceCode,
    sweepDeviceCodes,
    type ShardCalls,
} from '../../../canister/service/device-codes';
import { Fail } from '../../../canister/domain/fail';
import { tokenHash } from '../../../canister/domain/sha256';
import { harness, withGame, type Harness } from './harness';

const identity = { issuer: 'https://idp.test', subject: 'ada', email: 'ada@example.com', provider: 'local' };

let dir: Harness;
let shards: Record<string, Harness>;
let calls: Array<{ id: string; method: string }>;
let down: Set<string>;

const remote: ShardCalls = {
    async call(id, method, request: any): Promise<Result<unknown>> {
        calls.push({ id, method });
        if (down.has(id)) throw new Fail(503, `Canister ${id} did not answer ${method}`, { retryAfter: 5 });
        const shard = shards[id];
        shard.time = dir.time; // one clock, the IC's
        try {
            if (method === 'device_code_find') return { ok: findDeviceCode(shard, request) };
            if (method === 'set_long_codes_until') return { ok: setLongCodesUntil(shard, request) };
            return { ok: await approveAnywhere(shard, remote, request) };
        } catch (e) {
            if (e instanceof Fail) return { err: e.toApiError() };
            throw e;
        }
    },
};

/** A call's answer: its reply, or the status it failed with. */
async function outcome<T>(run: () => T | Promise<T>): Promise<T | number> {
    try {
        return await run();
    } catch (e) {
        if (e instanceof Fail) return e.status;
        throw e;
    }
}

beforeEach(() => {
    dir = harness();
    shards = { A: harness(), B: harness() };
    for (const [id, h] of Object.entries(shards)) {
        h.store.meta.set('role', 'shard');
        h.store.meta.set('directory', 'DIR');
        withGame(h, `game-${id.toLowerCase()}`);
    }
    dir.store.meta.set('shards', [
        { canisterId: 'A', createdAt: 0 },
        { canisterId: 'B', createdAt: 0 },
    ]);
    calls = [];
    down = new Set();
});

test("a code of shard B's game is found through the directory and approved there; B's redeem gives the session", async () => {
    const started = startDeviceCode(shards.B, { gameId: 'game-b', client: 'console' });
    const found = await lookupAnywhere(dir, remote, { userCode: started.userCode.toLowerCase(), client: 'phone' });
    expect(found).toEqual({
        userCode: started.userCode.replace('-', ''),
        gameId: 'game-b',
        gameName: 'My Game',
        expiresIn: 300,
    });
    calls = [];
    expect(await approveAnywhere(dir, remote, { userCode: started.userCode, client: 'phone', identity })).toEqual({
        gameId: 'game-b',
        gameName: 'My Game',
    });
    expect(calls.map((c) => `${c.id} ${c.method}`).sort()).toEqual([
        'A device_code_find',
        'B device_code_approve',
        'B device_code_find',
    ]);
    const approval = redeemDeviceCode(shards.B, { deviceCodeHash: tokenHash(started.deviceCode) });
    expect(approval).toMatchObject({ sessionId: expect.any(String), email: 'ada@example.com', isNewUser: true });
    // A bad identity is refused on the directory before any shard is asked.
    calls = [];
    expect(
        await outcome(() => approveAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: 'p', identity: {} })),
    ).toBe(400);
    expect(calls).toEqual([]);
});

test('a wrong code counts once, on the directory: the 11th from a client is refused, parallel guesses included', async () => {
    for (let i = 0; i < 10; i++)
        expect(await outcome(() => lookupAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: 'guesser' }))).toBe(
            404,
        );
    expect(await outcome(() => lookupAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: 'guesser' }))).toBe(429);
    // The shards counted nothing: the same client reaches a shard's code there directly.
    const code = startDeviceCode(shards.A, { gameId: 'game-a' }).userCode;
    expect(await outcome(() => lookupAnywhere(shards.A, remote, { userCode: code, client: 'guesser' }))).toMatchObject({
        gameId: 'game-a',
    });
    // 20 guesses started before any shard answers: 10 counted, 10 refused.
    const burst = await Promise.all(
        Array.from({ length: 20 }, () =>
            outcome(() => lookupAnywhere(dir, remote, { userCode: 'CDFG-HJKL', client: 'burst' })),
        ),
    );
    expect(burst.sort()).toEqual([...new Array(10).fill(404), ...new Array(10).fill(429)]);
    // Found codes forgive the client's provisional count: 20 right codes in a row never trip the limit.
    for (let i = 0; i < 20; i++) {
        const right = startDeviceCode(shards.B, { gameId: 'game-b' }).userCode;
        expect(await outcome(() => lookupAnywhere(dir, remote, { userCode: right, client: 'honest' }))).toMatchObject({
            gameId: 'game-b',
        });
    }
    // A new minute forgives.
    dir.advance(60);
    expect(await outcome(() => lookupAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: 'guesser' }))).toBe(404);
});

test('a shard that cannot be asked: 503 with Retry-After, not a wrong code', async () => {
    down.add('B');
    for (let i = 0; i < 12; i++)
        expect(await outcome(() => lookupAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: 'c' }))).toBe(503);
    down.clear();
    expect(await outcome(() => lookupAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: 'c' }))).toBe(404);
});

test("600 wrong codes a minute on the directory make every shard's new codes long, told once a minute at most", async () => {
    expect(startDeviceCode(shards.A, { gameId: 'game-a' }).userCode).toMatch(/^[A-Z]{8}$/);
    for (let i = 0; i < 700; i++)
        await outcome(() => lookupAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: `c${Math.floor(i / 10)}` }));
    expect(calls.filter((c) => c.method === 'set_long_codes_until').map((c) => c.id)).toEqual(['A', 'B']);
    for (const [id, h] of Object.entries(shards)) {
        h.time = dir.time;
        expect(startDeviceCode(h, { gameId: `game-${id.toLowerCase()}` }).userCode).toMatch(/^[A-Z]{16}$/);
    }
    // Still guessed a few minutes later: told again (the hour starts over).
    dir.advance(120);
    for (let i = 0; i < 600; i++)
        await outcome(() => lookupAnywhere(dir, remote, { userCode: 'BCDF-GHJK', client: `d${Math.floor(i / 10)}` }));
    expect(calls.filter((c) => c.method === 'set_long_codes_until')).toHaveLength(4);
    // An hour and more after the last, shard codes are short again.
    for (const [id, h] of Object.entries(shards)) {
        h.time = dir.time + 3601e6;
        expect(startDeviceCode(h, { gameId: `game-${id.toLowerCase()}` }).userCode).toMatch(/^[A-Z]{8}$/);
    }
});

test('set_long_codes_until takes a time in µs, never more than an hour ahead', () => {
    const h = shards.A;
    expect(() => setLongCodesUntil(h, { until: 'soon' })).toThrow('Invalid until');
    expect(() => setLongCodesUntil(h, { until: -1 })).toThrow('Invalid until');
    expect(setLongCodesUntil(h, { until: Number.MAX_SAFE_INTEGER })).toEqual({ longCodesUntil: h.time + 3600e6 });
    expect(setLongCodesUntil(h, { until: h.time + 10 })).toEqual({ longCodesUntil: h.time + 3600e6 }); // never shortened
});

test('a single canister (no shards) answers at once, as before; a directory holding the code answers it itself', async () => {
    const single = harness();
    withGame(single, 'home');
    const code = startDeviceCode(single, { gameId: 'home' }).userCode;
    const reply = lookupAnywhere(single, remote, { userCode: code, client: 'c' });
    expect(reply).not.toBeInstanceOf(Promise);
    expect(reply).toMatchObject({ gameId: 'home' });
    expect(() => lookupAnywhere(single, remote, { userCode: 'BCDF-GHJK', client: 'c' })).toThrow(Fail);
    withGame(dir, 'dir-game');
    const own = startDeviceCode(dir, { gameId: 'dir-game' }).userCode;
    calls = [];
    expect(approveAnywhere(dir, remote, { userCode: own, client: 'c', identity })).toEqual({
        gameId: 'dir-game',
        gameName: 'My Game',
    });
    expect(calls).toEqual([]);
});

test('pending and approved codes move with their game: the target finds and redeems them, the source forgets them', () => {
    const src = harness();
    const dst = harness();
    dst.time = src.time;
    withGame(src, 'moving');
    withGame(src, 'staying');
    const pendingCode = startDeviceCode(src, { gameId: 'moving' });
    const approvedCode = startDeviceCode(src, { gameId: 'moving' });
    approveDeviceCode(src, { userCode: approvedCode.userCode, client: 'c', identity });
    const redeemed = startDeviceCode(src, { gameId: 'moving' });
    approveDeviceCode(src, { userCode: redeemed.userCode, client: 'c', identity: { ...identity, subject: 'bob' } });
    redeemDeviceCode(src, { deviceCodeHash: tokenHash(redeemed.deviceCode) });
    const other = startDeviceCode(src, { gameId: 'staying' });
    const step = <T>(h: Harness, fn: () => T): T => {
        const out = fn();
        flushCallWrites(h);
        return out;
    };
    let begun = step(src, () => moveOutBegin(src, { gameId: 'moving' }));
    while (!begun.ready) begun = step(src, () => moveOutBegin(src, { gameId: 'moving' }));
    for (let index = 0; index < begun.chunks; index++) {
        const { data } = moveOutChunk(src, { gameId: 'moving', index });
        if (index === 0) expect(JSON.parse(data).filter((i: string[]) => i[0] === 'deviceCode')).toHaveLength(2);
        step(dst, () => moveInChunk(dst, { gameId: 'moving', index, data }));
    }
    step(dst, () => moveInEnd(dst, { gameId: 'moving', chunks: begun.chunks, checksum: begun.checksum }));
    step(src, () => moveOutEnd(src, { gameId: 'moving', to: 'rrkah-fqaaa-aaaaa-aaaaq-cai' }));
    // The target: the pending code is found and approved there, the approved one redeems once.
    expect(findDeviceCode(dst, { userCode: pendingCode.userCode })).toMatchObject({ gameId: 'moving' });
    expect(approveDeviceCode(dst, { userCode: pendingCode.userCode, client: 'c', identity })).toEqual({
        gameId: 'moving',
        gameName: 'My Game',
    });
    for (const code of [pendingCode, approvedCode])
        expect(redeemDeviceCode(dst, { deviceCodeHash: tokenHash(code.deviceCode) })).toMatchObject({
            email: 'ada@example.com',
        });
    expect(() => redeemDeviceCode(dst, { deviceCodeHash: tokenHash(redeemed.deviceCode) })).toThrow('Unknown');
    // The source: the moved codes are gone (not found, not counted as pending), the other game's stays.
    expect(() => findDeviceCode(src, { userCode: pendingCode.userCode })).toThrow(Fail);
    expect(() => redeemDeviceCode(src, { deviceCodeHash: tokenHash(approvedCode.deviceCode) })).toThrow('Unknown');
    expect(src.store.meta.get('pendingDeviceCodes')).toEqual({ total: 1, byGame: { staying: 1 } });
    expect(findDeviceCode(src, { userCode: other.userCode })).toMatchObject({ gameId: 'staying' });
    // A sweep later drops the source's old expiry entries without touching anything else.
    src.advance(301);
    sweepDeviceCodes(src);
    expect(src.store.meta.get('pendingDeviceCodes')).toEqual({ total: 0, byGame: {} });
});

test('a forged moved code (another game, a redeemed one, a bad hash) is refused and writes nothing', () => {
    const src = harness();
    const dst = harness();
    withGame(src, 'moving');
    startDeviceCode(src, { gameId: 'moving' });
    const begun = moveOutBegin(src, { gameId: 'moving' });
    flushCallWrites(src);
    const items = JSON.parse(moveOutChunk(src, { gameId: 'moving', index: 0 }).data) as Array<[string, string, any]>;
    const at = items.findIndex((i) => i[0] === 'deviceCode');
    expect(at).toBeGreaterThan(0);
    const [, hash, code] = items[at];
    for (const forged of [
        [hash, { ...code, gameId: 'other' }],
        [hash, { ...code, status: 'redeemed' }],
        ['not-a-hash', code],
        [hash, { ...code, userCode: 'aaaa' }],
    ]) {
        const data = JSON.stringify(items.map((item, i) => (i === at ? ['deviceCode', ...forged] : item)));
        expect(() => moveInChunk(dst, { gameId: 'moving', index: 0, data })).toThrow('is not a device code');
    }
    expect(dst.store.userCodes.size()).toBe(0);
    expect(begun.chunks).toBeGreaterThan(0);
});
