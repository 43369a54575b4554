// The ic0 imports: what a running message may see and do, with the IC's availability
// rules (a call from the wrong context traps), size limits and instruction charges.
import { bytesEqual, concatBytes } from '../bytes';
import type { StableMemory } from './stable-memory';
import { StableMemoryError } from './stable-memory';

// The globals the hot paths name, as module constants: a test runs this code in jest's sandbox,
// where every lookup of a global costs ~40 times a local's (the system API is called per access).
const { Math, Number, BigInt } = globalThis;

/** Where a function runs, in the letters of the IC interface specification. */
export type ContextKind =
    | 'I' // canister_init / canister_post_upgrade
    | 'G' // canister_pre_upgrade
    | 'U' // canister_update
    | 'RQ' // query, replicated (e.g. called by another canister)
    | 'NRQ' // query, non-replicated (query call)
    | 'Ry' // reply callback
    | 'Rt' // reject callback
    | 'C' // cleanup callback
    | 'F' // canister_inspect_message
    | 'T' // system task: global timer / heartbeat
    | 's'; // the start function

export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
export const MAX_CALL_ARG_BYTES = 2 * 1024 * 1024;

export type Response = { reply: Uint8Array } | { reject: { code: number; message: string } };

/** A callback as the canister names it: a table index and an environment word. */
export interface WasmClosure {
    fun: number;
    env: number;
}

export interface OutgoingCall {
    callee: Uint8Array;
    method: string;
    arg: Uint8Array;
    cycles: bigint;
    reply: WasmClosure;
    reject: WasmClosure;
    cleanup?: WasmClosure;
    timeoutSeconds?: number;
}

/** Everything one execution may read or change outside the wasm heap. */
export interface ExecutionContext {
    kind: ContextKind;
    canisterId: Uint8Array;
    caller: Uint8Array;
    time: bigint;
    arg?: Uint8Array;
    reject?: { code: number; message: string };
    methodName?: string;
    /** Whether this execution may still respond to its call context. */
    canRespond: boolean;
    response?: Response;
    replyBuffer: Uint8Array[];
    replySize: number;
    cyclesAvailable: bigint;
    cyclesRefunded: bigint;
    cyclesAccepted: bigint;
    cyclesBalance: bigint;
    /** The balance the execution began with: its effect is the difference (fees are charged beside it). */
    cyclesAtStart: bigint;
    pendingCall?: OutgoingCall & { argParts: Uint8Array[]; argSize: number };
    calls: OutgoingCall[];
    certifiedData?: Uint8Array;
    globalTimer: bigint;
    globalTimerChanged: boolean;
    canisterVersion: bigint;
    controllers: Uint8Array[];
    /** The certificate a non-replicated query may read (built on first use: it costs a signature). */
    dataCertificate?: () => Uint8Array;
    accepted: boolean;
    /** Instructions of this call context before this execution (performance_counter 1). */
    callContextInstructions: bigint;
    limit: bigint;
    log: (message: string) => void;
}

/** A trap the canister asked for (ic0.trap) or caused in the system API (bad memory range). */
export class CanisterTrap extends Error {}
/** A system API call the IC forbids in this context or state. */
export class ContractViolation extends CanisterTrap {}

export interface SystemApiHooks {
    context(): ExecutionContext;
    memory(): Uint8Array; // canister-visible bytes (physically shifted view)
    markDirty(start: number, end: number): void;
    stable(): StableMemory;
    charge(instructions: bigint): void;
    used(): bigint;
}

const ALL: ContextKind[] = ['I', 'G', 'U', 'RQ', 'NRQ', 'Ry', 'Rt', 'C', 'F', 'T'];
const ANY_AND_START: ContextKind[] = [...ALL, 's'];
const RESPONDERS: ContextKind[] = ['U', 'RQ', 'NRQ', 'Ry', 'Rt'];
const CALLERS: ContextKind[] = ['U', 'Ry', 'Rt', 'T'];

