// The directory as the identity registry, canister by canister (issue 27 stage 2, the real wasm
// on the local replica): who may call identity_account, account_deleted and account_forget
// (403 for everyone but the directory's own shards / the shard's own directory); a concurrent
// first sign-in of one identity; no directory call for an identity a shard knows; deletion
// refused with nothing removed while the directory is stopped; and the fan-out retried after a
// stopped shard starts again. Metered instructions of each path are printed.

import { Ed25519KeyIdentity } from '@dfinity/identity';
import { Principal } from '@dfinity/principal';

import { loadIdentity } from '../../gateway/ic/identity';
import { moveGame } from '../../gateway/ops/move-game';
import { OPERATOR } from '../../replica/replica';
import { startService, type TestService } from '../support/gateway';
import { callAs, setRunning as setRunningOn } from '../support/replica';
import type { Identity } from '../../contract/canister';
import { hashOf as hash, person } from './service/harness';

let s: TestService;
let dir: Principal;
/** Game A on shard 1, game B on shard 2. */
const games: Array<{ gameId: string; canister: string }> = [];
const identity = (subject: string): Identity => person(subject, 'local');

/** A JSON method of `canister` as `caller` (any principal), straight through the replica. */
const as = (caller: Principal, canister: string | Principal, method: string, request: unknown): Promise<any> =>
    callAs(s.replica, caller, canister, method, request);
const setRunning = (canister: string, running: boolean, controller: Principal): Promise<void> =>
    setRunningOn(s.replica, canister, running, controller);

async function signIn(g: { gameId: string; canister: string }, subject: string, nickname?: string): Promise<any> {
    const reply = await s.at(g.canister).call('sign_in', { gameId: g.gameId, identity: identity(subject), nickname });
    if (!('ok' in reply)) throw new Error(`sign_in: ${JSON.stringify(reply)}`);
    return reply.ok;
}

async function playerOf(g: { gameId: string; canister: string }, token: string): Promise<any> {
    return s.at(g.canister).call('resolve_session', { sessionHash: hash(token), gameId: g.gameId });
}

const executionsSince = (from: number) => s.replica.executions().slice(from);
const sum = (from: number, canister?: string): bigint =>
    executionsSince(from)
        .filter((e) => canister === undefined || e.canister === canister)
        .reduce((t, e) => t + e.instructions, 0n);

beforeAll(async () => {
    s = await startService({ shards: 2 });
    dir = s.canisterId;
    for (let i = 0; games.length < 2 && i < 6; i++) {
        const gameId = `ids-${i}`;
        await s.game(gameId);
        const canister = (await s.canisterOf(gameId)).toText();
        if (!games.some((g) => g.canister === canister)) games.push({ gameId, canister });
    }
    games.sort((a, b) => s.shards.indexOf(a.canister) - s.shards.indexOf(b.canister));
}, 600_000);
afterAll(() => s?.stop());

test('only the directory’s shards ask the registry; only a shard’s directory has it forget', async () => {
    const gateway = loadIdentity(s.gatewayIdentityFile).getPrincipal();
    const stranger = Ed25519KeyIdentity.generate().getPrincipal();
    const [one, two] = s.shards.map((id) => Principal.fromText(id));
    const SHARDS_ONLY = { err: { status: 403, message: "This method is only for this directory's shards" } };
    const DIRECTORY_ONLY = { err: { status: 403, message: "This method is only for this shard's directory" } };
    const accountId = '0'.repeat(32);
    // The gateway, a stranger, the directory's controller (the operator here), the directory itself.
    for (const who of [gateway, stranger, OPERATOR, dir]) {
        expect(await as(who, dir, 'identity_account', { identity: identity('x') })).toEqual(SHARDS_ONLY);
        expect(await as(who, dir, 'account_deleted', { accountId })).toEqual(SHARDS_ONLY);
    }
    // On a shard: the gateway, a stranger, the other shard; a shard is no directory of anyone.
    for (const who of [gateway, stranger, two, OPERATOR]) {
        expect(await as(who, one, 'account_forget', { accountId })).toEqual(DIRECTORY_ONLY);
    }
    expect(await as(two, one, 'identity_account', { identity: identity('x') })).toEqual(SHARDS_ONLY);
    // The directory's shards are answered; bad input is a clear 400.
    const first = await as(one, dir, 'identity_account', { identity: identity('reg'), nickname: 'Reggie' });
    expect(first).toEqual({
        ok: {
            accountId: expect.stringMatching(/^[0-9a-f]{32}$/),
            nickname: 'Reggie',
            createdAt: expect.any(Number),
            isNew: true,
        },
    });
    const second = await as(two, dir, 'identity_account', { identity: identity('reg'), nickname: 'Other' });
    expect(second).toEqual({ ok: { ...first.ok, isNew: false } });
    expect(await as(one, dir, 'identity_account', { identity: { issuer: '' } })).toMatchObject({
        err: { status: 400 },
    });
    expect(await as(one, dir, 'account_deleted', { accountId: 'nope' })).toEqual({
        err: { status: 400, message: 'Invalid accountId: must be 32 lowercase hex digits' },
    });
    expect(await as(dir, one, 'account_forget', { accountId })).toEqual({ ok: { message: 'No such account here.' } });
}, 600_000);

