// The funding rules natively, on a ledger of balances the test burns day by day: the burn is a
// day's median (one-off costs and operators' deposits do not move it), a shard below the floor
// is brought to the target, the directory never gives from its reserve and gives to the most
// urgent first, placement skips what cannot be funded, and the service runway and its alarm.
import type { CyclesStatus } from '../../../contract/cycles';
import {
    FUNDING,
    checkFunding,
    cyclesStatus,
    fundable,
    noteSpent,
    type Treasury,
} from '../../../canister/service/funding';
import { Fail } from '../../../canister/domain/fail';
import { harness, present, type Harness } from './harness';

const DIR = 'directory-id';
const DAY_S = 86_400;
const IDLE = 4e9;
/** Thirty days of idle burn: the IC's default freezing threshold. */
const THRESHOLD = 30 * IDLE;

interface Ledger {
    balances: Map<string, number>;
    /** Cycles a day each canister burns beyond its idle burn. */
    extra: Map<string, number>;
    /** The directory may read its own status (it is its own controller). */
    selfControlled: boolean;
    deposits: Array<[string, number]>;
}

function ledger(shards: Record<string, number>, directory = 100e12): Ledger {
    return {
        balances: new Map([[DIR, directory], ...Object.entries(shards)]),
        extra: new Map(),
        selfControlled: true,
        deposits: [],
    };
}

function treasury(l: Ledger): Treasury {
    return {
        self: DIR,
        cycles: () => BigInt(Math.round(l.balances.get(DIR)!)),
        async canisterStatus(id) {
            if (id === DIR && !l.selfControlled) throw new Fail(503, 'Only controllers may read the status');
            return {
                cycles: l.balances.get(id)!,
                idleBurnPerDay: IDLE,
                freezingThresholdSeconds: 30 * DAY_S,
                memoryBytes: 400e6,
            };
        },
        async depositCycles(id, cycles) {
            l.balances.set(DIR, l.balances.get(DIR)! - Number(cycles));
            l.balances.set(id, l.balances.get(id)! + Number(cycles));
            l.deposits.push([id, Number(cycles)]);
        },
    };
}

/** The directory with these shards (ready). */
function directoryOf(shards: string[]): Harness {
    const h = harness();
    h.store.meta.set(
        'shards',
        shards.map((canisterId) => ({ canisterId, createdAt: 0 })),
    );
    return h;
}

/** `hours` pass: every canister burns its share; a check runs at each 6-hour mark. */
async function run(h: Harness, l: Ledger, hours: number): Promise<void> {
    for (let i = 0; i < hours; i += 6) {
        h.advance(6 * 3600);
        for (const [id, b] of l.balances) l.balances.set(id, b - ((IDLE + (l.extra.get(id) ?? 0)) * 6) / 24);
        await checkFunding(h, treasury(l), 400e6);
    }
}

const status = (h: Harness, l: Ledger): CyclesStatus =>
    present(cyclesStatus(h, DIR, BigInt(Math.round(l.balances.get(DIR)!)), 400e6));
const of = (st: CyclesStatus, id: string) => st.canisters.find((c) => c.canisterId === id)!;

test('a shard below 20 days of its own burn is brought back to 40, from the directory, once', async () => {
    const h = directoryOf(['s1']);
    const l = ledger({ s1: THRESHOLD + 25 * IDLE });
    await run(h, l, 24);
    expect(l.deposits).toEqual([]);
    await run(h, l, 6 * 24);
    expect(l.deposits).toHaveLength(1);
    const [[id, cycles]] = l.deposits;
    expect(id).toBe('s1');
    // Found at just under 20 days, left at 40: ~20 days of its burn.
    expect(cycles / IDLE).toBeGreaterThan(19.5);
    expect(cycles / IDLE).toBeLessThan(21);
    const st = status(h, l);
    expect(of(st, 's1').runwayDays).toBeGreaterThan(38);
    expect(st.topUps).toHaveLength(1);
    expect(st.topUps[0]).toMatchObject({ canisterId: 's1', cycles });
    expect(st.topUps[0].runwayDaysBefore).toBeLessThan(FUNDING.topUpBelowDays);
    expect(of(st, 's1').lastTopUp?.cycles).toBe(cycles);
    // The deposit is not burn: neither the shard's nor the directory's measured burn moved.
    await run(h, l, 24);
    const after = status(h, l);
    expect(of(after, 's1').burnPerDay).toBeCloseTo(IDLE, -6);
    expect(of(after, DIR).burnPerDay).toBeCloseTo(IDLE, -6);
});

test("the burn is the day's median: one expensive hour does not set it, a lasting rise does", async () => {
    const h = directoryOf(['s1']);
    const l = ledger({ s1: 2.5e12 });
    await run(h, l, 48);
    // An upgrade-sized one-off cost.
    l.balances.set('s1', l.balances.get('s1')! - 50e9);
    await run(h, l, 6);
    expect(of(status(h, l), 's1').burnPerDay).toBeCloseTo(IDLE, -6);
    // Traffic: 10x its idle burn for good.
    l.extra.set('s1', 9 * IDLE);
    await run(h, l, 24);
    expect(of(status(h, l), 's1').burnPerDay).toBeCloseTo(10 * IDLE, -7);
});

