// Cycles: the directory reads every shard's balance and burn on a timer (canister_status: it is
// their controller), deposits from its own balance into a shard whose runway falls below the
// policy's floor, keeps a history, and raises an alarm while there is still time when it cannot
// fund them all. A directory without shards (a single canister) reports itself the same way.
import type { CanisterCycles, CyclesAlarm, CyclesStatus, FundingPolicy, TopUp } from '../../contract/cycles';
import type { Role } from '../../contract/shards';
import { Fail } from '../domain/fail';
import { ns } from '../domain/json';
import type { Ctx } from '../state/context';
import type { CanisterReading, FundsRecord, FundsSample } from '../state/records';

/**
 * Checked every 6 hours: four readings a day give the day's median burn, and a shard at the
 * floor (20 days of its own burn) is far from freezing between two checks. A check costs the
 * directory ~37 M instructions and 7 messages with one shard (decoding each canister_status
 * reply is ~16 M of it), ~0.3 B cycles a day: docs/costs.md. A shard is topped up below 20
 * days, back to 40 (one deposit per ~20 days); the directory keeps 30 days of its own burn
 * for itself, so it freezes last and can revive the rest.
 */
export const FUNDING: FundingPolicy = {
    checkEverySeconds: 6 * 3600,
    topUpBelowDays: 20,
    topUpToDays: 40,
    reserveDays: 30,
    alarmBelowDays: 30,
    criticalBelowDays: 7,
};

/** What the funding check needs of the IC (canister/remote.ts gives it). */
export interface Treasury {
    self: string;
    /** This canister's balance. */
    cycles(): bigint;
    /** canister_status of a canister this one controls; Fail 503 when refused or unreachable. */
    canisterStatus(canisterId: string): Promise<CanisterReading>;
    /** deposit_cycles: moves `cycles` of this canister's balance to another. Fail 503 when refused. */
    depositCycles(canisterId: string, cycles: bigint): Promise<void>;
}

const DAY_US = 86_400e6;
/** The IC's default freezing threshold (30 days): what a canister that cannot read its own setting assumes. */
const DEFAULT_FREEZING_SECONDS = 2_592_000;
/** Hourly samples of the last day and a little more, per canister. */
const SAMPLES = 26;
/** One balance a day, per canister: the month's history. */
const DAILY = 30;
const TOP_UPS = 50;
/** A burn is measured over at least this long (a shorter span is mostly one message's noise). */
const MIN_SPAN_US = 10 * 60e6;

/** The shards a directory funds: the ready ones. */
function fundedShards(ctx: Ctx): string[] {
    return (ctx.store.meta.get('shards') ?? []).filter((s) => s.ready !== false).map((s) => s.canisterId);
}

function recordOf(ctx: Ctx, canisterId: string): FundsRecord | undefined {
    return ctx.store.meta.get('funding')?.canisters[canisterId];
}

/**
 * Cycles burned per day over the last day (from the newest sample before it, so the span is a
 * whole day once there is one), net of what the directory moved in or out: the median of the
 * rates between readings when there are three or more (a one-off cost, such as an upgrade, is
 * not a burn rate), else the rate over the span; undefined when there is no earlier reading.
 */
function measuredBurn(samples: FundsSample[], now: FundsSample): number | undefined {
    const before = samples.filter((s) => s.at <= now.at - DAY_US);
    const points = [...before.slice(-1), ...samples.filter((s) => s.at > now.at - DAY_US), now];
    // Readings closer than MIN_SPAN_US to the last one kept are skipped (mostly one message's noise).
    const kept: FundsSample[] = [];
    for (const p of points) if (kept.length === 0 || p.at - kept[kept.length - 1].at >= MIN_SPAN_US) kept.push(p);
    if (kept[kept.length - 1] !== now) kept[kept.length - 1] = now;
    if (kept.length < 2) return undefined;
    const burned = (a: FundsSample, b: FundsSample): number => a.cycles - b.cycles + (b.flow - a.flow);
    const rates: number[] = [];
    for (let i = 1; i < kept.length; i++)
        rates.push((burned(kept[i - 1], kept[i]) * DAY_US) / (kept[i].at - kept[i - 1].at));
    if (rates.some((r) => r < 0)) return undefined;
    if (rates.length >= 3) return rates.sort((x, y) => x - y)[Math.floor(rates.length / 2)];
    return (burned(kept[0], now) * DAY_US) / (now.at - kept[0].at);
}