test('a first sign-in asks the directory once; a known identity never does; concurrent ones agree', async () => {
    const [A, B] = games;
    const from = s.replica.executions().length;
    // The same identity at once on one shard (twice) and on the other.
    const [x, y, z] = await Promise.all([signIn(A, 'con', 'Con'), signIn(A, 'con'), signIn(B, 'con')]);
    const ids = await Promise.all([playerOf(A, x.sessionId), playerOf(A, y.sessionId), playerOf(B, z.sessionId)]);
    expect(new Set(ids.map((r) => r.ok.playerId)).size).toBe(1);
    expect(ids[0].ok.playerId).toMatch(/^@[0-9a-f]{32}$/);
    expect([x, y, z].filter((a) => a.isNewUser)).toHaveLength(1);
    const registry = executionsSince(from).filter((e) => e.method === 'canister_update identity_account');
    expect(registry.length).toBeGreaterThanOrEqual(1);
    expect(registry.length).toBeLessThanOrEqual(3);

    // A new identity: its first sign-in on a shard, metered over both canisters.
    const firstFrom = s.replica.executions().length;
    await signIn(A, 'metered', 'Metered');
    const firstShard = sum(firstFrom, A.canister);
    const firstDirectory = sum(firstFrom, dir.toText());
    // Known now: a second sign-in runs on the shard alone.
    const knownFrom = s.replica.executions().length;
    await signIn(A, 'metered');
    expect(executionsSince(knownFrom).filter((e) => e.canister === dir.toText())).toEqual([]);
    const known = sum(knownFrom, A.canister);
    // And on the directory of a single canister (no shards) sign_in stays one synchronous message.
    console.log(
        `sign_in on a shard: first of an identity ${firstShard} + directory ${firstDirectory} instructions; known identity ${known}`,
    );
}, 600_000);

test('deletion: directory stopped, nothing removed (503); a stopped shard forgets once it is back', async () => {
    const [A, B] = games;
    const a = await signIn(A, 'bob', 'Bob');
    const b = await signIn(B, 'bob');
    const bob = (await playerOf(A, a.sessionId)).ok.playerId;
    expect((await playerOf(B, b.sessionId)).ok.playerId).toBe(bob);

    // The directory stopped: the shard refuses, with Retry-After, and removes nothing.
    await setRunning(dir.toText(), false, OPERATOR);
    const refused = await s.at(A.canister).call('delete_account', { sessionHash: hash(a.sessionId), gameId: A.gameId });
    expect(refused).toMatchObject({ err: { status: 503, retryAfter: expect.any(Number) } });
    await setRunning(dir.toText(), true, OPERATOR);
    expect((await playerOf(A, a.sessionId)).ok.playerId).toBe(bob);

    // Shard 2 stopped during the fan-out: A and the directory forget at once, shard 2 later.
    await setRunning(B.canister, false, dir);
    const from = s.replica.executions().length;
    const deleted = await s.at(A.canister).call('delete_account', { sessionHash: hash(a.sessionId), gameId: A.gameId });
    expect(deleted).toEqual({ ok: { message: 'Your account and its entries were removed.' } });
    console.log(
        `delete_account on a shard: shard ${sum(from, A.canister)} + directory ${sum(from, dir.toText())} instructions (other shard stopped)`,
    );
    expect(await playerOf(A, a.sessionId)).toMatchObject({ err: { status: 401 } });
    await setRunning(B.canister, true, dir);
    expect((await playerOf(B, b.sessionId)).ok.playerId).toBe(bob);
    // The directory's tick (30 s) asks shard 2 again.
    const retryFrom = s.replica.executions().length;
    await s.replica.advanceTime(31_000);
    for (let i = 0; i < 10 && 'ok' in (await playerOf(B, b.sessionId)); i++) await s.replica.tick();
    expect(await playerOf(B, b.sessionId)).toMatchObject({ err: { status: 401 } });
    console.log(`account_forget on a shard: ${sum(retryFrom, B.canister)} instructions (with its tick)`);
    // Signing in again: a new id.
    const again = await signIn(B, 'bob');
    expect(again.isNewUser).toBe(true);
    expect((await playerOf(B, again.sessionId)).ok.playerId).not.toBe(bob);
    // Nothing pending any more: a later tick asks no shard.
    const quietFrom = s.replica.executions().length;
    await s.replica.advanceTime(31_000);
    expect(executionsSince(quietFrom).filter((e) => e.method === 'canister_update account_forget')).toEqual([]);
}, 600_000);