// Fixed overheads of the IC's current metering, in instructions, plus one per byte copied.
const OVERHEAD: Record<string, number> = {
    accept_message: 500,
    call_cycles_add128: 500,
    call_data_append: 500,
    call_new: 1500,
    call_on_cleanup: 500,
    call_perform: 5000,
    call_with_best_effort_response: 500,
    canister_cycle_balance128: 500,
    canister_liquid_cycle_balance128: 500,
    canister_self_copy: 500,
    canister_self_size: 500,
    canister_status: 500,
    canister_version: 500,
    certified_data_set: 500,
    cost_call: 500,
    cycles_burn128: 100,
    data_certificate_copy: 500,
    data_certificate_present: 500,
    data_certificate_size: 500,
    debug_print: 100,
    global_timer_set: 500,
    in_replicated_execution: 500,
    is_controller: 1000,
    msg_arg_data_copy: 500,
    msg_arg_data_size: 500,
    msg_caller_copy: 500,
    msg_caller_size: 500,
    msg_cycles_accept128: 500,
    msg_cycles_available128: 500,
    msg_cycles_refunded128: 500,
    msg_method_name_copy: 500,
    msg_method_name_size: 500,
    msg_reject: 500,
    msg_reject_code: 500,
    msg_reject_msg_copy: 500,
    msg_reject_msg_size: 500,
    msg_reply: 500,
    msg_reply_data_append: 500,
    performance_counter: 200,
    stable64_grow: 500,
    stable64_read: 20,
    stable64_size: 20,
    stable64_write: 20,
    stable_grow: 500,
    stable_read: 20,
    stable_size: 20,
    stable_write: 20,
    time: 500,
    trap: 500,
};