test("an operator's deposit into a shard is not read as negative burn", async () => {
    const h = directoryOf(['s1']);
    const l = ledger({ s1: 1e12 });
    await run(h, l, 24);
    l.balances.set('s1', l.balances.get('s1')! + 5e12);
    await run(h, l, 6);
    const st = status(h, l);
    expect(of(st, 's1').burnPerDay).toBe(IDLE);
    expect(of(st, 's1').cycles).toBeGreaterThan(5e12);
});

test('the directory never gives from its reserve, and gives the most urgent shard first', async () => {
    const h = directoryOf(['calm', 'urgent']);
    // Spare: 10 days of the directory's burn above its threshold and 30-day reserve.
    const l = ledger({ calm: THRESHOLD + 15 * IDLE, urgent: THRESHOLD + 2 * IDLE }, THRESHOLD + 40 * IDLE);
    await run(h, l, 24);
    expect(l.deposits[0][0]).toBe('urgent');
    const given = l.deposits.reduce((sum, [, c]) => sum + c, 0);
    expect(given).toBeLessThanOrEqual(10 * IDLE);
    const st = status(h, l);
    expect(of(st, DIR).runwayDays).toBeGreaterThanOrEqual(FUNDING.reserveDays - 1);
    expect(st.alarm).not.toBe('ok');
    expect(st.message).toMatch(/Cycles run low: a canister freezes in about [\d.]+ days/);
    // Placement: a shard below the floor that the directory cannot top up takes no new game.
    expect(fundable(h, DIR, 'calm')).toBe(false);
    // Days on, the shards freeze first; the directory keeps its reserve.
    await run(h, l, 20 * 24);
    const late = status(h, l);
    expect(of(late, 'urgent').frozen).toBe(true);
    expect(late.alarm).toBe('critical');
    expect(late.message).toMatch(/^Out of cycles: .*shard urgent.* frozen/);
    // 21 days on, it still has its reserve less those days: it freezes last.
    expect(of(late, DIR).runwayDays).toBeGreaterThan(FUNDING.reserveDays - 21 - 1);
    expect(fundable(h, DIR, 'urgent')).toBe(false);
});

test('the service runway: ok with room, low under 30 days, critical under 7; a healthy service says nothing', async () => {
    const h = directoryOf(['s1']);
    const l = ledger({ s1: 2.5e12 });
    await run(h, l, 24);
    const ok = status(h, l);
    expect(ok).toMatchObject({ alarm: 'ok', message: '' });
    expect(ok.serviceRunwayDays).toBeGreaterThan(500);
    expect(fundable(h, DIR, 's1')).toBe(true);
    expect(fundable(h, DIR, 'never-checked')).toBe(true);
    // The directory alone (no spare) with the shard at 20 days: the runway is the shard's.
    l.balances.set(DIR, THRESHOLD + 30 * IDLE);
    l.balances.set('s1', THRESHOLD + 20.5 * IDLE);
    await run(h, l, 24);
    const low = status(h, l);
    expect(low.alarm).toBe('low');
    expect(low.serviceRunwayDays).toBeGreaterThan(18);
    expect(low.serviceRunwayDays).toBeLessThan(20);
    await run(h, l, 14 * 24);
    expect(status(h, l).alarm).toBe('critical');
});

test('a single canister reports itself; without its own status it errs short; a shard sends the operator on', async () => {
    const h = directoryOf([]);
    const l = ledger({});
    l.selfControlled = false;
    await run(h, l, 48);
    const st = status(h, l);
    expect(st.canisters).toHaveLength(1);
    const self = of(st, DIR);
    expect(self).toMatchObject({ role: 'directory', frozen: false, idleBurnPerDay: 0 });
    // Its burn measured; its threshold taken at 30 days of that burn (not less than the truth).
    expect(self.burnPerDay).toBeCloseTo(IDLE, -6);
    expect(self.freezingThresholdCycles).toBeGreaterThanOrEqual(THRESHOLD - 1e9);
    expect(st.serviceRunwayDays).toBe(self.runwayDays);
    // Cycles it spends on purpose (a new shard's) are not burn.
    noteSpent(h, DIR, 3e12);
    l.balances.set(DIR, l.balances.get(DIR)! - 3e12);
    await run(h, l, 6);
    expect(of(status(h, l), DIR).burnPerDay).toBeCloseTo(IDLE, -6);
    h.store.meta.set('role', 'shard');
    expect(() => cyclesStatus(h, DIR, 1n, 0)).toThrow('This canister is a shard: ask its directory');
    expect(await checkFunding(h, treasury(l), 0)).toEqual([]);
});
