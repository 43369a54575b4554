// Cycles on the replica's clock, through the real wasm, the charging replica and a real gateway:
// the directory reads its shard's balance and tops it up before it freezes through a month of
// traffic; a drained directory raises the alarm, lets the shard freeze first and itself last; a
// frozen canister's games answer 503 + Retry-After saying why; nothing is lost once cycles arrive.
import { Principal } from '@dfinity/principal';

import type { CanisterCycles, CyclesStatus } from '../../contract/cycles';
import { MESSAGES } from '../../contract/messages';
import { FUNDING } from '../../canister/service/funding';
import { OUT_OF_CYCLES_RETRY_SECONDS } from '../../gateway/http/errors';
import { frozenBelow } from '../../replica/cycles';
import { callAs } from '../support/replica';
import { startService, type TestService } from '../support/gateway';

const GAME = 'funded';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CHECK = FUNDING.checkEverySeconds * 1000;
let s: TestService;
let key: string;
let shard: string;
let directory: string;
let submitted = 0;

const pid = (n: number): string => `dev_1700000000_${String(n).padStart(8, '0')}`;

const submit = (n: number, score: number) =>
    s.request('POST', '/scores', { headers: { 'X-API-Key': key }, body: { playerId: pid(n), score, streak: 1 } });

const balance = (id: string): bigint => s.replica.subnet.canisters.get(id)!.system.cycles;
const frozen = (id: string): boolean => {
    const c = s.replica.subnet.canisters.get(id)!;
    return c.system.cycles < frozenBelow(c);
};

/** cycles_status straight from the directory (the gateway's identity may ask). */
const status = (): Promise<CyclesStatus> => s.at(directory).ok('cycles_status', {});
const entry = (st: CyclesStatus, id: string): CanisterCycles => st.canisters.find((c) => c.canisterId === id)!;

/** Runs the clock `ms` on, then lets the directory's funding check (its calls to the management canister) finish. */
async function pass(ms: number): Promise<void> {
    await s.replica.advanceTime(ms);
    for (let i = 0; i < 20; i++) await s.replica.tick();
}

/** A day, check by check: the directory's burn figures are medians of a day's readings. */
async function passDay(): Promise<void> {
    for (let t = 0; t < DAY; t += CHECK) await pass(CHECK);
}

/** A day of play: a submit of a new player and of an old one (the shard's burn grows with them). */
async function playDay(): Promise<void> {
    submitted += 1;
    const res = await submit(submitted, 1000 + submitted);
    expect(res.status).toBe(200);
}

beforeAll(async () => {
    s = await startService({
        shards: 1,
        replica: { startTime: BigInt(Date.parse('2026-03-01T00:00:00Z')) * 1_000_000n },
    });
    key = await s.game(GAME);
    shard = s.shards[0];
    directory = s.canisterId.toText();
    expect((await s.canisterOf(GAME)).toText()).toBe(shard);
    await pass(CHECK);
}, 600_000);

afterAll(async () => {
    await s?.stop();
});

test('cycles_status: the directory and its shard with balance, burn, runway; gateways and operators only', async () => {
    const st = await status();
    expect(st.canisters.map((c) => [c.canisterId, c.role])).toEqual([
        [directory, 'directory'],
        [shard, 'shard'],
    ]);
    const d = entry(st, directory);
    const sh = entry(st, shard);
    // The shard's figures are the replica's own (canister_status): balance, idle burn, threshold.
    expect(sh.idleBurnPerDay).toBeGreaterThan(1e9);
    expect(sh.freezingThresholdCycles).toBe(Math.round(sh.idleBurnPerDay * 30));
    expect(sh.cycles).toBeGreaterThan(2e12);
    expect(sh.runwayDays).toBeGreaterThan(100);
    expect(sh.frozen).toBe(false);
    expect(d.cycles).toBeGreaterThan(50e12);
    // The directory is its own controller (as deploys make it): its own figures are exact too.
    expect(d.idleBurnPerDay).toBeGreaterThan(1e9);
    expect(d.freezingThresholdCycles).toBe(Math.round(d.idleBurnPerDay * 30));
    expect(st.alarm).toBe('ok');
    expect(st.message).toBe('');
    expect(st.policy).toEqual(FUNDING);
    // Anyone else: refused, and a shard sends its operator to the directory.
    const anonymous = await callAs(s.replica, Principal.anonymous(), directory, 'cycles_status', {});
    expect(anonymous.err.status).toBe(403);
    const onShard = await s.at(shard).call('cycles_status', {});
    expect(onShard).toEqual({ err: { status: 400, message: 'This canister is a shard: ask its directory' } });
});

test('a check: what it costs the directory, in instructions and messages', async () => {
    const from = s.replica.subnet.executions.length;
    await pass(CHECK);
    const runs = s.replica.subnet.executions.slice(from).filter((e) => e.canister === directory);
    const instructions = runs.reduce((sum, e) => sum + Number(e.instructions), 0);
    // The check's timer (and the 30 s tick's), one callback per canister_status (itself and its
    // shard) and the awaits' continuations: 7 messages, ~37 M instructions (docs/costs.md).
    expect(runs.length).toBeLessThanOrEqual(8);
    expect(instructions).toBeLessThan(45_000_000);
    // The query an operator or a gateway's metrics make: ~4.7 M instructions, free (a query).
    const before = s.replica.subnet.executions.length;
    await status();
    const query = s.replica.subnet.executions.slice(before).find((e) => e.method.endsWith('cycles_status'))!;
    expect(Number(query.instructions)).toBeLessThan(8_000_000);
});