test('a game moved out of the directory leaves the registry: the same id on every shard after', async () => {
    const [A, B] = games;
    const directory = s.at(dir.toText());
    // A comes to the directory, where a person signs in for the first time anywhere.
    await moveGame(A.gameId, s.at(A.canister), directory, () => undefined, directory);
    const onDirectory = { gameId: A.gameId, canister: dir.toText() };
    const first = await signIn(onDirectory, 'dirborn', 'Born');
    expect(first.isNewUser).toBe(true);
    const id = (await playerOf(onDirectory, first.sessionId)).ok.playerId;
    // A moves out again (to shard 2): its players and sessions go with it, the account record stays.
    await moveGame(A.gameId, directory, s.at(B.canister), () => undefined, directory);
    const moved = { gameId: A.gameId, canister: B.canister };
    expect((await playerOf(moved, first.sessionId)).ok.playerId).toBe(id);
    expect(
        await as(Principal.fromText(B.canister), dir, 'identity_account', { identity: identity('dirborn') }),
    ).toEqual({
        ok: { accountId: id.slice(1), nickname: 'Born', createdAt: expect.any(Number), isNew: false },
    });
    // Shard 1 never saw the person: it gets the same id from the registry.
    let late: { gameId: string; canister: string } | undefined;
    for (let i = 0; late === undefined && i < 4; i++) {
        const gameId = `ids-late-${i}`;
        await s.game(gameId);
        const canister = (await s.canisterOf(gameId)).toText();
        if (canister === A.canister) late = { gameId, canister };
    }
    const elsewhere = await signIn(late!, 'dirborn');
    expect(elsewhere.isNewUser).toBe(false);
    expect((await playerOf(late!, elsewhere.sessionId)).ok.playerId).toBe(id);
}, 600_000);

test('a deletion started on the directory (its own game) fans out to the shards', async () => {
    const B = games[1];
    const directory = s.at(dir.toText());
    const gameId = 'ids-home';
    await s.game(gameId);
    const from = await s.canisterOf(gameId);
    await moveGame(gameId, s.at(from.toText()), directory, () => undefined, directory);
    const home = { gameId, canister: dir.toText() };
    const here = await signIn(home, 'homer', 'Homer');
    const there = await signIn(B, 'homer');
    const id = (await playerOf(home, here.sessionId)).ok.playerId;
    expect((await playerOf(B, there.sessionId)).ok.playerId).toBe(id);
    const start = s.replica.executions().length;
    expect(await directory.call('delete_account', { sessionHash: hash(here.sessionId), gameId })).toEqual({
        ok: { message: 'Your account and its entries were removed.' },
    });
    console.log(`delete_account on the directory: ${sum(start, dir.toText())} instructions (2 shards told)`);
    expect(await playerOf(home, here.sessionId)).toMatchObject({ err: { status: 401 } });
    expect(await playerOf(B, there.sessionId)).toMatchObject({ err: { status: 401 } });
    expect((await signIn(B, 'homer')).isNewUser).toBe(true);
}, 600_000);
