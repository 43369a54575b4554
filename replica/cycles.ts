// Charges hosted canisters cycles with the IC's fees (fees.ts): executions, ingress, calls and
// memory over time, and the freezing threshold below which a canister refuses calls.
import { DEFAULT_FREEZING_THRESHOLD, FEES } from './fees';
import type { Canister, Reject } from './canister-state';

const GIB = 1n << 30n;
const NS_PER_SECOND = 1_000_000_000n;
const SECONDS_PER_DAY = 86_400n;
const PAGE = 65_536n;

/** The fee table in cycles, as the replica charges it. */
export const CHARGE = {
    message: BigInt(FEES.perUpdateMessage),
    instruction: BigInt(FEES.perInstruction),
    ingress: BigInt(FEES.perIngressMessage),
    ingressByte: BigInt(FEES.perIngressByte),
    call: BigInt(FEES.perXnetCall),
    callByte: BigInt(FEES.perXnetByte),
    gibSecond: BigInt(FEES.perGiBSecond),
    creation: BigInt(FEES.createCanister),
};

/** What reception of an ingress message of `bytes` (method name and argument) costs its receiver. */
export const ingressFee = (bytes: number): bigint => CHARGE.ingress + CHARGE.ingressByte * BigInt(bytes);

/** What sending an inter-canister request of `bytes` (method name and argument) costs its caller. */
export const callFee = (bytes: number): bigint => CHARGE.call + CHARGE.callByte * BigInt(bytes);

/** What an executed message costs: the base fee (`base`) plus its instructions. */
export const executionFee = (instructions: bigint, base = true): bigint =>
    (base ? CHARGE.message : 0n) + CHARGE.instruction * instructions;

/** Bytes of the canister's wasm heap and stable memory. */
export function liveMemoryBytes(canister: Canister): bigint {
    const heap = canister.instance === undefined ? 0n : BigInt(canister.instance.pages()) * PAGE;
    return heap + canister.stable.size() * PAGE;
}

/** Bytes of the canister's snapshots (snapshots.ts says what a snapshot's size counts). */
export const snapshotBytes = (canister: Canister): bigint =>
    (canister.system.snapshots ?? []).reduce((sum, s) => sum + s.size, 0n);

/** Bytes of the canister's wasm chunk store (chunk-store.ts). */
export const chunkStoreBytes = (canister: Canister): bigint =>
    BigInt((canister.system.chunkStore ?? []).reduce((sum, c) => sum + c.size, 0));

/** Bytes the IC bills as the canister's memory: wasm heap, stable memory, snapshots and chunk store. */
export const memoryBytes = (canister: Canister): bigint =>
    liveMemoryBytes(canister) + snapshotBytes(canister) + chunkStoreBytes(canister);

export const freezingThreshold = (canister: Canister): bigint =>
    canister.system.freezingThreshold ?? DEFAULT_FREEZING_THRESHOLD;

/** What `bytes` of memory cost a day (no compute allocation here). */
export const burnPerDay = (bytes: bigint): bigint => (bytes * CHARGE.gibSecond * SECONDS_PER_DAY) / GIB;

/** What the canister's memory costs a day, as `canister_status` reports it. */
export const idleBurnPerDay = (canister: Canister): bigint => burnPerDay(memoryBytes(canister));

/** The balance the canister must keep holding `bytes` of memory: their idle burn for its freezing threshold. */
export const frozenBelowWith = (canister: Canister, bytes: bigint): bigint =>
    (burnPerDay(bytes) * freezingThreshold(canister)) / SECONDS_PER_DAY;

/** The balance the canister must keep: its idle burn for its freezing threshold (in seconds). */
export const frozenBelow = (canister: Canister): bigint => frozenBelowWith(canister, memoryBytes(canister));

/** The IC's reject for a canister that cannot pay `requested` and stay above its freezing threshold. */
export function outOfCycles(canister: Canister, requested: bigint): Reject | undefined {
    const needed = frozenBelow(canister) + requested;
    if (canister.system.cycles >= needed) return undefined;
    return {
        code: 2, // SYS_TRANSIENT, as the IC rejects CanisterOutOfCycles
        message: `Canister ${canister.text} is out of cycles: please top up the canister with at least ${needed - canister.system.cycles} additional cycles`,
        errorCode: 'IC0207',
    };
}

/** The IC's reject of a query to a frozen canister. */
export function frozenQuery(canister: Canister): Reject | undefined {
    if (canister.system.cycles >= frozenBelow(canister)) return undefined;
    return {
        code: 2,
        message: `Canister ${canister.text} is unable to process query calls because it's frozen. Please top up the canister with cycles and try again.`,
        errorCode: 'IC0207',
    };
}

/** Takes `amount` from the canister's balance (down to zero at most); the amount taken. */
export function charge(canister: Canister, amount: bigint): bigint {
    const taken = amount < canister.system.cycles ? amount : canister.system.cycles;
    canister.system.cycles -= taken;
    return taken;
}

/**
 * Charges the canister's memory from its last charge up to `now`, by byte-seconds at its current
 * size (sizes change only inside rounds, and every round charges first). Fractions of a cycle
 * carry over, so charges in many steps add up to one charge over the whole time. Whether it
 * took anything.
 */
export function chargeMemory(canister: Canister, now: bigint): boolean {
    const sys = canister.system;
    const since = sys.chargedAt ?? now;
    if (now <= since) {
        sys.chargedAt ??= now;
        return false;
    }
    const owed = memoryBytes(canister) * (now - since) * CHARGE.gibSecond + (sys.memoryRemainder ?? 0n);
    const divisor = GIB * NS_PER_SECOND;
    sys.chargedAt = now;
    sys.memoryRemainder = owed % divisor;
    // Only a charge needs persisting: from an older charge time and remainder the same total follows.
    return charge(canister, owed / divisor) > 0n;
}