test('a month of traffic: the shard runs low and the directory tops it up before it freezes', async () => {
    await passDay();
    // 22 days of its idle burn above its freezing threshold: the floor (20 days) is days away.
    const before = entry(await status(), shard);
    s.replica.setCycles(shard, BigInt(before.freezingThresholdCycles + 22 * before.idleBurnPerDay));
    const directoryBefore = balance(directory);
    for (let day = 0; day < 30; day++) {
        await playDay();
        for (let t = 0; t < DAY; t += CHECK) {
            await pass(CHECK);
            expect(frozen(shard)).toBe(false);
        }
    }
    const st = await status();
    const topUps = st.topUps.filter((t) => t.canisterId === shard);
    expect(topUps.length).toBeGreaterThanOrEqual(1);
    const sh = entry(st, shard);
    expect(sh.lastTopUp?.cycles).toBe(topUps[0].cycles);
    // Each deposit found the shard below the floor and left it at about the target.
    for (const t of topUps) {
        expect(t.runwayDaysBefore).toBeLessThan(FUNDING.topUpBelowDays);
        const days = t.cycles / sh.burnPerDay;
        expect(days).toBeGreaterThan(FUNDING.topUpToDays - FUNDING.topUpBelowDays - 2);
        expect(days).toBeLessThan(FUNDING.topUpToDays - FUNDING.topUpBelowDays + 2);
    }
    expect(sh.runwayDays).toBeGreaterThan(FUNDING.topUpBelowDays - 1);
    // The cycles came out of the directory's balance (no minting): it lost at least what it gave.
    const given = topUps.reduce((sum, t) => sum + t.cycles, 0);
    expect(Number(directoryBefore - balance(directory))).toBeGreaterThanOrEqual(given);
    expect(sh.history.length).toBeGreaterThanOrEqual(25);
    expect(st.alarm).toBe('ok');
}, 600_000);

test('a drained directory: the alarm first, the shard freezes first and answers 503 saying why, the directory last; cycles bring it all back', async () => {
    const board = await s.request('GET', `/leaderboard?limit=100`, { headers: { 'X-API-Key': key } });
    expect(board.status).toBe(200);
    // Its burn measured over a day without setup in it, the directory gets 5 days of it above
    // its threshold and reserve, and the shard 10 days of its idle burn above its threshold.
    await passDay();
    await passDay();
    const st0 = await status();
    const d0 = entry(st0, directory);
    const sh0 = entry(st0, shard);
    const spareDays = 5;
    s.replica.setCycles(
        directory,
        BigInt(d0.freezingThresholdCycles + (FUNDING.reserveDays + spareDays) * d0.burnPerDay),
    );
    s.replica.setCycles(shard, BigInt(sh0.freezingThresholdCycles + 10 * sh0.idleBurnPerDay));
    await pass(CHECK);
    const alarmed = await status();
    expect(alarmed.alarm).not.toBe('ok');
    expect(alarmed.serviceRunwayDays).toBeLessThan(FUNDING.alarmBelowDays);
    expect(alarmed.message).toMatch(/top up the directory/);
    // Days pass: the shard freezes while the directory still runs.
    let day = 0;
    while (!frozen(shard) && day < 60) {
        await pass(DAY);
        day += 1;
        expect(frozen(directory)).toBe(false);
    }
    expect(frozen(shard)).toBe(true);
    const critical = await status();
    expect(critical.alarm).toBe('critical');
    expect(entry(critical, shard).frozen).toBe(true);
    expect(critical.message).toContain(shard);
    // The frozen shard's game: 503, Retry-After, and the reason, for writes and reads alike.
    for (const res of [
        await submit(1, 99_999),
        await s.request('GET', `/leaderboard?limit=10`, { headers: { 'X-API-Key': key } }),
    ]) {
        expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }).toEqual({
            status: 503,
            retryAfter: String(OUT_OF_CYCLES_RETRY_SECONDS),
            body: { ok: false, error: MESSAGES.outOfCycles },
        });
    }
    // No new game goes to a shard the directory cannot fund (nor can it afford a new shard).
    const placed = await s.canister.call('admin_register_game', {
        developerId: 'operator',
        gameId: 'latecomer',
        name: 'Late',
    });
    expect(placed).toMatchObject({ err: { status: 503 } });
    // The directory freezes last.
    while (!frozen(directory) && day < 200) {
        await pass(5 * DAY);
        day += 5;
    }
    expect(frozen(directory)).toBe(true);
    expect(balance(shard)).toBeGreaterThan(0n);
    // The operator tops the directory up (dfx canister deposit-cycles): its next check revives the shard.
    s.replica.setCycles(directory, 50_000_000_000_000n);
    await pass(CHECK);
    expect(frozen(shard)).toBe(false);
    const revived = await status();
    expect(revived.alarm).toBe('ok');
    expect(revived.topUps[0]).toMatchObject({ canisterId: shard });
    // Nothing was lost: the board reads as it did, and writes are taken again.
    const after = await s.request('GET', `/leaderboard?limit=100`, { headers: { 'X-API-Key': key } });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(board.body);
    expect((await submit(1, 99_999)).status).toBe(200);
}, 600_000);