// The hot calls' overheads, looked up once.
const STABLE64_READ = OVERHEAD.stable64_read;
const STABLE64_WRITE = OVERHEAD.stable64_write;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function createSystemApi(h: SystemApiHooks): Record<string, (...args: never[]) => unknown> {
    function enter(
        name: string,
        allowed: readonly ContextKind[],
        bytes = 0,
        overhead = OVERHEAD[name] ?? 500,
    ): ExecutionContext {
        const ctx = h.context();
        // Every context may call the stable-memory API (the hot calls): no list to search.
        if (allowed !== ANY_AND_START && !allowed.includes(ctx.kind)) {
            throw new ContractViolation(`"ic0_${name}" cannot be executed in ${describe(ctx.kind)} mode`);
        }
        h.charge(BigInt(overhead + bytes));
        return ctx;
    }

    function slice(src: number, size: number): Uint8Array {
        const mem = h.memory();
        if (src < 0 || size < 0 || src + size > mem.length) throw new CanisterTrap('Heap out of bounds');
        return mem.slice(src, src + size);
    }

    function copyOut(name: string, data: Uint8Array, dst: number, offset: number, size: number): void {
        dst >>>= 0;
        offset >>>= 0;
        size >>>= 0;
        if (offset + size > data.length) {
            throw new CanisterTrap(`${name}: src=${offset} + length=${size} exceeds the slice size=${data.length}`);
        }
        const mem = h.memory();
        if (dst + size > mem.length) throw new CanisterTrap(`${name}: Heap out of bounds`);
        mem.set(data.subarray(offset, offset + size), dst);
        h.markDirty(dst, dst + size);
    }

    function write128(dst: number, value: bigint): void {
        const out = new Uint8Array(16);
        new DataView(out.buffer).setBigUint64(0, value & 0xffffffffffffffffn, true);
        new DataView(out.buffer).setBigUint64(8, value >> 64n, true);
        copyOut('write128', out, dst >>> 0, 0, 16);
    }

    function respond(ctx: ExecutionContext, name: string): void {
        if (!ctx.canRespond || ctx.response !== undefined) {
            throw new ContractViolation(`ic0.${name}: the call is already replied to or does not need a response`);
        }
    }

    const callerCtx = ALL; // msg_caller is available everywhere but (start)
    const api = {
        msg_arg_data_size: (): number =>
            enter('msg_arg_data_size', ['I', 'U', 'RQ', 'NRQ', 'Ry', 'F']).arg?.length ?? 0,
        msg_arg_data_copy: (dst: number, offset: number, size: number): void => {
            const ctx = enter('msg_arg_data_copy', ['I', 'U', 'RQ', 'NRQ', 'Ry', 'F'], size >>> 0);
            copyOut('msg_arg_data_copy', ctx.arg ?? new Uint8Array(), dst, offset, size);
        },
        msg_caller_size: (): number => enter('msg_caller_size', callerCtx).caller.length,
        msg_caller_copy: (dst: number, offset: number, size: number): void => {
            const ctx = enter('msg_caller_copy', callerCtx, size >>> 0);
            copyOut('msg_caller_copy', ctx.caller, dst, offset, size);
        },
        msg_reject_code: (): number => enter('msg_reject_code', ['Ry', 'Rt']).reject?.code ?? 0,
        msg_reject_msg_size: (): number => {
            const ctx = enter('msg_reject_msg_size', ['Rt']);
            return new TextEncoder().encode(ctx.reject?.message ?? '').length;
        },
        msg_reject_msg_copy: (dst: number, offset: number, size: number): void => {
            const ctx = enter('msg_reject_msg_copy', ['Rt'], size >>> 0);
            copyOut('msg_reject_msg_copy', new TextEncoder().encode(ctx.reject?.message ?? ''), dst, offset, size);
        },
        msg_reply_data_append: (src: number, size: number): void => {
            const ctx = enter('msg_reply_data_append', RESPONDERS, size >>> 0);
            respond(ctx, 'msg_reply_data_append');
            const data = slice(src >>> 0, size >>> 0);
            if (ctx.replySize + data.length > MAX_RESPONSE_BYTES) {
                throw new CanisterTrap(
                    `ic0.msg_reply_data_append: application payload size (${ctx.replySize + data.length}) cannot be larger than ${MAX_RESPONSE_BYTES}.`,
                );
            }
            ctx.replyBuffer.push(data);
            ctx.replySize += data.length;
        },
        msg_reply: (): void => {
            const ctx = enter('msg_reply', RESPONDERS);
            respond(ctx, 'msg_reply');
            ctx.response = { reply: concatBytes(ctx.replyBuffer, ctx.replySize) };
        },
        msg_reject: (src: number, size: number): void => {
            const ctx = enter('msg_reject', RESPONDERS, size >>> 0);
            respond(ctx, 'msg_reject');
            let message: string;
            try {
                message = utf8.decode(slice(src >>> 0, size >>> 0));
            } catch {
                throw new CanisterTrap('ic0.msg_reject: the reject message is not valid UTF-8');
            }
            ctx.response = { reject: { code: 4, message } };
        },
        msg_cycles_available128: (dst: number): void => {
            const ctx = enter('msg_cycles_available128', ['U', 'Ry', 'Rt']);
            write128(dst, ctx.cyclesAvailable - ctx.cyclesAccepted);
        },
        msg_cycles_refunded128: (dst: number): void => {
            write128(dst, enter('msg_cycles_refunded128', ['Ry', 'Rt']).cyclesRefunded);
        },
        msg_cycles_accept128: (high: bigint, low: bigint, dst: number): void => {
            const ctx = enter('msg_cycles_accept128', ['U', 'Ry', 'Rt']);
            const wanted = (BigInt.asUintN(64, high) << 64n) | BigInt.asUintN(64, low);
            const left = ctx.cyclesAvailable - ctx.cyclesAccepted;
            const amount = wanted < left ? wanted : left;
            ctx.cyclesAccepted += amount;
            ctx.cyclesBalance += amount;
            write128(dst, amount);
        },
        cycles_burn128: (high: bigint, low: bigint, dst: number): void => {
            const ctx = enter('cycles_burn128', ['I', 'G', 'U', 'Ry', 'Rt', 'C', 'T']);
            const wanted = (BigInt.asUintN(64, high) << 64n) | BigInt.asUintN(64, low);
            const amount = wanted < ctx.cyclesBalance ? wanted : ctx.cyclesBalance;
            ctx.cyclesBalance -= amount;
            write128(dst, amount);
        },
        canister_self_size: (): number => enter('canister_self_size', ALL).canisterId.length,
        canister_self_copy: (dst: number, offset: number, size: number): void => {
            const ctx = enter('canister_self_copy', ALL, size >>> 0);
            copyOut('canister_self_copy', ctx.canisterId, dst, offset, size);
        },
        canister_cycle_balance128: (dst: number): void =>
            write128(dst, enter('canister_cycle_balance128', ALL).cyclesBalance),
        canister_liquid_cycle_balance128: (dst: number): void =>
            write128(dst, enter('canister_liquid_cycle_balance128', ALL).cyclesBalance),
        canister_status: (): number => (enter('canister_status', ALL), 1),
        canister_version: (): bigint => enter('canister_version', ALL).canisterVersion,
        msg_method_name_size: (): number =>
            new TextEncoder().encode(enter('msg_method_name_size', ['F']).methodName ?? '').length,
        msg_method_name_copy: (dst: number, offset: number, size: number): void => {
            const ctx = enter('msg_method_name_copy', ['F'], size >>> 0);
            copyOut('msg_method_name_copy', new TextEncoder().encode(ctx.methodName ?? ''), dst, offset, size);
        },
        accept_message: (): void => {
            const ctx = enter('accept_message', ['F']);
            if (ctx.accepted) throw new ContractViolation('ic0.accept_message: the message was already accepted');
            ctx.accepted = true;
        },
        call_new: (
            calleeSrc: number,
            calleeSize: number,
            nameSrc: number,
            nameSize: number,
            replyFun: number,
            replyEnv: number,
            rejectFun: number,
            rejectEnv: number,
        ): void => {
            const ctx = enter('call_new', CALLERS, (calleeSize >>> 0) + (nameSize >>> 0));
            let method: string;
            try {
                method = utf8.decode(slice(nameSrc >>> 0, nameSize >>> 0));
            } catch {
                throw new CanisterTrap('ic0.call_new: the method name is not valid UTF-8');
            }
            ctx.pendingCall = {
                callee: slice(calleeSrc >>> 0, calleeSize >>> 0),
                method,
                arg: new Uint8Array(),
                cycles: 0n,
                reply: { fun: replyFun >>> 0, env: replyEnv >>> 0 },
                reject: { fun: rejectFun >>> 0, env: rejectEnv >>> 0 },
                argParts: [],
                argSize: 0,
            };
        },
        call_on_cleanup: (fun: number, env: number): void => {
            const call = pending(enter('call_on_cleanup', CALLERS), 'call_on_cleanup');
            if (call.cleanup !== undefined) throw new ContractViolation('ic0.call_on_cleanup: cleanup already set');
            call.cleanup = { fun: fun >>> 0, env: env >>> 0 };
        },
        call_data_append: (src: number, size: number): void => {
            const call = pending(enter('call_data_append', CALLERS, size >>> 0), 'call_data_append');
            const data = slice(src >>> 0, size >>> 0);
            if (call.argSize + data.length > MAX_CALL_ARG_BYTES) {
                throw new CanisterTrap(`ic0.call_data_append: the call argument exceeds ${MAX_CALL_ARG_BYTES} bytes`);
            }
            call.argParts.push(data);
            call.argSize += data.length;
        },
        call_cycles_add128: (high: bigint, low: bigint): void => {
            const ctx = enter('call_cycles_add128', ['U', 'Ry', 'Rt', 'T']);
            const call = pending(ctx, 'call_cycles_add128');
            const amount = (BigInt.asUintN(64, high) << 64n) | BigInt.asUintN(64, low);
            if (amount > ctx.cyclesBalance)
                throw new CanisterTrap('ic0.call_cycles_add128: insufficient cycles balance');
            ctx.cyclesBalance -= amount;
            call.cycles += amount;
        },
        call_with_best_effort_response: (timeoutSeconds: number): void => {
            const call = pending(enter('call_with_best_effort_response', CALLERS), 'call_with_best_effort_response');
            if (call.timeoutSeconds !== undefined)
                throw new ContractViolation('ic0.call_with_best_effort_response: timeout already set');
            call.timeoutSeconds = Math.min(timeoutSeconds >>> 0, 300);
        },
        call_perform: (): number => {
            const ctx = enter('call_perform', CALLERS);
            const call = pending(ctx, 'call_perform');
            ctx.pendingCall = undefined;
            const { argParts, argSize, ...rest } = call;
            ctx.calls.push({ ...rest, arg: concatBytes(argParts, argSize) });
            return 0;
        },
        cost_call: (methodNameSize: bigint, payloadSize: bigint, dst: number): void => {
            enter('cost_call', ALL);
            // The IC's fee for an inter-canister call: a base fee plus a fee per transmitted byte.
            write128(dst, 260_000n + 1_000n * (BigInt.asUintN(64, methodNameSize) + BigInt.asUintN(64, payloadSize)));
        },
        stable_size: (): number => {
            enter('stable_size', ANY_AND_START);
            const size = h.stable().size();
            if (size > 65535n) throw new CanisterTrap('32-bit stable memory api used on a memory larger than 4GB');
            return Number(size);
        },
        stable_grow: (pages: number): number => {
            enter('stable_grow', ANY_AND_START);
            const stableMem = h.stable();
            if (stableMem.size() + BigInt(pages >>> 0) > 65536n) return -1;
            return Number(stableMem.grow(BigInt(pages >>> 0)));
        },
        stable_write: (offset: number, src: number, size: number): void => {
            enter('stable_write', ANY_AND_START, size >>> 0);
            writeStable(BigInt(offset >>> 0), src >>> 0, size >>> 0);
        },
        stable_read: (dst: number, offset: number, size: number): void => {
            enter('stable_read', ANY_AND_START, size >>> 0);
            readStable(dst >>> 0, BigInt(offset >>> 0), size >>> 0);
        },
        stable64_size: (): bigint => (enter('stable64_size', ANY_AND_START), h.stable().size()),
        stable64_grow: (pages: bigint): bigint => (
            enter('stable64_grow', ANY_AND_START),
            h.stable().grow(BigInt.asUintN(64, pages))
        ),
        stable64_write: (offset: bigint, src: bigint, size: bigint): void => {
            const n = toIndex(size);
            enter('stable64_write', ANY_AND_START, n, STABLE64_WRITE);
            writeStable(offset >= 0n ? offset : BigInt.asUintN(64, offset), toIndex(src), n);
        },
        stable64_read: (dst: bigint, offset: bigint, size: bigint): void => {
            const n = toIndex(size);
            enter('stable64_read', ANY_AND_START, n, STABLE64_READ);
            readStable(toIndex(dst), offset >= 0n ? offset : BigInt.asUintN(64, offset), n);
        },
        certified_data_set: (src: number, size: number): void => {
            const ctx = enter('certified_data_set', ['I', 'G', 'U', 'Ry', 'Rt', 'T'], size >>> 0);
            if (size >>> 0 > 32)
                throw new CanisterTrap(
                    'ic0_certified_data_set failed because the passed data must be no larger than 32 bytes.',
                );
            ctx.certifiedData = slice(src >>> 0, size >>> 0);
        },
        data_certificate_present: (): number => (enter('data_certificate_present', ALL).dataCertificate ? 1 : 0),
        data_certificate_size: (): number => certificateOf(enter('data_certificate_size', ['NRQ'])).length,
        data_certificate_copy: (dst: number, offset: number, size: number): void => {
            const ctx = enter('data_certificate_copy', ['NRQ'], size >>> 0);
            copyOut('data_certificate_copy', certificateOf(ctx), dst, offset, size);
        },
        time: (): bigint => enter('time', ALL).time,
        global_timer_set: (timestamp: bigint): bigint => {
            const ctx = enter('global_timer_set', ['I', 'G', 'U', 'Ry', 'Rt', 'C', 'T']);
            const previous = ctx.globalTimer;
            ctx.globalTimer = BigInt.asUintN(64, timestamp);
            ctx.globalTimerChanged = true;
            return previous;
        },
        performance_counter: (type: number): bigint => {
            const ctx = enter('performance_counter', ANY_AND_START);
            if (type === 0) return h.used();
            if (type === 1) return ctx.callContextInstructions + h.used();
            throw new CanisterTrap(`ic0.performance_counter: unknown counter type ${type}`);
        },
        is_controller: (src: number, size: number): number => {
            const ctx = enter('is_controller', ANY_AND_START, size >>> 0);
            if (size >>> 0 > 29) throw new CanisterTrap('ic0.is_controller: invalid principal');
            const principal = slice(src >>> 0, size >>> 0);
            return ctx.controllers.some((c) => bytesEqual(c, principal)) ? 1 : 0;
        },
        in_replicated_execution: (): number => (enter('in_replicated_execution', ANY_AND_START).kind === 'NRQ' ? 0 : 1),
        debug_print: (src: number, size: number): void => {
            const ctx = enter('debug_print', ANY_AND_START, size >>> 0);
            const mem = h.memory();
            const start = Math.min(src >>> 0, mem.length);
            ctx.log(new TextDecoder().decode(mem.subarray(start, Math.min(start + (size >>> 0), mem.length))));
        },
        trap: (src: number, size: number): never => {
            enter('trap', ANY_AND_START);
            const mem = h.memory();
            const start = Math.min(src >>> 0, mem.length);
            throw new CanisterTrap(
                new TextDecoder().decode(mem.subarray(start, Math.min(start + (size >>> 0), mem.length))),
            );
        },
    };

    let certificate: { ctx: ExecutionContext; bytes: Uint8Array } | undefined;
    function certificateOf(ctx: ExecutionContext): Uint8Array {
        if (ctx.dataCertificate === undefined)
            throw new ContractViolation('ic0.data_certificate: no certificate available');
        if (certificate?.ctx !== ctx) certificate = { ctx, bytes: ctx.dataCertificate() };
        return certificate.bytes;
    }

    function readStable(dst: number, offset: bigint, size: number): void {
        const mem = h.memory();
        if (dst + size > mem.length) throw new CanisterTrap('Heap out of bounds');
        // Straight into the heap: canisters read stable memory in many small pieces.
        try {
            h.stable().read(offset, size, mem, dst);
        } catch (e) {
            stableTrap(e);
        }
        h.markDirty(dst, dst + size);
    }

    /** Writes heap bytes [src, src + size) to stable memory at `offset` (copied there at once: no copy first). */
    function writeStable(offset: bigint, src: number, size: number): void {
        const mem = h.memory();
        if (src < 0 || size < 0 || src + size > mem.length) throw new CanisterTrap('Heap out of bounds');
        try {
            h.stable().write(offset, mem.subarray(src, src + size));
        } catch (e) {
            stableTrap(e);
        }
    }

    return api as unknown as Record<string, (...args: never[]) => unknown>;
}

function pending(ctx: ExecutionContext, name: string): NonNullable<ExecutionContext['pendingCall']> {
    if (ctx.pendingCall === undefined) throw new ContractViolation(`ic0.${name}: no call is under construction`);
    return ctx.pendingCall;
}

/** A stable memory access out of its bounds traps the canister; anything else is the host's failure. */
function stableTrap(e: unknown): never {
    throw e instanceof StableMemoryError ? new CanisterTrap(`Stable memory out of bounds`) : e;
}

/** An i64 argument as a heap index or size (a negative one reads as 2^64 + it: out of bounds). */
function toIndex(value: bigint): number {
    if (value < 0n || value > 0xffffffffn) throw new CanisterTrap('Heap out of bounds');
    return Number(value);
}

function describe(kind: ContextKind): string {
    const names: Record<ContextKind, string> = {
        I: 'init',
        G: 'pre upgrade',
        U: 'update',
        RQ: 'replicated query',
        NRQ: 'non-replicated query',
        Ry: 'reply callback',
        Rt: 'reject callback',
        C: 'cleanup',
        F: 'inspect message',
        T: 'system task',
        s: 'start',
    };
    return names[kind];
}