/** A canister's figures from its reading, its samples (the new one last) and what it burns. */
function figuresOf(
    canisterId: string,
    role: Role,
    reading: CanisterReading,
    burn: number | undefined,
    at: number,
    record: FundsRecord | undefined,
): CanisterCycles {
    const burnPerDay = Math.round(Math.max(burn ?? 0, reading.idleBurnPerDay));
    // Without its idle burn (a directory that cannot read its own status) the threshold is taken
    // at the default days of its whole burn: more than it is, so the runway errs short.
    const perDay = reading.idleBurnPerDay > 0 ? reading.idleBurnPerDay : burnPerDay;
    const freezingThresholdCycles = Math.round((perDay * reading.freezingThresholdSeconds) / 86_400);
    const frozen = reading.cycles < freezingThresholdCycles;
    return {
        canisterId,
        role,
        cycles: reading.cycles,
        burnPerDay,
        idleBurnPerDay: reading.idleBurnPerDay,
        freezingThresholdCycles,
        runwayDays: burnPerDay > 0 ? round1(Math.max(0, reading.cycles - freezingThresholdCycles) / burnPerDay) : null,
        frozen,
        memoryBytes: reading.memoryBytes,
        checkedAt: ns(at),
        ...(record?.lastTopUp !== undefined
            ? { lastTopUp: { at: ns(record.lastTopUp.at), cycles: record.lastTopUp.cycles } }
            : {}),
        history: (record?.daily ?? []).map((d) => ({ at: ns(d.at), cycles: d.cycles })),
    };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const trillions = (n: number): string => `${(n / 1e12).toFixed(2)} T`;

/** The record with a new reading: the sample ring, the daily history, the reading kept. */
function withSample(record: FundsRecord | undefined, reading: CanisterReading, at: number): FundsRecord {
    const flow = record?.flow ?? 0;
    const sample: FundsSample = { at, cycles: reading.cycles, flow };
    const previous = record?.samples[record.samples.length - 1];
    // A rise the directory did not make (an operator's deposit): measure from here on.
    const rose = previous !== undefined && previous.cycles - sample.cycles + (sample.flow - previous.flow) < 0;
    const samples = rose ? [sample] : [...(record?.samples ?? []), sample].slice(-SAMPLES);
    const daily = record?.daily ?? [];
    const last = daily[daily.length - 1];
    return {
        reading,
        at,
        samples,
        flow,
        daily:
            last === undefined || at - last.at >= DAY_US
                ? [...daily, { at, cycles: reading.cycles }].slice(-DAILY)
                : daily,
        ...(record?.lastTopUp !== undefined ? { lastTopUp: record.lastTopUp } : {}),
    };
}

/** The directory's own reading: canister_status when it is its own controller, else its balance and estimates. */
async function ownReading(treasury: Treasury, estimateBytes: number): Promise<CanisterReading> {
    try {
        return await treasury.canisterStatus(treasury.self);
    } catch {
        return {
            cycles: Number(treasury.cycles()),
            idleBurnPerDay: 0,
            freezingThresholdSeconds: DEFAULT_FREEZING_SECONDS,
            memoryBytes: estimateBytes,
        };
    }
}

let checking = false;

/**
 * One check (the directory's timer): reads itself and every shard, tops up the shards below
 * the floor (most urgent first) from what it has above its own reserve, and records it all.
 * Returns the deposits made. A shard that cannot be read keeps its last reading (and its alarm).
 */
export async function checkFunding(ctx: Ctx, treasury: Treasury, estimateBytes: number): Promise<TopUp[]> {
    if (ctx.store.meta.get('role') === 'shard' || checking) return [];
    checking = true;
    try {
        const shards = fundedShards(ctx);
        const readings = await Promise.all(shards.map((id) => treasury.canisterStatus(id).catch(() => undefined)));
        const own = await ownReading(treasury, estimateBytes);
        const at = ctx.env.now();
        // Read again after the awaits: nothing else writes it, but a concurrent upgrade could have.
        const funding = ctx.store.meta.get('funding') ?? { canisters: {}, topUps: [] };
        const canisters = { ...funding.canisters };
        canisters[treasury.self] = withSample(canisters[treasury.self], own, at);
        shards.forEach((id, i) => {
            const reading = readings[i];
            if (reading !== undefined) canisters[id] = withSample(canisters[id], reading, at);
        });
        let spare = spareOf(figures(treasury.self, 'directory', canisters[treasury.self]));
        const due = shards
            .filter((id, i) => readings[i] !== undefined)
            .map((id) => figures(id, 'shard', canisters[id]))
            .filter(needsTopUp)
            .sort((a, b) => (a.runwayDays ?? 0) - (b.runwayDays ?? 0));
        const made: TopUp[] = [];
        for (const f of due) {
            const amount = Math.floor(Math.min(wanted(f), spare));
            // Less than a day of the shard's burn is not worth a call (the alarm says why).
            if (amount < Math.max(1, f.burnPerDay)) continue;
            try {
                await treasury.depositCycles(f.canisterId, BigInt(amount));
            } catch {
                continue;
            }
            spare -= amount;
            const topUp: TopUp = {
                at: ctx.env.now(),
                canisterId: f.canisterId,
                cycles: amount,
                before: f.cycles,
                runwayDaysBefore: f.runwayDays,
            };
            made.push(topUp);
            canisters[f.canisterId] = {
                ...moved(canisters[f.canisterId], amount),
                lastTopUp: { at: topUp.at, cycles: amount },
            };
            canisters[treasury.self] = moved(canisters[treasury.self], -amount);
        }
        // Shards no longer funded (none are removed today) drop out of the record.
        for (const id of Object.keys(canisters)) if (id !== treasury.self && !shards.includes(id)) delete canisters[id];
        ctx.store.meta.set('funding', {
            canisters,
            topUps: [...made.reverse(), ...funding.topUps].slice(0, TOP_UPS),
        });
        return made;
    } finally {
        checking = false;
    }
}

/**
 * Cycles the directory moved in (+) or out (-) since the record's last sample: the reading
 * shows them, and the next sample's flow nets them out of the measured burn.
 */
function moved(record: FundsRecord, cycles: number): FundsRecord {
    return {
        ...record,
        flow: record.flow + cycles,
        reading: { ...record.reading, cycles: record.reading.cycles + cycles },
    };
}

/** A canister's figures from its record (its last reading, burn measured over its samples). */
function figures(canisterId: string, role: Role, record: FundsRecord): CanisterCycles {
    const last = record.samples[record.samples.length - 1];
    const burn = last === undefined ? undefined : measuredBurn(record.samples.slice(0, -1), last);
    return figuresOf(canisterId, role, record.reading, burn, record.at, record);
}

function needsTopUp(f: CanisterCycles): boolean {
    return f.frozen || (f.runwayDays !== null && f.runwayDays < FUNDING.topUpBelowDays);
}

/** Cycles that bring a canister to FUNDING.topUpToDays of runway. */
function wanted(f: CanisterCycles): number {
    return Math.max(0, f.freezingThresholdCycles + FUNDING.topUpToDays * f.burnPerDay - f.cycles);
}

/** What the directory may give away: its balance above its freezing threshold and reserve. */
function spareOf(self: CanisterCycles): number {
    return Math.max(0, self.cycles - self.freezingThresholdCycles - FUNDING.reserveDays * self.burnPerDay);
}

/** Cycles this canister sent away on purpose (a new shard's): spent, not burned, so not in its measured burn. */
export function noteSpent(ctx: Ctx, self: string, cycles: number): void {
    const funding = ctx.store.meta.get('funding');
    const record = funding?.canisters[self];
    if (funding === undefined || record === undefined) return;
    ctx.store.meta.set('funding', { ...funding, canisters: { ...funding.canisters, [self]: moved(record, -cycles) } });
}

/**
 * Whether the directory can keep a shard funded (placement takes no new game to one it
 * cannot): not frozen, and above the floor or fundable from the directory's spare. A shard
 * not yet checked is fundable (it was just created with cycles).
 */
export function fundable(ctx: Ctx, self: string, canisterId: string): boolean {
    const record = recordOf(ctx, canisterId);
    const own = recordOf(ctx, self);
    if (record === undefined) return true;
    const f = figures(canisterId, 'shard', record);
    if (!needsTopUp(f)) return true;
    if (f.frozen) return false;
    return own !== undefined && spareOf(figures(self, 'directory', own)) >= wanted(f);
}

/**
 * Days until the first canister freezes if nobody adds cycles, the directory funding its
 * shards as the policy says: it gives from above its reserve until the day T when what the
 * shards would need (each from the day its own runway ends) and its own burn meet its budget.
 */
export function serviceRunway(self: CanisterCycles, shards: CanisterCycles[]): number | null {
    const all = [self, ...shards];
    if (all.every((c) => c.burnPerDay === 0)) return null;
    const runway = (c: CanisterCycles): number => (c.frozen ? 0 : (c.runwayDays ?? Infinity));
    const own = runway(self);
    if (shards.length === 0) return Number.isFinite(own) ? own : null;
    const budget = self.cycles - self.freezingThresholdCycles - FUNDING.reserveDays * self.burnPerDay;
    const need = (t: number): number =>
        shards.reduce((sum, s) => sum + Math.max(0, t - runway(s)) * s.burnPerDay, 0) + t * self.burnPerDay;
    const firstShard = Math.min(...shards.map(runway));
    let t = 0;
    if (budget > 0) {
        let hi = 1;
        while (need(hi) <= budget && hi < 1e6) hi *= 2;
        let lo = 0;
        for (let k = 0; k < 50; k++) {
            const mid = (lo + hi) / 2;
            if (need(mid) <= budget) lo = mid;
            else hi = mid;
        }
        t = lo;
    }
    // The directory itself freezes at its own runway at the latest (sooner as it gives).
    const result = Math.min(Math.max(t, firstShard), own);
    return Number.isFinite(result) ? round1(result) : null;
}

function alarmOf(self: CanisterCycles, shards: CanisterCycles[], runway: number | null): [CyclesAlarm, string] {
    const how = 'top up the directory (docs/cycles.md, "Topping up cycles")';
    const frozen = [self, ...shards].filter((c) => c.frozen);
    if (frozen.length > 0)
        return [
            'critical',
            `Out of cycles: ${frozen.map((c) => `${c.role} ${c.canisterId}`).join(', ')} ${frozen.length === 1 ? 'is' : 'are'} frozen and refuse${frozen.length === 1 ? 's' : ''} every call; nothing is lost until ${frozen.length === 1 ? 'its' : 'their'} balance reaches zero: ${how}.`,
        ];
    if (runway === null || runway >= FUNDING.alarmBelowDays) return ['ok', ''];
    const level: CyclesAlarm = runway < FUNDING.criticalBelowDays ? 'critical' : 'low';
    return [
        level,
        `Cycles run low: a canister freezes in about ${runway} days unless cycles are added (the directory ${self.canisterId} has ${trillions(self.cycles)} cycles): ${how}.`,
    ];
}

/**
 * cycles_status (gateways and operators): a directory's view of itself (its balance now) and
 * of its shards (as last checked), the latest top-ups, the service's runway and the alarm.
 */
export function cyclesStatus(ctx: Ctx, self: string, balance: bigint, estimateBytes: number): CyclesStatus {
    if (ctx.store.meta.get('role') === 'shard') throw new Fail(400, 'This canister is a shard: ask its directory');
    const funding = ctx.store.meta.get('funding');
    const at = ctx.env.now();
    const record = funding?.canisters[self];
    const reading: CanisterReading = {
        ...(record?.reading ?? {
            idleBurnPerDay: 0,
            freezingThresholdSeconds: DEFAULT_FREEZING_SECONDS,
            memoryBytes: estimateBytes,
        }),
        cycles: Number(balance),
    };
    const now: FundsSample = { at, cycles: reading.cycles, flow: record?.flow ?? 0 };
    const selfFigures: CanisterCycles = {
        ...figuresOf(
            self,
            'directory',
            reading,
            record === undefined ? undefined : measuredBurn(record.samples, now),
            at,
            record,
        ),
        // It answers, so it is not frozen (its threshold may be an estimate: see ownReading).
        frozen: false,
    };
    const shards = fundedShards(ctx)
        .map((id) => funding?.canisters[id])
        .map((r, i) => (r === undefined ? undefined : figures(fundedShards(ctx)[i], 'shard', r)))
        .filter((f): f is CanisterCycles => f !== undefined);
    const runway = serviceRunway(selfFigures, shards);
    const [alarm, message] = alarmOf(selfFigures, shards, runway);
    return {
        alarm,
        message,
        serviceRunwayDays: runway,
        canisters: [selfFigures, ...shards],
        topUps: (funding?.topUps ?? []).map((t) => ({ ...t, at: ns(t.at) })),
        policy: FUNDING,
    };
}
